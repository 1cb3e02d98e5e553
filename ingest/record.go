package ingest

import (
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	gamepkg "github.com/ponte/ponte/game"
)

// Tag is one tag of a record, in the order read. Name is as in .ponte
// ("Event", "GameId", "Light", ...); JSON Lines keys are mapped to these names.
type Tag struct{ Name, Value string }

// Token is one movetext turn token with where it stands in its file.
type Token struct {
	// Text is the turn token without annotation suffix: "d4,e5", "d4-f5",
	// "swap", "pass", or any other word read in the movetext (the rules
	// engine reports unknown words as R9).
	Text string
	// Line and Col are the 1-based line and byte column of the token (of
	// the opening quote of the move string in JSON Lines).
	Line, Col int
	// Number is the turn number written before the token ("7." gives 7), 0 when none
	// was; NumberLine and NumberCol are where it stands. The reader does not judge
	// it: a number that is not the token's turn is a notation error (R9) for the replay.
	// A written 0, which is no turn's number, is the reader's error (ErrSyntax).
	Number                int
	NumberLine, NumberCol int
	// Comment is the text of the comments that followed the token, trimmed
	// and joined by a space; empty if none. JSON Lines has no comments.
	Comment string
	// Millis is the think time of the turn in milliseconds when the source
	// records it (boardspace.net records do), else 0. The writers do not
	// write it.
	Millis int
}

// Record is one game record as read: the tags and the turn tokens, with the
// typed values of the known tags.
type Record struct {
	Source string // the name given to the reader (file path, or "-" for stdin)
	Format Format // the format it was read from
	Index  int    // 1-based place of the game in its file
	// Line is the line where the game starts: that of its first tag, turn
	// number, turn or result token in .ponte, its line in JSON Lines.
	Line  int
	Tags  []Tag   // every tag in order, unknown ones included
	Moves []Token // the turns, in order
	// Result is the result token ending the movetext ("1-0", "0-1",
	// "1/2-1/2", "*" as a gamepkg.Result), nil when absent (always nil in JSON
	// Lines, which has only the result key, a tag). The result the record
	// claims is [Record.ClaimedResult].
	Result *gamepkg.Result
	// Comment is the text of the comments before the first turn.
	Comment string

	// Typed values of the known tags, checked when read; the defaults of
	// docs/formats/ponte.md when a tag is absent (or invalid, in a record read with an
	// error). The writers write Tags, not these fields: change tags with
	// [Record.SetTag], which keeps both in step.

	Size   int            // board side, 5..26; default 10
	Supply gamepkg.Supply // gamepkg.Unlimited (default) or gamepkg.Supply40x15 ("40/15")
	// Termination is how the game ended, by the record's word: "normal" (over by the
	// rules, R5), "resign", "time", "abandoned", or "agreement" (a draw agreed by the
	// players: Abstract Play's "draw" entry; docs/rules.md). Default gamepkg.Normal
	// if the claimed result is not "*", else gamepkg.Unstated.
	Termination gamepkg.Termination
	Score       *[2]int // claimed final score [light, dark], or nil

	// TagErrors are the tag values that could not be read in a record that was
	// read all the same: a metadata slip (a Date, Result, Termination or Score
	// that does not follow docs/formats/ponte.md, a tag given twice, a result token that
	// differs from the Result tag, a claim of another site's record that makes
	// no sense) costs the record its claim, not its moves. Each is a
	// *ParseError wrapping ErrTagValue, ErrTag or ErrResultMismatch, in the
	// order met; the typed field of such a tag keeps its default. A Size or
	// Supply that cannot be read still makes the record unreadable (Read
	// returns a *ParseError): there is no board to replay on.
	TagErrors []*ParseError
	moreSlips int // tag errors past MaxTagErrors, counted

	// Unchecked says that the record was returned before the check of a compressed part
	// it was read from (a gzip member, a zstd frame, a zip entry) ended, as more than
	// [Limits.MaxUnchecked] bytes of records were waiting for it: a [*DamagedError] may still
	// take it back. Part numbers the parts such records end in, from 1 in their stream:
	// a record of another Part than the one before it starts a new part.
	Unchecked bool
	Part      int

	// Raw is the text of a record that failed to read (at most MaxRaw
	// bytes, line ends as \n), kept so that it can be reported and stored;
	// nil for a record read without error.
	Raw []byte

	// The memory of a record that its Reader may fill again (Release): the pool it goes
	// back to (nil for a record no Reader read, or once released), the record itself
	// (so that a copy of it, which shares its memory, is not taken for it), the text its
	// strings are cut from, the score Score points to, the result token Result points to,
	// and the buffers of Tags, Moves and Raw.
	pool    *recordPool
	self    *Record
	text    []byte
	score   [2]int
	result  gamepkg.Result
	tagBuf  []Tag
	moveBuf []Token
	rawBuf  []byte
}

