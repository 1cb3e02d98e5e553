package ingest

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The Abstract Play reader (docs/formats/abstractplay.md). See the Abstract Play
// section of NewReader for the mapping to records.

// FormatAbstractPlay is the JSON export of Abstract Play
// (docs/formats/abstractplay.md), read only; see the Abstract Play section of
// [NewReader].
const FormatAbstractPlay Format = 4

func init() {
	registerSite(siteFormat{
		format:    FormatAbstractPlay,
		name:      "abstractplay",
		detect:    detectAbstractPlay,
		newReader: func(r *Reader) formatReader { return &apReader{Reader: r} },
	})
}

// detectAbstractPlay claims a first line that opens a JSON array ('[' followed by '{',
// ']' or nothing), a JSON object alone on its line (a pretty-printed document, not JSON
// Lines), or an object whose first key is "header" with an object value (a JSON Lines
// record may have a "header" tag of another kind, which the JSON Lines writer writes as
// a string).
func detectAbstractPlay(line []byte) bool {
	j := skipSpace(line, 1)
	switch line[0] {
	case '[':
		return j == len(line) || line[j] == '{' || line[j] == ']'
	case '{':
		if j == len(line) {
			return true
		}
		if rest, ok := bytes.CutPrefix(line[j:], []byte(`"header"`)); ok {
			if k := skipSpace(rest, 0); k < len(rest) && rest[k] == ':' {
				k = skipSpace(rest, k+1)
				return k == len(rest) || rest[k] == '{'
			}
		}
	}
	return false
}

// The tags an Abstract Play record gets besides the known ones. Any other key
// of the header is kept as a tag of its own name.
const (
	tagVariant     = "Variant"     // the variants, joined by ","
	tagLightUserID = "LightUserId" // players[0].userid
	tagDarkUserID  = "DarkUserId"  // players[1].userid
	tagLightIsAI   = "LightIsAI"   // players[0].is_ai: true for a bot
	tagDarkIsAI    = "DarkIsAI"    // players[1].is_ai
	tagUnrated     = "Unrated"     // header "unrated"
	apSite         = "Abstract Play"
)

// apReader reads Abstract Play records from the lines of its Reader (the formatReader
// of FormatAbstractPlay), keeping its state between records.
type apReader struct {
	*Reader
	esc       []byte // scratch for strings with escapes
	inArray   bool   // inside a top-level array of records
	afterLong bool   // a line too long to read came last in the array: any separator may follow
	afterElem bool   // a record of the array was read: ',' or ']' comes next
	elems     int    // records of the current array
	sepErr    bool   // a misplaced or missing ',' before the next record
	sepLine   int
	sepCol    int
	sepMsg    string
	buf       []byte // the text of the record being read: its lines joined by \n
	line, col int    // where it starts in the input

	// Where pos last looked: offset at of buf is on the line lines after the first,
	// whose text starts at offset from.
	at, lines, from int

	names nameSet // the names of the tags of the record being made (toRecord)
}

