package game

import "strconv"

// Board geometry. Cells are indices into a fixed grid of CellStride columns with a margin
// of CellMargin wall cells on every side, so that any jump of up to two cells from a board
// cell stays inside the rules engine's arrays (laid out by the same grid) and lands either
// on the board or on a wall, and a Cell means the same square whatever the board size.
const (
	// MinSize and MaxSize bound the board side N.
	MinSize = 5
	MaxSize = 26

	CellStride = 32
	CellMargin = 2
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
	return Cell((row+CellMargin)*CellStride + col + CellMargin)
}

// Col returns the column, 0 for `a`.
func (c Cell) Col() int { return int(c)%CellStride - CellMargin }

// Row returns the row, 0 for row `1`.
func (c Cell) Row() int { return int(c)/CellStride - CellMargin }

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

// ParseCell reads a whole cell of the project's notation, a lowercase column letter and a
// row number from 1 to MaxSize without a leading zero ("d4", "c12"), as the rules engine
// reads the cells of a turn; ok is false for any other text. Whether the cell is on a
// given board is [Cell.On]'s question.
func ParseCell(s string) (c Cell, ok bool) {
	if len(s) < 2 || len(s) > 3 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9' {
		return NoCell, false
	}
	row := int(s[1] - '0')
	if len(s) == 3 {
		if s[2] < '0' || s[2] > '9' {
			return NoCell, false
		}
		row = row*10 + int(s[2]-'0')
	}
	if row > MaxSize {
		return NoCell, false
	}
	return CellAt(int(s[0]-'a'), row-1), true
}