// Release hands the record back to the [Reader] that read it: a later [Reader.Read] of
// that Reader may fill it again, reusing its memory (the record, its tags, its turns
// and the text of its strings), so that a program that is done with each record before
// it needs many more, such as `ponte verify`, reads an archive without allocating.
//
// Call it only when the record is yours alone, and you are done with it: after Release,
// neither the record nor any string or slice taken from it (a tag value, a turn's Text)
// may be used by anyone, since the next record's text will be written over them. When in
// doubt, do not call it: a record never released is garbage collected as usual, and keeps
// what it holds for as long as it is used. Release does nothing for a record that no
// Reader read, for one whose format's reader does not reuse records (only .ponte records
// are reused today), for a record already released, and for a copy of a record (a
// Record value copied from the one Read returned), which shares its memory: a program that
// hands its records to code that releases them (verdict.Check) and keeps them can hand
// over copies.
func (r *Record) Release() {
	if p := r.pool; p != nil && r.self == r {
		r.pool = nil
		p.put(r)
	}
}

// recordPool holds the records given back to a Reader by Release, for its next records.
// Release may be called from any goroutine.
type recordPool struct {
	mu   sync.Mutex
	free []*Record
}

// maxPooled bounds the records a pool keeps; more released at once are left to the
// garbage collector. verify's pipeline holds at most a few hundred records at a time.
const maxPooled = 4096

func (p *recordPool) put(r *Record) {
	p.mu.Lock()
	if len(p.free) < maxPooled {
		p.free = append(p.free, r)
	}
	p.mu.Unlock()
}

// get returns a released record, or nil when there is none.
func (p *recordPool) get() *Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	r := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	return r
}

// take returns a record of the pool, emptied, or a new one: the defaults of the typed
// fields. A record reused cuts its strings from a text of its own, which it keeps from
// use to use; a new one, which may never be released, has strings of their own.
func (p *recordPool) take(source string, f Format) *Record {
	if r := p.get(); r != nil {
		text := r.text[:0]
		if text == nil {
			text = make([]byte, 0, 1<<10)
		}
		*r = Record{Source: source, Format: f, Size: 10, Supply: gamepkg.Unlimited, pool: p, self: r,
			text: text, tagBuf: r.tagBuf[:0], moveBuf: r.moveBuf[:0], rawBuf: r.rawBuf[:0]}
		return r
	}
	r := &Record{Source: source, Format: f, Size: 10, Supply: gamepkg.Unlimited, pool: p}
	r.self = r
	return r
}

// keepText returns b as a string that the record holds: a copy in its text, which is not
// written over until the record is released, or a string of its own for a record that
// has no text (see take).
func (r *Record) keepText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if r.text == nil {
		return string(b)
	}
	n := len(r.text)
	r.text = append(r.text, b...)
	return unsafe.String(&r.text[n], len(b))
}

func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// fill returns the elements of s in buf (grown if need be), nil when s is empty.
func fill[T any](buf, s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(buf[:0], s...)
}

// MinRecordBytes is the smallest MaxRecordBytes that ponte's --max-record-bytes accepts:
// below it a record could not hold the tags of an ordinary game, and a limit of a few
// bytes would cut every line of a file.
const MinRecordBytes = 1 << 10

// Bytes is about the memory the record holds, in bytes: its texts, tags, tokens and
// comments with the fixed cost of each. Pipelines bound what they hold in flight by it.
func (r *Record) Bytes() int64 {
	const tokenSize, tagSize, errSize = int64(unsafe.Sizeof(Token{})), int64(unsafe.Sizeof(Tag{})), 128
	n := int64(unsafe.Sizeof(Record{})) + int64(len(r.Source)+len(r.Raw)+len(r.Comment))
	for i := range r.Tags {
		n += tagSize + int64(len(r.Tags[i].Name)+len(r.Tags[i].Value))
	}
	for i := range r.Moves {
		n += tokenSize + int64(len(r.Moves[i].Text)+len(r.Moves[i].Comment))
	}
	return n + errSize*int64(len(r.TagErrors))
}

