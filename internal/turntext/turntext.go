// Package turntext writes and reads the turns of one game as the store keeps them: the
// text of game_turns.turns (docs/schema.md, schema version 7), about 9 bytes a turn
// played legally instead of the 50 to 60 of version 6's JSON (legacy.go, read to upgrade).
//
// The text is printable ASCII, each character a digit from 0 to 94 (the character's code
// less 32, ' ' to '~'); numbers of several digits are little-endian (the lowest digit
// first). It has three parts:
//
//   - a header of 7 characters: the number of turns (3 digits), then the mobility base of
//     Light and of Dark (2 digits each: what the mobility deltas of turn 1 start from);
//   - one record of 9 characters per turn, in turn order (the turn number is the place,
//     from 1): one integer of 9 digits, its fields in the mixed radix of Fields (the first
//     field lowest). The fields are the turn's own values (colour, kind, islands formed,
//     group or bridge, dead sandbanks created, cells) and the changes the turn made to the
//     running values (scores, islands, largest component, sandbanks, dead sandbanks,
//     mobility), each in a narrow range (the change of the dead sandbanks as the dead
//     sandbanks made less those no longer dead, which is mostly 0);
//   - when some turn has a think time or a value outside its field's range, a JSON object
//     after the records whose keys are those turns' numbers: "12":[think_ms, dead created
//     Light, Dark, then the changes of score, islands, largest component, sandbanks, dead
//     sandbanks and mobility, each Light then Dark]. Such a turn has its field wide set and
//     its narrow fields 0.
//
// The running values are the sums of their changes from turn 1 (the mobility's from its
// base), so that the store's view turns computes them in SQL with two window sums (each
// packs six of them, Packed), and the Go reader with a running total. The scores and the
// islands, largest component and sandbanks change by the mover's turn only, so the record
// holds the mover's change; the islands' change is the islands formed.
//
// Builder makes the text; Scanner reads it, allocating nothing but for a text with a wide
// turn; AppendSummaries reads only what the statistics sum of each turn (Summary).
package turntext

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Turn is one turn: its own values, the running values after it, and its cells and think
// time.
type Turn struct {
	colour, kind, formed int
	group                [2]int // tiles: the sizes of the groups of a and b (1–4)
	shape                int    // bridge: 1 straight, 2 diagonal, 3 knight
	ends                 [2]int // bridge: the sizes of the groups at its ends (1–4)
	merged               int    // bridge: 1 no, 2 yes; 0 another turn
	largest              int    // the mover's largest component
	score, islands       [2]int
	sandbanks, dead      [2]int
	deadCreated          [2]int
	mobility             [2]int
	A, B                 string // the cells as written ("d4"); "" for a swap or a pass
	Think                int64  // milliseconds; 0: none
}

// Pack keeps the features of one turn; millis is its think time, 0 when the record has
// none.
func Pack(f *replay.Features, millis int) Turn {
	t := Turn{colour: int(f.Colour), kind: int(f.Kind), formed: f.IslandsFormed, largest: f.LargestComponent,
		score: f.Score, islands: f.Islands, sandbanks: f.Sandbanks, dead: f.Dead, deadCreated: f.DeadCreated,
		mobility: f.Mobility, Think: int64(max(millis, 0))}
	switch f.Kind {
	case replay.Tiles:
		t.group = f.TileGroups
	case replay.Bridge:
		t.shape, t.ends, t.merged = int(f.BridgeShape), f.BridgeEnds, 1
		if f.BridgeMerged {
			t.merged = 2
		}
	}
	if f.Kind == replay.Tiles || f.Kind == replay.Bridge {
		t.A, t.B = cellName(f.Move.A), cellName(f.Move.B)
	}
	return t
}

// cellNames are the notations of the cells, made once, in the order of their index in a
// record (row × 26 + column).
var cellNames = func() (names [cells]string) {
	for i := range names {
		names[i] = game.CellAt(i%game.MaxSize, i/game.MaxSize).String()
	}
	return names
}()

const cells = game.MaxSize * game.MaxSize

func cellName(c game.Cell) string {
	if c.Col() >= 0 && c.Col() < game.MaxSize && c.Row() >= 0 && c.Row() < game.MaxSize {
		return cellNames[c.Row()*game.MaxSize+c.Col()]
	}
	return c.String()
}

