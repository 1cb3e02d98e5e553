package ingest

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// The Abstract Play reader (formats/abstractplay.md). See the Abstract Play
// section of NewReader for the mapping to records.

// The tags an Abstract Play record gets besides the known ones.
const (
	tagVariant         = "Variant"         // the variants, joined by ","
	tagLightUserID     = "LightUserId"     // players[0].userid
	tagDarkUserID      = "DarkUserId"      // players[1].userid
	tagLightSiteScore  = "LightSiteScore"  // players[0].score, the site's count
	tagDarkSiteScore   = "DarkSiteScore"   // players[1].score
	tagLightSiteResult = "LightSiteResult" // players[0].result, 1 for a win
	tagDarkSiteResult  = "DarkSiteResult"  // players[1].result
	tagLightIsAI       = "LightIsAI"       // players[0].is_ai
	tagDarkIsAI        = "DarkIsAI"        // players[1].is_ai
	tagProvenance      = "Provenance"      // how the colours were assigned
	apSite             = "Abstract Play"
	apProvenance       = "Abstract Play export: players[0] taken as Light, players[1] as Dark (the site does not document their order after the pie swap)"
)

// apReader is the Abstract Play reader's state kept between records.
type apReader struct {
	inArray   bool // inside a top-level array of records
	afterElem bool // a record of the array was read: ',' or ']' comes next
	elems     int  // records of the current array
	sepErr    bool // a misplaced or missing ',' before the next record
	sepLine   int
	sepCol    int
	sepMsg    string
	buf       []byte  // the text of the record being read
	segs      []apSeg // where each line of buf comes from
}

// apSeg maps buf[off:] to line and col of the input.
type apSeg struct{ off, line, col int }

// readAbstractPlay reads the next Abstract Play record.
func (r *Reader) readAbstractPlay() (*Record, error) {
	a := &r.ap
lines:
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				return nil, r.lr.err
			}
			if a.inArray {
				a.inArray = false
				return nil, fmt.Errorf("%w: %s: the array of records is not closed: ']' missing at the end", ErrJSON, r.source)
			}
			return nil, io.EOF
		}
		ln := r.lr.num
		i := r.resume
		r.resume = 0
		if r.lr.long {
			return nil, fmt.Errorf("%w: %s: line %d is longer than %d bytes", ErrLineTooLong, r.source, ln, MaxLineLength)
		}
		for i < len(line) {
			c := line[i]
			switch {
			case isSpace(c):
				i++
			case a.inArray && c == ',':
				if !a.afterElem {
					a.sep(ln, i+1, "',' without a record before it")
				}
				a.afterElem = false
				i++
			case a.inArray && c == ']':
				if !a.afterElem && a.elems > 0 {
					return nil, fmt.Errorf("%w: %s:%d:%d: ',' before ']' (trailing comma)", ErrJSON, r.source, ln, i+1)
				}
				a.inArray, a.afterElem = false, false
				i++
			case !a.inArray && c == '[':
				a.inArray, a.afterElem, a.elems = true, false, 0
				i++
			case c == '{' || a.inArray:
				if a.inArray {
					if a.afterElem {
						a.sep(ln, i+1, "',' missing between two records")
					}
					a.afterElem = true
					a.elems++
				}
				rec, err := r.apElement(line, i, ln)
				if rec != nil || err != nil {
					return rec, err
				}
				continue lines // skipped with a notice: go on after it
			default:
				return nil, fmt.Errorf("%w: %s:%d:%d: %s outside a record", ErrJSON, r.source, ln, i+1, quote(string(line[i:min(i+8, len(line))])))
			}
		}
	}
}

// sep records the first separator error before the next record.
func (a *apReader) sep(line, col int, msg string) {
	if !a.sepErr {
		a.sepErr, a.sepLine, a.sepCol, a.sepMsg = true, line, col, msg
	}
}