// Tag returns the value of the tag name, or "" if the record has none.
func (r *Record) Tag(name string) string {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			return r.Tags[i].Value
		}
	}
	return ""
}

// SetTag sets the tag name to value, in place if the record has it, else at
// the end, and updates the typed fields. A value of a known tag is checked as
// when read: an invalid one is an error wrapping [ErrTagValue] and the record
// is unchanged.
func (r *Record) SetTag(name, value string) error {
	if msg := checkTag(nil, name, value); msg != "" {
		return &detail{ErrTagValue, msg}
	}
	found := false
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			found = true
			break
		}
	}
	if !found {
		r.Tags = append(r.Tags, Tag{name, value})
	}
	r.derive()
	return nil
}

// MaxTagErrors bounds [Record.TagErrors]: past it one last error says how many
// more there were.
const MaxTagErrors = 64

// slip adds a tag error of a record that is read all the same. Past
// MaxTagErrors-1 errors, the last one counts the rest.
func (r *Record) slip(pe *ParseError) {
	n := len(r.TagErrors)
	if n < MaxTagErrors-1 {
		r.TagErrors = append(r.TagErrors, pe)
		return
	}
	if n == MaxTagErrors-1 {
		r.moreSlips = 0
		r.TagErrors = append(r.TagErrors, &ParseError{Source: pe.Source, Game: pe.Game, StartLine: pe.StartLine,
			Line: pe.Line, Column: pe.Column})
	}
	r.moreSlips++
	r.TagErrors[MaxTagErrors-1].Err = &detail{ErrTag, strconv.Itoa(r.moreSlips) + " tag errors from here on, not listed"}
}

// normalDate writes a Date value in the project's one form: an ISO date
// (2026-03-14, or 2026/03/14) becomes 2026.03.14; any other value is
// returned as it is, to be checked.
func normalDate(name, v string) string {
	if name == tagDate && len(v) == 10 && v[4] == v[7] && (v[4] == '-' || v[4] == '/') {
		return v[:4] + "." + v[5:7] + "." + v[8:]
	}
	return v
}

// Date returns the Date tag when it is a valid date, YYYY.MM.DD with "??"
// for unknown parts, else "" (no tag, or a slip in TagErrors).
func (r *Record) Date() string {
	if v := r.Tag(tagDate); validDate(v) {
		return v
	}
	return ""
}

// ClaimedResult returns the result the record claims: the Result tag, else
// the result token, else gamepkg.NoResult ("*"). A Result tag that cannot be read
// (a slip kept in TagErrors, never lost) claims nothing, and neither do a tag and a
// token that differ (ErrResultMismatch, in TagErrors too).
func (r *Record) ClaimedResult() gamepkg.Result {
	v := r.Tag(tagResult)
	if v == "" {
		if r.Result != nil {
			return *r.Result
		}
		return gamepkg.NoResult
	}
	tag, ok := gamepkg.ParseResult(v)
	if !ok || r.Result != nil && *r.Result != tag {
		return gamepkg.NoResult
	}
	return tag
}

// setResult makes res the record's result token.
func (r *Record) setResult(res gamepkg.Result) {
	r.result = res
	r.Result = &r.result
}

// The known tags.
const (
	tagEvent       = "Event"
	tagSite        = "Site"
	tagDate        = "Date"
	tagRound       = "Round"
	tagGameID      = "GameId"
	tagLight       = "Light"
	tagDark        = "Dark"
	tagSize        = "Size"
	tagSupply      = "Supply"
	tagResult      = "Result"
	tagTermination = "Termination"
	tagScore       = "Score"
)

// ponteOrder is the order in which the .ponte writer writes the known tags:
// that of the example of docs/formats/ponte.md, with GameId after Round.
var ponteOrder = []string{tagEvent, tagSite, tagDate, tagRound, tagGameID, tagLight, tagDark,
	tagSize, tagSupply, tagResult, tagTermination, tagScore}

// jsonOrder is the order of the known keys in JSON Lines, with their tag.
var jsonOrder = []struct{ key, tag string }{
	{"game_id", tagGameID}, {"event", tagEvent}, {"site", tagSite}, {"round", tagRound},
	{"date", tagDate}, {"light", tagLight}, {"dark", tagDark}, {"size", tagSize},
	{"supply", tagSupply}, {"result", tagResult}, {"termination", tagTermination},
	{"score", tagScore},
}