// cellIndex is the index of a cell's notation (row × 26 + column), or -1 when it is not a
// cell of a board of at most 26×26.
func cellIndex(s string) int {
	if len(s) < 2 || len(s) > 3 || s[0] < 'a' || s[0] >= 'a'+game.MaxSize || s[1] < '1' || s[1] > '9' {
		return -1
	}
	row := int(s[1] - '0')
	if len(s) == 3 {
		if s[2] < '0' || s[2] > '9' {
			return -1
		}
		row = row*10 + int(s[2]-'0')
	}
	if row > game.MaxSize {
		return -1
	}
	return (row-1)*game.MaxSize + int(s[0]-'a')
}

// CellIndex is the index of a cell's notation in a record, row × 26 + column (a1 is 0), or
// -1 when it is not a cell of a board of at most 26×26; CellName is its inverse.
func CellIndex(s string) int { return cellIndex(s) }

// CellName is the notation of the cell of index i (0 ≤ i < 26×26) in a record: "d4".
func CellName(i int) string { return cellNames[i] }

// Colour is the mover's colour: 0 Light, 1 Dark (replay.Colour).
func (t *Turn) Colour() int { return t.colour }

// Kind is what the turn did: 0 tiles, 1 bridge, 2 swap, 3 pass (replay.MoveKind).
func (t *Turn) Kind() int { return t.kind }

// IslandsFormed is the number of the mover's groups that reached exactly 4 tiles.
func (t *Turn) IslandsFormed() int { return t.formed }

// Group is the size of the group of the tile on cell i (0: a, 1: b) of a tiles turn; 0
// for another turn.
func (t *Turn) Group(i int) int { return t.group[i] }

// BridgeShape is the shape of a bridge turn (replay.BridgeShape: 1 straight, 2 diagonal,
// 3 knight); 0 for another turn.
func (t *Turn) BridgeShape() int { return t.shape }

// BridgeEnd is the size of the group at end i (0: a, 1: b) of a bridge turn; 0 for another
// turn.
func (t *Turn) BridgeEnd(i int) int { return t.ends[i] }

// BridgeMerged is 2 when a bridge turn joined two components that were apart, 1 when it
// did not, 0 for another turn.
func (t *Turn) BridgeMerged() int { return t.merged }

// LargestComponent is the number of islands in the mover's largest component.
func (t *Turn) LargestComponent() int { return t.largest }

// Score is colour c's score after the turn (0 Light, 1 Dark).
func (t *Turn) Score(c int) int { return t.score[c] }

// Islands is colour c's islands after the turn.
func (t *Turn) Islands(c int) int { return t.islands[c] }

// Sandbanks is colour c's sandbanks after the turn.
func (t *Turn) Sandbanks(c int) int { return t.sandbanks[c] }

// Dead is colour c's dead sandbanks after the turn.
func (t *Turn) Dead(c int) int { return t.dead[c] }

// DeadCreated is colour c's sandbanks that the turn made dead.
func (t *Turn) DeadCreated(c int) int { return t.deadCreated[c] }

// Mobility is the number of empty cells where one tile of colour c would be legal after
// the turn.
func (t *Turn) Mobility(c int) int { return t.mobility[c] }

// The text's numbers.
const (
	// Base is the number of digits: the characters ' ' (0) to '~' (94).
	Base = 95
	// HeaderSize is the header's length: the number of turns and the two mobility bases.
	HeaderSize = 7
	// RecordSize is the length of a turn's record.
	RecordSize = 9
	// MaxTurns is the most turns a text holds (3 digits).
	MaxTurns = Base*Base*Base - 1
	// The running values are at most these on a board of at most 26×26 (169 islands
	// scoring 169·170/2, 676 cells).
	maxScore   = 14365
	maxIslands = 169
	maxCells   = cells
)

// Field is one field of a turn's record: its name and its number of values; a value v of
// the field is stored as v + Offset.
type Field struct {
	Name   string
	Values int64
	Offset int
}

// The fields of a record, lowest first (Fields).
const (
	FColour = iota
	FKind
	FWide // 1: the turn's values are in the JSON object after the records
	FFormed
	FShape // tiles: (group a − 1)·4 + group b − 1; bridge: (((shape − 1)·4 + end a − 1)·4 + end b − 1)·2 + merged
	FDeadCreatedLight
	FDeadCreatedDark
	FScore         // the mover's
	FLargest       // the mover's
	FSandbanks     // the mover's
	FDeadGoneLight // the dead sandbanks made less the change of the dead: those no longer dead
	FDeadGoneDark
	FMobilityLight
	FMobilityDark
	FCellA // row·26 + column; 0 for a swap or a pass
	FCellB
	NumFields
)

