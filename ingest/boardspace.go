package ingest

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// The boardspace.net reader (docs/formats/boardspace.md). See the Boardspace
// section of NewReader for the mapping to records.

// FormatBoardspace is the SGF-style game records of boardspace.net
// (docs/formats/boardspace.md), read only; see the Boardspace section of
// [NewReader] for how they map to records.
const FormatBoardspace Format = 3

func init() {
	registerSite(siteFormat{
		format:    FormatBoardspace,
		name:      "boardspace",
		detect:    func(line []byte) bool { return line[0] == '(' }, // a game tree
		newReader: func(r *Reader) formatReader { return &bsReader{Reader: r} },
	})
}

// The tags a boardspace.net record gets besides the known ones.
const (
	tagSeatP0       = "SeatP0"       // the P0 player (the opener)
	tagSeatP1       = "SeatP1"       // the P1 player
	tagSourceDate   = "SourceDate"   // DT as written
	tagSourceResult = "SourceResult" // RE as written: never trusted
	tagTimeControl  = "TimeControl"  // TC
	tagClockP0      = "ClockP0"      // P0's final clock, "H:MM:SS"
	tagClockP1      = "ClockP1"      // P1's final clock
	tagOpener       = "Opener"       // the player of turn 1
	bsSite          = "boardspace.net"
	bsGameName      = "PonteDelDiavolo"
	bsSize          = 10
	bsMaxValue      = 1 << 20 // longest property value read
	bsMaxProps      = 4096    // most properties of one node
)

// bsOffsets are the eight bridge orientations of boardspace.net, in the
// order in which the server tries them for the default orientation.
var bsOffsets = [8]struct {
	name   string
	dx, dy int
}{
	{"Bridge_30", -2, -1}, {"Bridge_45", -2, -2}, {"Bridge_60", -1, -2}, {"Bridge_90", 0, -2},
	{"Bridge_120", 1, -2}, {"Bridge_135", 2, -2}, {"Bridge_150", 2, -1}, {"Bridge_180", -2, 0},
}

// bsArgs are the moves of a turn, with the number of words after them.
var bsArgs = map[string]int{"tile": 3, "bridge": 3, "pick": 1, "dropb": 2, "bridgeend": 2,
	"pickb": 2, "drop": 1, "done": 0, "swap": 0, "pass": 0}

// bsReader reads boardspace.net game trees from the lines of its Reader (the
// formatReader of FormatBoardspace), keeping its state between records.
type bsReader struct {
	*Reader
	g    replay.Game // the game being replayed, reused
	tree bsTree
}

// maxClock is the largest TM, the seat's clock in milliseconds, that is read: 366 days.
// A larger one (TM[9223372036854775807] would be 292 million years of thinking) is
// reported with a notice and the turn has no think time.
const maxClock = 366 * 24 * 3600 * 1000

// shortValue cuts a property value for a message.
func shortValue(v string) string {
	if len(v) > 32 {
		return v[:32] + "..."
	}
	return v
}

// bsProp is one property value of the node being read.
type bsProp struct {
	name        string
	value       string
	line, col   int // of the name
	vline, vcol int // of the value's first byte
}

// The piece a player holds in the mouse dialect.
const (
	handNone = iota
	handTile
	handBridge
)

// bsTurn is the turn being assembled.
type bsTurn struct {
	open      bool
	seat      int
	line, col int // of the P0/P1 property of its first move
	tiles     [2]gamepkg.Cell
	n         int // tiles dropped
	bridge    bool
	anchor    gamepkg.Cell
	end       gamepkg.Cell
	endSet    bool
	hand      int
	swap      bool
	pass      bool
	tm        int // the seat's clock at the last move of the turn, -1 if none
}

func (tr *bsTurn) empty() bool {
	return tr.n == 0 && !tr.bridge && !tr.swap && !tr.pass && tr.hand == handNone
}

func (tr *bsTurn) complete() bool {
	return tr.hand == handNone && (tr.n == 2 || tr.bridge || tr.swap || tr.pass)
}

