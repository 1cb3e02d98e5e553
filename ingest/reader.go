package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	gamepkg "github.com/ponte/ponte/game"
)

// A Reader reads records from a stream of .ponte, JSON Lines, boardspace.net
// SGF or Abstract Play JSON text, plain or compressed with gzip or zstd. It detects the compression from the magic
// bytes and the format from the content (see [NewReader]), reads one record
// per call of [Reader.Read] and keeps in memory only the record being read.
type Reader struct {
	// Limits are the limits the reader reads within; NewReader sets the defaults. Change
	// them before the first Read; a zero field takes its default.
	Limits Limits

	lim     Limits // Limits, with the defaults, from the first Read
	src     io.Reader
	source  string
	lr      lineReader
	format  Format
	started bool
	err     error     // sticky: set once the reader cannot go on
	cur     io.Reader // what the line reader reads: src, or the decompressed text

	// The compressed streams under the text, outermost first (a zip entry, then the
	// members of a .gz inside it), whose parts are checked (parts.go); the records
	// held back until the parts they were read from passed (at most MaxUnchecked
	// bytes of them), and the error that ends the stream, returned once they are.
	layers     []*layer
	zstds      []*zstdParts
	transcoded bool // the text is transcoded (UTF-16): the line reader's buffer is not in the layer's bytes
	checkQ     []checkHeld
	checkBytes int64
	checkEnd   error
	checkEnded bool
	prevRead   int // the Index and Line of the last record read
	prevLine   int
	lastPassed int // the Index of the last record returned Unchecked
	index      int // records returned so far
	resume     int // offset in the pushed-back line where the next game starts

	notices     []*Notice // gathered until Notices collects them
	dropped     int       // notices beyond MaxNotices, counted
	droppedLine int
	budget      *budget // the limits of the zip entry being read, or nil
	bad         badUTF8 // text of the record being read that was not UTF-8
	tagSet      nameSet // the tag names of the record being read

	fr formatReader // the reader of the stream's format, once detected

	// Objects that are no game records, held back until a game record shows
	// that the file is an archive (they are errors then) or the file ends
	// without one (they are one notice then).
	sawRecord bool
	held      []held // at most maxHeld
	heldMore  int    // more, counted
	heldLast  int    // the line of the last one
	queue     []held // records to return before reading on

	pool *recordPool // the records given back by Release
}