// Fields are the fields of a record: the record is Σ (value + Offset) · the product of the
// Values of the fields before.
var Fields = [NumFields]Field{
	{"colour", vColour, 0}, {"kind", vKind, 0}, {"wide", vWide, 0}, {"islands formed", vFormed, 0}, {"group or bridge", vShape, 0},
	{"dead created (Light)", vDeadCreated, 0}, {"dead created (Dark)", vDeadCreated, 0},
	{"score change", vScore, 0}, {"largest component change", vLargest, 0}, {"sandbanks change", vSandbanks, oSandbanks},
	{"dead gone (Light)", vDeadGone, 0}, {"dead gone (Dark)", vDeadGone, 0},
	{"mobility change (Light)", vMobility, oMobility}, {"mobility change (Dark)", vMobility, oMobility},
	{"cell a", cells, 0}, {"cell b", cells, 0},
}

// The number of values of each field and the offsets, as constants for Scanner's
// divisions (which the compiler makes multiplications).
const (
	vColour, vKind, vWide, vFormed, vShape = 2, 4, 2, 3, 96
	vDeadCreated, vScore, vLargest         = 16, 4, 2
	vSandbanks, oSandbanks                 = 8, 4
	vDeadGone                              = 4
	vMobility, oMobility                   = 32, 31
)

// The weights of the fields (Weight), as constants, and the number of records.
const (
	wKind      = vColour
	wWide      = wKind * vKind
	wFormed    = wWide * vWide
	wShape     = wFormed * vFormed
	wDeadL     = wShape * vShape
	wDeadD     = wDeadL * vDeadCreated
	wScore     = wDeadD * vDeadCreated
	wLargest   = wScore * vScore
	wSandbanks = wLargest * vLargest
	wGoneL     = wSandbanks * vSandbanks
	wGoneD     = wGoneL * vDeadGone
	wMobL      = wGoneD * vDeadGone
	wMobD      = wMobL * vMobility
	wCellA     = wMobD * vMobility
	wCellB     = wCellA * cells
	wRecords   = wCellB * cells
)

// Summary is what the statistics sum of a turn (internal/turnsum's Turn).
type Summary struct {
	IslandsFormed int
	Bridge        bool
	DeadCreated   [2]int
	Mobility      [2]int
}

// NextSummary reads the next turn's summary only, several times faster than Next; it
// returns false at the end of the text or at an error (Err). It checks less than Next
// (a record in range, the mobility's running values), and the two are not to be mixed
// between two calls of Reset.
func (sc *Scanner) NextSummary(s *Summary) bool {
	if sc.err != nil || sc.n >= sc.count {
		return false
	}
	off := HeaderSize + RecordSize*sc.n
	sc.n++
	x := record(sc.s[off : off+RecordSize])
	if x >= wRecords {
		sc.fail(sc.n, off, "a record beyond its fields' ranges")
		return false
	}
	s.IslandsFormed, s.Bridge = int(x/wFormed%vFormed), x/wKind%vKind == 1
	var mob [2]int
	if x/wWide%vWide == 0 {
		s.DeadCreated = [2]int{int(x / wDeadL % vDeadCreated), int(x / wDeadD % vDeadCreated)}
		mob = [2]int{int(x/wMobL%vMobility) - oMobility, int(x/wMobD%vMobility) - oMobility}
	} else {
		v, ok := sc.wide[strconv.Itoa(sc.n)]
		if !ok {
			sc.fail(sc.n, off, "a wide turn without its values after the records")
			return false
		}
		s.DeadCreated = [2]int{int(v[1]), int(v[2])}
		mob = [2]int{int(v[WMobility]), int(v[WMobility+1])}
	}
	for c := range 2 {
		sc.run[c][5] += mob[c]
		if v := sc.run[c][5]; v < 0 || v > maxCells {
			sc.fail(sc.n, off, fmt.Sprintf("a running value of %d (0 to %d)", v, maxCells))
			return false
		}
	}
	s.Mobility = [2]int{sc.run[0][5], sc.run[1][5]}
	return true
}

// decode splits a record into its fields, the offsets taken off; ok is false for a record
// beyond the fields' ranges.
func decode(x uint64) (r [NumFields]int, ok bool) {
	next := func(v uint64) int {
		f := int(x % v)
		x /= v
		return f
	}
	r[FColour], r[FKind], r[FWide], r[FFormed] = next(vColour), next(vKind), next(vWide), next(vFormed)
	r[FShape], r[FDeadCreatedLight], r[FDeadCreatedDark] = next(vShape), next(vDeadCreated), next(vDeadCreated)
	r[FScore], r[FLargest], r[FSandbanks] = next(vScore), next(vLargest), next(vSandbanks)-oSandbanks
	r[FDeadGoneLight], r[FDeadGoneDark] = next(vDeadGone), next(vDeadGone)
	r[FMobilityLight], r[FMobilityDark] = next(vMobility)-oMobility, next(vMobility)-oMobility
	r[FCellA] = next(cells)
	if x >= cells {
		return r, false
	}
	r[FCellB] = int(x)
	return r, true
}