// bsTree is the game tree being read.
type bsTree struct {
	line, col int // of its '('
	raw       []byte
	closed    bool
	bytes     int  // bytes of the tree read so far
	over      bool // a limit was crossed: the tree is read to its end, nothing more kept

	// the first error
	err               bool
	errLine, errCol   int
	errKind           error
	errMsg            string
	skip              bool // not a Ponte tree: lexed to its end, then a notice
	skipMsg           string
	gm                string
	gmSeen            bool
	rootDone          bool
	nodeOpen          bool
	depth             int // nested variations
	props             []bsProp
	pend              string // a property name waiting for its '['
	pline, pcol       int
	last              string // the name of the last value, for NAME[a][b]
	inValue           bool
	esc               bool
	val               []byte
	valLong           bool
	vname             string
	vline, vcol       int
	vpline, vpcol     int
	gn, dt, re, tc    string
	haveGN, haveDT    bool
	haveRE, haveTC    bool
	names, clocks     [2]string
	haveName, haveClk [2]bool

	moves    []Token
	desync   bool // the engine rejected a turn: the position is no longer known
	swapped  bool
	ended    bool
	resigned int // the seat that resigned, -1
	lastTM   [2]int
	turn     bsTurn
}

// fail records the first error of the tree.
func (t *bsTree) fail(line, col int, kind error, msg string) {
	if !t.err {
		t.err, t.errLine, t.errCol, t.errKind, t.errMsg = true, line, col, kind, msg
	}
}

// read reads the next game tree of PonteDelDiavolo.
func (r *bsReader) read() (*Record, error) {
	b := r
	var t *bsTree
	junk := false
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				return nil, r.lr.err
			}
			if t == nil {
				return nil, io.EOF
			}
			if t.inValue {
				t.fail(t.vline, t.vcol, ErrSyntax, "property value not closed: ']' missing")
				t.inValue = false
			} else {
				t.fail(t.line, t.col, ErrSyntax, "game tree not closed: ')' missing")
			}
			r.bsEndNode(t)
			if rec, err, ok := r.bsFinish(t); ok {
				return rec, err
			}
			return nil, io.EOF
		}
		ln := r.lr.num
		i := r.resume
		r.resume = 0
		if r.lr.long {
			if t != nil {
				// What the rest of the line held is not known: the tree is taken to end
				// in it, so that the trees after it are read.
				t.raw = keepRaw(t.raw, line)
				col, kind, msg := r.lim.longLine(t.bytes+1, 0)
				t.fail(ln, col, kind, msg)
				t.over = true
				if rec, err, ok := r.bsFinish(t); ok {
					return rec, err
				}
				t = nil
			} else if k := bytes.IndexByte(line[i:], '('); k >= 0 {
				// A tree starts on it: it is one unreadable record.
				t = b.newTree(ln, i+k+1)
				t.raw = keepRaw(t.raw, line[i+k:])
				col, kind, msg := r.lim.longLine(0, i+k)
				t.fail(ln, col, kind, msg)
				t.over = true
				if rec, err, ok := r.bsFinish(t); ok {
					return rec, err
				}
				t = nil
			} else {
				r.notice(ln, 1, "line longer than "+strconv.Itoa(MaxLineLength)+" bytes skipped")
			}
			continue
		}
		if t != nil {
			t.raw = keepRaw(t.raw, line)
			t.bytes++ // the line end before the line
		}
		for i < len(line) {
			if t == nil {
				c := line[i]
				switch {
				case isSpace(c):
					i++
				case c == '(':
					t = b.newTree(ln, i+1)
					t.raw = keepRaw(t.raw, line[i:])
					junk = false
					i++
				default:
					if !junk {
						r.notice(ln, i+1, "text outside a game tree skipped")
						junk = true
					}
					if k := bytes.IndexByte(line[i:], '('); k >= 0 {
						i += k
					} else {
						i = len(line)
					}
				}
				continue
			}
			if end := max(i+r.lim.MaxRecordBytes-t.bytes, i); !t.over && end < len(line) {
				// The tree crosses its limit on this line: read it to there, then on
				// without keeping anything.
				k := r.bsLex(t, line[:end], i, ln)
				t.bytes += k - i
				i = k
				if !t.closed {
					t.fail(ln, i+1, ErrTooLarge, r.lim.recordTooLarge())
					t.over = true
				}
			}
			if !t.closed {
				k := r.bsLex(t, line, i, ln)
				t.bytes += k - i
				i = k
			}
			if t.closed {
				if rec, err, ok := r.bsFinish(t); ok {
					r.resume = i
					r.lr.unread()
					return rec, err
				}
				t = nil
			}
		}
		if t != nil && t.inValue {
			if t.esc {
				t.esc = false // a soft line break
			} else {
				t.addVal('\n')
			}
		}
	}
}

