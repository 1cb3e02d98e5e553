package ingest

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/jsonstr"
)

// A Writer writes records in one format, buffered.
//
// The .ponte writer writes the tags (the known ones in the order of the
// example of docs/formats/ponte.md, GameId after Round, then the others in their order), a
// blank line, the numbered movetext wrapped at 80 columns with the comments
// as { } (or ; when the text holds a '}'), the result token and a blank line.
// The JSON Lines writer writes one object per line: the known tags under
// their snake_case keys (size as a number, score as [light, dark], date as
// YYYY-MM-DD), the other tags under their own names, then "moves". JSON
// Lines has no comments: they are not written.
//
// The writers write what Tags, Moves and Result hold, not the typed fields.
// The result token (.ponte) is Result, else [Record.ClaimedResult]; the
// result key (JSON Lines) is the Result tag, else a result token other than
// "*". A record that the format cannot hold faithfully is not written:
// Write returns an error wrapping [ErrUnwritable].
type Writer struct {
	w      *bufio.Writer
	format Format
	buf    []byte
}

// NewWriter returns a Writer that writes records to w in format f.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: f}
}

// Write writes one record. Call Flush at the end.
func (w *Writer) Write(r *Record) error {
	var err error
	switch w.format {
	case FormatPonte:
		w.buf, err = appendPonte(w.buf[:0], r)
	case FormatJSONL:
		w.buf, err = appendJSONL(w.buf[:0], r)
	default:
		return fmt.Errorf("ingest: cannot write format %s", w.format)
	}
	if err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// Flush writes any buffered data to the underlying io.Writer.
func (w *Writer) Flush() error { return w.w.Flush() }

func unwritable(format string, args ...any) error {
	return &detail{ErrUnwritable, "cannot write record: " + fmt.Sprintf(format, args...)}
}

// checkTags checks that no tag name is given twice.
func checkTags(r *Record) error {
	for i, t := range r.Tags {
		for _, u := range r.Tags[:i] {
			if t.Name == u.Name {
				return unwritable("tag %s given twice", quote(t.Name))
			}
		}
	}
	return nil
}

// lineWidth is the width the .ponte writer wraps movetext at.
const lineWidth = 80

// appendPonte appends r in .ponte notation.
func appendPonte(b []byte, r *Record) ([]byte, error) {
	if err := checkTags(r); err != nil {
		return b, err
	}
	for _, t := range r.Tags {
		if t.Name == "" || strings.IndexFunc(t.Name, func(c rune) bool { return c < utf8.RuneSelf && class[c]&clName == 0 }) >= 0 {
			return b, unwritable("tag name %s is not a .ponte tag name", quote(t.Name))
		}
		if t.Name[0] == '{' {
			// [{ starts a JSON array: the file would read back as Abstract Play.
			return b, unwritable("tag name %s starts with '{'", quote(t.Name))
		}
		if strings.IndexByte(t.Value, '\n') >= 0 {
			return b, unwritable("the value of tag %s holds a line break", t.Name)
		}
	}
	for i, m := range r.Moves {
		if !ponteWord(m.Text) {
			return b, unwritable("turn %d %s is not a .ponte movetext word", i+1, quote(m.Text))
		}
	}
	claim := r.ClaimedResult()
	if r.Result != nil {
		claim = *r.Result
	}
	result := claim.String()
	if !isResult(result) {
		return b, unwritable("result %s is not a result token", quote(result))
	}

	for _, name := range ponteOrder {
		for _, t := range r.Tags {
			if t.Name == name {
				b = appendTagLine(b, t)
			}
		}
	}
	for _, t := range r.Tags {
		if !isKnownTag(t.Name) {
			b = appendTagLine(b, t)
		}
	}
	if len(r.Tags) > 0 {
		b = append(b, '\n')
	}

	m := movetext{b: b}
	// Before the first turn a comment must not start the file (a '{' could
	// make it look like JSON Lines): without tags it follows "1." or the
	// result token.
	lead := r.Comment != "" && len(r.Tags) == 0
	if r.Comment != "" && !lead {
		m.comment(r.Comment)
	}
	for i, t := range r.Moves {
		num := strconv.Itoa(i + 1)
		if t.Number != 0 {
			num = strconv.Itoa(t.Number) // as written, if not the turn's (an R9 error)
		}
		if i == 0 && lead {
			m.word(num + ".")
			m.comment(r.Comment)
			m.word(t.Text)
		} else {
			m.turn(num, t.Text)
		}
		if t.Comment != "" {
			m.comment(t.Comment)
		}
	}
	m.word(result)
	if lead && len(r.Moves) == 0 {
		m.sameLine = true
		m.comment(r.Comment)
	}
	if m.col > 0 {
		m.b = append(m.b, '\n')
	}
	return append(m.b, '\n'), nil
}

// ponteWord reports whether a move token reads back as itself in movetext.
func ponteWord(s string) bool {
	if s == "" || s[0] == '[' || isResult(s) {
		return false
	}
	if c := s[len(s)-1]; c == '!' || c == '?' {
		return false
	}
	digits := 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(s) && s[digits] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if class[s[i]]&clDelim != 0 || s[i] == '\n' {
			return false
		}
	}
	return true
}

