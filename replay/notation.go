package replay

// ParseMove reads one turn token of the project's notation for a board of side size:
// "d4,e5" (two tiles), "d4-f5" (a bridge), "swap" or "pass". Annotation suffixes and turn
// numbers are the reader's business and must already be stripped.
//
// A token that cannot be read is an R9 *RuleError (with Turn 0): an unknown word, a cell off
// the board, one cell named twice, or bridge ends that are not a jump shape.
func ParseMove(s string, size int) (Move, error) {
	if m, ok := parseOnBoard(s, size); ok {
		return m, nil
	}
	return parseMove(s, size)
}

// parseOnBoard reads the usual token, two cells of the board of side size that are
// distinct (and a jump apart for a bridge), without building an error: ok is false for
// any other text, which parseMove reads.
func parseOnBoard(s string, size int) (Move, bool) {
	// The first cell: a column letter and a row of one or two digits, no leading zero.
	if len(s) < 5 || s[0] < 'a' || int(s[0]-'a') >= size || s[1] < '1' || s[1] > '9' {
		return Move{}, false
	}
	col0, row0, i := int(s[0]-'a'), int(s[1]-'0'), 2
	if s[i] >= '0' && s[i] <= '9' {
		row0 = row0*10 + int(s[i]-'0')
		i++
	}
	sep := s[i]
	if row0 > size || sep != ',' && sep != '-' || len(s)-i-1 < 2 || len(s)-i-1 > 3 {
		return Move{}, false
	}
	t := s[i+1:]
	if t[0] < 'a' || int(t[0]-'a') >= size || t[1] < '1' || t[1] > '9' {
		return Move{}, false
	}
	col1, row1 := int(t[0]-'a'), int(t[1]-'0')
	if len(t) == 3 {
		if t[2] < '0' || t[2] > '9' {
			return Move{}, false
		}
		row1 = row1*10 + int(t[2]-'0')
	}
	if row1 > size || col0 == col1 && row0 == row1 {
		return Move{}, false
	}
	// Both cells are on the board: their indices are made without CellAt's checks.
	a, b := Cell((row0-1+margin)*stride+col0+margin), Cell((row1-1+margin)*stride+col1+margin)
	if sep == ',' {
		return TilesMove(a, b), true
	}
	if dx, dy := abs(col1-col0), abs(row1-row0); dx+dy != 3 && (dx|dy) != 2 || dx == 3 || dy == 3 {
		return Move{}, false
	}
	return BridgeMove(a, b), true
}

// parseMove is ParseMove for every token, with the error of one that cannot be read.
func parseMove(s string, size int) (Move, error) {
	switch s {
	case "swap":
		return SwapMove, nil
	case "pass":
		return PassMove, nil
	}
	a, n := parseCell(s)
	if n == 0 || n >= len(s) || (s[n] != ',' && s[n] != '-') {
		return Move{}, notationError("cannot read %q: expected two cells like d4,e5, a bridge like d4-f5, swap or pass", s)
	}
	b, m := parseCell(s[n+1:])
	if m == 0 || n+1+m != len(s) {
		return Move{}, notationError("cannot read %q: expected two cells like d4,e5, a bridge like d4-f5, swap or pass", s)
	}
	for _, c := range [2]Cell{a, b} {
		if !c.On(size) {
			return Move{}, notationError("cell %s of %q is off the %d×%d board", cellText(c), s, size, size)
		}
	}
	if a == b {
		return Move{}, notationError("%q names cell %s twice", s, a)
	}
	if s[n] == ',' {
		return TilesMove(a, b), nil
	}
	if ShapeOf(a, b) == NoShape {
		return Move{}, notationError("bridge %q: %s and %s are not a straight, diagonal or knight's jump apart", s, a, b)
	}
	return BridgeMove(a, b), nil
}

// parseCell reads a cell at the start of s: a lowercase column letter and a row number of
// one or two digits without a leading zero. It returns the cell and the bytes read, 0 when s
// does not start with a cell. A row of 0 or above MaxSize gives a cell that is on no board
// (off-board, reported by the caller), not a parse failure.
func parseCell(s string) (Cell, int) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '0' || s[1] > '9' {
		return NoCell, 0
	}
	col := int(s[0] - 'a')
	row, i := int(s[1]-'0'), 2
	if i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if row == 0 {
			return NoCell, 0
		}
		row = row*10 + int(s[i]-'0')
		i++
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			return NoCell, 0
		}
	}
	if row < 1 || row > MaxSize {
		return offBoard(col, row), i
	}
	return CellAt(col, row-1), i
}

// offBoard encodes a cell with a row outside 1 … MaxSize: it is on no board. Its text is
// kept by cellText through offRows.
func offBoard(col, row int) Cell {
	// Columns and rows up to 99 fit in the margin-free region above the board arrays.
	return Cell(numCells + row*stride + col)
}

// cellText names a cell, including the off-board cells parseCell can return.
func cellText(c Cell) string {
	if int(c) >= numCells {
		v := int(c) - numCells
		return string(rune('a'+v%stride)) + itoa(v/stride)
	}
	return c.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}
