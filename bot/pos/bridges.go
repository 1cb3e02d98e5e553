package pos

import (
	"math/bits"

	"github.com/ponte/ponte/replay"
)

// bridgeLegal decides a bridge of colour c between the board cells a and b, a jump apart:
// both ends the mover's tiles (R4), no tile under it (R4.2; blocked cells are water), no
// end already used (R4.3), no crossing or touching another bridge (R4.4).
func (p *Position) bridgeLegal(c replay.Colour, a, b replay.Cell) bool {
	geo := p.g
	i, j := geo.idx(a), geo.idx(b)
	t := &p.tiles[c&1]
	if !t.has(i) || !t.has(j) {
		return false
	}
	w1, w2 := replay.Water(a, b)
	if p.hasTile(geo.idx(w1)) || (w2 != replay.NoCell && p.hasTile(geo.idx(w2))) {
		return false
	}
	if p.ends.has(i) || p.ends.has(j) {
		return false
	}
	return !p.crosses(i, j)
}

func (p *Position) hasTile(i int) bool {
	w, b := uint(i)>>6%numWords, uint(i)&63
	return (p.tiles[0][w]|p.tiles[1][w])>>b&1 != 0
}

// candidates sets cand[j] to the tiles a of colour c from which jump j reaches a tile b of
// the colour over water, neither end carrying a bridge (R4, R4.2, R4.3), and returns their
// union; the crossing test (R4.4) is left to the caller.
func (p *Position) candidates(c replay.Colour, cand *[8]bitset) bitset {
	geo := p.g
	var free, all, any bitset
	for w := 0; w <= geo.nw; w++ {
		free[w] = p.tiles[c&1][w] &^ p.ends[w]
		all[w] = p.tiles[0][w] | p.tiles[1][w]
	}
	for j, d := range geo.jumps {
		w1, w2 := geo.water[j][0], geo.water[j][1]
		k := &cand[j]
		for w := 0; w < geo.nw; w++ {
			k[w] = free[w] & down(&free, w, uint(d)) &^ (shift(&all, w, w1) | shift(&all, w, w2))
			any[w] |= k[w]
		}
	}
	return any
}

// LegalBridges appends to dst every bridge colour c could build now, in replay's order:
// the set replay.Game.LegalBridges returns.
func (p *Position) LegalBridges(c replay.Colour, dst []replay.Move) []replay.Move {
	if p.supply == replay.Supply40x15 && p.bridgesLeft == 0 {
		return dst
	}
	geo := p.g
	c &= 1
	for w := 0; w < geo.nw; w++ {
		for v := p.bany[c][w]; v != 0; v &= v - 1 {
			a := w<<6 + bits.TrailingZeros64(v)
			for js := p.bj[c][a]; js != 0; js &= js - 1 {
				j := bits.TrailingZeros8(js)
				dst = append(dst, replay.BridgeMove(geo.cell[a], geo.cell[a+geo.jumps[j]]))
			}
		}
	}
	return dst
}

// bestBridge returns colour c's first bridge, in LegalBridges' order, of the highest
// BridgeValue, when that value is at least least; ok is false when no bridge reaches it.
// A bridge is worth 10·k·l between components of k and l islands, 1.5 from a component
// with islands to one without, 0.4 between two others, -1 within a component: so the
// bridges with both ends in components with islands are valued first, from the masks.
func (p *Position) bestBridge(c replay.Colour, least float64) (a, b int, v float64, ok bool) {
	if p.supply == replay.Supply40x15 && p.bridgesLeft == 0 {
		return 0, 0, 0, false
	}
	c &= 1
	// A bridge is worth 10 or more only between two components with islands, 1.5 only
	// from one.
	if least >= 10 && p.icomp[c] < 2 || least > 0.4 && p.icomp[c] < 1 {
		return 0, 0, 0, false
	}
	geo := p.g
	isl := &p.icells[c]
	if p.icomp[c] >= 2 {
		for w := 0; w < geo.nw; w++ {
			for m := p.bany[c][w] & isl[w]; m != 0; m &= m - 1 {
				x := w<<6 + bits.TrailingZeros64(m)
				rx, kx := p.component(x)
				for js := p.bj[c][x]; js != 0; js &= js - 1 {
					j := bits.TrailingZeros8(js)
					y := x + geo.jumps[j]
					if !isl.has(y) {
						continue
					}
					ry, ky := p.component(y)
					val := valueOf(rx, kx, ry, ky)
					if val < least || (ok && val <= v) {
						continue
					}
					a, b, v, ok = x, y, val, true
				}
			}
		}
		if ok || least > 1.5 {
			return a, b, v, ok
		}
	}
	// No bridge between two components with islands: the first from one with islands
	// to one without is worth 1.5; else the first between two others, 0.4.
	for w := 0; w < geo.nw; w++ {
		for m := p.bany[c][w]; m != 0; m &= m - 1 {
			x := w<<6 + bits.TrailingZeros64(m)
			for js := p.bj[c][x]; js != 0; js &= js - 1 {
				j := bits.TrailingZeros8(js)
				y := x + geo.jumps[j]
				if isl.has(x) == isl.has(y) {
					continue
				}
				return x, y, 1.5, 1.5 >= least
			}
		}
	}
	if least > 0.4 {
		return 0, 0, 0, false
	}
	for w := 0; w < geo.nw; w++ {
		for m := p.bany[c][w] &^ isl[w]; m != 0; m &= m - 1 {
			x := w<<6 + bits.TrailingZeros64(m)
			for js := p.bj[c][x]; js != 0; js &= js - 1 {
				j := bits.TrailingZeros8(js)
				y := x + geo.jumps[j]
				if isl.has(y) || p.root(p.gid[x]) == p.root(p.gid[y]) {
					continue
				}
				return x, y, 0.4, true
			}
		}
	}
	return 0, 0, 0, false
}

