package replay

// MoveKind says what a turn does.
type MoveKind uint8

// The kinds of turn (docs/rules.md R2, and the pie rule R1).
const (
	Tiles  MoveKind = iota // two tiles of the mover's colour
	Bridge                 // one bridge between two tiles of the mover's colour
	Swap                   // the pie-rule swap, only as turn 2
	Pass                   // a pass (R5)
)

// String returns "tiles", "bridge", "swap" or "pass".
func (k MoveKind) String() string {
	switch k {
	case Tiles:
		return "tiles"
	case Bridge:
		return "bridge"
	case Swap:
		return "swap"
	case Pass:
		return "pass"
	}
	return "unknown"
}

// Move is one turn. A and B are the two tile cells of a Tiles turn, or the two ends of a
// Bridge; both are NoCell for Swap and Pass.
type Move struct {
	Kind MoveKind
	A, B Cell
}

// TilesMove returns the turn that places tiles on a and b.
func TilesMove(a, b Cell) Move { return Move{Kind: Tiles, A: a, B: b} }

// BridgeMove returns the turn that builds a bridge between the tiles on a and b.
func BridgeMove(a, b Cell) Move { return Move{Kind: Bridge, A: a, B: b} }

// SwapMove and PassMove are the turns without cells.
var (
	SwapMove = Move{Kind: Swap}
	PassMove = Move{Kind: Pass}
)

// Same reports whether m and o are one turn: the same kind and cells, a turn's two tiles
// or a bridge's two ends in either order.
func (m Move) Same(o Move) bool {
	return m.Kind == o.Kind && ((m.A == o.A && m.B == o.B) || (m.A == o.B && m.B == o.A))
}

// String returns the move in the project's notation: "d4,e5", "d4-f5", "swap" or "pass".
func (m Move) String() string { return string(m.AppendText(nil)) }

// AppendText appends the notation of the move to dst.
func (m Move) AppendText(dst []byte) []byte {
	switch m.Kind {
	case Tiles:
		dst = appendCell(dst, m.A)
		dst = append(dst, ',')
		return appendCell(dst, m.B)
	case Bridge:
		dst = appendCell(dst, m.A)
		dst = append(dst, '-')
		return appendCell(dst, m.B)
	case Swap:
		return append(dst, "swap"...)
	}
	return append(dst, "pass"...)
}

// BridgeShape is the shape of a bridge's jump (R4.1).
type BridgeShape uint8

// The three jump shapes, and NoShape for two cells that are not a jump apart.
const (
	NoShape  BridgeShape = iota
	Straight             // (±2, 0) or (0, ±2)
	Diagonal             // (±2, ±2)
	Knight               // (±1, ±2) or (±2, ±1)
)

// String returns "straight", "diagonal", "knight" or "none".
func (s BridgeShape) String() string {
	switch s {
	case Straight:
		return "straight"
	case Diagonal:
		return "diagonal"
	case Knight:
		return "knight"
	}
	return "none"
}

// ShapeOf returns the jump shape between cells a and b, NoShape when they are not a jump apart.
func ShapeOf(a, b Cell) BridgeShape {
	dx, dy := abs(b.Col()-a.Col()), abs(b.Row()-a.Row())
	switch {
	case dx == 2 && dy == 0, dx == 0 && dy == 2:
		return Straight
	case dx == 2 && dy == 2:
		return Diagonal
	case dx == 1 && dy == 2, dx == 2 && dy == 1:
		return Knight
	}
	return NoShape
}

// Water returns the cells under a bridge from a to b (R4.2): the one cell midway for a
// straight or diagonal jump, the two cells the segment passes through for a knight's jump.
// The second result is NoCell for a straight or diagonal jump.
func Water(a, b Cell) (Cell, Cell) {
	x, y := a.Col(), a.Row()
	dx, dy := b.Col()-x, b.Row()-y
	switch {
	case abs(dx) == 1: // (±1, ±2): the two cells of the middle row
		return CellAt(x, y+dy/2), CellAt(x+dx, y+dy/2)
	case abs(dy) == 1: // (±2, ±1): the two cells of the middle column
		return CellAt(x+dx/2, y), CellAt(x+dx/2, y+dy)
	}
	return CellAt(x+dx/2, y+dy/2), NoCell
}

// waterOffsets holds, for each jump b - a of a bridge from a to b (offset by jumpReach),
// the cells under it as offsets from a: Water by one lookup, for the replay's bridges,
// whose ends are known to be a jump apart. The second offset is 0 when there is one cell.
var waterOffsets = func() (t [2*jumpReach + 1][2]int16) {
	a := CellAt(MaxSize/2, MaxSize/2)
	for _, d := range jumps {
		w1, w2 := Water(a, Cell(int(a)+d))
		t[d+jumpReach][0] = int16(int(w1) - int(a))
		if w2 != NoCell {
			t[d+jumpReach][1] = int16(int(w2) - int(a))
		}
	}
	return t
}()

// jumpReach is the largest index offset of a jump.
const jumpReach = 2*stride + 2

// jumpWater is Water for the ends of a bridge a jump apart.
func jumpWater(a, b Cell) (Cell, Cell) {
	o := &waterOffsets[uint(int(b)-int(a)+jumpReach)%(2*jumpReach+1)]
	w2 := NoCell
	if o[1] != 0 {
		w2 = Cell(int(a) + int(o[1]))
	}
	return Cell(int(a) + int(o[0])), w2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
