package ingest

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	gamepkg "github.com/ponte/ponte/game"
)

// game is the state of the .ponte game being read.
// ponteReader reads .ponte records from the lines of its Reader (the formatReader of
// FormatPonte). Its fields are scratch space, reused from record to record.
type ponteReader struct {
	*Reader
	g      game
	tags   []Tag
	moves  []Token
	raw    []byte
	cbuf   []byte
	esc    []byte
	com    []byte // the comments of one turn, joined
	comStr string // or the one comment of the turn, when there is one
	comAt  int    // the turn they belong to (-1: the record)
	// badLine says that the line being read is not UTF-8 as a whole.
	badLine bool
	// noPlainSkip turns the fast path of plainMovetext off, for the tests that compare it
	// with scanning the lines.
	noPlainSkip bool
}

type game struct {
	rec       *Record
	err       *ParseError // first error of the game
	content   bool        // a tag, turn number, turn or result token was read
	started   bool        // a non-blank line of the game was seen (raw text is kept from it)
	hasTags   bool
	tagsEnded bool // a blank line followed the tags
	sawMoves  bool // movetext was read
	done      bool // the result token was read
	resultTag string

	pendNum         bool // a turn number waits for its turn
	num             int  // its value
	numLine, numCol int
	inComment       bool // inside a { } comment that spans lines
	cLine, cCol     int
	cbufBad         bool // the comment that spans lines holds text that is not UTF-8

	bytes    int  // bytes of the record's lines so far
	over     bool // a limit was crossed: the rest of the record is read to its end, not kept
	ntags    int  // tags read
	comments int  // bytes of comment text kept
}

// read reads the next .ponte game.
//
// A game ends before a tag line that follows its movetext (or a blank line
// after its tags), at the end of the line of its result token (comments that
// follow the result token on that line, even when they span lines, belong to
// it; anything else starts the next game), or at the end of the input. A game
// with an error is read to that same end, so that the next game is found.
func (r *ponteReader) read() (*Record, error) {
	g := &r.g
	if r.pool == nil {
		r.pool = new(recordPool)
	}
	*g = game{rec: r.pool.take(r.source, FormatPonte)}
	r.tags, r.moves, r.raw = r.tags[:0], r.moves[:0], r.raw[:0]
	r.tagSet.reset()
	r.com, r.comStr, r.comAt = r.com[:0], "", -1
	r.bad = badUTF8{}
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				return nil, r.lr.err
			}
			if g.inComment {
				r.fail(g.cLine, g.cCol, ErrSyntax, "comment not closed: '}' missing")
			}
			if !g.content && g.err == nil {
				return nil, io.EOF
			}
			return r.endGame()
		}
		off := r.resume
		r.resume = 0
		if r.scanLine(line, off) {
			return r.endGame()
		}
	}
}

// endGame finishes the game being read.
func (r *ponteReader) endGame() (*Record, error) {
	g := &r.g
	if g.pendNum {
		r.fail(g.numLine, g.numCol, ErrSyntax, "turn number without a turn")
	}
	rec := g.rec
	if rec.Index == 0 {
		rec.Index = r.index + 1
	}
	r.index = rec.Index
	r.flushComment()
	r.noteReplaced()
	rec.Tags = fill(rec.tagBuf, r.tags)
	rec.Moves = fill(rec.moveBuf, r.moves)
	rec.tagBuf, rec.moveBuf = rec.Tags, rec.Moves
	rec.finishTermination()
	if g.err != nil {
		rec.Raw = append(rec.rawBuf[:0], r.raw...)
		if rec.Raw == nil {
			rec.Raw = []byte{}
		}
		rec.rawBuf = rec.Raw
		return rec, g.err
	}
	return rec, nil
}

// begin marks the record as started at line ln.
func (r *ponteReader) begin(ln int) {
	if rec := r.g.rec; rec.Index == 0 {
		rec.Index = r.index + 1
		rec.Line = ln
	}
}

// failing reports whether an error would be kept: only the first of a game is.
func (r *ponteReader) failing() bool { return r.g.err == nil }