func appendTagLine(b []byte, t Tag) []byte {
	b = append(b, '[')
	b = append(b, t.Name...)
	b = append(b, ' ', '"')
	for i := 0; i < len(t.Value); i++ {
		if c := t.Value[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, t.Value[i])
	}
	return append(b, '"', ']', '\n')
}

// movetext appends wrapped movetext.
type movetext struct {
	b        []byte
	col      int
	sameLine bool // no line break: a comment after the result token must stay on its line
}

// space starts a new word of n bytes: a blank, or a line end when the line
// would be too long (unless m.sameLine).
func (m *movetext) space(n int) {
	if m.col == 0 {
		return
	}
	if m.col+1+n > lineWidth && !m.sameLine {
		m.b = append(m.b, '\n')
		m.col = 0
		return
	}
	m.b = append(m.b, ' ')
	m.col++
}

func (m *movetext) word(w string) {
	m.space(len(w))
	m.b = append(m.b, w...)
	m.col += len(w)
}

func (m *movetext) turn(num, text string) {
	m.space(len(num) + 2 + len(text))
	m.b = append(m.b, num...)
	m.b = append(m.b, '.', ' ')
	m.b = append(m.b, text...)
	m.col += len(num) + 2 + len(text)
}

func (m *movetext) comment(c string) {
	lines := strings.Split(c, "\n")
	for _, l := range lines[1:] {
		if looksLikeTag([]byte(l)) {
			// A line that looks like a tag would end the comment when read.
			c = strings.ReplaceAll(c, "\n", " ")
			break
		}
	}
	if strings.IndexByte(c, '}') < 0 {
		n := len(c) + 2
		if i := strings.IndexByte(c, '\n'); i >= 0 {
			n = i + 1
		}
		m.space(n)
		m.b = append(m.b, '{')
		m.b = append(m.b, c...)
		m.b = append(m.b, '}')
		if i := strings.LastIndexByte(c, '\n'); i >= 0 {
			m.col = len(c) - i
		} else {
			m.col += len(c) + 2
		}
		return
	}
	// A '}' cannot stand in a { } comment: write a ; comment to the line end.
	c = strings.ReplaceAll(c, "\n", " ")
	m.space(len(c) + 2)
	m.b = append(m.b, ';', ' ')
	m.b = append(m.b, c...)
	m.b = append(m.b, '\n')
	m.col = 0
}

