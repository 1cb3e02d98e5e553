package ingest

import (
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonlReader reads JSON Lines records from the lines of its Reader (the formatReader
// of FormatJSONL). Its fields are scratch space, reused from record to record.
type jsonlReader struct {
	*Reader
	tags  []Tag
	moves []Token
	esc   []byte
}

// read reads the next JSON Lines record: the next non-blank line.
func (r *jsonlReader) read() (*Record, error) {
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				return nil, r.lr.err
			}
			return nil, io.EOF
		}
		ln := r.lr.num
		if !r.lr.long && skipSpace(line, 0) == len(line) {
			continue
		}
		r.index++
		rec := newRecord(r.source, FormatJSONL)
		rec.Index, rec.Line = r.index, ln
		r.tags, r.moves = r.tags[:0], r.moves[:0]
		// A line longer than MaxRecordBytes was cut there by the line reader, unless it
		// was read whole as the first line of the file, to detect the format.
		if r.lr.long || len(line) > r.lim.MaxRecordBytes {
			rec.Raw = keepRaw(nil, line)
			col, kind, msg := r.lim.longLine(0, 0)
			return rec, r.parseError(rec, ln, col, kind, msg)
		}
		p := jsonParser{s: string(line), buf: r.esc, lim: &r.lim}
		ok = r.parseJSONRecord(rec, &p, ln)
		r.esc = p.buf
		if p.badCol > 0 {
			r.bad = badUTF8{line: ln, col: p.badCol, what: "a string", more: p.badMore}
			r.noteReplaced()
		}
		rec.Tags = clone(r.tags)
		rec.Moves = clone(r.moves)
		if !ok {
			rec.Raw = keepRaw(nil, line)
			return rec, r.parseError(rec, ln, p.col, p.kind, p.msg)
		}
		rec.finishTermination()
		return rec, nil
	}
}

// parseJSONRecord reads one JSON object into rec.
func (r *jsonlReader) parseJSONRecord(rec *Record, p *jsonParser, ln int) bool {
	r.tags, r.moves = r.tags[:0], r.moves[:0]
	r.tagSet.reset()
	p.ws()
	sawMoves, keys := false, 0
	ok := p.object("a record must be a JSON object", func(key string, keyAt int) bool {
		if keys++; keys > r.lim.MaxTags {
			return p.fail(keyAt, ErrTooLarge, r.lim.tooManyTags())
		}
		if key != "moves" {
			return r.parseJSONTag(rec, p, key, keyAt)
		}
		if sawMoves {
			return p.fail(keyAt, ErrJSON, "duplicate key \"moves\"")
		}
		sawMoves = true
		return r.parseJSONMoves(p, ln)
	})
	if !ok {
		return false
	}
	end := p.i - 1
	p.ws()
	if p.i < len(p.s) {
		return p.fail(p.i, ErrJSON, "text after the JSON object")
	}
	if !sawMoves {
		return p.fail(end, ErrNotRecord, "key \"moves\" missing")
	}
	return true
}

// parseJSONMoves reads the array of move strings.
func (r *jsonlReader) parseJSONMoves(p *jsonParser, ln int) bool {
	if !p.expect('[', "\"moves\" must be an array of strings") {
		return false
	}
	p.ws()
	if p.peek() == ']' {
		p.i++
		return true
	}
	for {
		p.ws()
		at := p.i
		switch c := p.peek(); {
		case c == ']':
			return p.fail(at, ErrJSON, "a ',' before ']' in \"moves\" (trailing comma)")
		case c != '"':
			return p.fail(at, ErrJSON, "a move must be a string")
		}
		if len(r.moves) >= r.lim.MaxTurns {
			return p.fail(at, ErrTooLarge, r.lim.tooManyTurns())
		}
		text, ok := p.str()
		if !ok {
			return false
		}
		tok := Token{Text: text, Line: ln, Col: at + 1}
		if n, k := turnNumber(text); k > 0 {
			// "98.f6,f9": a turn written with its number, as the writers write a turn
			// whose number is not the turn's, so that the R9 error it is survives.
			tok.Text, tok.Number, tok.NumberLine, tok.NumberCol = text[k:], n, ln, at+2
		}
		r.moves = append(r.moves, tok)
		p.ws()
		if p.peek() == ',' {
			p.i++
			continue
		}
		return p.expect(']', "',' or ']' expected in \"moves\"")
	}
}