// rebuildBridges sets the legal bridges and the island-component tiles of both colours
// from the tiles, bridges and components (for FromGame).
func (p *Position) rebuildBridges() {
	geo := p.g
	for c := range 2 {
		col := replay.Colour(c)
		var cand [8]bitset
		any := p.candidates(col, &cand)
		for w := 0; w < geo.nw; w++ {
			for v := any[w]; v != 0; v &= v - 1 {
				a := w<<6 + bits.TrailingZeros64(v)
				for j, d := range geo.jumps {
					if cand[j].has(a) && !p.crosses(a, a+d) {
						p.addBridge(c, a, j)
					}
				}
			}
		}
		for g := 0; g < p.ngroups; g++ {
			if grp := &p.groups[g]; grp.size > 0 && grp.colour == col && p.isl[p.find(int16(g))] > 0 {
				for _, x := range grp.cells[:grp.size] {
					p.icells[c].set(int(x))
				}
			}
		}
	}
}

func (p *Position) addBridge(c, a, j int) {
	p.bj[c][a] |= 1 << j
	p.bany[c].set(a)
}

func (p *Position) dropBridge(c, a, j int) {
	if p.bj[c][a]&(1<<j) == 0 {
		return
	}
	p.bj[c][a] &^= 1 << j
	if p.bj[c][a] == 0 {
		p.bany[c][uint(a)>>6%numWords] &^= 1 << (uint(a) & 63)
	}
}

// tilePlaced updates the legal bridges after a tile of colour c came on x (the turn's
// tiles all placed): the bridges of either colour over x are gone, and the bridges from x
// to a free tile of its colour over water, crossing none, are new.
func (p *Position) tilePlaced(c replay.Colour, x int) {
	geo := p.g
	c &= 1
	for j := range geo.water {
		for k, w := range geo.water[j] {
			if k == 1 && w == geo.water[j][0] {
				break
			}
			p.dropBridge(0, x-w, j)
			p.dropBridge(1, x-w, j)
		}
	}
	t := &p.tiles[c]
	for j, d := range geo.jumps {
		if y := x + d; t.has(y) && !p.ends.has(y) && p.waterFree(x, j) && !p.crosses(x, y) {
			p.addBridge(int(c), x, j)
		}
		if y := x - d; t.has(y) && !p.ends.has(y) && p.waterFree(y, j) && !p.crosses(y, x) {
			p.addBridge(int(c), y, j)
		}
	}
}

// waterFree reports whether no tile lies on the water of jump j from a.
func (p *Position) waterFree(a, j int) bool {
	w := p.g.water[j]
	return !p.hasTile(a+w[0]) && !p.hasTile(a+w[1])
}