// weights are the Weights of the fields.
var weights = func() (w [NumFields]uint64) {
	for i := range w {
		w[i] = uint64(Weight(i))
	}
	return w
}()

// Weight is the product of the Values of the fields before field i.
func Weight(i int) int64 {
	w := int64(1)
	for _, f := range Fields[:i] {
		w *= f.Values
	}
	return w
}

// Running values: the index of each in a wide turn's array (after the think time and the
// two dead created), Light's; Dark's is the next.
const (
	WScore     = 3
	WIslands   = 5
	WLargest   = 7
	WSandbanks = 9
	WDead      = 11
	WMobility  = 13
	wideLen    = 15
)

// Packed is where the running values are in the two integers that the view turns sums:
// per running value (the index of its Light value in a wide turn's array), the integer (0
// or 1) and the bit of Light's value; Dark's is Bits higher.
var Packed = []struct {
	Wide, Int, Shift, Bits int
}{
	{WScore, 0, 0, 14}, {WIslands, 0, 28, 8}, {WLargest, 0, 44, 8},
	{WSandbanks, 1, 0, 10}, {WDead, 1, 20, 10}, {WMobility, 1, 40, 10},
}

// running is the running values of a game: [Light, Dark] of each of WScore … WMobility.
type running [wideLen][2]int

// CodeError is a turn that the text cannot hold: only a turn read from an edited database
// or made by hand has one.
type CodeError struct {
	Turn int // from 1
	Msg  string
}

func (e *CodeError) Error() string { return fmt.Sprintf("turn %d: %s", e.Turn, e.Msg) }

// Builder makes the text of one game's turns.
type Builder struct {
	recs []byte
	wide []byte
	out  []byte
	n    int
	prev [2][6]int // per colour: score, islands, largest, sandbanks, dead, mobility
	base [2]int
	err  error
	vals [wideLen]int64
	rec  [NumFields]int
}

// Reset starts a new game.
func (b *Builder) Reset() {
	b.recs, b.wide, b.n, b.err = b.recs[:0], b.wide[:0], 0, nil
	b.prev = [2][6]int{}
}

// Len is the number of turns added.
func (b *Builder) Len() int { return b.n }

// Err is the first turn that could not be kept, a *CodeError; String's text then holds
// the turns before it only.
func (b *Builder) Err() error { return b.err }

// Add appends a turn.
func (b *Builder) Add(t *Turn) {
	if b.err != nil {
		return
	}
	if err := b.add(t); err != nil {
		b.err = &CodeError{Turn: b.n + 1, Msg: err.Error()}
	}
}