// jsonTag maps a JSON Lines key to its tag: the known snake_case keys (and
// the .ponte names of the known tags) to the known tags, any other key to a
// tag of that name.
func jsonTag(key string) (name string, known bool) {
	for _, k := range jsonOrder {
		if key == k.key || key == k.tag {
			return k.tag, true
		}
	}
	return key, false
}

// parseJSONTag reads the value of key into a tag of rec. A value of a known
// key that the replay does not need and that cannot be read (a wrong type, an
// invalid value, a key given twice) is a slip (Record.TagErrors); for "size"
// and "supply" it makes the record unreadable.
func (r *jsonlReader) parseJSONTag(rec *Record, p *jsonParser, key string, keyAt int) bool {
	name, known := jsonTag(key)
	needed := name == tagSize || name == tagSupply
	// bad reports a value that cannot be read, after it was skipped.
	bad := func(at int, kind error, msg string) bool {
		if needed {
			return p.fail(at, kind, msg)
		}
		rec.slip(r.parseError(rec, rec.Line, at+1, kind, msg))
		return true
	}
	if r.tagSet.has(r.tags, name) {
		if _, ok := p.skip(0); !ok {
			return false
		}
		if needed {
			return p.fail(keyAt, ErrJSON, "duplicate key "+quote(key))
		}
		return bad(keyAt, ErrTag, "key "+quote(key)+" given twice: the first value is kept")
	}
	// add adds the tag (once it is known not to be given twice).
	add := func(value string) {
		r.tags = append(r.tags, Tag{name, value})
	}
	at := p.i
	c := p.peek()
	var value string
	switch {
	case c == '"':
		v, ok := p.str()
		if !ok {
			return false
		}
		value = normalDate(name, v)
	case !known:
		end, ok := p.skip(0)
		if !ok {
			return false
		}
		value = p.text(at, end)
	case c == 'n':
		if _, ok := p.skip(0); !ok {
			return false
		}
		if p.s[at:p.i] == "null" {
			return true // a known key with null: as if absent
		}
		return p.fail(at, ErrJSON, "invalid value of "+quote(key))
	case name == tagScore && c == '[':
		end, ok := p.skip(0)
		if !ok {
			return false
		}
		l, d, ok := scoreArray(p.s[at:end])
		if !ok {
			add(p.text(at, end))
			return bad(at, ErrTagValue, "score "+quote(p.s[at:end])+": must be [light, dark], two integers")
		}
		value = strconv.Itoa(l) + "-" + strconv.Itoa(d)
	case c == '-' || c >= '0' && c <= '9':
		end, ok := p.skip(0)
		if !ok {
			return false
		}
		value = p.s[at:end]
		switch name {
		case tagSize, tagEvent, tagSite, tagRound, tagGameID, tagLight, tagDark:
		case tagSupply:
			return p.fail(at, ErrJSON, quote(key)+" must be a string")
		default:
			add(value)
			return bad(at, ErrTagValue, quote(key)+" must be a string, not "+quote(value))
		}
	default:
		end, ok := p.skip(0)
		if !ok {
			return false
		}
		if needed {
			return p.fail(at, ErrJSON, "wrong type of "+quote(key))
		}
		add(p.text(at, end))
		return bad(at, ErrTagValue, "wrong type of "+quote(key)+": "+quote(p.s[at:end]))
	}
	if known {
		if msg := checkTag(rec, name, value); msg != "" {
			add(value)
			return bad(at, ErrTagValue, msg)
		}
	}
	add(value)
	return true
}

// scoreArray parses a valid JSON array of two non-negative integers.
func scoreArray(s string) (l, d int, ok bool) {
	p := jsonParser{s: s, i: 1}
	num := func() (int, bool) {
		p.ws()
		k := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, ok := atoi(p.s[k:p.i], 6)
		p.ws()
		return n, ok
	}
	l, ok1 := num()
	if p.peek() != ',' {
		return 0, 0, false
	}
	p.i++
	d, ok2 := num()
	return l, d, ok1 && ok2 && p.peek() == ']'
}

