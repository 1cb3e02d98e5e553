package pos

import (
	"math/bits"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// bridgeLegal decides a bridge of colour c between the board cells a and b, a jump apart:
// both ends the mover's tiles (R4), no tile under it (R4.2; blocked cells are water), no
// end already used (R4.3), no crossing or touching another bridge (R4.4).
func (p *Position) bridgeLegal(c replay.Colour, a, b game.Cell) bool {
	geo := p.g
	i, j := geo.idx(a), geo.idx(b)
	t := &p.tiles[c&1]
	if !t.has(i) || !t.has(j) {
		return false
	}
	w1, w2 := replay.Water(a, b)
	if p.hasTile(geo.idx(w1)) || (w2 != game.NoCell && p.hasTile(geo.idx(w2))) {
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
	for w := geo.w0; w <= geo.nw; w++ {
		free[w] = p.tiles[c&1][w] &^ p.ends[w]
		all[w] = p.tiles[0][w] | p.tiles[1][w]
	}
	for j, d := range geo.jumps {
		w1, w2 := geo.water[j][0], geo.water[j][1]
		k := &cand[j]
		for w := geo.w0; w < geo.nw; w++ {
			k[w] = free[w] & down(&free, w, uint(d)) &^ (shift(&all, w, w1) | shift(&all, w, w2))
			any[w] |= k[w]
		}
	}
	return any
}

// LegalBridges appends to dst every bridge colour c could build now, in replay's order:
// the set replay.Game.LegalBridges returns.
func (p *Position) LegalBridges(c replay.Colour, dst []replay.Move) []replay.Move {
	if p.supply == game.Supply40x15 && p.bridgesLeft == 0 {
		return dst
	}
	var cand [8]bitset
	any := p.candidates(c, &cand)
	geo := p.g
	for w := geo.w0; w < geo.nw; w++ {
		for v := any[w]; v != 0; v &= v - 1 {
			a := w<<6 + bits.TrailingZeros64(v)
			for j, d := range geo.jumps {
				if cand[j].has(a) && !p.crossesJ(a, j) {
					dst = append(dst, replay.BridgeMove(geo.cell[a], geo.cell[a+d]))
				}
			}
		}
	}
	return dst
}

// bestBridge returns colour c's first bridge, in LegalBridges' order, of the highest
// BridgeValue, when that value is at least least; ok is false when no bridge reaches it.
// A bridge is worth 10·k·l between components of k and l islands, 1.5 from a component
// with islands to one without, 0.4 between two others and -1 within one; so the
// candidates are drawn from the tiles of components with islands first (the mask
// icells), and a candidate's value is known before its crossing is tested.
func (p *Position) bestBridge(c replay.Colour, least float64) (a, b int, v float64, ok bool) {
	if p.supply == game.Supply40x15 && p.bridgesLeft == 0 {
		return 0, 0, 0, false
	}
	c &= 1
	// A bridge is worth 10 or more only between two components with islands, 1.5 only
	// from one.
	if least >= 10 && p.icomp[c] < 2 || least > 0.4 && p.icomp[c] < 1 {
		return 0, 0, 0, false
	}
	geo := p.g
	if p.icomp[c] >= 2 && p.may10[c] {
		for w := geo.w0; w < geo.nw; w++ {
			cand, any := p.candidateWord(c, w, both)
			for ; any != 0; any &= any - 1 {
				bit := uint(bits.TrailingZeros64(any))
				x := w<<6 + int(bit)
				rx, kx := p.component(x)
				for jm := jumpsAt(&cand, bit); jm != 0; jm &= jm - 1 {
					j := bits.TrailingZeros(jm) & 7
					y := x + geo.jumps[j]
					ry, ky := p.component(y)
					val := valueOf(rx, kx, ry, ky)
					if val < least || (ok && val <= v) || p.crossesJ(x, j) {
						continue
					}
					a, b, v, ok = x, y, val, true
				}
			}
		}
	}
	if ok || least > 1.5 {
		return a, b, v, ok
	}
	// No bridge between two components with islands: the first from one with islands
	// to one without is worth 1.5; else the first between two others, 0.4.
	for w := geo.w0; w < geo.nw; w++ {
		cand, any := p.candidateWord(c, w, one)
		for ; any != 0; any &= any - 1 {
			bit := uint(bits.TrailingZeros64(any))
			x := w<<6 + int(bit)
			for jm := jumpsAt(&cand, bit); jm != 0; jm &= jm - 1 {
				if j := bits.TrailingZeros(jm) & 7; !p.crossesJ(x, j) {
					return x, x + geo.jumps[j], 1.5, true
				}
			}
		}
	}
	if least > 0.4 {
		return 0, 0, 0, false
	}
	for w := geo.w0; w < geo.nw; w++ {
		cand, any := p.candidateWord(c, w, none)
		for ; any != 0; any &= any - 1 {
			bit := uint(bits.TrailingZeros64(any))
			x := w<<6 + int(bit)
			for jm := jumpsAt(&cand, bit); jm != 0; jm &= jm - 1 {
				j := bits.TrailingZeros(jm) & 7
				if y := x + geo.jumps[j]; p.root(p.gid[x]) != p.root(p.gid[y]) && !p.crossesJ(x, j) {
					return x, y, 0.4, true
				}
			}
		}
	}
	return 0, 0, 0, false
}

// exists10 reports whether colour c has a legal bridge between two components with
// islands (worth 10 or more).
func (p *Position) exists10(c replay.Colour) bool {
	c &= 1
	if p.icomp[c] < 2 {
		return false
	}
	geo := p.g
	for w := geo.w0; w < geo.nw; w++ {
		cand, any := p.candidateWord(c, w, both)
		for ; any != 0; any &= any - 1 {
			bit := uint(bits.TrailingZeros64(any))
			x := w<<6 + int(bit)
			rx := p.root(p.gid[x])
			for jm := jumpsAt(&cand, bit); jm != 0; jm &= jm - 1 {
				j := bits.TrailingZeros(jm) & 7
				if p.root(p.gid[x+geo.jumps[j]]) != rx && !p.crossesJ(x, j) {
					return true
				}
			}
		}
	}
	return false
}

// exists10From is exists10 when colour c had no such bridge before its tiles of
// components with islands grew by added: then any new one has an end among them (a bridge
// legal now between older tiles was legal before, and its components were apart).
func (p *Position) exists10From(c replay.Colour, added []int16) bool {
	c &= 1
	if p.icomp[c] < 2 {
		return false
	}
	isl := &p.icells[c]
	geo := p.g
	if geo.pmask != 0 {
		// The partners a jump away from one word around each tile: those in components
		// with islands and without a bridge end, then tested one by one.
		off := 2*geo.s + 2
		for _, a := range added {
			x := int(a)
			if p.ends.has(x) {
				continue
			}
			base := x - off
			m := (isl.word(base) &^ p.ends.word(base)) & geo.pmask
			if m == 0 {
				continue
			}
			rx := p.root(p.gid[x])
			for ; m != 0; m &= m - 1 {
				b := bits.TrailingZeros64(m) & 63
				y, j := base+b, int(geo.pjump[b])
				lo := min(x, y)
				if p.root(p.gid[y]) != rx && p.waterFree(lo, j) && !p.crossesJ(lo, j) {
					return true
				}
			}
		}
		return false
	}
	for _, a := range added {
		x := int(a)
		if p.ends.has(x) {
			continue
		}
		rx := p.root(p.gid[x])
		for j, d := range p.g.jumps {
			if y := x + d; isl.has(y) && !p.ends.has(y) && p.root(p.gid[y]) != rx && p.waterFree(x, j) && !p.crossesJ(x, j) {
				return true
			}
			if y := x - d; isl.has(y) && !p.ends.has(y) && p.root(p.gid[y]) != rx && p.waterFree(y, j) && !p.crossesJ(y, j) {
				return true
			}
		}
	}
	return false
}

// waterFree reports whether no tile lies on the water of jump j from a.
func (p *Position) waterFree(a, j int) bool {
	w := p.g.water[j]
	return !p.hasTile(a+w[0]) && !p.hasTile(a+w[1])
}

// jumpsAt returns the jumps with a candidate on bit of cand, bit j for jump j.
func jumpsAt(cand *[8]uint64, bit uint) uint {
	b := bit & 63
	return uint((cand[0]>>b&1 | cand[1]>>b&1<<1 | cand[2]>>b&1<<2 | cand[3]>>b&1<<3) |
		(cand[4]>>b&1<<4 | cand[5]>>b&1<<5 | cand[6]>>b&1<<6 | cand[7]>>b&1<<7))
}

// The kinds of candidates candidateWord finds: both ends on tiles of components with
// islands, one of them, or neither.
const (
	both = iota
	one
	none
)

// candidateWord is candidates for the lower ends of word w, restricted to the bridges
// whose ends lie in components with islands as kind says: per jump the mask of its
// candidates, and their union.
func (p *Position) candidateWord(c replay.Colour, w int, kind int) (cand [8]uint64, any uint64) {
	geo := p.g
	c &= 1
	t, e, isl := &p.tiles[c], &p.ends, &p.icells[c]
	// The free tiles of the kind's lower ends, from word w on (128 bits).
	f0, f1 := t[w]&^e[w], t[w+1]&^e[w+1]
	i0, i1 := isl[w], isl[w+1]
	// Both ends with islands or neither: the ends' own masks say it. One: the jump's
	// other end must differ from the lower (all is then 0).
	all := ^uint64(0)
	switch kind {
	case both:
		f0, f1 = f0&i0, f1&i1
	case none:
		f0, f1 = f0&^i0, f1&^i1
	default:
		all = 0
	}
	if f0 == 0 {
		return cand, 0
	}
	// The tiles of both colours around word w, for the water.
	var am uint64
	if w > 0 {
		am = p.tiles[0][w-1] | p.tiles[1][w-1]
	}
	a0 := p.tiles[0][w] | p.tiles[1][w]
	a1 := p.tiles[0][w+1] | p.tiles[1][w+1]
	at := func(k int) uint64 { // word w of the tiles shifted down by k (-64 < k < 64)
		if k >= 0 {
			return a0>>(uint(k)&63) | a1<<((64-uint(k))&63)
		}
		return a0<<(uint(-k)&63) | am>>((64-uint(-k))&63)
	}
	// Every jump without a branch on its masks (whether a jump has candidates is data);
	// the other end's island components matter only for kind one.
	if all == 0 {
		for j := range geo.jumps {
			d := geo.jumps[j]
			lo, hi := uint(d)&63, (64-uint(d))&63 // 0 < d < 64
			wt := &geo.water[j]
			m := f0 & (f0>>lo | f1<<hi) & (i0 ^ (i0>>lo | i1<<hi)) &^ (at(wt[0]) | at(wt[1]))
			cand[j] = m
			any |= m
		}
		return cand, any
	}
	for j := range geo.jumps {
		d := geo.jumps[j]
		lo, hi := uint(d)&63, (64-uint(d))&63 // 0 < d < 64
		wt := &geo.water[j]
		m := f0 & (f0>>lo | f1<<hi) &^ (at(wt[0]) | at(wt[1]))
		cand[j] = m
		any |= m
	}
	return cand, any
}

// markIslandComponents sets the tiles of components with islands of both colours from
// the groups and components (for FromGame).
func (p *Position) markIslandComponents() {
	for g := 0; g < p.ngroups; g++ {
		if grp := &p.groups[g]; grp.size > 0 && p.isl[p.find(int16(g))] > 0 {
			for _, x := range grp.cells[:grp.size] {
				p.icells[grp.colour&1].set(int(x))
			}
		}
	}
}

// crosses reports whether the segment between the centres of x and y touches the segment
// of a bridge on the board. The point where two segments touch is within half a bridge
// of the nearer end of the other one, so only bridge ends within one cell of x–y's
// bounding box can matter (as replay's crossing argues).
func (p *Position) crosses(x, y int) bool {
	if p.bridges[0]+p.bridges[1] == 0 {
		return false
	}
	geo := p.g
	x0, y0 := int(geo.x[x]), int(geo.y[x])
	x1, y1 := int(geo.x[y]), int(geo.y[y])
	lox, hix := min(x0, x1), max(x0, x1)
	loy, hiy := min(y0, y1), max(y0, y1)
	width := uint(hix - lox + 3)
	if box := geo.box[hiy-loy][hix-lox]; box != 0 {
		// The ends in the box one cell around x–y, from one word.
		base := (loy-1)*geo.s + lox - 1 + geo.off
		for m := p.ends.word(base) & box; m != 0; m &= m - 1 {
			e := base + bits.TrailingZeros64(m)
			col, row := int(geo.x[e]), int(geo.y[e])
			q := int(p.partner[e])
			qx, qy := int(geo.x[q]), int(geo.y[q])
			if max(col, qx) < lox || min(col, qx) > hix || max(row, qy) < loy || min(row, qy) > hiy {
				continue // the bounding boxes do not overlap
			}
			if segmentsTouch(x0, y0, x1, y1, col, row, qx, qy) {
				return true
			}
		}
		return false
	}
	for row := loy - 1; row <= hiy+1; row++ {
		m := p.ends.word(row*geo.s+lox-1+geo.off) & (1<<width - 1)
		for ; m != 0; m &= m - 1 {
			col := lox - 1 + bits.TrailingZeros64(m)
			q := int(p.partner[row*geo.s+col+geo.off])
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

// crossesJ is crosses(x, x+jumps[j]) for a lower end x: the ends in the box around the
// bridge from one word, each decided by a table of the ends' places and directions.
func (p *Position) crossesJ(x, j int) bool {
	if p.bridges[0]+p.bridges[1] == 0 {
		return false
	}
	geo := p.g
	box := geo.xbox[j&7]
	if box == 0 {
		return p.crosses(x, x+geo.jumps[j&7])
	}
	base := x + geo.xbase[j&7]
	tab := &geo.xtab[j&7]
	off := 2*geo.s + 2
	for m := p.ends.word(base) & box; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m) & 63
		e := base + b
		if tab[b]>>(geo.jcode[int(p.partner[e])-e+off]&15)&1 != 0 {
			return true
		}
	}
	return false
}

// crossTables fills the tables of crossesJ from segmentsTouch, which crosses applies to
// the same ends.
func (g *geom) crossTables() {
	s := g.s
	var dirs [16][2]int
	for j, d := range g.jumps {
		dx, dy := (d+2*s+2)%s-2, (d+2*s+2)/s-2
		dirs[j], dirs[8+j] = [2]int{dx, dy}, [2]int{-dx, -dy}
		g.jcode[d+2*s+2], g.jcode[-d+2*s+2] = uint8(j), uint8(8+j)
	}
	// The partners of a tile a jump away, from 2s+2 cells below it, when they fit in a
	// word (exists10From).
	if 4*s+4 < 64 {
		for j, d := range g.jumps {
			g.pmask |= 1<<(2*s+2+d) | 1<<(2*s+2-d)
			g.pjump[2*s+2+d], g.pjump[2*s+2-d] = int8(j), int8(j)
		}
	}
	for j := range g.jumps {
		x0, y0 := 10, 10
		x1, y1 := x0+dirs[j][0], y0+dirs[j][1]
		lox, hix := min(x0, x1), max(x0, x1)
		loy, hiy := min(y0, y1), max(y0, y1)
		g.xbase[j] = -s - 1 + lox - x0
		box := g.box[hiy-loy][hix-lox]
		g.xbox[j] = box
		for b := range 64 {
			if box>>b&1 == 0 {
				continue
			}
			col, row := lox-1+b%s, loy-1+b/s
			for k, dq := range dirs {
				qx, qy := col+dq[0], row+dq[1]
				if max(col, qx) < lox || min(col, qx) > hix || max(row, qy) < loy || min(row, qy) > hiy {
					continue
				}
				if segmentsTouch(x0, y0, x1, y1, col, row, qx, qy) {
					g.xtab[j][b] |= 1 << k
				}
			}
		}
	}
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
	lo, d := min(x, y), max(x, y)-min(x, y)
	j := geo.jcode[d+2*geo.s+2] & 7  // the forward jump d
	for _, w := range geo.water[j] { // the second equal to the first for one cell
		p.blocked.set(lo + w)
		p.sq[lo+w] |= sqBlocked
	}
	p.ends.set(x)
	p.ends.set(y)
	p.partner[x], p.partner[y] = int16(y), int16(x)
	p.bridges[c&1]++
	// The tiles of a component that joins one with islands become island-component
	// tiles; those of a component with islands are marked already.
	rx, ry := p.find(p.gid[x]), p.find(p.gid[y])
	switch {
	case rx == ry || p.isl[rx] > 0 && p.isl[ry] > 0:
	case p.isl[rx] > 0:
		p.markComponent(c, ry)
	case p.isl[ry] > 0:
		p.markComponent(c, rx)
	}
	p.union(c, p.gid[x], p.gid[y])
}