// fail records an error of the game, if it is the first.
func (r *ponteReader) fail(line, col int, kind error, msg string) {
	if r.g.err == nil {
		r.begin(line)
		r.g.err = r.parseError(r.g.rec, line, col, kind, msg)
	}
}

// overLimit records that the game crossed a limit at line, col: an error wrapping
// ErrTooLarge; the rest of the game is read to its end without being kept.
func (r *ponteReader) overLimit(line, col int, msg string) {
	r.fail(line, col, ErrTooLarge, msg)
	r.g.over = true
}

// badIn reports whether s, read at line ln from column col, is not UTF-8; if so it
// notes it (what it is: "a comment").
func (r *ponteReader) badIn(s string, ln, col int, what string) bool {
	if !r.badLine {
		return false
	}
	k := firstInvalid(s)
	if k < 0 {
		return false
	}
	r.replaced(ln, col+k, what)
	return true
}

// pushback ends the game at byte i of the current line: the rest of the line
// is read again as the start of the next game.
func (r *ponteReader) pushback(i, off, mark int) {
	r.lr.unread()
	r.resume = i
	if n := mark + i - off; n < len(r.raw) {
		r.raw = r.raw[:n]
	}
}

// scanLine reads one line from byte off; it reports whether the game ends
// with it.
func (r *ponteReader) scanLine(line []byte, off int) bool {
	g := &r.g
	ln := r.lr.num
	if r.lr.long {
		// A line cut by the line reader: too long for a record (or for any line). What
		// follows it is read on: a tag line after it starts the next game.
		before := g.bytes
		if g.started {
			before++ // the line end before the line
		}
		g.started = true
		r.raw = keepRaw(r.raw, line[off:])
		col, kind, msg := r.lim.longLine(before, off)
		r.fail(ln, col, kind, msg)
		g.over = true
		if j := skipSpace(line, off); j == len(line) || line[j] != '[' {
			g.sawMoves = true
		}
		return false
	}
	blank := skipSpace(line, off) == len(line)
	if blank && !g.inComment {
		if off == 0 && g.hasTags && !g.sawMoves {
			g.tagsEnded = true
		}
		if g.started {
			r.raw = keepRaw(r.raw, nil)
			r.countBytes(line, off, ln)
		}
		return false
	}
	if !g.over {
		// The line, from off, and the line end before it: inline, as it is done for
		// every line.
		n := len(line) - off
		if g.started {
			n++
		}
		if g.bytes+n <= r.lim.MaxRecordBytes {
			g.bytes += n
		} else {
			r.countBytes(line, off, ln)
		}
	}
	// Only a line that is not UTF-8 as a whole has its texts checked one by one.
	r.badLine = !g.over && r.lr.high && !utf8.Valid(line[off:])
	mark := len(r.raw)
	g.started = true
	r.raw = keepRaw(r.raw, line[off:])
	i := off
	if g.over && !g.inComment && !g.done && !r.noPlainSkip && plainMovetext(line[off:]) {
		// Nothing on it can end the game, and nothing is kept: it is movetext.
		if !g.content {
			r.begin(ln)
			g.content = true
		}
		g.sawMoves = true
		return false
	}
	if g.inComment {
		k := bytes.IndexByte(line[i:], '}')
		if k < 0 {
			if looksLikeTag(line) {
				// The comment was never closed: the tag starts the next game.
				r.fail(g.cLine, g.cCol, ErrSyntax, "comment not closed: '}' missing")
				g.inComment = false
				r.pushback(0, off, mark)
				return true
			}
			r.commentLine(line[i:], ln, i, true)
			return false
		}
		r.commentLine(line[i:i+k], ln, i, true)
		g.inComment = false
		if !g.over {
			r.addComment(string(r.cbuf), g.cLine, g.cCol, g.cbufBad)
		}
		i += k + 1
	}
	j := skipSpace(line, i)
	if j == len(line) {
		return g.done
	}
	if line[j] == '[' && !g.done {
		// A tag line: parsed on bytes, without making a string of the line.
		if g.sawMoves || g.tagsEnded {
			r.pushback(j, off, mark) // a new tag section: the next game
			return true
		}
		if j = r.parseTags(line, j, ln); j == len(line) {
			return false
		}
	}
	var s string
	if g.over {
		// Nothing of the line is kept: it is read in place.
		s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		s = g.rec.keepText(line)
	}
	return r.scanMovetext(line, s, j, ln, off, mark)
}