func (b *Builder) add(t *Turn) error {
	if b.n >= MaxTurns {
		return fmt.Errorf("more than %d turns", MaxTurns)
	}
	r := &b.rec
	*r = [NumFields]int{}
	r[FColour], r[FKind], r[FFormed] = t.colour, t.kind, t.formed
	switch {
	case t.colour < 0 || t.colour > 1:
		return fmt.Errorf("colour %d", t.colour)
	case t.kind < 0 || t.kind > 3:
		return fmt.Errorf("kind %d", t.kind)
	case t.formed < 0 || t.formed > 2:
		return fmt.Errorf("%d islands formed (0 to 2)", t.formed)
	}
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	switch t.kind {
	case 0:
		if !in(t.group[0], 1, 4) || !in(t.group[1], 1, 4) || t.shape != 0 || t.merged != 0 || t.ends != [2]int{} {
			return fmt.Errorf("a tiles turn with groups %v (1 to 4) and bridge values", t.group)
		}
		r[FShape] = (t.group[0]-1)*4 + t.group[1] - 1
	case 1:
		if !in(t.shape, 1, 3) || !in(t.ends[0], 1, 4) || !in(t.ends[1], 1, 4) || !in(t.merged, 1, 2) || t.group != [2]int{} {
			return fmt.Errorf("a bridge turn with shape %d, ends %v, merged %d", t.shape, t.ends, t.merged)
		}
		r[FShape] = (((t.shape-1)*4+t.ends[0]-1)*4+t.ends[1]-1)*2 + t.merged - 1
	default:
		if t.group != [2]int{} || t.shape != 0 || t.merged != 0 || t.ends != [2]int{} {
			return fmt.Errorf("a swap or pass with tiles or bridge values")
		}
	}
	if t.kind <= 1 {
		a, c := cellIndex(t.A), cellIndex(t.B)
		if a < 0 || c < 0 {
			return fmt.Errorf("cells %q and %q are not cells of a board of at most 26×26", t.A, t.B)
		}
		r[FCellA], r[FCellB] = a, c
	} else if t.A != "" || t.B != "" {
		return fmt.Errorf("a swap or pass with cells %q and %q", t.A, t.B)
	}
	now := [2][6]int{}
	for c := range 2 {
		now[c] = [6]int{t.score[c], t.islands[c], t.largest, t.sandbanks[c], t.dead[c], t.mobility[c]}
		if c != t.colour {
			now[c][2] = b.prev[c][2] // the other colour's largest component is not this turn's
		}
		lim := [6]int{maxScore, maxIslands, maxIslands, maxCells, maxCells, maxCells}
		for i, v := range now[c] {
			if v < 0 || v > lim[i] {
				return fmt.Errorf("a running value %d out of 0 to %d", v, lim[i])
			}
		}
		if t.deadCreated[c] < 0 || t.deadCreated[c] > maxCells {
			return fmt.Errorf("%d sandbanks made dead", t.deadCreated[c])
		}
	}
	if b.n == 0 {
		b.base = [2]int{t.mobility[0], t.mobility[1]}
		b.prev[0][5], b.prev[1][5] = b.base[0], b.base[1]
	}
	var d [2][6]int
	for c := range 2 {
		for i := range 6 {
			d[c][i] = now[c][i] - b.prev[c][i]
		}
	}
	b.prev = now
	m, o := t.colour, 1-t.colour
	gone := [2]int{t.deadCreated[0] - d[0][4], t.deadCreated[1] - d[1][4]}
	narrow := t.Think == 0 && t.deadCreated[0] <= 15 && t.deadCreated[1] <= 15 &&
		in(d[m][0], 0, 3) && d[o][0] == 0 && d[m][1] == t.formed && d[o][1] == 0 &&
		in(d[m][2], 0, 1) && d[o][2] == 0 && in(d[m][3], -4, 3) && d[o][3] == 0 &&
		in(gone[0], 0, 3) && in(gone[1], 0, 3) && in(d[0][5], -31, 0) && in(d[1][5], -31, 0)
	if narrow {
		r[FDeadCreatedLight], r[FDeadCreatedDark] = t.deadCreated[0], t.deadCreated[1]
		r[FScore], r[FLargest], r[FSandbanks] = d[m][0], d[m][2], d[m][3]
		r[FDeadGoneLight], r[FDeadGoneDark], r[FMobilityLight], r[FMobilityDark] = gone[0], gone[1], d[0][5], d[1][5]
	} else {
		r[FWide] = 1
		v := &b.vals
		v[0], v[1], v[2] = t.Think, int64(t.deadCreated[0]), int64(t.deadCreated[1])
		for i, w := range [6]int{WScore, WIslands, WLargest, WSandbanks, WDead, WMobility} {
			v[w], v[w+1] = int64(d[0][i]), int64(d[1][i])
		}
		if len(b.wide) == 0 {
			b.wide = append(b.wide, '{')
		} else {
			b.wide = append(b.wide, ',')
		}
		b.wide = append(b.wide, '"')
		b.wide = strconv.AppendInt(b.wide, int64(b.n+1), 10)
		b.wide = append(b.wide, '"', ':', '[')
		for i, x := range v {
			if i > 0 {
				b.wide = append(b.wide, ',')
			}
			b.wide = strconv.AppendInt(b.wide, x, 10)
		}
		b.wide = append(b.wide, ']')
	}
	var x uint64
	for i := range NumFields {
		x += uint64(r[i]+Fields[i].Offset) * weights[i]
	}
	b.appendRecord(x)
	return nil
}

// appendRecord appends the record x, its digits lowest first: three groups of three digits
// apart, the first eight digits gathered in one word (written a byte at a time into an
// array, they cost a stall of the store buffer when append reads them back).
func (b *Builder) appendRecord(x uint64) {
	const base3 = Base * Base * Base
	lo, mid, hi := uint32(x%base3), uint32(x/base3%base3), uint32(x/(base3*base3))
	three := func(v uint32) uint64 { return uint64(v%Base | v/Base%Base<<8 | v/(Base*Base)<<16) }
	w := three(lo) | three(mid)<<24 | three(hi)<<48 + 0x2020202020202020
	b.recs = append(binary.LittleEndian.AppendUint64(b.recs, w), byte(hi/(Base*Base))+' ')
	b.n++
}