// newTree starts a game tree at line ln, column col.
func (b *bsReader) newTree(ln, col int) *bsTree {
	t := &b.tree
	*t = bsTree{line: ln, col: col, raw: t.raw[:0], props: t.props[:0], val: t.val[:0], resigned: -1, bytes: 1}
	t.turn.tm = -1
	b.g.Reset(bsSize, gamepkg.Supply40x15)
	return t
}

func (t *bsTree) addVal(c byte) {
	if t.over {
		return
	}
	if len(t.val) < bsMaxValue {
		t.val = append(t.val, c)
	} else {
		t.valLong = true
	}
}

func isNameChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// bsLex reads the tree from line[i:]; it returns where it stopped: at the
// end of the line, or after the ')' that closes the tree (t.closed).
func (r *bsReader) bsLex(t *bsTree, line []byte, i, ln int) int {
	for i < len(line) {
		if t.inValue {
			for i < len(line) {
				c := line[i]
				i++
				switch {
				case t.esc:
					t.esc = false
					t.addVal(c)
				case c == '\\':
					t.esc = true
				case c == ']':
					t.inValue = false
					r.bsEndValue(t)
				default:
					t.addVal(c)
				}
				if !t.inValue {
					break
				}
			}
			continue
		}
		c := line[i]
		switch {
		case isSpace(c):
			i++
		case c == ';':
			r.bsNoValue(t)
			r.bsEndNode(t)
			t.nodeOpen, t.last = true, ""
			i++
		case c == ')':
			r.bsNoValue(t)
			i++
			if t.depth > 0 {
				t.depth--
				continue
			}
			r.bsEndNode(t)
			t.closed = true
			return i
		case c == '(':
			r.bsNoValue(t)
			t.fail(ln, i+1, ErrSyntax, "a variation '(' inside a game tree: variations are not read")
			t.depth++
			i++
		case c == '[':
			name := t.pend
			if name == "" {
				name = t.last
				t.pline, t.pcol = ln, i+1
			}
			if name == "" {
				t.fail(ln, i+1, ErrSyntax, "'[' without a property name")
			}
			t.inValue, t.esc, t.valLong = true, false, false
			t.val = t.val[:0]
			t.vname, t.vline, t.vcol, t.vpline, t.vpcol = name, ln, i+2, t.pline, t.pcol
			t.pend = ""
			i++
		case isNameChar(c):
			r.bsNoValue(t)
			k := i
			for k < len(line) && isNameChar(line[k]) {
				k++
			}
			t.pend, t.pline, t.pcol = string(line[i:k]), ln, i+1
			i = k
		default:
			t.fail(ln, i+1, ErrSyntax, "unexpected "+quote(string(line[i:i+1]))+" in a game tree")
			i++
		}
	}
	return i
}

// bsNoValue reports a property name that is not followed by a value.
func (r *bsReader) bsNoValue(t *bsTree) {
	if t.pend != "" {
		t.fail(t.pline, t.pcol, ErrSyntax, "property "+quote(t.pend)+" without a value")
		t.pend = ""
	}
}