// apElement reads the JSON value that starts at line[i] and makes a record
// of it. It leaves the line where the value ended pushed back, with
// r.resume after the value. It returns a nil record and error for a record
// skipped with a notice.
func (r *Reader) apElement(line []byte, i, ln int) (*Record, error) {
	a := &r.ap
	start := i
	a.buf = a.buf[:0]
	a.segs = append(a.segs[:0], apSeg{0, ln, i + 1})
	tooLarge, long := false, false
	depth, inStr, esc := 0, false, false
	scalar := line[i] != '{' && line[i] != '['
	end := -1
	for end < 0 {
		k, strAt := i, 0
		for ; k < len(line); k++ {
			c := line[k]
			if inStr && k == len(line)-1 && c != '"' || inStr && esc && k == len(line)-1 {
				// A string cannot go on on the next line: most likely its
				// closing quote is missing, so what follows its opening
				// quote is read as structure again.
				inStr, esc = false, false
				k = strAt
				continue
			}
			if inStr {
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = false
				}
				continue
			}
			if scalar {
				if k > start && (c == ',' || c == ']' || c == '}' || c == '{' || c == '[' || c == '"' || isSpace(c)) {
					end = k
					break
				}
				if c == '"' {
					inStr, strAt = true, k
				}
				continue
			}
			switch c {
			case '"':
				inStr, strAt = true, k
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			if depth == 0 {
				end = k + 1
				break
			}
		}
		stop := k
		if end >= 0 {
			stop = end
		}
		if !tooLarge {
			if len(a.buf)+stop-i > MaxDocument {
				tooLarge = true
			} else {
				a.buf = append(a.buf, line[i:stop]...)
			}
		}
		if end >= 0 {
			break
		}
		if scalar && !inStr {
			end = len(line) // a scalar ends with its line
			break
		}
		// The value goes on on the next line. A string cannot.
		inStr, esc = false, false
		if !tooLarge {
			a.buf = append(a.buf, '\n')
		}
		var ok bool
		line, ok = r.lr.next()
		if !ok {
			break
		}
		if r.lr.long {
			long = true
		}
		i = 0
		a.segs = append(a.segs, apSeg{len(a.buf), r.lr.num, 1})
	}
	rec := newRecord(r.source, FormatAbstractPlay)
	rec.Line = ln
	sepErr := a.sepErr
	a.sepErr = false
	if end >= 0 {
		r.resume = end
		r.lr.unread()
	} else if r.lr.err != io.EOF {
		return nil, r.lr.err
	}
	fail := func(line, col int, kind error, msg string) (*Record, error) {
		r.index++
		rec.Index = r.index
		if sepErr {
			line, col, kind, msg = a.sepLine, a.sepCol, ErrJSON, a.sepMsg
		}
		rec.Raw = append([]byte{}, a.buf[:min(len(a.buf), MaxRaw)]...)
		return rec, r.parseError(rec, line, col, kind, msg)
	}
	switch {
	case end < 0:
		return fail(ln, start+1, ErrJSON, "record not closed: the input ends")
	case tooLarge:
		return fail(ln, start+1, ErrTooLarge, "record larger than "+strconv.Itoa(MaxDocument)+" bytes (the limit MaxDocument)")
	case long:
		return fail(ln, start+1, ErrLineTooLong, "a line of the record is longer than "+strconv.Itoa(MaxLineLength)+" bytes")
	case scalar || a.buf[0] != '{':
		return fail(ln, start+1, ErrJSON, "a record must be a JSON object")
	}
	p := jsonParser{s: string(a.buf), buf: r.esc}
	var ap apRecord
	ok := ap.parse(&p)
	r.esc = p.buf
	if !ok {
		l, c := a.pos(p.col - 1)
		return fail(l, c, p.kind, p.msg)
	}
	if ap.haveGame && !isPonteName(ap.game) {
		if sepErr {
			return fail(0, 0, nil, "")
		}
		r.notice(ln, start+1, "record of the game "+quote(ap.game)+" skipped: not Ponte del Diavolo")
		return nil, nil
	}
	if line, col, msg := ap.toRecord(rec, a); msg != "" {
		return fail(line, col, ErrTagValue, msg)
	}
	if sepErr {
		return fail(0, 0, nil, "")
	}
	r.index++
	rec.Index = r.index
	return rec, nil
}

// pos returns the line and column of offset off of the record's text.
func (a *apReader) pos(off int) (line, col int) {
	k := sort.Search(len(a.segs), func(k int) bool { return a.segs[k].off > off }) - 1
	if k < 0 {
		k = 0
	}
	s := a.segs[k]
	return s.line, s.col + off - s.off
}

// isPonteName reports whether a game name is Ponte del Diavolo.
func isPonteName(s string) bool {
	var b []byte
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '-' && c != '_' {
			b = append(b, c|0x20)
		}
	}
	return string(b) == "pontedeldiavolo"
}

