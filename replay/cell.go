package replay

import "strconv"

// Board geometry. Cells are indices into a fixed grid of stride 32 with a margin of two
// wall cells on every side, so that any jump of up to two cells from a board cell stays
// inside the arrays and lands either on the board or on a wall: no bounds checks in the
// hot path, and a Cell means the same square whatever the board size.
const (
	// MinSize and MaxSize bound the board side N.
	MinSize = 5
	MaxSize = 26

	stride   = 32
	margin   = 2
	numCells = (MaxSize + 2*margin) * stride
)

// Cell is a square of the board, identified by its column and row. The zero Cell is
// NoCell, which is on no board.
type Cell uint16

// NoCell is the zero Cell: no square.
const NoCell Cell = 0

// CellAt returns the cell in column col and row row, both counted from 0 (a1 is CellAt(0, 0)).
// It returns NoCell when either is outside 0 … MaxSize-1.
func CellAt(col, row int) Cell {
	if col < 0 || row < 0 || col >= MaxSize || row >= MaxSize {
		return NoCell
	}
	return Cell((row+margin)*stride + col + margin)
}

// Col returns the column, 0 for `a`.
func (c Cell) Col() int { return int(c)%stride - margin }

// Row returns the row, 0 for row `1`.
func (c Cell) Row() int { return int(c)/stride - margin }

// On reports whether the cell is on a board of side size.
func (c Cell) On(size int) bool {
	col, row := c.Col(), c.Row()
	return c != NoCell && col >= 0 && row >= 0 && col < size && row < size
}

// String returns the cell in the project's notation, column letter then row number: "d4".
func (c Cell) String() string {
	if c == NoCell || c.Col() < 0 || c.Col() >= MaxSize || c.Row() < 0 || c.Row() >= MaxSize {
		return "-"
	}
	return string(rune('a'+c.Col())) + strconv.Itoa(c.Row()+1)
}

// appendCell appends the notation of c to dst.
func appendCell(dst []byte, c Cell) []byte {
	dst = append(dst, byte('a'+c.Col()))
	return strconv.AppendInt(dst, int64(c.Row()+1), 10)
}

// The neighbour offsets of a cell index.
var (
	orthogonal = [4]int{1, -1, stride, -stride}
	diagonal   = [4]int{stride + 1, stride - 1, -stride + 1, -stride - 1}
	eightWay   = [8]int{1, -1, stride, -stride, stride + 1, stride - 1, -stride + 1, -stride - 1}
)

// isOrthogonal reports whether a and b share a side.
func isOrthogonal(a, b Cell) bool {
	d := int(a) - int(b)
	return d == 1 || d == -1 || d == stride || d == -stride
}
