package pos

import (
	"math/bits"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// IsLegal reports whether m is a legal next turn: the verdict of replay.Game.IsLegal on
// the same position, for every move.
func (p *Position) IsLegal(m replay.Move) bool {
	if p.over {
		return false
	}
	c := p.ToMove()
	switch m.Kind {
	case replay.Swap:
		return p.turn == 1
	case replay.Pass:
		return p.canPass(c)
	case replay.Tiles:
		n := p.g.size
		if !m.A.On(n) || !m.B.On(n) || m.A == m.B {
			return false
		}
		if p.supply == game.Supply40x15 && p.tilesLeft[c] < 2 {
			return false
		}
		return p.tilesLegal(c, p.g.idx(m.A), p.g.idx(m.B))
	case replay.Bridge:
		n := p.g.size
		if !m.A.On(n) || !m.B.On(n) || replay.ShapeOf(m.A, m.B) == replay.NoShape {
			return false
		}
		if p.supply == game.Supply40x15 && p.bridgesLeft == 0 {
			return false
		}
		return p.bridgeLegal(c, m.A, m.B)
	}
	return false
}

// CanPass reports whether the colour to move may pass: IsLegal(replay.PassMove).
func (p *Position) CanPass() bool { return !p.over && p.canPass(p.ToMove()) }

// canPass is R5.1: fewer than 2 tiles left, or no pair of cells takes two tiles.
func (p *Position) canPass(c replay.Colour) bool {
	if p.supply == game.Supply40x15 && p.tilesLeft[c] < 2 {
		return true
	}
	return !p.canPlaceTwo(c)
}

// CanPlaceTwo reports whether colour c could place two tiles somewhere (the test of R5.1).
func (p *Position) CanPlaceTwo(c replay.Colour) bool {
	if p.supply == game.Supply40x15 && p.tilesLeft[c&1] < 2 {
		return false
	}
	return p.canPlaceTwo(c & 1)
}

// canPlaceTwo tries the pairs of singly legal cells (two tiles legal together are each
// legal alone); far-apart pairs succeed at once.
func (p *Position) canPlaceTwo(c replay.Colour) bool {
	var l bitset
	p.legalMask(c, &l)
	var buf [maxGroups]int16
	n := 0
	for w := p.g.w0; w < p.g.nw; w++ {
		for v := l[w]; v != 0; v &= v - 1 {
			buf[n] = int16(w<<6 + bits.TrailingZeros64(v))
			n++
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if p.tilesLegal(c, int(buf[i]), int(buf[j])) {
				return true
			}
		}
	}
	return false
}

// tilesLegal decides tiles of colour c on the distinct board cells x and y under R3, R3.1
// and R3.2. A new tile on an 8-neighbour of an island of its colour is illegal: next to
// it orthogonally it makes a group of 5 or more, diagonally it touches it. Otherwise
// only a group that the turn makes an island can break R3.2 (a sandbank touches no island
// but through a new tile), and it must touch no other tile of its colour.
func (p *Position) tilesLegal(c replay.Colour, x, y int) bool {
	var pl plan
	return p.tilesLegalPlan(c, x, y, &pl)
}

// tilesLegalPlan is tilesLegal leaving in pl, when the tiles are legal, the plan that
// Play would make of them.
func (p *Position) tilesLegalPlan(c replay.Colour, x, y int, pl *plan) bool {
	c &= 1
	if p.occupied(x) || p.occupied(y) || p.halo[c].has(x) || p.halo[c].has(y) {
		return false
	}
	if !p.makePlan(c, x, y, pl) {
		return false
	}
	for gi := 0; gi < pl.n; gi++ {
		g := &pl.g[gi]
		if g.size == 4 && !p.islandClear(c, g, x, y) {
			return false
		}
	}
	return true
}

// occupied reports whether cell i holds a tile or is blocked.
func (p *Position) occupied(i int) bool { return p.sq[i]&(sqTiles|sqBlocked) != 0 }

// islandClear reports whether the planned island g of colour c touches no tile of its
// colour outside it, nor the new tiles x and y (y < 0 for none), on any 8-neighbour. A
// planned group is whole (the plan merges every group orthogonally next to its new
// tiles, and both new tiles when they are orthogonally next to each other), so only its
// cells' diagonal neighbours can hold such a tile.
func (p *Position) islandClear(c replay.Colour, g *planned, x, y int) bool {
	s := p.g.s
	own := uint8(1) << (c & 1)
	a, b, e, f := int(g.cells[0]), int(g.cells[1]), int(g.cells[2]), int(g.cells[3])
	// When the island and its diagonal neighbours fit in 64 bits from its lowest
	// neighbour on: the neighbours as shifts of the island's bits, the tiles as a word.
	lo := imin(imin(a, b), imin(e, f))
	hi := imax(imax(a, b), imax(e, f))
	if hi-lo+2*s+2 < 64 {
		base := lo - s - 1
		us := uint(s)
		isl := uint64(1)<<uint(a-base) | uint64(1)<<uint(b-base) | uint64(1)<<uint(e-base) | uint64(1)<<uint(f-base)
		diag := isl<<(us+1) | isl<<(us-1) | isl>>(us-1) | isl>>(us+1)
		t := p.tiles[c&1].word(base)
		if d := uint(x - base); d < 64 {
			t |= 1 << d
		}
		if d := uint(y - base); y >= 0 && d < 64 {
			t |= 1 << d
		}
		return t&diag&^isl == 0
	}
	for _, i := range [4]int{a, b, e, f} {
		for _, q := range [4]int{i - s - 1, i - s + 1, i + s - 1, i + s + 1} {
			if (p.sq[q]&own != 0 || q == x || q == y) && q != a && q != b && q != e && q != f {
				return false
			}
		}
	}
	return true
}

// imin and imax are min and max by arithmetic: the compiler makes min and max of four
// cells branches, which the data mispredicts.
func imin(x, y int) int { d := x - y; return y + d&(d>>63) }
func imax(x, y int) int { d := x - y; return x - d&(d>>63) }

// tileLegal decides one tile of colour c on x, an empty, unblocked cell outside the
// colour's halo that has a tile of its colour orthogonally next to it.
func (p *Position) tileLegal(c replay.Colour, x int) bool {
	s := p.g.s
	t := &neighbourTab[c&1]
	if sum := t[p.sq[x+1]] + t[p.sq[x-1]] + t[p.sq[x+s]] + t[p.sq[x-s]]; sum>>24 < 2 {
		// No two neighbours share a group: the sizes add up.
		switch size := 1 + sum&0xff; {
		case size < 4:
			return true
		case size > 4:
			return false
		}
	}
	var ids [4]int16
	n := p.neighbourGroups(c, x, &ids)
	size := 1
	for _, id := range ids[:n] {
		size += int(p.groups[id].size)
	}
	switch {
	case size < 4:
		return true
	case size > 4:
		return false
	}
	var g planned
	g.cells[0], g.size = int16(x), 1
	for _, id := range ids[:n] {
		grp := &p.groups[id]
		for _, cell := range grp.cells[:grp.size] {
			g.cells[g.size&3] = cell
			g.size++
		}
	}
	return p.islandClear(c, &g, x, -1)
}

// legalMask sets l to the cells where one tile of colour c is legal: empty, unblocked,
// outside the halo of the colour's islands; of those, a cell next to a tile of the colour
// makes a group of at most 3, and is legal, when its neighbours of the colour are at
// most two single tiles (a cell next to an island is in the halo); the other cells next
// to the colour are checked one by one; the rest make a sandbank of one and are legal.
func (p *Position) legalMask(c replay.Colour, l *bitset) {
	var single, next bitset
	p.legalMaskWith(c, l, &single, &next)
}

// legalMaskWith is legalMask with scratch space for the single tiles and the cells to
// check, which it writes before it reads (words 0 to nw).
func (p *Position) legalMaskWith(c replay.Colour, l, single, next *bitset) {
	c &= 1
	geo := p.g
	s := uint(geo.s)
	t, mid := &p.tiles[c], &p.mid[c]
	for w := geo.wlo; w <= geo.nw; w++ {
		single[w] = t[w] &^ mid[w]
	}
	// next: the cells next to a tile of the colour, to check one by one
	for w := geo.w0; w < geo.nw; w++ {
		e := geo.board[w] &^ (p.tiles[0][w] | p.tiles[1][w] | p.blocked[w] | p.halo[c][w])
		adj := e & (up(t, w, 1) | down(t, w, 1) | up(t, w, s) | down(t, w, s))
		// Three or more single neighbours, or one of a sandbank of 2 or 3: checked.
		a, b, f, g := down(single, w, 1), up(single, w, 1), down(single, w, s), up(single, w, s)
		s0, c0, s1, c1 := a^b, a&b, f^g, f&g
		k := s0 & s1
		three := (s0^s1)&(c0^c1^k) | c0&c1 | c0&k | c1&k
		check := adj & (three | up(mid, w, 1) | down(mid, w, 1) | up(mid, w, s) | down(mid, w, s))
		l[w] = e &^ check
		next[w] = check
	}
	for w := geo.w0; w < geo.nw; w++ {
		for v := next[w]; v != 0; v &= v - 1 {
			x := w<<6 + bits.TrailingZeros64(v)
			var legal uint64 // set without a branch on the verdict
			if p.tileLegal(c, x) {
				legal = 1
			}
			l[w] |= legal << (uint(x) & 63)
		}
	}
}

// LegalTileCells appends to dst the empty cells where a single tile of colour c would be
// legal, in replay's order (rows from the first, cells of a row from the left): the set
// replay.Game.LegalTileCells returns.
func (p *Position) LegalTileCells(c replay.Colour, dst []game.Cell) []game.Cell {
	if p.supply == game.Supply40x15 && p.tilesLeft[c&1] < 2 {
		return dst
	}
	var l bitset
	p.legalMask(c, &l)
	for w := p.g.w0; w < p.g.nw; w++ {
		for v := l[w]; v != 0; v &= v - 1 {
			dst = append(dst, p.g.cell[w<<6+bits.TrailingZeros64(v)])
		}
	}
	return dst
}

// Mobility returns the number of cells where a single tile of colour c would be legal.
func (p *Position) Mobility(c replay.Colour) int {
	if p.supply == game.Supply40x15 && p.tilesLeft[c&1] < 2 {
		return 0
	}
	var l bitset
	p.legalMask(c, &l)
	return count(&l, p.g.w0, p.g.nw)
}