// bsEndValue stores the value just read.
func (r *bsReader) bsEndValue(t *bsTree) {
	t.last = t.vname
	if t.vname == "" || t.over {
		return
	}
	if t.valLong {
		t.fail(t.vline, t.vcol, ErrSyntax, "property value longer than "+strconv.Itoa(bsMaxValue)+" bytes")
	}
	if t.vname == "GM" && !t.rootDone {
		t.gm, t.gmSeen = string(t.val), true
	}
	if len(t.props) >= bsMaxProps {
		t.fail(t.vpline, t.vpcol, ErrSyntax, "more than "+strconv.Itoa(bsMaxProps)+" properties in one node")
		return
	}
	t.props = append(t.props, bsProp{name: t.vname, value: string(t.val), line: t.vpline, col: t.vpcol, vline: t.vline, vcol: t.vcol})
}

// bsEndNode handles the node just read: the first node decides whether the
// tree is a Ponte game; the others hold the moves.
func (r *bsReader) bsEndNode(t *bsTree) {
	if !t.nodeOpen && len(t.props) == 0 || t.over {
		return
	}
	props := t.props
	t.props = t.props[:0]
	if t.depth > 0 {
		return
	}
	if !t.rootDone {
		t.rootDone = true
		gm := strings.TrimSpace(t.gm)
		switch {
		case !t.gmSeen:
			t.skip, t.skipMsg = true, "game tree without GM skipped: not a "+bsGameName+" record"
		case !strings.EqualFold(gm, bsGameName):
			t.skip, t.skipMsg = true, "game tree of GM["+cleanValue(gm)+"] skipped: not "+bsGameName
		}
	}
	if t.skip {
		return
	}
	tm := -1
	for i := range props {
		if p := &props[i]; p.name == "TM" {
			n, err := strconv.Atoi(strings.TrimSpace(p.value))
			if err != nil || n < 0 || n > maxClock {
				// Not a clock: the turn has no think time, and the notice says why.
				r.notice(p.vline, p.vcol, "TM["+cleanValue(shortValue(p.value))+"] is not a clock in milliseconds from 0 to "+
					strconv.Itoa(maxClock)+" (366 days): the think time of the turn is not kept")
				continue
			}
			tm = n
		}
	}
	for i := range props {
		p := &props[i]
		switch p.name {
		case "GN":
			t.gn, t.haveGN = p.value, true
		case "DT":
			t.dt, t.haveDT = p.value, true
		case "RE":
			t.re, t.haveRE = p.value, true
		case "TC":
			t.tc, t.haveTC = p.value, true
		case "P0", "P1":
			seat := int(p.name[1] - '0')
			f := strings.Fields(p.value)
			if len(f) == 0 {
				continue
			}
			rest := strings.TrimSpace(p.value[strings.Index(p.value, f[0])+len(f[0]):])
			switch {
			case strings.EqualFold(f[0], "id"):
				if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
					rest = rest[1 : len(rest)-1]
				}
				t.names[seat], t.haveName[seat] = rest, true
			case strings.EqualFold(f[0], "time"):
				t.clocks[seat], t.haveClk[seat] = rest, true
			case f[0][0] >= '0' && f[0][0] <= '9':
				if t.err {
					continue // after an error only the header is read
				}
				if _, err := strconv.Atoi(f[0]); err != nil {
					t.fail(p.vline, p.vcol, ErrMove, "move number "+quote(f[0])+" cannot be read")
					return
				}
				r.bsMove(t, seat, f[1:], p, tm)
			}
		}
	}
}

// lightSeat returns the seat that plays Light.
func (t *bsTree) lightSeat() int {
	if t.swapped {
		return 1
	}
	return 0
}