// apRecord is what is read of one record, with offsets in its text.
type apRecord struct {
	game      string
	haveGame  bool
	variants  []apString
	siteName  string
	gameID    string
	dateStart string
	pie       bool
	pieAt     int
	players   []apPlayer
	moves     []apString
	header    bool
	sawMoves  bool
}

type apString struct {
	s  string
	at int
}

// apPlayer holds the values of one player, as text ("" when absent).
type apPlayer struct {
	name, userid, isAI, score, result string
}

// parse reads the record object.
func (ap *apRecord) parse(p *jsonParser) bool {
	p.ws()
	ok := p.object("an object expected", func(key string, keyAt int) bool {
		switch key {
		case "header":
			if ap.header {
				return p.fail(keyAt, ErrJSON, "duplicate key \"header\"")
			}
			ap.header = true
			return ap.parseHeader(p)
		case "moves":
			if ap.sawMoves {
				return p.fail(keyAt, ErrJSON, "duplicate key \"moves\"")
			}
			ap.sawMoves = true
			return ap.parseMoves(p)
		}
		_, ok := p.skip(0)
		return ok
	})
	if !ok {
		return false
	}
	end := p.i - 1
	p.ws()
	if p.i < len(p.s) {
		return p.fail(p.i, ErrJSON, "text after the record")
	}
	switch {
	case !ap.header:
		return p.fail(end, ErrJSON, "key \"header\" missing")
	case !ap.sawMoves:
		return p.fail(end, ErrJSON, "key \"moves\" missing")
	}
	return true
}

func (ap *apRecord) parseHeader(p *jsonParser) bool {
	return p.object("an object expected", func(key string, keyAt int) bool {
		switch key {
		case "game":
			return p.object("an object expected", func(key string, _ int) bool {
				switch key {
				case "name":
					ap.haveGame = true
					return p.stringValue(&ap.game, "game.name")
				case "variants":
					ap.variants = ap.variants[:0]
					if p.peek() == 'n' {
						_, ok := p.skip(0)
						return ok
					}
					return p.array("game.variants", func() bool {
						at := p.i
						var v string
						if !p.stringValue(&v, "a variant") {
							return false
						}
						ap.variants = append(ap.variants, apString{v, at})
						return true
					})
				}
				_, ok := p.skip(0)
				return ok
			})
		case "site":
			return p.object("an object expected", func(key string, _ int) bool {
				switch key {
				case "name":
					return p.stringValue(&ap.siteName, "site.name")
				case "gameid":
					return p.textValue(&ap.gameID)
				}
				_, ok := p.skip(0)
				return ok
			})
		case "date-start":
			return p.stringValue(&ap.dateStart, "date-start")
		case "pie-invoked":
			at := p.i
			var v string
			if !p.textValue(&v) {
				return false
			}
			switch v {
			case "true":
				ap.pie, ap.pieAt = true, at
			case "false", "":
				ap.pie = false
			default:
				return p.fail(at, ErrJSON, "\"pie-invoked\" must be true or false")
			}
			return true
		case "players":
			ap.players = ap.players[:0]
			return p.array("players", func() bool {
				var pl apPlayer
				ok := p.object("an object expected", func(key string, _ int) bool {
					switch key {
					case "name":
						return p.textValue(&pl.name)
					case "userid":
						return p.textValue(&pl.userid)
					case "is_ai":
						return p.textValue(&pl.isAI)
					case "score":
						return p.textValue(&pl.score)
					case "result":
						return p.textValue(&pl.result)
					}
					_, ok := p.skip(0)
					return ok
				})
				ap.players = append(ap.players, pl)
				return ok
			})
		}
		_, ok := p.skip(0)
		return ok
	})
}

// parseMoves reads the rounds: arrays of one or two moves, each a string or
// an object with a "move" string; a move outside a round is read as a round
// of its own.
func (ap *apRecord) parseMoves(p *jsonParser) bool {
	move := func() bool {
		at := p.i
		switch p.peek() {
		case '"':
			s, ok := p.str()
			if ok {
				ap.moves = append(ap.moves, apString{s, at})
			}
			return ok
		case '{':
			found := false
			ok := p.object("an object expected", func(key string, keyAt int) bool {
				if key != "move" {
					_, ok := p.skip(0)
					return ok
				}
				if found {
					return p.fail(keyAt, ErrJSON, "duplicate key \"move\"")
				}
				found = true
				at := p.i
				if p.peek() != '"' {
					return p.fail(at, ErrJSON, "\"move\" must be a string")
				}
				s, ok := p.str()
				if ok {
					ap.moves = append(ap.moves, apString{s, at})
				}
				return ok
			})
			if ok && !found {
				return p.fail(at, ErrJSON, "a move object without \"move\"")
			}
			return ok
		}
		return p.fail(at, ErrJSON, "a move must be a string or an object with \"move\"")
	}
	return p.array("moves", func() bool {
		if p.peek() != '[' {
			return move()
		}
		at := p.i
		n := 0
		ok := p.array("a round", func() bool {
			n++
			if n > 2 {
				return p.fail(p.i, ErrJSON, "a round of more than two moves")
			}
			return move()
		})
		if ok && n == 0 {
			return p.fail(at, ErrJSON, "an empty round")
		}
		return ok
	})
}

