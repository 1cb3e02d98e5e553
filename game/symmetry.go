package game

// The board's 8 symmetries (the dihedral group of the square): each maps (col, row) on a
// board of side n to another square of it.
var symmetries = [8]func(c, r, n int) (int, int){
	func(c, r, n int) (int, int) { return c, r },                 // identity
	func(c, r, n int) (int, int) { return n - 1 - c, r },         // mirror left–right
	func(c, r, n int) (int, int) { return c, n - 1 - r },         // mirror top–bottom
	func(c, r, n int) (int, int) { return n - 1 - c, n - 1 - r }, // half turn
	func(c, r, n int) (int, int) { return r, c },                 // main diagonal
	func(c, r, n int) (int, int) { return n - 1 - r, c },         // quarter turn
	func(c, r, n int) (int, int) { return r, n - 1 - c },         // three-quarter turn
	func(c, r, n int) (int, int) { return n - 1 - r, n - 1 - c }, // anti-diagonal
}

// FoldPair returns the canonical form of the opening pair {a, b} on a board of side n:
// of the 8 images of the pair under the board's symmetries, each written with its cells
// in reading order (row, then column), the least in that order (first cell, then second).
// Two openings fold to the same pair exactly when a symmetry of the board maps one onto
// the other; the order in which a record wrote the two cells does not matter.
func FoldPair(a, b Cell, n int) (Cell, Cell) {
	var best [4]int
	for i, sym := range symmetries {
		ac, ar := sym(a.Col(), a.Row(), n)
		bc, br := sym(b.Col(), b.Row(), n)
		if br < ar || br == ar && bc < ac {
			ac, ar, bc, br = bc, br, ac, ar
		}
		key := [4]int{ar, ac, br, bc}
		if i == 0 || less(key, best) {
			best = key
		}
	}
	return CellAt(best[1], best[0]), CellAt(best[3], best[2])
}

// FoldCell returns the canonical cell of c's class under the board's symmetries on a board
// of side n: the least of its 8 images in reading order (row, then column). Two cells fold
// to the same cell exactly when a symmetry of the board maps one onto the other, as the
// heat maps of cells are folded.
func FoldCell(c Cell, n int) Cell {
	bc, br := c.Col(), c.Row()
	for _, sym := range symmetries[1:] {
		col, row := sym(c.Col(), c.Row(), n)
		if row < br || row == br && col < bc {
			bc, br = col, row
		}
	}
	return CellAt(bc, br)
}

func less(x, y [4]int) bool {
	for i := range x {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return false
}