// jsonParser reads JSON text from s; on failure it keeps the position and
// the message of the error.
type jsonParser struct {
	s    string
	i    int
	buf  []byte // scratch for strings with escapes
	col  int
	kind error
	msg  string
	// Bytes of strings that are not UTF-8 are replaced by U+FFFD, as encoding/json does.
	// badCol is the 1-based column of the first such byte and badLast of the last, 0
	// when none; badMore counts the strings after the first that had some.
	badCol, badLast, badMore int
	lim                      *Limits // of the reader, for the limits of a record's keys and turns
}

// text returns the JSON text s[at:end] of a value, made UTF-8 if it holds strings that
// are not.
func (p *jsonParser) text(at, end int) string {
	t := p.s[at:end]
	if p.badLast > at {
		t = validText(t)
	}
	return t
}

// maxDepth bounds the nesting of arrays and objects.
const maxDepth = 1000

func (p *jsonParser) fail(at int, kind error, msg string) bool {
	p.col, p.kind, p.msg = at+1, kind, msg
	return false
}

func (p *jsonParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) expect(c byte, msg string) bool {
	if p.peek() != c {
		if p.i >= len(p.s) {
			return p.fail(p.i, ErrJSON, msg+": the line ends")
		}
		return p.fail(p.i, ErrJSON, msg)
	}
	p.i++
	return true
}

// object reads a JSON object at p.i, calling fn for each key with p.i at
// its value; fn must read the value. what is the error when p.i holds no
// object. The JSON Lines and the Abstract Play readers share it.
func (p *jsonParser) object(what string, fn func(key string, keyAt int) bool) bool {
	if !p.expect('{', what) {
		return false
	}
	p.ws()
	if p.peek() == '}' {
		p.i++
		return true
	}
	for {
		p.ws()
		keyAt := p.i
		if p.peek() != '"' {
			return p.fail(p.i, ErrJSON, "object key expected")
		}
		key, ok := p.str()
		if !ok {
			return false
		}
		p.ws()
		if !p.expect(':', "':' expected after the key") {
			return false
		}
		p.ws()
		if !fn(key, keyAt) {
			return false
		}
		p.ws()
		if p.peek() == ',' {
			p.i++
			continue
		}
		return p.expect('}', "',' or '}' expected")
	}
}

// array reads a JSON array at p.i, calling fn with p.i at each element; fn
// must read it.
func (p *jsonParser) array(what string, fn func() bool) bool {
	if !p.expect('[', quote(what)+" must be an array") {
		return false
	}
	p.ws()
	if p.peek() == ']' {
		p.i++
		return true
	}
	for {
		p.ws()
		if p.peek() == ']' {
			return p.fail(p.i, ErrJSON, "a ',' before ']' (trailing comma)")
		}
		if !fn() {
			return false
		}
		p.ws()
		if p.peek() == ',' {
			p.i++
			continue
		}
		return p.expect(']', "',' or ']' expected")
	}
}

// str reads a string at p.i (a '"').
func (p *jsonParser) str() (string, bool) {
	start := p.i + 1
	for k := start; k < len(p.s); {
		c := p.s[k]
		switch {
		case c == '"':
			p.i = k + 1
			return p.s[start:k], true
		case c == '\\':
			return p.strEscaped(start, k)
		case c < 0x20:
			return "", p.fail(k, ErrJSON, "control character in a string")
		case c < utf8.RuneSelf:
			k++
		default:
			r, n := utf8.DecodeRuneInString(p.s[k:])
			if r == utf8.RuneError && n == 1 {
				return p.strEscaped(start, k)
			}
			k += n
		}
	}
	return "", p.fail(p.i, ErrJSON, "string not closed")
}