// bsMove handles one move of a seat.
func (r *bsReader) bsMove(t *bsTree, seat int, f []string, p *bsProp, tm int) {
	fail := func(msg string) { t.fail(p.vline, p.vcol, ErrMove, msg) }
	if len(f) == 0 {
		fail("a move number without a move")
		return
	}
	word := strings.ToLower(f[0])
	args := f[1:]
	switch word {
	case "start", "edit":
		return
	case "gameover", "resign":
		t.ended = true
		if word == "resign" && t.resigned < 0 {
			t.resigned = seat
		}
		t.turn = bsTurn{tm: -1} // a turn without Done is not committed
		return
	}
	if t.ended && word == "done" {
		return // confirms the resignation
	}
	if t.ended {
		fail(quote(f[0]) + " after the end of the game")
		return
	}
	want, known := bsArgs[word]
	if !known {
		fail("unknown move " + quote(f[0]))
		return
	}
	if len(args) != want {
		fail(quote(f[0]) + " takes " + strconv.Itoa(want) + " arguments, not " + strconv.Itoa(len(args)))
		return
	}
	tr := &t.turn
	if tr.open && tr.seat != seat {
		if !tr.complete() {
			fail("P" + strconv.Itoa(seat) + " moves before P" + strconv.Itoa(tr.seat) + " has finished the turn")
			return
		}
		r.bsClose(t, p)
		if t.err {
			return
		}
	}
	if !tr.open {
		if want := len(t.moves) % 2; seat != want {
			fail("P" + strconv.Itoa(seat) + " moves in turn " + strconv.Itoa(len(t.moves)+1) + ", which is P" + strconv.Itoa(want) + "'s")
			return
		}
		*tr = bsTurn{open: true, seat: seat, line: p.line, col: p.col, tm: -1}
	}
	if tm >= 0 {
		tr.tm = tm
	}
	light := seat == t.lightSeat()
	colour := "Dark"
	if light {
		colour = "Light"
	}
	cellArgs := func(a []string) (gamepkg.Cell, bool) {
		c, ok := bsCell(a[0], a[1])
		if !ok {
			fail("cannot read the cell " + quote(a[0]+" "+a[1]))
		}
		return c, ok
	}
	addTile := func(c gamepkg.Cell) {
		switch {
		case tr.bridge || tr.swap || tr.pass:
			fail("a tile in a turn that already holds a bridge, a swap or a pass")
		case tr.n == 2:
			fail("a third tile in one turn")
		case tr.n == 1 && tr.tiles[0] == c:
			fail("two tiles on " + c.String() + " in one turn")
		default:
			tr.tiles[tr.n] = c
			tr.n++
		}
	}
	setBridge := func(a gamepkg.Cell) {
		switch {
		case tr.n > 0 || tr.swap || tr.pass:
			fail("a bridge in a turn that already holds a tile, a swap or a pass")
		case tr.bridge:
			fail("a second bridge in one turn")
		default:
			tr.bridge, tr.anchor, tr.endSet = true, a, false
		}
	}
	switch word {
	case "tile":
		var light2 bool
		switch {
		case strings.EqualFold(args[0], "White_Chip_Pool"):
			light2 = true
		case strings.EqualFold(args[0], "Red_Chip_Pool"):
		default:
			fail("unknown tile pool " + quote(args[0]))
			return
		}
		if light2 != light {
			fail("a tile of " + args[0] + " in a turn of P" + strconv.Itoa(seat) + ", who plays " + colour)
			return
		}
		if tr.hand != handNone {
			fail("a tile placed while a picked piece is held")
			return
		}
		if c, ok := cellArgs(args[1:]); ok {
			addTile(c)
		}
	case "bridge":
		k := -1
		for j := range bsOffsets {
			if strings.EqualFold(args[0], bsOffsets[j].name) {
				k = j
			}
		}
		if k < 0 {
			fail("unknown bridge orientation " + quote(args[0]))
			return
		}
		if tr.hand != handNone {
			fail("a bridge placed while a picked piece is held")
			return
		}
		a, ok := cellArgs(args[1:])
		if !ok {
			return
		}
		e := gamepkg.CellAt(a.Col()+bsOffsets[k].dx, a.Row()+bsOffsets[k].dy)
		if e == gamepkg.NoCell {
			fail(args[0] + " from " + a.String() + " ends off the board")
			return
		}
		setBridge(a)
		tr.end, tr.endSet = e, true
	case "pick":
		if tr.hand != handNone {
			fail("Pick while a picked piece is held")
			return
		}
		kind, ok := bsPiece(args[0], light)
		switch {
		case !ok:
			fail("cannot pick " + quote(args[0]) + ": P" + strconv.Itoa(seat) + " plays " + colour)
		default:
			tr.hand = kind
		}
	case "dropb":
		c, ok := cellArgs(args)
		if !ok {
			return
		}
		switch tr.hand {
		case handNone:
			fail("Dropb without a picked piece")
		case handTile:
			tr.hand = handNone
			addTile(c)
		case handBridge:
			tr.hand = handNone
			setBridge(c)
		}
	case "bridgeend":
		c, ok := cellArgs(args)
		if !ok {
			return
		}
		switch {
		case !tr.bridge || tr.hand != handNone:
			fail("BridgeEnd without a bridge dropped")
		case replay.ShapeOf(tr.anchor, c) == replay.NoShape:
			fail("BridgeEnd " + c.String() + " is not a bridge's jump from " + tr.anchor.String())
		default:
			tr.end, tr.endSet = c, true
		}
	case "pickb":
		c, ok := cellArgs(args)
		if !ok {
			return
		}
		switch {
		case tr.hand != handNone:
			fail("Pickb while a picked piece is held")
		case tr.n > 0 && tr.tiles[tr.n-1] == c:
			tr.n--
			tr.hand = handTile
		case tr.n == 2 && tr.tiles[0] == c:
			tr.tiles[0] = tr.tiles[1]
			tr.n--
			tr.hand = handTile
		case tr.bridge && tr.anchor == c:
			tr.bridge, tr.endSet = false, false
			tr.hand = handBridge
		default:
			fail("Pickb " + c.String() + ": no piece was dropped there in this turn")
		}
	case "drop":
		kind, ok := bsPiece(args[0], light)
		switch {
		case tr.hand == handNone:
			fail("Drop without a picked piece")
		case !ok || kind != tr.hand:
			fail("Drop " + quote(args[0]) + " is not the piece picked")
		default:
			tr.hand = handNone
		}
	case "swap", "pass":
		if !tr.empty() {
			fail(quote(f[0]) + " in a turn that already holds a move")
			return
		}
		tr.swap, tr.pass = word == "swap", word == "pass"
	case "done":
		r.bsClose(t, p)
	}
}