// read reads the next Abstract Play record.
func (r *apReader) read() (*Record, error) {
	a := r
lines:
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				return nil, r.lr.err
			}
			if a.inArray {
				a.inArray = false
				if !a.afterLong { // (it may have closed on the line too long to read)
					return nil, fmt.Errorf("%w: %s: the array of records is not closed: ']' missing at the end", ErrJSON, r.source)
				}
			}
			return nil, io.EOF
		}
		ln := r.lr.num
		i := r.resume
		r.resume = 0
		if r.lr.long {
			// Its records cannot be read: the line is one unreadable record, taken to hold
			// whole values, and the lines after it are read.
			r.index++
			rec := newRecord(r.source, FormatAbstractPlay)
			rec.Index, rec.Line, rec.Raw = r.index, ln, keepRaw(nil, line)
			if j := skipSpace(line, i); !a.inArray && j < len(line) && line[j] == '[' {
				a.inArray, a.elems = true, 1 // an array opens on it, and may go on after it
			}
			a.afterLong = a.inArray
			return rec, r.parseError(rec, ln, MaxLineLength+1, ErrLineTooLong,
				"line longer than "+strconv.Itoa(MaxLineLength)+" bytes: the records on it are not read")
		}
		for i < len(line) {
			c := line[i]
			switch {
			case isSpace(c):
				i++
			case a.inArray && c == ',':
				if !a.afterElem && !a.afterLong {
					a.sep(ln, i+1, "',' without a record before it")
				}
				a.afterElem, a.afterLong = false, false
				i++
			case a.inArray && c == ']':
				if !a.afterElem && a.elems > 0 && !a.afterLong {
					return nil, fmt.Errorf("%w: %s:%d:%d: ',' before ']' (trailing comma)", ErrJSON, r.source, ln, i+1)
				}
				a.inArray, a.afterElem, a.afterLong = false, false, false
				i++
			case c == '}' || c == ']' && !a.inArray:
				// A bracket that closes nothing (a record closed twice, an edit gone
				// wrong): no record, passed over with a notice.
				r.notice(ln, i+1, quote(string(c))+" that closes nothing: skipped")
				i++
			case !a.inArray && c == '[':
				a.inArray, a.afterElem, a.elems = true, false, 0
				i++
			case c == '{' || a.inArray:
				if a.inArray {
					if a.afterElem && !a.afterLong {
						a.sep(ln, i+1, "',' missing between two records")
					}
					a.afterLong = false
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
func (r *apReader) apElement(line []byte, i, ln int) (*Record, error) {
	a := r
	start := i
	a.buf = a.buf[:0]
	a.line, a.col, a.at, a.lines, a.from = ln, i+1, 0, 0, 0
	tooLarge, long := false, false
	tooLine, tooCol := 0, 0 // where the record crossed its limit
	limit := min(r.lim.MaxDocument, r.lim.MaxRecordBytes)
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
			if len(a.buf)+stop-i > limit {
				tooLarge, tooLine, tooCol = true, r.lr.num, i+limit-len(a.buf)+1
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
		switch {
		case tooLarge:
		case len(a.buf) >= limit: // the line end crosses the limit
			tooLarge, tooLine, tooCol = true, r.lr.num, len(line)+1
		default:
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
	case tooLarge && r.lim.MaxDocument < r.lim.MaxRecordBytes:
		return fail(tooLine, tooCol, ErrTooLarge, "record larger than "+strconv.Itoa(r.lim.MaxDocument)+" bytes (the limit MaxDocument)")
	case tooLarge:
		return fail(tooLine, tooCol, ErrTooLarge, r.lim.recordTooLarge())
	case long:
		return fail(ln, start+1, ErrLineTooLong, "a line of the record is longer than "+strconv.Itoa(MaxLineLength)+" bytes")
	case scalar || a.buf[0] != '{':
		return fail(ln, start+1, ErrJSON, "a record must be a JSON object")
	}
	p := jsonParser{s: string(a.buf), buf: r.esc, lim: &r.lim}
	var ap apRecord
	ok := ap.parse(&p)
	r.esc = p.buf
	if p.badCol > 0 {
		l, c := a.pos(p.badCol - 1)
		r.bad = badUTF8{line: l, col: c, what: "a string", more: p.badMore}
		r.noteReplaced()
	}
	if !ok {
		l, c := a.pos(p.col - 1)
		return fail(l, c, p.kind, p.msg)
	}
	if !ap.isPonte() {
		if sepErr {
			return fail(0, 0, nil, "")
		}
		r.notice(ln, start+1, "record of the game "+quote(ap.game)+" skipped: not Ponte del Diavolo")
		return nil, nil
	}
	slips, bad := ap.toRecord(rec, a)
	if bad != nil {
		return fail(bad.line, bad.col, bad.kind, bad.msg)
	}
	if sepErr {
		return fail(0, 0, nil, "")
	}
	r.index++
	rec.Index = r.index
	for _, e := range slips {
		rec.slip(r.parseError(rec, e.line, e.col, e.kind, e.msg))
	}
	return rec, nil
}

// pos returns the line and column of offset off of the record's text. It counts the
// line ends of the text from where it last looked (from the start when off is before
// it), so that the positions of a record's moves, asked in order, take one pass.
func (a *apReader) pos(off int) (line, col int) {
	off = min(off, len(a.buf))
	if off < a.at {
		a.at, a.lines, a.from = 0, 0, 0
	}
	for {
		k := bytes.IndexByte(a.buf[a.at:off], '\n')
		if k < 0 {
			break
		}
		a.lines++
		a.from = a.at + k + 1
		a.at = a.from
	}
	a.at = off
	if a.lines == 0 {
		return a.line, a.col + off
	}
	return a.line + a.lines, 1 + off - a.from
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
	dateStart apString
	pie       bool
	pieAt     int
	players   []apPlayer // the first two
	nplayers  int        // all of them
	playersAt int
	kept      int // values kept as tags
	entries   []apEntry
	extra     []apTag // other keys of the header, kept as tags
	header    bool
	sawMoves  bool
}

type apString struct {
	s  string
	at int
}

// apTag is a header key kept as a tag, with where its value starts.
type apTag struct {
	name, value string
	at          int
}

// apPlayer holds the values of one player, as text ("" when absent), and where the
// claims stand.
type apPlayer struct {
	name, userid, isAI string
	score, result      apString
	extra              []apTag // other keys, as tags "Light"/"Dark" + Key
}

// apEntry is one entry of a round: a move or a terminal entry (a null entry, a seat that
// did not move, is not kept).
type apEntry struct {
	s    string
	at   int
	seat int // its place in the round: 0 the first seat (Light), 1 the second
}

// apProblem is a bad value: where, of what kind, and what is wrong.
type apProblem struct {
	line, col int
	kind      error
	msg       string
}

// The site's terminal entries (not turns) and the termination each claims.
var apTerminal = map[string]string{
	"resign": "resign", "timeout": "time", "draw": "agreement", "abandoned": "abandoned",
}

// isPonte reports whether the record is a game of Ponte del Diavolo: by its game name,
// else by the site's game id ("pontedd#…"); a record that names neither is taken.
func (ap *apRecord) isPonte() bool {
	if strings.HasPrefix(ap.gameID, "pontedd#") {
		return true
	}
	return !ap.haveGame || isPonteName(ap.game)
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
	case !ap.header && !ap.sawMoves:
		return p.fail(end, ErrNotRecord, "keys \"header\" and \"moves\" missing")
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
			ap.dateStart.at = p.i
			return p.textValue(&ap.dateStart.s)
		case "pied", "pie-invoked": // "pie-invoked": the key of earlier exports
			at := p.i
			var v string
			if !p.textValue(&v) {
				return false
			}
			switch v {
			case "true":
				ap.pie, ap.pieAt = true, at
			case "false", "":
			default:
				return p.fail(at, ErrJSON, quote(key)+" must be true or false")
			}
			return true
		case "players":
			ap.players, ap.nplayers, ap.playersAt = ap.players[:0], 0, p.i
			return p.array("players", func() bool {
				var pl apPlayer
				ok := p.object("an object expected", func(key string, keyAt int) bool {
					switch key {
					case "name":
						return p.textValue(&pl.name)
					case "userid":
						return p.textValue(&pl.userid)
					case "is_ai":
						return p.textValue(&pl.isAI)
					case "score":
						pl.score.at = p.i
						return p.textValue(&pl.score.s)
					case "result":
						pl.result.at = p.i
						return p.textValue(&pl.result.s)
					}
					return ap.keep(p, &pl.extra, key, keyAt)
				})
				if ap.nplayers++; len(ap.players) < 2 {
					ap.players = append(ap.players, pl)
				}
				return ok
			})
		}
		return ap.keep(p, &ap.extra, key, keyAt)
	})
}

// keep reads the value of a key kept as a tag (keptValue), within MaxTags of them; keyAt
// is where the key stands.
func (ap *apRecord) keep(p *jsonParser, tags *[]apTag, key string, keyAt int) bool {
	if ap.kept++; ap.kept > p.lim.MaxTags {
		return p.fail(keyAt, ErrTooLarge, p.lim.tooManyTags())
	}
	return p.keptValue(tags, key)
}

// keptValue reads the value of a key that is kept as a tag of its name: a string as
// it is, a number or boolean as written, an object or array as its JSON text; null is
// as if absent.
func (p *jsonParser) keptValue(tags *[]apTag, key string) bool {
	at := p.i
	if p.peek() == '"' {
		s, ok := p.str()
		*tags = append(*tags, apTag{key, s, at})
		return ok
	}
	end, ok := p.skip(0)
	if ok && p.s[at:end] != "null" {
		*tags = append(*tags, apTag{key, p.text(at, end), at})
	}
	return ok
}

// parseMoves reads the rounds: arrays of one or two entries, each a string, null, or
// an object with a "move" string; an entry outside a round is read as a round of its
// own.
func (ap *apRecord) parseMoves(p *jsonParser) bool {
	seat, turns := 0, 0
	entry := func() bool {
		at := p.i
		if c := p.peek(); c == '"' || c == '{' {
			if turns++; turns > p.lim.MaxTurns {
				return p.fail(at, ErrTooLarge, p.lim.tooManyTurns())
			}
		}
		switch p.peek() {
		case '"':
			s, ok := p.str()
			if ok {
				ap.entries = append(ap.entries, apEntry{s: s, at: at, seat: seat})
			}
			return ok
		case 'n':
			end, ok := p.skip(0)
			if !ok {
				return false
			}
			if p.s[at:end] == "null" {
				return true // that seat did not move: nothing to keep
			}
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
					ap.entries = append(ap.entries, apEntry{s: s, at: at, seat: seat})
				}
				return ok
			})
			if ok && !found {
				return p.fail(at, ErrJSON, "a move object without \"move\"")
			}
			return ok
		}
		return p.fail(at, ErrJSON, "a move must be a string, null or an object with \"move\"")
	}
	return p.array("moves", func() bool {
		seat = 0
		if p.peek() != '[' {
			return entry()
		}
		at := p.i
		n := 0
		ok := p.array("a round", func() bool {
			if n == 2 {
				return p.fail(p.i, ErrJSON, "a round of more than two entries (one per seat)")
			}
			seat = n
			n++
			return entry()
		})
		if ok && n == 0 {
			return p.fail(at, ErrJSON, "an empty round")
		}
		return ok
	})
}