// strEscaped goes on reading a string that has escapes, from k.
func (p *jsonParser) strEscaped(start, k int) (string, bool) {
	b := append(p.buf[:0], p.s[start:k]...)
	defer func() { p.buf = b[:0] }()
	for k < len(p.s) {
		c := p.s[k]
		switch {
		case c == '"':
			p.i = k + 1
			return string(b), true
		case c == '\\':
			if k+1 >= len(p.s) {
				return "", p.fail(p.i, ErrJSON, "string not closed")
			}
			e := p.s[k+1]
			k += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(p.s, k)
				if !ok {
					return "", p.fail(k-2, ErrJSON, "invalid \\u escape")
				}
				k += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(0), false
					if k+1 < len(p.s) && p.s[k] == '\\' && p.s[k+1] == 'u' {
						r2, ok = hex4(p.s, k+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						r = dec
						k += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.fail(k-2, ErrJSON, "invalid escape in a string")
			}
		case c < 0x20:
			return "", p.fail(k, ErrJSON, "control character in a string")
		case c < utf8.RuneSelf:
			b = append(b, c)
			k++
		default:
			r, n := utf8.DecodeRuneInString(p.s[k:])
			if r == utf8.RuneError && n == 1 {
				// Not UTF-8: each run of bad bytes becomes one U+FFFD; noted once
				// per string.
				if p.badLast != k {
					b = append(b, "\uFFFD"...)
				}
				switch {
				case p.badCol == 0:
					p.badCol = k + 1
				case p.badLast <= start:
					p.badMore++
				}
				p.badLast = k + 1
				k++
				continue
			}
			b = append(b, p.s[k:k+n]...)
			k += n
		}
	}
	return "", p.fail(p.i, ErrJSON, "string not closed")
}

func hex4(s string, k int) (rune, bool) {
	if k+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[k : k+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip checks the JSON value at p.i and moves past it; it returns its end.
func (p *jsonParser) skip(depth int) (int, bool) {
	if depth > maxDepth {
		return 0, p.fail(p.i, ErrJSON, "nested too deep")
	}
	switch c := p.peek(); {
	case c == '"':
		_, ok := p.str()
		return p.i, ok
	case c == '{' || c == '[':
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		p.i++
		p.ws()
		if p.peek() == closing {
			p.i++
			return p.i, true
		}
		for {
			p.ws()
			if c == '{' {
				if p.peek() != '"' {
					return 0, p.fail(p.i, ErrJSON, "object key expected")
				}
				if _, ok := p.str(); !ok {
					return 0, false
				}
				p.ws()
				if !p.expect(':', "':' expected after the key") {
					return 0, false
				}
				p.ws()
			}
			if _, ok := p.skip(depth + 1); !ok {
				return 0, false
			}
			p.ws()
			if p.peek() == ',' {
				p.i++
				continue
			}
			if !p.expect(closing, "',' or '"+string(closing)+"' expected") {
				return 0, false
			}
			return p.i, true
		}
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit {
				p.i += len(lit)
				return p.i, true
			}
		}
	}
	if p.i >= len(p.s) {
		return 0, p.fail(p.i, ErrJSON, "value expected: the line ends")
	}
	return 0, p.fail(p.i, ErrJSON, "invalid value")
}

// number checks a JSON number at p.i.
func (p *jsonParser) number() (int, bool) {
	start := p.i
	digits := func() int {
		k := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		return p.i - k
	}
	if p.peek() == '-' {
		p.i++
	}
	if p.peek() == '0' {
		p.i++
	} else if digits() == 0 {
		return 0, p.fail(start, ErrJSON, "invalid number")
	}
	if p.peek() == '.' {
		p.i++
		if digits() == 0 {
			return 0, p.fail(start, ErrJSON, "invalid number")
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if digits() == 0 {
			return 0, p.fail(start, ErrJSON, "invalid number")
		}
	}
	if c := p.peek(); c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' {
		return 0, p.fail(start, ErrJSON, "invalid number")
	}
	return p.i, true
}

// turnNumber reads the turn number that starts a move string of JSON Lines, "N." with N
// from 1 and a move after it: k is where the move starts, 0 when there is no number.
func turnNumber(s string) (n, k int) {
	for k < len(s) && k < 9 && s[k] >= '0' && s[k] <= '9' {
		n = n*10 + int(s[k]-'0')
		k++
	}
	if k == 0 || n == 0 || k+1 >= len(s) || s[k] != '.' || s[k+1] == '.' {
		return 0, 0
	}
	return n, k + 1
}