// bsPiece reads the piece of Pick and Drop: W (a Light tile), R (a Dark
// tile) or X_<angle> (a bridge); ok is false for an unknown piece or a tile
// of the other colour.
func bsPiece(s string, light bool) (int, bool) {
	switch {
	case strings.EqualFold(s, "W"):
		return handTile, light
	case strings.EqualFold(s, "R"):
		return handTile, !light
	case strings.EqualFold(s, "X") || len(s) > 2 && (s[0] == 'X' || s[0] == 'x') && s[1] == '_':
		return handBridge, true
	}
	return handNone, false
}

// bsCell reads a cell given as a column letter and a row number.
func bsCell(col, row string) (gamepkg.Cell, bool) {
	if len(col) != 1 {
		return gamepkg.NoCell, false
	}
	c := col[0] | 0x20
	if c < 'a' || c > 'z' {
		return gamepkg.NoCell, false
	}
	n, ok := atoi(row, 2)
	if !ok || n < 1 || n > gamepkg.MaxSize {
		return gamepkg.NoCell, false
	}
	return gamepkg.CellAt(int(c-'a'), n-1), true
}

// bsClose ends the turn being assembled and emits its token.
func (r *bsReader) bsClose(t *bsTree, p *bsProp) {
	tr := &t.turn
	if tr.hand != handNone {
		t.fail(p.vline, p.vcol, ErrMove, "the turn ends while a picked piece is not dropped")
		return
	}
	var text, comment string
	switch {
	case tr.swap:
		text = "swap"
	case tr.pass:
		text = "pass"
	case tr.bridge:
		end := tr.end
		if !tr.endSet {
			var ok bool
			end, comment, ok = r.bsDefaultEnd(t, tr.anchor)
			if !ok {
				t.fail(p.vline, p.vcol, ErrMove, "no orientation of the bridge dropped on "+tr.anchor.String()+" ends on the board")
				return
			}
		}
		text = tr.anchor.String() + "-" + end.String()
	case tr.n == 2:
		text = tr.tiles[0].String() + "," + tr.tiles[1].String()
	case tr.n == 1:
		t.fail(p.vline, p.vcol, ErrMove, "the turn ends with one tile placed")
		return
	default:
		text = "pass" // Done at the start of a turn
	}
	if len(t.moves) >= r.lim.MaxTurns {
		t.fail(tr.line, tr.col, ErrTooLarge, r.lim.tooManyTurns())
		t.over = true
		return
	}
	millis := 0
	if tr.tm >= 0 {
		millis = max(tr.tm-t.lastTM[tr.seat], 0)
		t.lastTM[tr.seat] = tr.tm
	}
	t.moves = append(t.moves, Token{Text: text, Line: tr.line, Col: tr.col, Comment: comment, Millis: millis})
	if text == "swap" && len(t.moves) == 2 {
		t.swapped = true
	}
	if !t.desync && r.g.PlayText(text) != nil {
		t.desync = true
	}
	*tr = bsTurn{tm: -1}
}