// AddFeatures appends the turn of the features f with the think time millis: what
// Add(Pack(f, millis)) appends, without the Turn between them, its cells' names and their
// reading back. A turn that needs the JSON object after the records, or that Add refuses,
// takes the way of Add.
func (b *Builder) AddFeatures(f *replay.Features, millis int) {
	if b.err != nil {
		return
	}
	if !b.addNarrow(f, millis) {
		t := Pack(f, millis)
		b.Add(&t)
	}
}

// addNarrow appends f as a narrow record, and reports whether it did: not for a turn with
// a think time, a value out of its field's range or its running value's, or a cell off the
// grid of 26×26, which it leaves untouched. It decides as add does, on scalars (add's
// arrays of running values cost it a stall of the store buffer at every turn).
func (b *Builder) addNarrow(f *replay.Features, millis int) bool {
	m := uint(f.Colour)
	if millis > 0 || b.n >= MaxTurns || m > 1 || uint(f.IslandsFormed) > 2 {
		return false
	}
	o := 1 - m
	var shape, ca, cb uint
	switch f.Kind {
	case replay.Tiles:
		g0, g1 := uint(f.TileGroups[0]-1), uint(f.TileGroups[1]-1)
		if g0 > 3 || g1 > 3 {
			return false
		}
		shape = g0*4 + g1
	case replay.Bridge:
		s, e0, e1 := uint(f.BridgeShape)-1, uint(f.BridgeEnds[0]-1), uint(f.BridgeEnds[1]-1)
		if s > 2 || e0 > 3 || e1 > 3 {
			return false
		}
		shape = ((s*4+e0)*4+e1)*2 + b2u(f.BridgeMerged)
	case replay.Swap, replay.Pass:
	default:
		return false
	}
	if f.Kind <= replay.Bridge {
		var ok bool
		if ca, ok = gridIndex(f.Move.A); !ok {
			return false
		}
		if cb, ok = gridIndex(f.Move.B); !ok {
			return false
		}
	}
	// The running values in their ranges, and the changes in their fields'.
	p := &b.prev
	mob := f.Mobility
	prevMob0, prevMob1 := p[0][5], p[1][5]
	if b.n == 0 {
		prevMob0, prevMob1 = mob[0], mob[1] // the bases
	}
	largest := f.LargestComponent
	dc0, dc1 := uint(f.DeadCreated[0]), uint(f.DeadCreated[1])
	dScore, dLargest, dSand := f.Score[m]-p[m][0], largest-p[m][2], f.Sandbanks[m]-p[m][3]+4
	gone0 := int(dc0) - (f.Dead[0] - p[0][4])
	gone1 := int(dc1) - (f.Dead[1] - p[1][4])
	dMob0, dMob1 := mob[0]-prevMob0+31, mob[1]-prevMob1+31
	if uint(f.Score[m]) > maxScore || uint(f.Islands[m]) > maxIslands || uint(largest) > maxIslands ||
		uint(f.Sandbanks[m]) > maxCells || uint(f.Dead[0]) > maxCells || uint(f.Dead[1]) > maxCells ||
		uint(mob[0]) > maxCells || uint(mob[1]) > maxCells ||
		dc0 > 15 || dc1 > 15 || uint(dScore) > 3 || f.Islands[m]-p[m][1] != f.IslandsFormed ||
		uint(dLargest) > 1 || uint(dSand) > 7 || uint(gone0) > 3 || uint(gone1) > 3 ||
		uint(dMob0) > 31 || uint(dMob1) > 31 ||
		f.Score[o] != p[o][0] || f.Islands[o] != p[o][1] || f.Sandbanks[o] != p[o][3] {
		return false
	}
	x := uint64(m) + uint64(f.Kind)*wKind + uint64(f.IslandsFormed)*wFormed + uint64(shape)*wShape +
		uint64(dc0)*wDeadL + uint64(dc1)*wDeadD + uint64(dScore)*wScore + uint64(dLargest)*wLargest +
		uint64(dSand)*wSandbanks + uint64(gone0)*wGoneL + uint64(gone1)*wGoneD +
		uint64(dMob0)*wMobL + uint64(dMob1)*wMobD + uint64(ca)*wCellA + uint64(cb)*wCellB
	if b.n == 0 {
		b.base = mob
	}
	p[m][0], p[m][1], p[m][2], p[m][3] = f.Score[m], f.Islands[m], largest, f.Sandbanks[m]
	p[0][4], p[1][4], p[0][5], p[1][5] = f.Dead[0], f.Dead[1], mob[0], mob[1]
	b.appendRecord(x)
	return true
}

