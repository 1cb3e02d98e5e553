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
	var cand [8]bitset
	any := p.candidates(c, &cand)
	geo := p.g
	for w := 0; w < geo.nw; w++ {
		for v := any[w]; v != 0; v &= v - 1 {
			a := w<<6 + bits.TrailingZeros64(v)
			for j, d := range geo.jumps {
				if cand[j].has(a) && !p.crosses(a, a+d) {
					dst = append(dst, replay.BridgeMove(geo.cell[a], geo.cell[a+d]))
				}
			}
		}
	}
	return dst
}

// bestBridge returns colour c's first bridge, in LegalBridges' order, of the highest
// BridgeValue, when that value is at least least; ok is false when no bridge reaches it.
// A candidate's value is known before its crossing is tested, so only candidates that
// would improve on the best so far are tested.
func (p *Position) bestBridge(c replay.Colour, least float64) (a, b int, v float64, ok bool) {
	if p.supply == replay.Supply40x15 && p.bridgesLeft == 0 {
		return 0, 0, 0, false
	}
	// A bridge is worth 10 or more only between two components with islands, 1.5 only
	// from one.
	if least >= 10 && p.icomp[c&1] < 2 || least > 0.4 && p.icomp[c&1] < 1 {
		return 0, 0, 0, false
	}
	var cand [8]bitset
	any := p.candidates(c, &cand)
	geo := p.g
	for w := 0; w < geo.nw; w++ {
		for m := any[w]; m != 0; m &= m - 1 {
			x := w<<6 + bits.TrailingZeros64(m)
			rx, kx := p.component(x)
			if kx == 0 && least > 1.5 {
				continue // worth 10 or more only between islands
			}
			for j, d := range geo.jumps {
				if !cand[j].has(x) {
					continue
				}
				y := x + d
				ry, ky := p.component(y)
				val := valueOf(rx, kx, ry, ky)
				if val < least || (ok && val <= v) || p.crosses(x, y) {
					continue
				}
				a, b, v, ok = x, y, val, true
			}
		}
	}
	return a, b, v, ok
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
}
