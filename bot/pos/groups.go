package pos

import "github.com/ponte/ponte/replay"

// find returns the root of the component of group g: every group keeps its component's
// root in parent (union relabels the groups of the component it joins to another), so
// that a look-up is one read, without a loop whose length is data.
func (p *Position) find(g int16) int16 { return p.parent[g] }

// root is find, for the queries (they change nothing, so goroutines may share a position
// that none of them plays on).
func (p *Position) root(g int16) int16 { return p.parent[g] }

// union joins the components of groups g and h of colour c; components of k1 and k2
// islands scoring T(k1)+T(k2) become one scoring T(k1+k2), a gain of k1·k2. The groups
// of h's component, found on its circular list, get g's root.
func (p *Position) union(c replay.Colour, g, h int16) {
	rg, rh := p.parent[g], p.parent[h]
	if rg == rh {
		return
	}
	p.score[c&1] += int(p.isl[rg]) * int(p.isl[rh])
	if p.isl[rg] > 0 && p.isl[rh] > 0 {
		p.icomp[c&1]--
	}
	for q := rh; ; {
		p.parent[q] = rg
		if q = p.cnext[q]; q == rh {
			break
		}
	}
	p.isl[rg] += p.isl[rh]
	p.cnext[rg], p.cnext[rh] = p.cnext[rh], p.cnext[rg] // splice the two lists
}

// markComponent adds the tiles of the component whose root is r, of colour c, to the
// colour's island-component tiles.
func (p *Position) markComponent(c replay.Colour, r int16) {
	g := r
	for {
		grp := &p.groups[g]
		p.markTiles(c, grp.cells[:grp.size])
		g = p.cnext[g]
		if g == r {
			return
		}
	}
}

// markTiles is markComponent for the tiles cells, the only ones of their component that
// may be new to the colour's island-component tiles (in the order markComponent would
// find them).
func (p *Position) markTiles(c replay.Colour, cells []int16) {
	m := &p.icells[c&1]
	for _, x := range cells {
		if !m.has(int(x)) {
			m.set(int(x))
			p.grew = true
			if p.nadded < len(p.added) {
				p.added[p.nadded] = x
			}
			p.nadded++
		}
	}
}

// addHalo marks the 8-neighbours of an island's cells in its colour's halo.
func (p *Position) addHalo(c replay.Colour, grp *group) {
	s := p.g.s
	h := &p.halo[c&1]
	for _, x := range grp.cells {
		i := int(x)
		h.set3(i - s - 1)
		h.set3(i - 1)
		h.set3(i + s - 1)
	}
}

// planned is one group as it will be after a tile turn: its cells, and the old groups it
// merges.
type planned struct {
	cells [4]int16
	size  int
	olds  [8]int16
	nold  int
}

// plan is the outcome of a tile turn: the one or two groups the new tiles belong to.
type plan struct {
	g [2]planned
	n int
}

// neighbourGroups collects the distinct groups of colour c orthogonally next to x, in
// the order of their first cell among x+1, x-1, x+s, x-s. Two neighbours share a group
// only when both are in groups of 2 or more.
func (p *Position) neighbourGroups(c replay.Colour, x int, out *[4]int16) int {
	s := p.g.s
	own := c & 1
	// The four neighbours by hand, without branches: each group id is written to the
	// next place, which counts only when the neighbour holds a tile of the colour; big
	// counts those in groups of 2 to 4 tiles.
	sq := p.sq[x+1]
	has := int(sq>>own) & 1
	out[0] = p.gid[x+1]
	n := has
	big := int(sq>>4+2) >> 2 & -has
	sq = p.sq[x-1]
	has = int(sq>>own) & 1
	out[n&3] = p.gid[x-1]
	n += has
	big += int(sq>>4+2) >> 2 & -has
	sq = p.sq[x+s]
	has = int(sq>>own) & 1
	out[n&3] = p.gid[x+s]
	n += has
	big += int(sq>>4+2) >> 2 & -has
	sq = p.sq[x-s]
	has = int(sq>>own) & 1
	out[n&3] = p.gid[x-s]
	n += has
	big += int(sq>>4+2) >> 2 & -has
	if big < 2 {
		return n
	}
	k := 1 // keep the first of each group
outer:
	for _, id := range out[1:n] {
		for _, o := range out[:k] {
			if o == id {
				continue outer
			}
		}
		out[k] = id
		k++
	}
	return k
}