// countBytes adds the line, from byte off, to the bytes of the game (with the line end
// before it, if the game has started), and reports a game that has become too large.
func (r *ponteReader) countBytes(line []byte, off, ln int) {
	g := &r.g
	if g.over {
		return
	}
	n := len(line) - off
	if g.started {
		g.bytes++
	}
	if g.bytes+n > r.lim.MaxRecordBytes {
		r.overLimit(ln, off+max(r.lim.MaxRecordBytes-g.bytes, 0)+1, r.lim.recordTooLarge())
		return
	}
	g.bytes += n
}

// plainMovetext reports whether b, a line of movetext, holds nothing that could end a
// game: no tag, no comment, no result token. It looks for the bytes that start them
// with bytes.IndexByte, so that the rest of a game too large to keep is passed over
// fast.
func plainMovetext(b []byte) bool {
	if j := skipSpace(b, 0); j < len(b) && b[j] == '[' {
		return false
	}
	for _, c := range []byte{'{', ';', '*', '/'} {
		if bytes.IndexByte(b, c) >= 0 {
			return false
		}
	}
	// 1-0 and 0-1, as words, or after a turn number ("7.1-0").
	for k := 0; ; k++ {
		d := bytes.IndexByte(b[k:], '-')
		if d < 0 {
			return true
		}
		k += d
		if k >= 1 && k+1 < len(b) && (b[k-1] == '0' || b[k-1] == '1') && (b[k+1] == '0' || b[k+1] == '1') &&
			(k == 1 || isDelim(b[k-2]) || b[k-2] == '.') && (k+2 == len(b) || isDelim(b[k+2])) {
			return false
		}
	}
}

// commentLine adds part, read at line ln from byte i, to the comment that spans lines
// (after a line break unless first), within the limit of the record's comments.
func (r *ponteReader) commentLine(part []byte, ln, i int, more bool) {
	g := &r.g
	if !more {
		r.cbuf, g.cbufBad = r.cbuf[:0], false
	}
	if g.over {
		return
	}
	if room := r.lim.MaxCommentBytes - g.comments - len(r.cbuf); len(part)+1 > room {
		r.overLimit(ln, i+max(room, 1), r.lim.commentsTooLong())
		return
	}
	if more {
		r.cbuf = append(r.cbuf, '\n')
	}
	r.cbuf = append(r.cbuf, part...)
	if r.badLine && !g.cbufBad {
		if k := firstInvalid(string(part)); k >= 0 {
			r.replaced(ln, i+k+1, "a comment")
			g.cbufBad = true
		}
	}
}