// gridIndex is the index of cell c in a record (row × 26 + column), ok when c is on the
// grid of 26×26: cellIndex(cellName(c)).
func gridIndex(c game.Cell) (uint, bool) {
	col, row := uint(c.Col()), uint(c.Row())
	return row*game.MaxSize + col, col < game.MaxSize && row < game.MaxSize
}

func b2u(v bool) uint {
	if v {
		return 1
	}
	return 0
}

// String returns the text of the turns added: the header alone when there are none.
func (b *Builder) String() string {
	out := appendDigits(b.out[:0], b.n, 3)
	out = appendDigits(out, b.base[0], 2)
	out = appendDigits(out, b.base[1], 2)
	out = append(out, b.recs...)
	if len(b.wide) > 0 {
		out = append(append(out, b.wide...), '}')
	}
	b.out = out
	return string(out)
}

func appendDigits(dst []byte, v, n int) []byte {
	for range n {
		dst = append(dst, byte(v%Base)+' ')
		v /= Base
	}
	return dst
}

// FormatError is a text that is not turns as Builder writes them.
type FormatError struct {
	Turn   int // the turn being read, from 1; 0 for the text as a whole
	Offset int // the byte, from 0
	Msg    string
}

func (e *FormatError) Error() string {
	if e.Turn > 0 {
		return fmt.Sprintf("turn %d, byte %d: %s", e.Turn, e.Offset+1, e.Msg)
	}
	return fmt.Sprintf("byte %d: %s", e.Offset+1, e.Msg)
}

// Scanner reads the turns of one game's text in order. It refuses a text that is not as
// Builder writes it with a *FormatError: a character outside ' ' … '~', a header or a
// record cut short, a field out of its range, a wide turn without its values, a running
// value that goes below 0.
type Scanner struct {
	s     string
	n     int // turns read
	count int
	turn  Turn
	run   [2][6]int
	wide  map[string][]int64
	err   error
}

// Reset starts reading text.
func (sc *Scanner) Reset(text string) {
	*sc = Scanner{s: text, wide: sc.wide}
	clear(sc.wide)
	if len(text) < HeaderSize {
		sc.fail(0, 0, fmt.Sprintf("%d bytes, shorter than the %d of the header", len(text), HeaderSize))
		return
	}
	if i := notDigit(text); i >= 0 {
		sc.fail(0, i, fmt.Sprintf("byte %#02x is not a digit (' ' to '~')", text[i]))
		return
	}
	sc.count = digits(text[0:3])
	sc.run[0][5], sc.run[1][5] = digits(text[3:5]), digits(text[5:7])
	end := HeaderSize + RecordSize*sc.count
	if len(text) < end {
		sc.fail(0, len(text), fmt.Sprintf("%d turns need %d bytes, the text has %d", sc.count, end, len(text)))
		return
	}
	if rest := text[end:]; rest != "" {
		var m map[string][]int64
		if err := json.Unmarshal([]byte(rest), &m); err != nil || m == nil {
			sc.fail(0, end, "after the records, not a JSON object of wide turns")
			return
		}
		for k, v := range m {
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 || n > sc.count || strconv.Itoa(n) != k || len(v) != wideLen {
				sc.fail(0, end, fmt.Sprintf("wide turn %q: not a turn of the text with %d values", k, wideLen))
				return
			}
		}
		sc.wide = m
	}
}

// notDigit is the index of the first byte of s outside ' ' … '~', or -1 when there is
// none; it looks at 8 bytes at a time.
func notDigit(s string) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// Each byte below 0x80 (no high bit), then at most '~' (adding 1 sets no high
		// bit) and at least ' ' (adding 0x60 sets it); below 0x80, no addition carries
		// into the next byte.
		if w&high != 0 || (w+ones)&high != 0 || (w+0x60*ones)&high != high {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return i
		}
	}
	return -1
}

