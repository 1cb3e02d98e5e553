package replay

import (
	"strconv"

	"github.com/ponte/ponte/game"
)

// Board geometry: a Cell is game.Cell, an index into the fixed grid of stride 32 with a
// margin of two wall cells on every side that package game lays out, so that any jump of
// up to two cells from a board cell stays inside the arrays and lands either on the board
// or on a wall: no bounds checks in the hot path, and a Cell means the same square
// whatever the board size.
const (
	// MinSize and MaxSize bound the board side N (game.MinSize, game.MaxSize).
	MinSize = game.MinSize
	MaxSize = game.MaxSize

	stride   = game.CellStride
	margin   = game.CellMargin
	numCells = (MaxSize + 2*margin) * stride
)

// Cell is a square of the board: game.Cell, named here for the engine's callers.
type Cell = game.Cell

// NoCell is the zero Cell: no square.
const NoCell = game.NoCell

// CellAt returns the cell in column col and row row, both counted from 0 (a1 is CellAt(0, 0)):
// game.CellAt. It returns NoCell when either is outside 0 … MaxSize-1.
func CellAt(col, row int) Cell { return game.CellAt(col, row) }

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