// scanMovetext reads the words of line s (a string of line) from byte i.
func (r *ponteReader) scanMovetext(line []byte, s string, i, ln, off, mark int) bool {
	g := &r.g
	lineTokens := 0
	// The turns are appended to a local slice, stored back before anything
	// that reads r.moves.
	moves := r.moves
	defer func() { r.moves = moves }()
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return g.done
		}
		c := s[i]
		switch c {
		case '{':
			k := strings.IndexByte(s[i+1:], '}')
			if k < 0 {
				g.inComment, g.cLine, g.cCol = true, ln, i+1
				r.commentLine(line[i+1:], ln, i+1, false)
				return false
			}
			if !g.over {
				r.moves = moves
				c := s[i+1 : i+1+k]
				r.addComment(c, ln, i+1, r.badIn(c, ln, i+2, "a comment"))
			}
			i += k + 2
			continue
		case ';':
			if !g.over {
				r.moves = moves
				c := s[i+1:]
				r.addComment(c, ln, i+1, r.badIn(c, ln, i+2, "a comment"))
			}
			return g.done
		}
		if g.done {
			r.pushback(i, off, mark) // the next game starts here
			return true
		}
		switch c {
		case '}':
			r.fail(ln, i+1, ErrSyntax, "'}' without '{'")
			i++
			continue
		case '[':
			if lineTokens == 0 {
				if g.sawMoves || g.tagsEnded {
					r.pushback(i, off, mark) // a new tag section: the next game
					return true
				}
				i = r.parseTags(line, i, ln)
				continue
			}
			r.fail(ln, i+1, ErrSyntax, "'[' in movetext: a tag stands on its own line before the movetext")
			i = wordEnd(s, i)
			continue
		}
		lineTokens++
		if !g.content {
			r.begin(ln)
			g.content = true
		}
		g.sawMoves = true
		if c >= '0' && c <= '9' {
			k, n := i, 0
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				if n < 1e8 {
					n = n*10 + int(s[k]-'0')
				}
				k++
			}
			if k < len(s) && s[k] == '.' { // a turn number
				if g.pendNum {
					r.fail(g.numLine, g.numCol, ErrSyntax, "turn number without a turn")
				}
				// A wrong number is not the reader's business: the replay reports
				// it as R9 at its turn, after the rules that come first (R5.4, R1).
				// But 0 is no turn's number (Token.Number 0 means none was
				// written): it is malformed, like N.. below.
				if n == 0 {
					r.fail(ln, i+1, ErrSyntax, "turn number 0 written before turn "+strconv.Itoa(len(moves)+1)+": turns are numbered from 1")
				}
				g.pendNum, g.num, g.numLine, g.numCol = true, n, ln, i+1
				k++
				if k < len(s) && s[k] == '.' {
					r.fail(ln, k+1, ErrSyntax, "a turn number is written N. with one '.'")
					k = wordEnd(s, k)
				}
				i = k // a turn may follow without a blank: 7.d4,e5
				continue
			}
		}
		e := wordEnd(s, i)
		w := s[i:e]
		if isResult(w) {
			if g.pendNum {
				r.fail(g.numLine, g.numCol, ErrSyntax, "turn number without a turn")
				g.pendNum = false
			}
			if g.resultTag != "" && g.resultTag != w {
				// Which of the two is meant cannot be told: neither is claimed.
				r.begin(ln)
				g.rec.slip(r.parseError(g.rec, ln, i+1, ErrResultMismatch, "result token "+w+" differs from the Result tag "+quote(g.resultTag)+": no result is claimed"))
			}
			res, _ := gamepkg.ParseResult(w)
			g.rec.setResult(res)
			g.done = true
			i = e
			continue
		}
		a := e
		for a > i && (s[a-1] == '!' || s[a-1] == '?') {
			a--
		}
		text := s[i:a]
		switch {
		case e-a > 2:
			r.fail(ln, a+1, ErrSyntax, "annotation "+quote(s[a:e])+": must be one of ! ? !! ?? !? ?!")
		case text == "":
			r.fail(ln, i+1, ErrSyntax, "annotation "+quote(w)+" without a turn")
			i = e
			continue
		case a < e && isResult(text):
			r.fail(ln, a+1, ErrSyntax, "annotation on the result token")
		}
		if g.over || len(moves) >= r.lim.MaxTurns || r.badLine {
			// Rare: the game is past a limit, reaches one, or the line is not UTF-8.
			if !g.over && len(moves) >= r.lim.MaxTurns {
				r.moves = moves
				r.overLimit(ln, i+1, r.lim.tooManyTurns())
			}
			if g.over {
				g.pendNum = false
				i = e
				continue
			}
			if r.badIn(text, ln, i+1, "a turn token") {
				text = validText(text)
			}
		}
		tok := Token{Text: text, Line: ln, Col: i + 1}
		if g.pendNum {
			tok.Number, tok.NumberLine, tok.NumberCol = g.num, g.numLine, g.numCol
		}
		g.pendNum = false
		moves = append(moves, tok)
		i = e
	}
}

// wordEnd returns the end of the movetext word starting at i.
func wordEnd(s string, i int) int {
	for i < len(s) && class[s[i]]&clDelim == 0 {
		i++
	}
	return i
}