// record is the integer of a turn's record p (RecordSize digits, lowest first), whose
// bytes are digits: the digits are combined in pairs, then pairs of pairs, within one
// 64-bit word, instead of one after the other.
func record(p string) uint64 {
	_ = p[RecordSize-1]
	const lanes16, lanes32 = 0x00ff00ff00ff00ff, 0x0000ffff0000ffff
	w := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
		uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
	w -= 0x2020202020202020                     // the digits d0 … d7, a byte each
	w = w&lanes16 + (w>>8&lanes16)*Base         // d0 + 95·d1, … in 16 bits each (≤ 9,024)
	w = w&lanes32 + (w>>16&lanes32)*(Base*Base) // d0 + … + 95³·d3, … in 32 bits each
	const base4 = Base * Base * Base * Base
	return w&0xffffffff + (w>>32)*base4 + uint64(p[8]-' ')*base4*base4
}

func digits(s string) int {
	v := 0
	for i := len(s) - 1; i >= 0; i-- {
		v = v*Base + int(s[i]-' ')
	}
	return v
}

func (sc *Scanner) fail(turn, off int, msg string) {
	if sc.err == nil {
		sc.err = &FormatError{Turn: turn, Offset: off, Msg: msg}
	}
}

// Next reads the next turn; it returns false at the end of the text or at an error (Err).
func (sc *Scanner) Next() bool {
	if sc.err != nil || sc.n >= sc.count {
		return false
	}
	off := HeaderSize + RecordSize*sc.n
	sc.n++
	r, ok := decode(record(sc.s[off : off+RecordSize]))
	if !ok {
		sc.fail(sc.n, off, "a record beyond its fields' ranges")
		return false
	}
	t := &sc.turn
	*t = Turn{colour: r[FColour], kind: r[FKind], formed: r[FFormed]}
	u := r[FShape]
	switch t.kind {
	case 0:
		t.group = [2]int{u/4 + 1, u%4 + 1}
		if u >= 16 {
			sc.fail(sc.n, off, "a tiles turn with a bridge's values")
			return false
		}
	case 1:
		t.shape, t.ends, t.merged = u/32+1, [2]int{u/8%4 + 1, u/2%4 + 1}, u%2+1
	default:
		if u != 0 || r[FCellA] != 0 || r[FCellB] != 0 {
			sc.fail(sc.n, off, "a swap or pass with cells or a group or bridge")
			return false
		}
	}
	if t.kind <= 1 {
		t.A, t.B = cellNames[r[FCellA]], cellNames[r[FCellB]]
	}
	m := t.colour
	var d [2][6]int
	if r[FWide] == 0 {
		t.deadCreated = [2]int{r[FDeadCreatedLight], r[FDeadCreatedDark]}
		d[m][0], d[m][1], d[m][2], d[m][3] = r[FScore], t.formed, r[FLargest], r[FSandbanks]
		d[0][4], d[1][4] = t.deadCreated[0]-r[FDeadGoneLight], t.deadCreated[1]-r[FDeadGoneDark]
		d[0][5], d[1][5] = r[FMobilityLight], r[FMobilityDark]
	} else {
		for i := FDeadCreatedLight; i <= FMobilityDark; i++ {
			if r[i] != 0 {
				sc.fail(sc.n, off, "a wide turn with narrow values")
				return false
			}
		}
		v, ok := sc.wide[strconv.Itoa(sc.n)]
		if !ok {
			sc.fail(sc.n, off, "a wide turn without its values after the records")
			return false
		}
		t.Think, t.deadCreated = v[0], [2]int{int(v[1]), int(v[2])}
		for i, w := range [6]int{WScore, WIslands, WLargest, WSandbanks, WDead, WMobility} {
			d[0][i], d[1][i] = int(v[w]), int(v[w+1])
		}
	}
	lim := [6]int{maxScore, maxIslands, maxIslands, maxCells, maxCells, maxCells}
	for c := range 2 {
		for i := range 6 {
			sc.run[c][i] += d[c][i]
			if v := sc.run[c][i]; v < 0 || v > lim[i] {
				sc.fail(sc.n, off, fmt.Sprintf("a running value of %d (0 to %d)", v, lim[i]))
				return false
			}
		}
		t.score[c], t.islands[c], t.sandbanks[c], t.dead[c], t.mobility[c] =
			sc.run[c][0], sc.run[c][1], sc.run[c][3], sc.run[c][4], sc.run[c][5]
	}
	t.largest = sc.run[m][2]
	return true
}

// Turn returns the turn Next read; it is overwritten by the next call.
func (sc *Scanner) Turn() *Turn { return &sc.turn }

// N is the number of the turn Next read, from 1.
func (sc *Scanner) N() int { return sc.n }

// Err returns the first error met, or nil.
func (sc *Scanner) Err() error { return sc.err }