// isKnownTag reports whether name is one of the known tags.
func isKnownTag(name string) bool {
	switch name {
	case tagEvent, tagSite, tagDate, tagRound, tagGameID, tagLight, tagDark,
		tagSize, tagSupply, tagResult, tagTermination, tagScore:
		return true
	}
	return false
}

// newRecord returns a record with the defaults of the typed fields.
func newRecord(source string, f Format) *Record {
	return &Record{Source: source, Format: f, Size: 10, Supply: gamepkg.Unlimited}
}

// derive recomputes the typed fields from the tags.
func (r *Record) derive() {
	r.Size, r.Supply, r.Termination, r.Score = 10, gamepkg.Unlimited, gamepkg.Unstated, nil
	for _, t := range r.Tags {
		checkTag(r, t.Name, t.Value)
	}
	r.finishTermination()
}

// finishTermination gives Termination its default once the tags are read.
func (r *Record) finishTermination() {
	if r.Termination == gamepkg.Unstated && r.ClaimedResult() != gamepkg.NoResult {
		r.Termination = gamepkg.Normal
	}
}

// checkTag checks the value of a known tag and, when valid and r is not nil,
// sets the typed field of r. It returns "" for a valid value or an unknown
// tag, else the error message.
func checkTag(r *Record, name, value string) string {
	switch name {
	case tagSize:
		n, ok := atoi(value, 3)
		if !ok || n < 5 || n > 26 {
			return "Size " + quote(value) + ": the board side must be an integer from 5 to 26"
		}
		if r != nil {
			r.Size = n
		}
	case tagSupply:
		if value != "unlimited" && value != "40/15" {
			return "Supply " + quote(value) + ": must be \"unlimited\" or \"40/15\""
		}
		if r != nil {
			r.Supply, _ = gamepkg.ParseSupply(value)
		}
	case tagResult:
		if !isResult(value) {
			return "Result " + quote(value) + ": must be 1-0, 0-1, 1/2-1/2 or *"
		}
	case tagTermination:
		switch value {
		case "normal", "resign", "time", "abandoned", "agreement":
		default:
			return "Termination " + quote(value) + ": must be normal, resign, time, abandoned or agreement"
		}
		if r != nil {
			r.Termination, _ = gamepkg.ParseTermination(value)
		}
	case tagScore:
		l, d, ok := parseScore(value)
		if !ok {
			return "Score " + quote(value) + ": must be L-D, two integers"
		}
		if r != nil {
			r.score = [2]int{l, d}
			r.Score = &r.score
		}
	case tagDate:
		if !validDate(value) {
			return "Date " + quote(value) + ": must be YYYY.MM.DD, ?? for unknown parts"
		}
	}
	return ""
}

// atoi parses a non-empty decimal integer of at most max digits.
func atoi(s string, max int) (int, bool) {
	if s == "" || len(s) > max {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseScore parses "L-D".
func parseScore(s string) (l, d int, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '-' {
			l, ok1 := atoi(s[:i], 6)
			d, ok2 := atoi(s[i+1:], 6)
			return l, d, ok1 && ok2
		}
	}
	return 0, 0, false
}

// validDate checks YYYY.MM.DD where each part is digits or all '?'.
func validDate(s string) bool {
	if len(s) != 10 || s[4] != '.' || s[7] != '.' {
		return false
	}
	part := func(p string, lo, hi int) bool {
		if p == "????"[:len(p)] {
			return true
		}
		n, ok := atoi(p, 4)
		return ok && n >= lo && n <= hi
	}
	return part(s[:4], 0, 9999) && part(s[5:7], 1, 12) && part(s[8:], 1, 31)
}

// quote quotes s for a message, with Go escapes for unprintable bytes and for bytes
// that are not UTF-8, so that the message is UTF-8 whatever the input.
func quote(s string) string {
	const max = 40
	cut := false
	if len(s) > max {
		n := max
		for n > max-utf8.UTFMax && n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	b := make([]byte, 0, len(s)+5)
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', 'x', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		case c >= utf8.RuneSelf:
			if r, n := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || n > 1 {
				b = append(b, s[i:i+n]...)
				i += n
				continue
			}
			b = append(b, '\\', 'x', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
		i++
	}
	if cut {
		b = append(b, "..."...)
	}
	return string(append(b, '"'))
}