// parseTags reads the tags of line from byte i (a '['); it returns where
// the movetext scanner goes on.
func (r *ponteReader) parseTags(line []byte, i, ln int) int {
	g := &r.g
	for {
		if !g.content {
			r.begin(ln)
			g.content = true
		}
		g.hasTags = true
		k := skipSpace(line, i+1)
		ns := k
		for k < len(line) && class[line[k]]&clName != 0 && (k > ns || line[k] != '{') {
			k++
		}
		if k == ns {
			// (A name cannot start with '{': "[{" opens a JSON array.)
			r.fail(ln, k+1, ErrTag, "tag name missing after '['")
			return len(line)
		}
		nameb := line[ns:k]
		k = skipSpace(line, k)
		if k >= len(line) || line[k] != '"' {
			r.fail(ln, k+1, ErrTag, "the value of tag "+validText(string(nameb))+" must be in double quotes")
			return len(line)
		}
		q := k
		k++
		esc := false
		for k < len(line) && line[k] != '"' {
			if line[k] == '\\' && k+1 < len(line) && (line[k+1] == '"' || line[k+1] == '\\') {
				esc = true
				k++
			}
			k++
		}
		if k >= len(line) {
			r.fail(ln, q+1, ErrTag, "value of tag "+validText(string(nameb))+" not closed: '\"' missing")
			return len(line)
		}
		valueb := line[q+1 : k]
		k = skipSpace(line, k+1)
		if k >= len(line) || line[k] != ']' {
			r.fail(ln, k+1, ErrTag, "']' missing after the value of tag "+validText(string(nameb)))
			return len(line)
		}
		if !g.over {
			name, ok := tagName(nameb)
			if !ok {
				name = g.rec.keepText(nameb)
			}
			var value string
			if esc {
				value = r.unescape(valueb)
			} else if value, ok = tagValue(valueb); !ok {
				value = g.rec.keepText(valueb)
			}
			if r.badLine {
				if r.badIn(name, ln, ns+1, "the name of tag "+quote(validText(name))) {
					name = validText(name)
				}
				if r.badIn(value, ln, q+2, "the value of tag "+name) {
					value = validText(value)
				}
			}
			r.addTag(name, value, ln, i+1, q+1)
		}
		k = skipSpace(line, k+1)
		if k >= len(line) {
			return k
		}
		switch line[k] {
		case '[':
			i = k
			continue
		case ';', '{':
			return k
		}
		r.fail(ln, k+1, ErrTag, "text after a tag: a tag stands on its own line")
		return len(line)
	}
}

// tagName returns the name of a known tag as a constant; ok is false for another name.
func tagName(b []byte) (name string, ok bool) {
	switch string(b) {
	case tagEvent:
		return tagEvent, true
	case tagSite:
		return tagSite, true
	case tagDate:
		return tagDate, true
	case tagRound:
		return tagRound, true
	case tagGameID:
		return tagGameID, true
	case tagLight:
		return tagLight, true
	case tagDark:
		return tagDark, true
	case tagSize:
		return tagSize, true
	case tagSupply:
		return tagSupply, true
	case tagResult:
		return tagResult, true
	case tagTermination:
		return tagTermination, true
	case tagScore:
		return tagScore, true
	}
	return "", false
}

// smallInts are the strings of 0..99.
var smallInts = func() (t [100]string) {
	for n := range t {
		t[n] = strconv.Itoa(n)
	}
	return t
}()

// tagValue returns a common tag value as a constant; ok is false for another value.
func tagValue(b []byte) (value string, ok bool) {
	switch len(b) {
	case 0:
		return "", true
	case 1, 2:
		if n, ok := atoi(string(b), 2); ok && (len(b) == 1 || b[0] != '0') {
			return smallInts[n], true
		}
	}
	switch string(b) {
	case "?":
		return "?", true
	case "*":
		return "*", true
	case "1-0":
		return "1-0", true
	case "0-1":
		return "0-1", true
	case "1/2-1/2":
		return "1/2-1/2", true
	case "unlimited":
		return "unlimited", true
	case "40/15":
		return "40/15", true
	case "normal":
		return "normal", true
	case "resign":
		return "resign", true
	case "time":
		return "time", true
	case "abandoned":
		return "abandoned", true
	case "agreement":
		return "agreement", true
	}
	return "", false
}