// NewReader returns a Reader that reads records from r. The source names r
// in records and errors: a file path, or "-" for standard input.
//
// The format is detected from the first non-blank line (after any UTF-8 byte
// order marks; its first 64 KiB are enough): '(' starts a boardspace.net file of SGF game trees;
// '[' followed by '{', ']' or the end of the line (a JSON array), '{' alone
// on its line (a pretty-printed JSON document) or '{' followed by the key
// "header" and an object start an Abstract Play export; '[' (a tag), ';' (a comment), a
// turn number "1.", a result token or an unnumbered first turn ("d4,e5",
// "d4-f5") start a .ponte file, which may thus hold movetext only; '{'
// followed by another JSON key and ':' (or by '}') starts a JSON Lines file,
// '{' followed by other text a .ponte comment. Content in no format makes
// Read return an error wrapping [ErrFormat]. A stream starting with the gzip or zstd magic bytes is
// decompressed first; a zip archive is only read from a file, by [Open].
//
// What a reader skips on purpose is not returned by Read but kept as a
// [*Notice] for [Reader.Notices], and so is text that is not UTF-8 in a tag
// name or value, a turn token, a comment or a JSON string: its bad bytes are
// replaced by U+FFFD (a boardspace.net file is read as ISO 8859-1 instead).
//
// # Limits
//
// A record is bounded (docs/limits.md): its text by [Limits.MaxRecordBytes], its
// turns by [Limits.MaxTurns], its tags by [Limits.MaxTags], its comments by
// [Limits.MaxCommentBytes]. Past one of them the record is a *ParseError wrapping
// [ErrTooLarge] where the limit was crossed; the reader reads on to the end
// of the record without keeping its text and goes on with the next. A line
// is bounded by [MaxLineLength]; a longer one (or, in .ponte and JSON Lines,
// one longer than MaxRecordBytes) is cut there and the rest of it passed
// over. A written turn number 0, which no turn has, is an error wrapping
// [ErrSyntax]. Every reader takes time linear in its input.
//
// # Boardspace
//
// A boardspace.net file (docs/formats/boardspace.md) holds game trees "( ... )"
// one after another; each tree of GM[PonteDelDiavolo] is one record (the
// same game twice is two records: the store tells them apart by content).
// A tree of another game, or without GM in its first node, is skipped with a
// notice, as is any text between trees. The moves of both dialects are
// replayed as they are read (the default orientation of a bridge dropped
// without BridgeEnd depends on the position) and become one token per turn
// in the project's notation, at the line and column of the P0/P1 property
// of the turn's first move; Token.Millis is the turn's think time from the
// seat's cumulative TM clock. The record has Size 10, Supply 40/15 and these
// tags:
//   - Site "boardspace.net", GameId the GN, Date from DT when it reads as
//     a date (Java's "Sat Mar 07 14:02:11 CET 2026", or YYYY.MM.DD,
//     YYYY-MM-DD, YYYY/MM/DD), else from the YYYY-MM-DD-HHMM end of GN;
//   - Light and Dark the players by their final colours (P0 opens as
//     Light; after a Swap P1 is Light), Opener the P0 player;
//   - Result and Termination "resign" when a seat resigned (the other
//     side's colour wins, as the record says); nothing is claimed for
//     GameOver: the replay decides;
//   - SeatP0 and SeatP1 the players by seat, SourceDate the DT text,
//     SourceResult the RE text (a sentence in any language, never
//     trusted), TimeControl the TC, ClockP0 and ClockP1 the final clocks
//     ("0:02:36").
//
// Tag values are made writable: line breaks become spaces and text that is
// not UTF-8 is read as ISO 8859-1. A turn is committed by its Done, or when
// the other seat moves after a complete turn; an unfinished turn before
// GameOver, Resign or the end of the tree is dropped, and a Done after them
// is ignored. The seats must alternate turn by turn, P0 first, and tiles
// must be of the mover's colour (White_Chip_Pool and W for Light). A bridge
// is written from its anchor ("e5-g4"). When no offset gives a
// legal bridge from the anchor of a bridge dropped without BridgeEnd (or the
// position is not known, after an illegal turn), the token is that of the
// first offset in table order whose end is on the board, with a comment
// saying so, and the replay reports the rule at that turn; when no offset
// ends on the board the record is a *ParseError. A move that cannot be read
// and a sequence that makes no sense are *ParseErrors wrapping [ErrMove]
// ([ErrSyntax] for malformed SGF); illegal moves are not: the replay
// judges them.
//
// # Abstract Play
//
// An Abstract Play file (docs/formats/abstractplay.md) holds one JSON record, an
// array of them (a player's export, mixing every game they played), or
// several one after another; each is read on its own, so an array may be of
// any size, but one record may not exceed [Limits.MaxDocument]. A record of another
// game (by header.game.name, unless site.gameid starts "pontedd#") is
// skipped with a notice.
//
// The moves are the entries of the rounds in order: strings, or the "move"
// of objects; a null entry (that seat did not move) is passed over. When
// "pied" (or "pie-invoked", the key of earlier exports) is true, a "swap"
// follows the first move, at the position of that value. The entries
// "resign", "timeout", "draw" and "abandoned" are not turns: they end the
// record (a move after one is an error wrapping [ErrMove]) and set the
// Termination tag (resign, time, agreement, abandoned). The players are in
// seating order at the end of the game: Light is players[0], Dark
// players[1], and after a pie the opener is players[1].
//
// The record's claims are the players' values: Result from their "result"
// numbers (the higher won; equal is a draw) or, when those are absent, from
// the terminal entry (its seat loses a resign or timeout; a draw is
// 1/2-1/2); Score "L-D" from their "score" values. A claim that cannot be
// read, or that contradicts the terminal entry, is a slip in
// [Record.TagErrors] (wrapping [ErrTagValue]) and is not claimed; so is a
// date-start that is not an ISO date.
//
// The record has Size 10, 8 or 12 (the variants "size-8", "8x8 board",
// "size-12", "12x12 board"; "Default board", "#board" and "10x10 board" are
// 10; any NxN board or size-N from 5 to 26 is read), Supply unlimited and
// the tags Site, GameId (site.gameid), Date (from date-start), Event and
// Round (tournament games), Light, Dark, Opener, Size, Supply, Termination,
// Result, Score, Variant (the other variants, joined by ","), LightUserId,
// DarkUserId, LightIsAI and DarkIsAI (a bot: "true"), Unrated, any other
// key of a player as Light or Dark followed by the key with its first
// letter upper-cased, and any other key of the header under its own name
// ("date-end", "date-generated"). Errors are *ParseErrors wrapping
// [ErrJSON] ([ErrTagValue] for a board size that cannot be told,
// [ErrTooLarge] for a record over MaxDocument); a broken array ends the
// stream with an error wrapping ErrJSON once its records are read.
func NewReader(r io.Reader, source string) *Reader {
	return &Reader{Limits: DefaultLimits(), src: r, source: source}
}