// bridgeBuilt updates the legal bridges after a bridge of colour c between x and y: the
// bridges from either end are gone, and those of either colour that touch it.
func (p *Position) bridgeBuilt(c replay.Colour, x, y int) {
	geo := p.g
	c &= 1
	for _, e := range [2]int{x, y} {
		for j, d := range geo.jumps {
			p.dropBridge(int(c), e, j)
			p.dropBridge(int(c), e-d, j)
		}
	}
	// A bridge touching x–y has an end within one cell of x–y's bounding box (see
	// crosses); two cells are searched.
	x0, y0 := int(geo.x[x]), int(geo.y[x])
	x1, y1 := int(geo.x[y]), int(geo.y[y])
	lox, hix := max(min(x0, x1)-2, 2), min(max(x0, x1)+2, geo.size+1)
	loy, hiy := max(min(y0, y1)-2, 2), min(max(y0, y1)+2, geo.size+1)
	for row := loy; row <= hiy; row++ {
		for col := lox; col <= hix; col++ {
			e := row*geo.s + col
			for cc := range 2 {
				for j, d := range geo.jumps {
					if p.bj[cc][e]&(1<<j) != 0 && segmentsTouch(x0, y0, x1, y1, col, row, int(geo.x[e+d]), int(geo.y[e+d])) {
						p.dropBridge(cc, e, j)
					}
					if l := e - d; p.bj[cc][l]&(1<<j) != 0 && segmentsTouch(x0, y0, x1, y1, int(geo.x[l]), int(geo.y[l]), col, row) {
						p.dropBridge(cc, l, j)
					}
				}
			}
		}
	}
}

// crosses reports whether the segment between the centres of x and y touches the segment
// of a bridge on the board. The point where two segments touch is within half a bridge
// of the nearer end of the other one, so only bridge ends within one cell of x–y's
// bounding box can matter (as replay's crossing argues).
func (p *Position) crosses(x, y int) bool {
	geo := p.g
	x0, y0 := int(geo.x[x]), int(geo.y[x])
	x1, y1 := int(geo.x[y]), int(geo.y[y])
	lox, hix := min(x0, x1), max(x0, x1)
	loy, hiy := min(y0, y1), max(y0, y1)
	width := uint(hix - lox + 3)
	for row := loy - 1; row <= hiy+1; row++ {
		m := p.ends.word(row*geo.s+lox-1) & (1<<width - 1)
		for ; m != 0; m &= m - 1 {
			col := lox - 1 + bits.TrailingZeros64(m)
			q := int(p.partner[row*geo.s+col])
			qx, qy := int(geo.x[q]), int(geo.y[q])
			if max(col, qx) < lox || min(col, qx) > hix || max(row, qy) < loy || min(row, qy) > hiy {
				continue // the bounding boxes do not overlap
			}
			if segmentsTouch(x0, y0, x1, y1, col, row, qx, qy) {
				return true
			}
		}
	}
	return false
}

// segmentsTouch reports whether the closed segments a–b and c–d share a point.
func segmentsTouch(ax, ay, bx, by, cx, cy, dx, dy int) bool {
	o1 := orient(ax, ay, bx, by, cx, cy)
	o2 := orient(ax, ay, bx, by, dx, dy)
	o3 := orient(cx, cy, dx, dy, ax, ay)
	o4 := orient(cx, cy, dx, dy, bx, by)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && within(ax, ay, bx, by, cx, cy) ||
		o2 == 0 && within(ax, ay, bx, by, dx, dy) ||
		o3 == 0 && within(cx, cy, dx, dy, ax, ay) ||
		o4 == 0 && within(cx, cy, dx, dy, bx, by)
}

// orient is the sign of the turn a→b→c: 1 left, -1 right, 0 collinear.
func orient(ax, ay, bx, by, cx, cy int) int {
	v := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// within reports whether c, collinear with a–b, lies in a–b's bounding box.
func within(ax, ay, bx, by, cx, cy int) bool {
	return min(ax, bx) <= cx && cx <= max(ax, bx) && min(ay, by) <= cy && cy <= max(ay, by)
}

// applyBridge builds a bridge of colour c between x and y: blocks the water, marks the
// ends and joins the components.
func (p *Position) applyBridge(c replay.Colour, x, y int) {
	geo := p.g
	w1, w2 := replay.Water(geo.cell[x], geo.cell[y])
	p.blocked.set(geo.idx(w1))
	p.sq[geo.idx(w1)] |= sqBlocked
	if w2 != replay.NoCell {
		p.blocked.set(geo.idx(w2))
		p.sq[geo.idx(w2)] |= sqBlocked
	}
	p.ends.set(x)
	p.ends.set(y)
	p.partner[x], p.partner[y] = int16(y), int16(x)
	p.bridges[c&1]++
	p.union(c, p.gid[x], p.gid[y])
	if r := p.find(p.gid[x]); p.isl[r] > 0 {
		p.markComponent(c, r)
	}
	p.bridgeBuilt(c, x, y)
}
