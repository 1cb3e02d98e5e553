package value

import (
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// The planes of a position, seen from the colour to move ("mine") and the other colour
// ("theirs"), one value a cell, row-major (row 1 first):
//
//	0, 1   my tiles, theirs
//	2      cells under a bridge
//	3, 4   my tiles in a group of four (a finished sandbank), theirs
//	5, 6   my tiles in a smaller group, the group's size / 3; theirs
//	7, 8   my dead sandbanks' cells, theirs
//	9, 10  my tiles, the islands their component holds / 8; theirs
//	11, 12 my tiles that end a bridge, theirs
//	13, 14 the empty cells where a tile of mine would be legal, of theirs
//	15     1 on every cell (the board)
//
// and the globals: my score / 10, theirs / 10, the difference / 10, my islands / 10,
// theirs / 10, the turn / (cells / 2), the side / 10, and 1 when Light has passed.
const (
	Planes  = 16
	Globals = 8
)

// Encode encodes g into s (its Size, Planes and Globals, reusing their memory) and returns
// the colour to move; the Target is left as it was.
func (s *Sample) Encode(g *replay.Game) replay.Colour {
	size := g.Size()
	s.Size = size
	s.Planes = grow(s.Planes, Planes*size*size)
	s.Globals = grow(s.Globals, Globals)
	return Encode(g, s.Planes, s.Globals)
}

// Encode writes the planes (Planes × size × size) and globals of g, seen from the colour
// to move, into planes and globals, which must be that long; it returns that colour.
func Encode(g *replay.Game, planes, globals []float32) replay.Colour {
	s := g.Size()
	n := s * s
	planes = planes[:Planes*n]
	clear(planes)
	me := g.ToMove()
	opp := 1 - me
	side := func(c replay.Colour) int {
		if c == me {
			return 0
		}
		return 1
	}
	for _, c := range [2]replay.Colour{me, opp} {
		for _, cells := range g.DeadSandbanks(c) {
			for _, cell := range cells {
				planes[(7+side(c))*n+cell.Row()*s+cell.Col()] = 1
			}
		}
		for _, cell := range g.LegalTileCells(c) {
			planes[(13+side(c))*n+cell.Row()*s+cell.Col()] = 1
		}
	}
	for r := 0; r < s; r++ {
		for k := 0; k < s; k++ {
			cell := game.CellAt(k, r)
			i := r*s + k
			planes[15*n+i] = 1
			if g.Blocked(cell) {
				planes[2*n+i] = 1
			}
			c, ok := g.At(cell)
			if !ok {
				continue
			}
			sd := side(c)
			planes[sd*n+i] = 1
			if gs := g.GroupSize(cell); gs == 4 {
				planes[(3+sd)*n+i] = 1
			} else {
				planes[(5+sd)*n+i] = float32(gs) / 3
			}
			if _, isl := g.ComponentOf(cell); isl > 0 {
				planes[(9+sd)*n+i] = float32(isl) / 8
			}
			if g.BridgeEnd(cell) != game.NoCell {
				planes[(11+sd)*n+i] = 1
			}
		}
	}
	sc, isl := g.Score(), g.Islands()
	area := float32(n)
	globals = globals[:Globals]
	globals[0] = float32(sc[me]) / 10
	globals[1] = float32(sc[opp]) / 10
	globals[2] = float32(sc[me]-sc[opp]) / 10
	globals[3] = float32(isl[me]) / 10
	globals[4] = float32(isl[opp]) / 10
	globals[5] = float32(g.Turn()) / (area / 2)
	globals[6] = float32(s) / 10
	globals[7] = 0
	if g.LightPassed() {
		globals[7] = 1
	}
	return me
}

// Symmetries is the number of symmetries of the square board.
const Symmetries = 8

// Symmetric returns the cell (row, col) of a board of side size under symmetry t
// (0 … 7): bit 0 mirrors the columns, bit 1 the rows, then bit 2 swaps rows and columns.
// Symmetry 0 is the identity.
func Symmetric(t, size, row, col int) (int, int) {
	if t&1 != 0 {
		col = size - 1 - col
	}
	if t&2 != 0 {
		row = size - 1 - row
	}
	if t&4 != 0 {
		row, col = col, row
	}
	return row, col
}

// Inverse is the symmetry that undoes t.
func Inverse(t int) int {
	if t&4 == 0 {
		return t // the mirrors undo themselves
	}
	return 4 | (t&1)<<1 | (t&2)>>1 // a swap after mirrors is undone by the swap, then the mirrors swapped
}

// Transform writes into dst the planes src (any number of planes of a board of side size)
// under symmetry t; dst and src must not overlap.
func Transform(dst, src []float32, size, t int) {
	area := size * size
	dst = dst[:len(src)]
	for p := 0; p+area <= len(src); p += area {
		from, to := src[p:p+area], dst[p:p+area]
		for r := 0; r < size; r++ {
			for k := 0; k < size; k++ {
				rr, kk := Symmetric(t, size, r, k)
				to[rr*size+kk] = from[r*size+k]
			}
		}
	}
}