// unescape resolves \" and \\ in a tag value; other backslashes stay.
func (r *ponteReader) unescape(v []byte) string {
	b := r.esc[:0]
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '"' || v[i+1] == '\\') {
			i++
		}
		b = append(b, v[i])
	}
	r.esc = b
	return r.g.rec.keepText(b)
}

// addTag adds a tag read at line ln, the tag at column tagCol and its value
// (the opening quote) at column valCol. A tag value the replay does not need
// that cannot be read is a slip (Record.TagErrors); a Size or Supply that
// cannot be read makes the record unreadable.
func (r *ponteReader) addTag(name, value string, ln, tagCol, valCol int) {
	if r.g.ntags >= r.lim.MaxTags {
		r.overLimit(ln, tagCol, r.lim.tooManyTags())
		return
	}
	r.g.ntags++
	if r.tagSet.has(r.tags, name) {
		r.slipOrFail(name, ln, tagCol, ErrTag, "tag "+name+" given twice: the first value is kept")
		return
	}
	value = normalDate(name, value)
	if msg := checkTag(r.g.rec, name, value); msg != "" {
		r.slipOrFail(name, ln, valCol, ErrTagValue, msg)
	} else if name == tagResult {
		r.g.resultTag = value
	}
	r.tags = append(r.tags, Tag{name, value})
}

// slipOrFail reports a tag that cannot be read: an error of the record for a
// tag the replay needs (Size, Supply), else a slip.
func (r *ponteReader) slipOrFail(name string, line, col int, kind error, msg string) {
	if name == tagSize || name == tagSupply {
		r.fail(line, col, kind, msg)
		return
	}
	r.begin(line)
	r.g.rec.slip(r.parseError(r.g.rec, line, col, kind, msg))
}

// addComment attaches a comment, read at line ln from column col, to the last turn, or
// to the record before the first turn; bad says that it is not UTF-8. The comments of a
// turn are gathered in r.com, and become its Comment when the next turn comes or the
// game ends (flushComment): adding one costs its length, not that of those before it.
func (r *ponteReader) addComment(text string, ln, col int, bad bool) {
	t := strings.TrimSpace(text)
	if t == "" {
		return
	}
	if bad {
		t = validText(t)
	}
	if at := len(r.moves) - 1; at != r.comAt {
		r.flushComment()
		r.comAt = at
	}
	n := len(t)
	if r.comStr != "" || len(r.com) > 0 {
		n++ // the space that joins it to the one before
	}
	if r.g.comments+n > r.lim.MaxCommentBytes {
		r.overLimit(ln, col, r.lim.commentsTooLong())
		return
	}
	r.g.comments += n
	switch {
	case r.comStr == "" && len(r.com) == 0:
		r.comStr = t // the usual single comment: kept without a copy
	case len(r.com) == 0:
		r.com = append(append(append(r.com, r.comStr...), ' '), t...)
		r.comStr = ""
	default:
		r.com = append(append(r.com, ' '), t...)
	}
}

// flushComment gives the comments gathered their turn (or the record).
func (r *ponteReader) flushComment() {
	var c string
	switch {
	case len(r.com) > 0:
		c = string(r.com)
	case r.comStr != "":
		c = r.comStr
	default:
		return
	}
	if r.comAt < 0 {
		r.g.rec.Comment = c
	} else {
		r.moves[r.comAt].Comment = c
	}
	r.com, r.comStr = r.com[:0], ""
}

// looksLikeTag reports whether line starts like a tag line: [Name "
func looksLikeTag(line []byte) bool {
	i := skipSpace(line, 0)
	if i == len(line) || line[i] != '[' {
		return false
	}
	k := skipSpace(line, i+1)
	ns := k
	for k < len(line) && class[line[k]]&clName != 0 {
		k++
	}
	k2 := skipSpace(line, k)
	return k > ns && k2 < len(line) && line[k2] == '"'
}