// Format returns the format of the stream, detecting it if no record has
// been read yet (which reads the first lines). It is FormatUnknown for empty
// or unrecognised content.
func (r *Reader) Format() Format {
	r.start()
	return r.format
}

// held is a record and its error, held back.
type held struct {
	rec *Record
	err error
}

// maxHeld bounds the objects that are no game records held back at the start of a file.
const maxHeld = 64

// Read reads the next record. It returns io.EOF after the last one.
//
// From compressed text (gzip, zstd, a zip entry), a record is returned only once every
// part it was read from passed its check (a gzip member's CRC-32, a zstd frame's
// checksum, a zip entry's CRC-32), or when the records held back for that exceed
// [Limits.MaxUnchecked] bytes: then it is marked [Record.Unchecked]. A part that fails its check
// ends the stream with a [*DamagedError], and none of the records read from that part
// is returned after it. The record is the
// caller's to keep; a caller done with it may give it back ([Record.Release]) for a
// later Read to fill again, without allocating. A record
// that cannot be read is returned together with a [*ParseError]: the record
// holds what could be read of it (always Source, Format, Index, Line and
// Raw), and the next call of Read goes on with the next record. Any other
// error (a read error of the underlying reader, a corrupt compressed stream,
// [ErrFormat]) ends the stream: Read returns it again on every later call.
//
// JSON objects that are no game records ([ErrNotRecord]) at the start of a
// file are held back: when a game record follows, they are returned as errors
// before it (past 64 of them, the rest as one error that counts them); when
// the file ends first, the file holds no game record at all, and they are one
// [*Notice] instead.
func (r *Reader) Read() (*Record, error) {
	r.start()
	if len(r.layers) == 0 {
		return r.readNext()
	}
	return r.readChecked()
}

// readNext reads the next record, whatever the parts it comes from.
func (r *Reader) readNext() (*Record, error) {
	if len(r.queue) > 0 {
		h := r.queue[0]
		r.queue = r.queue[1:]
		return h.rec, h.err
	}
	for {
		rec, err := r.readOne()
		if !r.sawRecord && errors.Is(err, ErrNotRecord) {
			if len(r.held) < maxHeld {
				r.held = append(r.held, held{rec, err})
			} else {
				r.heldMore++
			}
			r.heldLast = rec.Line
			continue
		}
		if len(r.held) == 0 {
			if rec != nil {
				r.sawRecord = true
			}
			return rec, err
		}
		first := r.held[0].rec
		if rec == nil { // the end, or a fatal error: no game record in the file
			n := len(r.held) + r.heldMore
			r.notice(first.Line, 1, "no game record in this file: "+strconv.Itoa(n)+" JSON "+
				plural(n, "object", "objects")+" without \"moves\" ("+linesText(first.Line, r.heldLast)+") passed over")
			r.held, r.heldMore = nil, 0
			return rec, err
		}
		r.sawRecord = true
		r.queue = append(r.queue, r.held...)
		if r.heldMore > 0 {
			last := r.held[len(r.held)-1].rec
			more := &Record{Source: r.source, Format: r.format, Index: last.Index + 1, Line: last.Line + 1, Size: 10, Supply: gamepkg.Unlimited}
			pe := r.parseError(more, more.Line, 1, ErrNotRecord,
				strconv.Itoa(r.heldMore)+" more JSON objects without \"moves\", to line "+strconv.Itoa(r.heldLast)+": not game records")
			more.Raw = []byte(pe.Error())
			r.queue = append(r.queue, held{more, pe})
		}
		r.queue = append(r.queue, held{rec, err})
		r.held, r.heldMore = nil, 0
		h := r.queue[0]
		r.queue = r.queue[1:]
		return h.rec, h.err
	}
}