// toRecord fills rec from the record read. It returns the slips (claims and dates that
// cannot be read, which cost the claim, not the game) and the one problem that makes the
// record unreadable, if any.
func (ap *apRecord) toRecord(rec *Record, a *apReader) (slips []apProblem, bad *apProblem) {
	problem := func(at int, kind error, msg string) *apProblem {
		line, col := a.pos(at)
		return &apProblem{line, col, kind, msg}
	}
	slip := func(at int, msg string) {
		slips = append(slips, *problem(at, ErrTagValue, msg))
	}
	size, sizeFrom := 10, ""
	var others []string
	for _, v := range ap.variants {
		n, isSize, ok := apVariantSize(v.s)
		switch {
		case !isSize:
			others = append(others, v.s)
			continue
		case !ok:
			return nil, problem(v.at, ErrTagValue, "variant "+quote(v.s)+": the board side must be from 5 to 26")
		case sizeFrom != "" && n != size:
			return nil, problem(v.at, ErrTagValue, "variant "+quote(v.s)+" contradicts the variant "+quote(sizeFrom)+": the board size cannot be told")
		}
		size, sizeFrom = n, v.s
	}
	if ap.nplayers != 2 {
		return nil, problem(ap.playersAt, ErrJSON, "\"players\" must list two players, not "+strconv.Itoa(ap.nplayers))
	}

	// The moves, and the terminal entry that ends them.
	moves := make([]Token, 0, len(ap.entries)+1)
	var term *apEntry
	for k := range ap.entries {
		e := &ap.entries[k]
		if term != nil {
			return nil, problem(e.at, ErrMove, "entry "+quote(e.s)+" after the terminal entry "+quote(term.s)+": no move follows it")
		}
		if _, ok := apTerminal[e.s]; ok {
			term = e
			continue
		}
		line, col := a.pos(e.at)
		moves = append(moves, Token{Text: e.s, Line: line, Col: col})
		if len(moves) == 1 && ap.pie {
			line, col := a.pos(ap.pieAt)
			moves = append(moves, Token{Text: "swap", Line: line, Col: col})
		}
	}
	if ap.pie && len(moves) == 0 {
		slip(ap.pieAt, "\"pied\" is true, but no first move was played to take over")
	}

	kept := len(ap.extra) + len(ap.players[0].extra) + len(ap.players[1].extra)
	tags := make([]Tag, 0, 24+kept)
	names := &a.names // finds the names of tags
	names.reset()
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
	if ap.dateStart.s != "" {
		if d, ok := isoDate(ap.dateStart.s[:min(10, len(ap.dateStart.s))]); ok {
			add(tagDate, d)
		} else {
			slip(ap.dateStart.at, "date-start "+quote(ap.dateStart.s)+": must be an ISO date, YYYY-MM-DD…")
		}
	}
	light, dark := &ap.players[0], &ap.players[1]
	add(tagLight, light.name)
	add(tagDark, dark.name)
	if ap.pie {
		add(tagOpener, dark.name)
	} else {
		add(tagOpener, light.name)
	}
	add(tagSize, strconv.Itoa(size))
	add(tagSupply, "unlimited")

	// The claims: the players' results and scores, and the terminal entry. pair reads a
	// value both players give: ok when both are given and read; one that cannot be read, or
	// given for one player only, is a slip.
	pair := func(what, must string, l, d apString, read func(string) (float64, bool)) (lv, dv float64, ok bool) {
		lv, lok := read(l.s)
		dv, dok := read(d.s)
		switch {
		case l.s == "" && d.s == "":
		case l.s != "" && !lok:
			slip(l.at, "players[0]."+what+" "+quote(l.s)+": "+must)
		case d.s != "" && !dok:
			slip(d.at, "players[1]."+what+" "+quote(d.s)+": "+must)
		case l.s == "" || d.s == "":
			slip(ap.playersAt, "a "+what+" for one player only: no "+what+" is claimed")
		default:
			return lv, dv, true
		}
		return 0, 0, false
	}
	result, resultAt := "", light.result.at
	if lr, dr, ok := pair("result", "must be a number", light.result, dark.result, apNumber); ok {
		switch {
		case lr > dr:
			result = "1-0"
		case lr < dr:
			result = "0-1"
		default:
			result = "1/2-1/2"
		}
	}
	if term != nil {
		termination := apTerminal[term.s]
		var says string // the result the terminal entry implies
		switch {
		case termination == "agreement":
			says = "1/2-1/2"
		case termination != "abandoned" && term.seat == 0:
			says = "0-1"
		case termination != "abandoned":
			says = "1-0"
		}
		switch {
		case result == "":
			result = says
		case says != "" && result != says:
			slip(resultAt, "the players' results claim "+result+", but the entry "+quote(term.s)+" of the "+
				[2]string{"first", "second"}[term.seat]+" seat means "+says+": no result is claimed")
			result = ""
		}
		add(tagTermination, termination)
	}
	add(tagResult, result)
	if ls, ds, ok := pair("score", "must be a whole number of points", light.score, dark.score, apCount); ok {
		add(tagScore, strconv.Itoa(int(ls))+"-"+strconv.Itoa(int(ds)))
	}

	add(tagVariant, strings.Join(others, ","))
	add(tagLightUserID, light.userid)
	add(tagDarkUserID, dark.userid)
	add(tagLightIsAI, light.isAI)
	add(tagDarkIsAI, dark.isAI)
	// addKept adds a key kept as a tag, unless its name is taken: a slip then.
	addKept := func(name string, t apTag) {
		if names.has(tags, name) {
			slip(t.at, "key "+quote(t.name)+": the tag "+quote(name)+" is given already")
			return
		}
		add(name, t.value)
	}
	for k, pl := range [2]*apPlayer{light, dark} {
		for _, t := range pl.extra {
			addKept([2]string{"Light", "Dark"}[k]+strings.ToUpper(t.name[:min(1, len(t.name))])+t.name[min(1, len(t.name)):], t)
		}
	}
	for _, t := range ap.extra {
		name := t.name
		switch name {
		case "event":
			name = tagEvent
		case "round":
			name = tagRound
		case "unrated":
			name = tagUnrated
		}
		addKept(name, t)
	}
	rec.Tags = tags
	rec.Moves = moves
	rec.derive()
	return slips, nil
}

// apVariantSize reads a variant that names the board: "size-N", "NxN board",
// "Default board" or "#board" (10). isSize is false for any other variant; ok is false
// for a size off the range 5–26.
func apVariantSize(v string) (n int, isSize, ok bool) {
	l := strings.ToLower(strings.TrimSpace(v))
	switch l {
	case "default board", "#board", "default":
		return 10, true, true
	}
	if rest, found := strings.CutPrefix(l, "size-"); found {
		n, ok = atoi(rest, 2)
		return n, true, ok && n >= 5 && n <= 26
	}
	if rest, found := strings.CutSuffix(l, " board"); found {
		a, b, found := strings.Cut(rest, "x")
		if found && a == b {
			n, ok = atoi(a, 2)
			return n, true, ok && n >= 5 && n <= 26
		}
	}
	return 0, false, false
}

// apNumber reads a JSON number (a player's result).
func apNumber(s string) (float64, bool) {
	if s == "" || s[0] == '"' {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// apCount reads a whole number of points, as the site writes it (10, or 10.0).
func apCount(s string) (float64, bool) {
	f, ok := apNumber(s)
	return f, ok && f >= 0 && f <= 1e6 && f == float64(int(f))
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