// planGroup builds the group of the new tiles x (and y, when y >= 0) with the old groups
// ox and oy (each without repeats); false when it would be larger than 4 (R3.1).
func (p *Position) planGroup(g *planned, x, y int, ox, oy []int16) bool {
	size := 1
	if y >= 0 {
		size = 2
	}
	n := 0
	for _, id := range ox {
		g.olds[n&7] = id
		n++
		size += int(p.groups[id].size)
	}
next:
	for _, id := range oy {
		for _, o := range ox {
			if o == id {
				continue next
			}
		}
		g.olds[n&7] = id
		n++
		size += int(p.groups[id].size)
	}
	g.nold = n
	if size > 4 {
		return false
	}
	g.cells[0], g.size = int16(x), 1
	if y >= 0 {
		g.cells[1], g.size = int16(y), 2
	}
	for _, id := range g.olds[:g.nold] {
		grp := &p.groups[id]
		for _, cell := range grp.cells[:grp.size] {
			g.cells[g.size&3] = cell
			g.size++
		}
	}
	return true
}

// makePlan plans tiles of colour c on x and y (y < 0 for one tile); false when a group
// would be larger than 4.
func (p *Position) makePlan(c replay.Colour, x, y int, pl *plan) bool {
	var ox, oy [4]int16
	nx, ny := p.neighbourGroups(c, x, &ox), 0
	merged := false
	if y >= 0 {
		ny = p.neighbourGroups(c, y, &oy)
		d := x - y
		merged = d == 1 || d == -1 || d == p.g.s || d == -p.g.s
	}
	for i := 0; i < nx && !merged; i++ {
		for j := 0; j < ny; j++ {
			if ox[i] == oy[j] {
				merged = true
				break
			}
		}
	}
	pl.n = 1
	if merged {
		return p.planGroup(&pl.g[0], x, y, ox[:nx], oy[:ny])
	}
	if !p.planGroup(&pl.g[0], x, -1, ox[:nx], nil) {
		return false
	}
	if y >= 0 {
		pl.n = 2
		return p.planGroup(&pl.g[1], y, -1, oy[:ny], nil)
	}
	return true
}

// applyTiles places tiles of colour c on x and y as planned, and updates the groups, the
// components and the tallies.
func (p *Position) applyTiles(c replay.Colour, x, y int, pl *plan) {
	c &= 1
	p.tiles[c].set(x)
	p.tiles[c].set(y)
	for gi := 0; gi < pl.n; gi++ {
		g := &pl.g[gi]
		var id int16
		if g.nold == 0 {
			id = int16(p.ngroups)
			p.ngroups++
			p.parent[id] = id
			p.cnext[id] = id
			p.isl[id] = 0
		} else {
			id = g.olds[0]
			for _, o := range g.olds[1:g.nold] {
				p.union(c, id, o)
				p.groups[o].size = 0
			}
		}
		grp := &p.groups[id]
		grp.cells, grp.size, grp.colour = g.cells, int8(g.size), c
		mid := &p.mid[c]
		for _, cell := range g.cells[:g.size] {
			p.gid[cell] = id
			p.sq[cell] = 1<<c | uint8(g.size)<<4
			if g.size == 2 || g.size == 3 {
				mid[uint(cell)>>6%numWords] |= 1 << (uint(cell) & 63)
			} else {
				mid[uint(cell)>>6%numWords] &^= 1 << (uint(cell) & 63)
			}
		}
		p.sandbanks[c] -= g.nold
		r := p.find(id)
		// A component that held an island before the turn has its tiles marked already:
		// when the group joined no other group, only its own tiles can be new.
		if g.size < 4 {
			p.sandbanks[c]++
			switch {
			case p.isl[r] == 0:
			case g.nold <= 1:
				p.markTiles(c, g.cells[:g.size])
			default:
				p.markComponent(c, r)
			}
			continue
		}
		p.islands[c]++
		p.addHalo(c, grp)
		before := p.isl[r]
		if before == 0 {
			p.icomp[c]++
		}
		p.score[c] += int(before) + 1 // T(k+1) - T(k)
		p.isl[r]++
		if before > 0 && g.nold <= 1 {
			p.markTiles(c, g.cells[:4])
		} else {
			p.markComponent(c, r)
		}
	}
}