// toRecord fills rec from the record read; it returns the position and
// message of a bad value.
func (ap *apRecord) toRecord(rec *Record, a *apReader) (line, col int, msg string) {
	size := 10
	for _, v := range ap.variants {
		if rest, ok := strings.CutPrefix(v.s, "size-"); ok {
			n, ok := atoi(rest, 2)
			if !ok || n < 5 || n > 26 {
				line, col = a.pos(v.at)
				return line, col, "variant " + quote(v.s) + ": the board side must be from 5 to 26"
			}
			size = n
		}
	}
	if len(ap.players) != 2 {
		return a.segs[0].line, a.segs[0].col, "\"players\" must list two players, not " + strconv.Itoa(len(ap.players))
	}
	var tags []Tag
	add := func(name, value string) {
		if value = cleanValue(value); value != "" {
			tags = append(tags, Tag{name, value})
		}
	}
	site := ap.siteName
	if site == "" {
		site = apSite
	}
	add(tagSite, site)
	add(tagGameID, ap.gameID)
	if len(ap.dateStart) >= 10 {
		if d, ok := isoDate(ap.dateStart[:10]); ok {
			add(tagDate, d)
		}
	}
	light, dark := ap.players[0], ap.players[1]
	add(tagLight, light.name)
	add(tagDark, dark.name)
	if ap.pie {
		add(tagOpener, dark.name)
	} else {
		add(tagOpener, light.name)
	}
	add(tagSize, strconv.Itoa(size))
	add(tagSupply, "unlimited")
	var vs []string
	for _, v := range ap.variants {
		vs = append(vs, v.s)
	}
	add(tagVariant, strings.Join(vs, ","))
	add(tagLightUserID, light.userid)
	add(tagDarkUserID, dark.userid)
	add(tagLightSiteScore, light.score)
	add(tagDarkSiteScore, dark.score)
	add(tagLightSiteResult, light.result)
	add(tagDarkSiteResult, dark.result)
	add(tagLightIsAI, light.isAI)
	add(tagDarkIsAI, dark.isAI)
	add(tagProvenance, apProvenance)
	rec.Tags = tags
	moves := make([]Token, 0, len(ap.moves)+1)
	for k, m := range ap.moves {
		l, c := a.pos(m.at)
		moves = append(moves, Token{Text: m.s, Line: l, Col: c})
		if k == 0 && ap.pie {
			l, c := a.pos(ap.pieAt)
			moves = append(moves, Token{Text: "swap", Line: l, Col: c})
		}
	}
	rec.Moves = moves
	rec.derive()
	return 0, 0, ""
}

// stringValue reads a string, or null as "", into v.
func (p *jsonParser) stringValue(v *string, what string) bool {
	at := p.i
	switch p.peek() {
	case '"':
		s, ok := p.str()
		*v = s
		return ok
	case 'n':
		if _, ok := p.skip(0); !ok {
			return false
		}
		if p.s[at:p.i] == "null" {
			*v = ""
			return true
		}
	default:
		if _, ok := p.skip(0); !ok {
			return false
		}
	}
	return p.fail(at, ErrJSON, quote(what)+" must be a string")
}

// textValue reads a string, number, true, false or null (as "") into v.
func (p *jsonParser) textValue(v *string) bool {
	at := p.i
	switch c := p.peek(); {
	case c == '"':
		s, ok := p.str()
		*v = s
		return ok
	case c == '{' || c == '[':
		if _, ok := p.skip(0); !ok {
			return false
		}
		return p.fail(at, ErrJSON, "a string, number or boolean expected")
	}
	end, ok := p.skip(0)
	if !ok {
		return false
	}
	*v = p.s[at:end]
	if *v == "null" {
		*v = ""
	}
	return true
}