// bsDefaultEnd returns the other end of a bridge dropped on anchor without
// BridgeEnd: the last of the eight offsets, in table order, that gives a
// legal bridge in the current position. When none does, it returns the
// first whose end is on the board, with a comment saying so; ok is false
// when none is.
func (r *bsReader) bsDefaultEnd(t *bsTree, anchor gamepkg.Cell) (end gamepkg.Cell, comment string, ok bool) {
	first, firstName, last := gamepkg.NoCell, "", gamepkg.NoCell
	for _, o := range bsOffsets {
		c := gamepkg.CellAt(anchor.Col()+o.dx, anchor.Row()+o.dy)
		if c == gamepkg.NoCell || !c.On(bsSize) {
			continue
		}
		if first == gamepkg.NoCell {
			first, firstName = c, o.name
		}
		if !t.desync && r.g.IsLegal(replay.BridgeMove(anchor, c)) {
			last = c
		}
	}
	switch {
	case last != gamepkg.NoCell:
		return last, "", true
	case first == gamepkg.NoCell:
		return gamepkg.NoCell, "", false
	case t.desync:
		return first, "boardspace: bridge without BridgeEnd after an illegal turn; " + firstName + " taken", true
	}
	return first, "boardspace: no orientation gives a legal bridge from " + anchor.String() + "; " + firstName + " taken", true
}