// linesText is "line A" or "lines A to B".
func linesText(a, b int) string {
	if a == b {
		return "line " + strconv.Itoa(a)
	}
	return "lines " + strconv.Itoa(a) + " to " + strconv.Itoa(b)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readOne reads the next record of the stream's format.
func (r *Reader) readOne() (*Record, error) {
	r.start()
	if r.err != nil {
		return nil, r.err
	}
	var rec *Record
	var err error
	if r.fr == nil {
		r.fr = newFormatReader(r)
	}
	if r.fr != nil {
		rec, err = r.fr.read()
	} else {
		err = io.EOF
	}
	if rec == nil {
		if err == io.EOF && r.lr.err != nil && r.lr.err != io.EOF {
			err = r.lr.err
		}
		r.err = err
		r.closeDecoder()
	}
	return rec, err
}

// start detects the compression and the format, once.
func (r *Reader) start() {
	if r.started {
		return
	}
	r.started = true
	r.lim = r.Limits.OrDefault()
	r.cur = r.src
	r.lr.reset(r.cur)
	var outer *layer
	if len(r.layers) > 0 {
		outer = r.layers[len(r.layers)-1]
	}
	for depth := 0; ; depth++ {
		magic := r.lr.peek(4)
		var next io.Reader
		var l *layer
		switch {
		case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
			g := newGzipParts(r.rest(), outer)
			next, l = g, &g.layer
		case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
			z := newZstdParts(r.rest(), outer)
			r.zstds = append(r.zstds, z)
			next, l = z, &z.layer
		case bytes.HasPrefix(magic, []byte("PK\x03\x04")) || bytes.HasPrefix(magic, []byte("PK\x05\x06")):
			if outer != nil {
				r.err = fmt.Errorf("%w: a zip archive inside the %s: unpack it first", ErrFormat, outer.partName())
			} else {
				r.err = fmt.Errorf("%w: a zip archive cannot be read from a pipe or standard input: give its file name", ErrFormat)
			}
			return
		}
		if next == nil {
			break
		}
		if depth == maxNesting {
			r.err = fmt.Errorf("%w: more than %d compressed streams inside one another (%s): not read", ErrTooLarge, maxNesting, l.partName())
			return
		}
		r.layers = append(r.layers, l)
		outer = l
		r.cur = r.limit(next)
		r.lr.reset(r.cur)
	}
	if t := utf16Text(r.lr.peek(2)); t != nil {
		r.cur = t(r.rest())
		r.transcoded = true
		r.lr.reset(r.cur)
	} else if head := r.lr.peek(16); utf16Like(head[:min(len(head), 16)]) {
		head = head[:min(len(head), 16)]
		r.err = fmt.Errorf("%w: the text starts with %s: UTF-16 without a byte order mark: convert it to UTF-8 (or save it as UTF-16 with one)",
			ErrFormat, quote(string(head)))
		return
	}
	// The format is told from the start of the first non-blank line, looked at without
	// reading it: the format's reader reads it, within its own limits (a line longer
	// than MaxLineLength, or than a record of .ponte or JSON Lines, is one unreadable
	// record, and the records after it are read).
	for {
		line, whole, ok := r.lr.peekLine(detectWindow)
		if !ok {
			if r.lr.err != io.EOF {
				r.err = r.lr.err
			}
			return // empty: no records
		}
		if skipSpace(line, 0) == len(line) {
			full, ok := r.lr.next()
			if !ok || whole || skipSpace(full, 0) == len(full) {
				continue // (after the end or an error, peekLine says so)
			}
			// Blanks longer than the window, then text: the line is read here.
			line = full
			r.lr.unread()
		}
		r.format = detectFormat(line)
		if r.format == FormatAbstractPlay && whole && emptyArray(line) {
			// An empty array says nothing of the file: the line after it does, when
			// it is of another format (a JSON Lines file whose first line is "[]").
			if f := r.detectAfter(len(line)); f != FormatUnknown {
				r.format = f
			}
		}
		if r.format == FormatUnknown {
			head := line[skipSpace(line, 0):]
			if len(head) > 24 {
				head = head[:24]
			}
			r.err = fmt.Errorf("%w: line %d starts with %s", ErrFormat, r.lr.num+1, quote(string(head)))
			return
		}
		if r.format == FormatPonte || r.format == FormatJSONL {
			// Their lines are cut at the record limit, so that the rest of a longer line
			// is passed over, not buffered.
			r.lr.max = min(MaxLineLength, max(r.lim.MaxRecordBytes, 1))
		}
		return
	}
}

// emptyArray reports whether line is an empty JSON array and nothing else.
func emptyArray(line []byte) bool {
	i := skipSpace(line, 0)
	if i == len(line) || line[i] != '[' {
		return false
	}
	i = skipSpace(line, i+1)
	return i < len(line) && line[i] == ']' && skipSpace(line, i+1) == len(line)
}

// detectAfter tells the format from the first line after the next one (of n bytes)
// that is neither blank nor an empty array, within detectWindow bytes of the input,
// without reading them; it is FormatUnknown when no such line is there.
func (r *Reader) detectAfter(n int) Format {
	b := r.lr.peek(n + detectWindow)
	b = b[min(len(b), n):]
	for len(b) > 0 {
		// Past the line end (\n, \r\n, \r) and the byte order marks.
		for len(b) > 0 && (b[0] == '\n' || b[0] == '\r') {
			b = b[1:]
		}
		for bytes.HasPrefix(b, bom) {
			b = b[len(bom):]
		}
		k := bytes.IndexAny(b, "\r\n")
		if k < 0 {
			if r.lr.err == nil {
				return FormatUnknown // the line goes on past the window
			}
			k = len(b)
		}
		line := b[:k]
		b = b[k:]
		if skipSpace(line, 0) == len(line) || emptyArray(line) {
			continue
		}
		return detectFormat(line)
	}
	return FormatUnknown
}

// detectWindow is the most bytes of the first line that format detection looks at.
const detectWindow = 64 << 10

// limit puts the decompressed stream of a zip entry under the entry's limits.
func (r *Reader) limit(d io.Reader) io.Reader {
	if r.budget == nil {
		return d
	}
	return &limitReader{r: d, b: r.budget}
}

// rest returns a reader of the whole stream, the bytes already buffered
// first.
func (r *Reader) rest() io.Reader {
	head := bytes.Clone(r.lr.buf[r.lr.pos:r.lr.end])
	if r.lr.err != nil {
		if r.lr.err == io.EOF {
			return bytes.NewReader(head)
		}
		return io.MultiReader(bytes.NewReader(head), errReader{r.lr.err})
	}
	return io.MultiReader(bytes.NewReader(head), r.cur)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (r *Reader) closeDecoder() {
	for _, z := range r.zstds {
		z.close()
	}
}

// parseError returns a *ParseError of the record being read.
func (r *Reader) parseError(rec *Record, line, col int, kind error, msg string) *ParseError {
	return &ParseError{Source: r.source, Game: rec.Index, StartLine: rec.Line,
		Line: line, Column: col, Err: &detail{kind, msg}}
}

// keepRaw appends b and a line end to raw, within MaxRaw bytes.
func keepRaw(raw, b []byte) []byte {
	if room := MaxRaw - len(raw); room > 0 {
		if len(b) >= room {
			return append(raw, b[:room]...)
		}
		raw = append(raw, b...)
		raw = append(raw, '\n')
	}
	return raw
}

// The messages of the limits of one record, with the flag of ponte that sets each.

func (l *Limits) recordTooLarge() string {
	return "record longer than " + sizeText(l.MaxRecordBytes) + " (--max-record-bytes)"
}

func (l *Limits) tooManyTurns() string {
	return "more than " + strconv.Itoa(l.MaxTurns) + " turns in one record (--max-turns)"
}

func (l *Limits) tooManyTags() string {
	return "more than " + strconv.Itoa(l.MaxTags) + " tags in one record (--max-tags)"
}

func (l *Limits) commentsTooLong() string {
	return "comments longer than " + sizeText(l.MaxCommentBytes) + " in one record (--max-comment-bytes)"
}

// longLine returns the column, kind and message of the error of a line that the line
// reader cut: past the record limit when it is the smaller (a line of .ponte or JSON
// Lines is cut there), else past MaxLineLength. before is the bytes of the record before
// the line, off where the record starts in the line.
func (l *Limits) longLine(before, off int) (col int, kind error, msg string) {
	if l.MaxRecordBytes < MaxLineLength {
		return max(off+l.MaxRecordBytes-before, 0) + 1, ErrTooLarge, l.recordTooLarge()
	}
	return MaxLineLength + 1, ErrLineTooLong, "line longer than " + strconv.Itoa(MaxLineLength) + " bytes"
}

// sizeText writes a number of bytes for a message: "1 MiB", "64 KiB", "1000 bytes".
func sizeText(n int) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// nameSet finds a name among the tags of the record being read in constant time, so
// that a tag given twice is found in time linear in the record: while the tags are few
// (the usual dozen) it scans them, as that costs nothing; past smallSet it indexes them
// in a map, catching up with the tags added since it last looked. The tags it is asked
// about must have distinct names and only grow, until reset.
type nameSet struct {
	m map[string]struct{}
	n int // the tags in m
	// probes counts the names compared and the map's lookups and insertions, across
	// resets: the work of has, which TestHostileLinearTime checks is linear.
	probes int
}

const smallSet = 16

// reset forgets the tags, for the next record, keeping the map unless it grew large.
func (s *nameSet) reset() {
	if s.n > 0 {
		if s.n > 1024 {
			s.m = nil
		} else {
			clear(s.m)
		}
		s.n = 0
	}
}

// has reports whether one of tags is named name.
func (s *nameSet) has(tags []Tag, name string) bool {
	if len(tags) <= smallSet {
		for i := range tags {
			s.probes++
			if tags[i].Name == name {
				return true
			}
		}
		return false
	}
	if s.m == nil {
		s.m = make(map[string]struct{}, max(2*len(tags), cap(tags)))
	}
	for ; s.n < len(tags); s.n++ {
		s.m[tags[s.n].Name] = struct{}{}
		s.probes++
	}
	s.probes++
	_, ok := s.m[name]
	return ok
}

// badUTF8 is the first text of the record being read that was not UTF-8, and how many
// more there were: a notice when the record ends.
type badUTF8 struct {
	line, col int // 0 when none
	what      string
	more      int
}

// validText returns s with each run of bytes that is not UTF-8 replaced by U+FFFD.
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// firstInvalid returns the offset of the first byte of s that is not UTF-8, or -1.
func firstInvalid(s string) int {
	for i, c := range s {
		if c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return i
		}
	}
	return -1
}

// replaced notes that text of the record being read (what: "the value of tag Light")
// was not UTF-8 and had its bad bytes replaced by U+FFFD; line and col are where the
// first bad byte stood.
func (r *Reader) replaced(line, col int, what string) {
	if r.bad.line == 0 {
		r.bad = badUTF8{line: line, col: col, what: what}
		return
	}
	r.bad.more++
}

// noteReplaced makes a notice of the texts of the record just read that were not UTF-8.
func (r *Reader) noteReplaced() {
	b := r.bad
	if b.line == 0 {
		return
	}
	r.bad = badUTF8{}
	msg := "invalid UTF-8 in " + b.what + " replaced by U+FFFD"
	if b.more > 0 {
		msg += " (and in " + strconv.Itoa(b.more) + " more " + plural(b.more, "text", "texts") + " of this record)"
	}
	r.notice(b.line, b.col, msg)
}