// appendJSONL appends r as one JSON Lines object.
func appendJSONL(b []byte, r *Record) ([]byte, error) {
	if err := checkTags(r); err != nil {
		return b, err
	}
	for _, t := range r.Tags {
		if !isKnownTag(t.Name) {
			if name, known := jsonTag(t.Name); known || name == "moves" {
				return b, unwritable("tag %s would be read back as a known JSON Lines key", quote(t.Name))
			}
		}
		if !utf8.ValidString(t.Name) || !utf8.ValidString(t.Value) {
			return b, unwritable("tag %s is not valid UTF-8", quote(t.Name))
		}
	}
	for i, m := range r.Moves {
		if !utf8.ValidString(m.Text) {
			return b, unwritable("turn %d %s is not valid UTF-8", i+1, quote(m.Text))
		}
	}
	if v := r.Tag(tagResult); v != "" && r.Result != nil && r.Result.String() != v {
		return b, unwritable("the result token %s differs from the Result tag %s: JSON Lines holds one result", r.Result.String(), quote(v))
	}
	b = append(b, '{')
	sep := func() {
		if len(b) > 0 && b[len(b)-1] != '{' {
			b = append(b, ',')
		}
	}
	for _, k := range jsonOrder {
		v, ok := "", false
		for _, t := range r.Tags {
			if t.Name == k.tag {
				v, ok = t.Value, true
				break
			}
		}
		if !ok && k.tag == tagResult && r.Result != nil && *r.Result != gamepkg.NoResult {
			v, ok = r.Result.String(), true
		}
		if !ok {
			continue
		}
		sep()
		b = jsonstr.Append(b, k.key)
		b = append(b, ':')
		switch k.tag {
		case tagSize:
			if canonicalInt(v) {
				b = append(b, v...)
				continue
			}
		case tagScore:
			if l, d, ok := parseScore(v); ok {
				if i := strings.IndexByte(v, '-'); canonicalInt(v[:i]) && canonicalInt(v[i+1:]) {
					b = append(b, '[')
					b = strconv.AppendInt(b, int64(l), 10)
					b = append(b, ',')
					b = strconv.AppendInt(b, int64(d), 10)
					b = append(b, ']')
					continue
				}
			}
		case tagDate:
			if validDate(v) {
				v = v[:4] + "-" + v[5:7] + "-" + v[8:]
			}
		}
		b = jsonstr.Append(b, v)
	}
	for _, t := range r.Tags {
		if isKnownTag(t.Name) {
			continue
		}
		sep()
		b = jsonstr.Append(b, t.Name)
		b = append(b, ':')
		if jsonLiteral(t.Value) && (t.Name != "header" || t.Value[0] != '{') {
			// (An object under "header" is written as a string, so that
			// the line does not read back as an Abstract Play record.)
			b = append(b, t.Value...)
		} else {
			b = jsonstr.Append(b, t.Value)
		}
	}
	sep()
	b = append(b, `"moves":[`...)
	for i, m := range r.Moves {
		if i > 0 {
			b = append(b, ',')
		}
		if m.Number != 0 && m.Number != i+1 {
			// A number that is not the turn's (an R9 error) is kept: "98.f6,f9".
			b = jsonstr.Append(b, strconv.Itoa(m.Number)+"."+m.Text)
			continue
		}
		b = jsonstr.Append(b, m.Text)
	}
	return append(b, ']', '}', '\n'), nil
}

// canonicalInt reports whether s is a JSON integer that reads back as s.
func canonicalInt(s string) bool {
	_, ok := atoi(s, 6)
	return ok && (s == "0" || s[0] != '0')
}

// jsonLiteral reports whether s is a JSON value other than a string (a
// number, true, false, null, an array or an object), with no surrounding
// blanks: such a value of an unknown tag is written as JSON, so that a JSON
// Lines record keeps its types.
func jsonLiteral(s string) bool {
	if s == "" || strings.IndexByte("-0123456789tfn[{", s[0]) < 0 {
		return false
	}
	p := jsonParser{s: s}
	end, ok := p.skip(0)
	return ok && end == len(s)
}