// bsFinish makes the record of a tree that has ended. ok is false for a
// tree that was skipped (with a notice).
func (r *bsReader) bsFinish(t *bsTree) (rec *Record, err error, ok bool) {
	if !t.rootDone && !t.err {
		r.notice(t.line, t.col, "empty game tree skipped")
		return nil, nil, false
	}
	if t.skip {
		r.notice(t.line, t.col, t.skipMsg)
		return nil, nil, false
	}
	r.index++
	rec = newRecord(r.source, FormatBoardspace)
	rec.Index, rec.Line = r.index, t.line
	name := func(seat int) (string, bool) {
		v := cleanValue(t.names[seat])
		return v, t.haveName[seat] && v != ""
	}
	var tags []Tag
	add := func(name, value string, have bool) {
		if have {
			tags = append(tags, Tag{name, value})
		}
	}
	add(tagSite, bsSite, true)
	gn := cleanValue(t.gn)
	add(tagGameID, gn, gn != "")
	date, okDate := bsDate(t.dt, gn)
	add(tagDate, date, okDate)
	ls := t.lightSeat()
	v, have := name(ls)
	add(tagLight, v, have)
	v, have = name(1 - ls)
	add(tagDark, v, have)
	v, have = name(0)
	add(tagOpener, v, have)
	add(tagSize, strconv.Itoa(bsSize), true)
	add(tagSupply, "40/15", true)
	if t.resigned >= 0 {
		res := "0-1"
		if 1-t.resigned == ls {
			res = "1-0"
		}
		add(tagResult, res, true)
		add(tagTermination, "resign", true)
	}
	v, have = name(0)
	add(tagSeatP0, v, have)
	v, have = name(1)
	add(tagSeatP1, v, have)
	add(tagSourceDate, cleanValue(t.dt), t.haveDT)
	add(tagSourceResult, cleanValue(t.re), t.haveRE)
	add(tagTimeControl, cleanValue(t.tc), t.haveTC)
	add(tagClockP0, cleanValue(t.clocks[0]), t.haveClk[0])
	add(tagClockP1, cleanValue(t.clocks[1]), t.haveClk[1])
	rec.Tags = tags
	rec.Moves = clone(t.moves)
	rec.derive()
	if t.err {
		rec.Raw = bytes.Clone(t.raw)
		return rec, r.parseError(rec, t.errLine, t.errCol, t.errKind, t.errMsg), true
	}
	return rec, nil, true
}

// cleanValue makes a property value a tag value that both writers keep:
// blanks and line breaks become single spaces, and text that is not UTF-8
// is read as ISO 8859-1.
func cleanValue(s string) string {
	if isClean(s) {
		return s
	}
	if !utf8.ValidString(s) {
		b := make([]rune, 0, len(s))
		for i := 0; i < len(s); i++ {
			b = append(b, rune(s[i]))
		}
		s = string(b)
	}
	return strings.Join(strings.FieldsFunc(s, func(c rune) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c < 0x20 || c == 0x7f
	}), " ")
}

// isClean reports whether cleanValue would return s as it is: ASCII without control
// bytes, blanks at its ends or blanks in a row.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

var months = [12]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// bsDate returns the date of a game as YYYY.MM.DD: from DT when it reads as
// a date (Java's "Sat Mar 07 14:02:11 CET 2026", or a leading YYYY.MM.DD,
// YYYY-MM-DD or YYYY/MM/DD), else from the "-YYYY-MM-DD-HHMM" end of GN.
func bsDate(dt, gn string) (string, bool) {
	f := strings.Fields(dt)
	if len(f) > 0 && len(f[0]) >= 10 {
		if d, ok := isoDate(f[0][:10]); ok {
			return d, true
		}
	}
	for i := 0; i+1 < len(f); i++ {
		if len(f[i]) < 3 {
			continue
		}
		m := strings.ToLower(f[i][:3])
		for k, name := range months {
			if m != name {
				continue
			}
			day, ok := atoi(f[i+1], 2)
			if !ok {
				continue
			}
			for _, y := range f[i+2:] {
				if year, ok := atoi(y, 4); ok && len(y) == 4 {
					d := pad(year, 4) + "." + pad(k+1, 2) + "." + pad(day, 2)
					if validDate(d) {
						return d, true
					}
				}
			}
		}
	}
	if n := len(gn); n >= 16 && gn[n-16] == '-' && gn[n-5] == '-' {
		if _, ok := atoi(gn[n-4:], 4); ok {
			return isoDate(gn[n-15 : n-5])
		}
	}
	return "", false
}

// isoDate reads YYYY?MM?DD with '.', '-' or '/' as separators.
func isoDate(s string) (string, bool) {
	if len(s) != 10 || s[4] != s[7] || (s[4] != '.' && s[4] != '-' && s[4] != '/') {
		return "", false
	}
	d := s[:4] + "." + s[5:7] + "." + s[8:]
	for _, c := range []byte(d) {
		if c == '?' {
			return "", false
		}
	}
	return d, validDate(d)
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
