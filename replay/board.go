package replay

import (
	"fmt"
	"math/bits"
	"strings"
)

// Cell-state bits.
const (
	lightTile uint8 = 1 << Light
	darkTile  uint8 = 1 << Dark
	tileBits        = lightTile | darkTile
	blocked   uint8 = 4 // under a bridge (R4.5)
	wall      uint8 = 8 // not on the board
)

// group is a maximal set of same-colour tiles connected orthogonally. Groups never grow
// beyond 4 tiles (R3.1), so their cells fit in a fixed array; a group merged into another
// keeps its id in the component union-find, with size 0.
type group struct {
	cells  [4]Cell
	size   int8
	colour Colour
}

// tally is what the engine counts per colour, kept up to date by every turn.
type tally struct {
	score, islands, sandbanks, bridges, tiles int
}

// placedBridge is a bridge on the board.
type placedBridge struct {
	a, b   Cell
	colour Colour
}

// board is the position: tiles, groups, bridges, blocked cells and the components of R6.
type board struct {
	size    int
	state   [numCells]uint8
	gid     [numCells]int16  // the group of the tile on the cell (valid where a tile is)
	partner [numCells]Cell   // the other end of the bridge whose end is on the cell, or NoCell
	ends    [rowWords]uint32 // per row, a bit for each cell that carries a bridge end
	tiles   [rowWords]uint32 // per row, a bit for each cell that holds a tile
	// Per colour and row, a bit for each cell that is an 8-neighbour of an island of that
	// colour: its halo. (Rows are indexed modulo rowWords, which needs no bounds check.)
	halo [2][rowWords]uint32
	// Per row, a bit for each cell blocked by a bridge.
	water [rowWords]uint32
	// Per colour and row, a bit for each tile of that colour.
	ctiles  [2][rowWords]uint32
	groups  []group
	parent  []int16 // union-find over group ids: the components of R6
	islands []int16 // islands in the component, kept at its root
	bridges []placedBridge
	tally   [2]tally
}

func (b *board) reset(size int) {
	if size == b.size && b.state[0] == wall {
		// Same board: empty the cells and the bridge ends the last game used.
		for r := 0; r < size; r++ {
			row := (r+margin)*stride + margin
			clear(b.state[row : row+size])
		}
		for _, br := range b.bridges {
			b.partner[br.a], b.partner[br.b] = NoCell, NoCell
		}
	} else {
		b.size = size
		for i := range b.state {
			b.state[i] = wall
		}
		clear(b.partner[:])
		for r := 0; r < size; r++ {
			row := (r+margin)*stride + margin
			clear(b.state[row : row+size])
		}
	}
	clear(b.ends[:])
	clear(b.tiles[:])
	b.halo = [2][rowWords]uint32{}
	b.ctiles = [2][rowWords]uint32{}
	clear(b.water[:])
	b.groups = b.groups[:0]
	b.parent = b.parent[:0]
	b.islands = b.islands[:0]
	b.bridges = b.bridges[:0]
	b.tally = [2]tally{}
}

// clone returns a deep copy.
func (b *board) clone() board {
	c := *b
	c.groups = append([]group(nil), b.groups...)
	c.parent = append([]int16(nil), b.parent...)
	c.islands = append([]int16(nil), b.islands...)
	c.bridges = append([]placedBridge(nil), b.bridges...)
	return c
}

// find returns the root of the component of group g.
func (b *board) find(g int16) int16 {
	for b.parent[g] != g {
		b.parent[g] = b.parent[b.parent[g]]
		g = b.parent[g]
	}
	return g
}

// union joins the components of groups g and h (same colour) and updates the score:
// components of k1 and k2 islands scoring T(k1)+T(k2) become one scoring T(k1+k2),
// a gain of k1·k2.
func (b *board) union(c Colour, g, h int16) {
	rg, rh := b.find(g), b.find(h)
	if rg == rh {
		return
	}
	b.tally[c].score += int(b.islands[rg]) * int(b.islands[rh])
	b.parent[rh] = rg
	b.islands[rg] += b.islands[rh]
}

// newGroup allocates a group id for a group of colour c with the cells of g.
func (b *board) newGroup(c Colour, g *newGroupPlan) int16 {
	id := int16(len(b.groups))
	b.groups = append(b.groups, group{cells: g.cells, size: int8(g.size), colour: c})
	b.parent = append(b.parent, id)
	b.islands = append(b.islands, 0)
	return id
}

// newGroupPlan is one group as it will be after a tile turn.
type newGroupPlan struct {
	cells [4]Cell
	size  int
	olds  [8]int16 // the groups it merges
	nold  int
}

func (p *newGroupPlan) has(c Cell) bool {
	for _, x := range p.cells[:p.size] {
		if x == c {
			return true
		}
	}
	return false
}

// tilePlan is the outcome of checking a tile turn: the one or two groups that the new
// tiles belong to afterwards.
type tilePlan struct {
	g [2]newGroupPlan
	n int
}

// errIllegal is returned by the checks when no explanation is wanted (mobility, pass tests).
var errIllegal = &RuleError{Message: "illegal"}

// checkTiles decides whether colour c may place tiles on x and y (y may be NoCell to test a
// single tile) under R3, R3.1 and R3.2, and fills p with the resulting groups. Both cells
// must be on the board and distinct. Nothing is changed. With explain false a failure is
// errIllegal, so that the many tests of mobility and passing allocate nothing.
func (b *board) checkTiles(c Colour, x, y Cell, p *tilePlan, explain bool) *RuleError {
	for _, t := range [2]Cell{x, y} {
		if t == NoCell {
			continue
		}
		if s := b.state[t]; s != 0 {
			if !explain {
				return errIllegal
			}
			if s&tileBits != 0 {
				return &RuleError{Rule: RuleTile, Message: fmt.Sprintf("cell %s is not empty: it holds a %s tile", t, colourOf(s))}
			}
			return &RuleError{Rule: RuleTile, Message: fmt.Sprintf("cell %s is blocked by a bridge", t)}
		}
	}
	bit := c.bit()
	var ox, oy [4]int16
	nx, ny := b.neighbourGroups(bit, x, &ox), 0
	if y != NoCell {
		ny = b.neighbourGroups(bit, y, &oy)
	}
	merged := y != NoCell && isOrthogonal(x, y)
	for i := 0; i < nx && !merged; i++ {
		for j := 0; j < ny; j++ {
			if ox[i] == oy[j] {
				merged = true
				break
			}
		}
	}
	if merged {
		p.n = 1
		if err := b.planGroup(&p.g[0], x, y, ox[:nx], oy[:ny], explain); err != nil {
			return err
		}
	} else {
		p.n = 1
		if err := b.planGroup(&p.g[0], x, NoCell, ox[:nx], nil, explain); err != nil {
			return err
		}
		if y != NoCell {
			p.n = 2
			if err := b.planGroup(&p.g[1], y, NoCell, oy[:ny], nil, explain); err != nil {
				return err
			}
		}
	}
	return b.checkDistance(c, x, y, p, explain)
}

// neighbourGroups collects the distinct groups of colour bit orthogonally next to x.
func (b *board) neighbourGroups(bit uint8, x Cell, out *[4]int16) int {
	n := 0
outer:
	for _, d := range orthogonal {
		q := Cell(int(x) + d)
		if b.state[q]&bit == 0 {
			continue
		}
		id := b.gid[q]
		for _, o := range out[:n] {
			if o == id {
				continue outer
			}
		}
		out[n] = id
		n++
	}
	return n
}

// planGroup builds the group made of the new tiles x (and y) and the old groups it touches,
// failing with R3.1 when it would be larger than 4.
func (b *board) planGroup(g *newGroupPlan, x, y Cell, ox, oy []int16, explain bool) *RuleError {
	g.nold = 0
	size := 1
	if y != NoCell {
		size = 2
	}
	for _, list := range [2][]int16{ox, oy} {
	next:
		for _, id := range list {
			for _, o := range g.olds[:g.nold] {
				if o == id {
					continue next
				}
			}
			g.olds[g.nold] = id
			g.nold++
			size += int(b.groups[id].size)
		}
	}
	if size > 4 {
		if !explain {
			return errIllegal
		}
		where := x.String()
		if y != NoCell {
			where = x.String() + " and " + y.String()
		}
		return &RuleError{Rule: RuleSize, Message: fmt.Sprintf("tiles on %s would make a group of %d tiles (at most 4)", where, size)}
	}
	g.size = 0
	g.cells[g.size] = x
	g.size++
	if y != NoCell {
		g.cells[g.size] = y
		g.size++
	}
	for _, id := range g.olds[:g.nold] {
		grp := &b.groups[id]
		g.size += copy(g.cells[g.size:], grp.cells[:grp.size])
	}
	return nil
}

// checkDistance applies R3.2 to the planned groups: an island touches no other tile of its
// colour, not even diagonally. Only the groups the turn changes can break it, and tiles
// of one colour next to each other orthogonally are in one group, so looking at the
// diagonal neighbours of the planned groups' cells is enough. A planned sandbank can only
// break it through a new tile next to an existing island (its old tiles were legal, and a
// new island is checked from its own side), which the island halo answers in one lookup.
func (b *board) checkDistance(c Colour, x, y Cell, p *tilePlan, explain bool) *RuleError {
	bit := c.bit()
	for gi := 0; gi < p.n; gi++ {
		g := &p.g[gi]
		if g.size < 4 && !b.inHalo(c, x) && (y == NoCell || !b.inHalo(c, y)) {
			continue
		}
		if g.size == 4 && !noIslandRows && b.islandClear(c, g, x, y) {
			continue
		}
		var other *newGroupPlan
		if p.n == 2 {
			other = &p.g[1-gi]
		}
		for _, cell := range g.cells[:g.size] {
			for _, d := range diagonal {
				q := Cell(int(cell) + d)
				if b.state[q]&bit == 0 && q != x && q != y {
					continue
				}
				if g.has(q) {
					continue
				}
				var qsize int
				var qcells []Cell
				if other != nil && other.has(q) {
					qsize, qcells = other.size, other.cells[:other.size]
				} else {
					grp := &b.groups[b.gid[q]]
					qsize, qcells = int(grp.size), grp.cells[:grp.size]
				}
				if g.size < 4 && qsize < 4 {
					continue
				}
				if !explain {
					return errIllegal
				}
				return &RuleError{Rule: RuleDistance, Message: distanceMessage(c, x, y, cell, g.cells[:g.size], q, qcells)}
			}
		}
	}
	return nil
}

// noIslandRows turns islandClear off, for the tests that compare it with the loop of
// checkDistance.
var noIslandRows = false

// islandClear reports whether the planned island g of colour c touches no other tile of
// its colour (nor the new tiles x and y), which the loop of checkDistance would otherwise
// look for cell by cell. Tiles of the colour orthogonally next to the island are in it,
// so its 8-neighbours are its diagonal ones. The island and the colour's tiles around it
// are cut from the row bitmaps into one word, 8 bits a row for the 6 rows from the one
// above the island (the island, at most 4 by 4, starts in the second row and column of
// the window): the island grown by one cell in every direction must meet no tile but
// its own.
func (b *board) islandClear(c Colour, g *newGroupPlan, x, y Cell) bool {
	// Unsigned arithmetic and masked shifts: no checks for negative numbers and wide shifts.
	top, left := uint(g.cells[0])/stride, uint(g.cells[0])%stride
	for _, cell := range g.cells[1:] {
		top, left = min(top, uint(cell)/stride), min(left, uint(cell)%stride)
	}
	top, left = top-1, left-1 // the window's first row and column
	var island, tiles uint64
	for _, cell := range g.cells {
		island |= 1 << (((uint(cell)/stride-top)*8 + uint(cell)%stride - left) & 63)
	}
	rows := &b.ctiles[c&1]
	for r := range uint(6) {
		tiles |= uint64(rows[(top+r)%rowWords]>>(left&31)&0xff) << (8 * r)
	}
	for _, n := range [2]Cell{x, y} {
		if dr, dc := uint(n)/stride-top, uint(n)%stride-left; n != NoCell && dr < 6 && dc < 8 {
			tiles |= 1 << ((dr*8 + dc) & 63)
		}
	}
	grown := island | island<<1 | island>>1
	grown |= grown<<8 | grown>>8
	return grown&tiles&^island == 0
}

func distanceMessage(c Colour, x, y, cell Cell, gcells []Cell, q Cell, qcells []Cell) string {
	if len(gcells) == 4 {
		return fmt.Sprintf("the %s island %s made by this turn touches the %s tile on %s diagonally", c, cellList(gcells), c, q)
	}
	if cell == x || cell == y {
		return fmt.Sprintf("tile on %s touches %s island %s diagonally", cell, c, cellList(qcells))
	}
	return fmt.Sprintf("tile on %s joins the %s sandbank %s, which touches %s island %s diagonally", x, c, cellList(gcells), c, cellList(qcells))
}

func cellList(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return strings.Join(s, ",")
}

func colourOf(s uint8) Colour {
	if s&darkTile != 0 {
		return Dark
	}
	return Light
}

// applyTiles places the tiles of a checked plan and updates groups, components and tallies.
func (b *board) applyTiles(c Colour, x, y Cell, p *tilePlan) {
	bit := c.bit()
	b.state[x] |= bit
	b.tiles[int(x)/stride%rowWords] |= 1 << (int(x) % stride)
	b.ctiles[c&1][int(x)/stride%rowWords] |= 1 << (int(x) % stride)
	t := &b.tally[c]
	t.tiles++
	if y != NoCell {
		b.state[y] |= bit
		b.tiles[int(y)/stride%rowWords] |= 1 << (int(y) % stride)
		b.ctiles[c&1][int(y)/stride%rowWords] |= 1 << (int(y) % stride)
		t.tiles++
	}
	for gi := 0; gi < p.n; gi++ {
		g := &p.g[gi]
		var id int16
		if g.nold == 0 {
			id = b.newGroup(c, g)
		} else {
			id = g.olds[0]
			for _, o := range g.olds[1:g.nold] {
				b.union(c, id, o)
				b.groups[o].size = 0
			}
			grp := &b.groups[id]
			grp.cells = g.cells
			grp.size = int8(g.size)
		}
		for _, cell := range g.cells[:g.size] {
			b.gid[cell] = id
		}
		t.sandbanks -= g.nold
		if g.size < 4 {
			t.sandbanks++
			continue
		}
		t.islands++
		halo := &b.halo[c&1]
		for _, cell := range g.cells {
			row, three := int(cell)/stride, uint32(7)<<(int(cell)%stride-1)
			halo[(row-1)%rowWords] |= three
			halo[row%rowWords] |= three
			halo[(row+1)%rowWords] |= three
		}
		r := b.find(id)
		t.score += int(b.islands[r]) + 1 // T(k+1) - T(k)
		b.islands[r]++
	}
}

// checkBridge decides whether colour c may build a bridge between x and y, which must be on
// the board and a jump apart: both ends the mover's tiles (R4), water under it (R4.2), no
// end already used (R4.3), no crossing or touching another bridge (R4.4).
func (b *board) checkBridge(c Colour, x, y Cell, explain bool) *RuleError {
	bit := c.bit()
	for _, t := range [2]Cell{x, y} {
		if s := b.state[t]; s&bit == 0 {
			if !explain {
				return errIllegal
			}
			what := "is empty"
			if s&tileBits != 0 {
				what = "holds a " + colourOf(s).String() + " tile"
			} else if s&blocked != 0 {
				what = "is blocked by a bridge"
			}
			return &RuleError{Rule: RuleBridge, Message: fmt.Sprintf("bridge %s-%s: cell %s %s, not a %s tile", x, y, t, what, c)}
		}
	}
	w1, w2 := jumpWater(x, y)
	for _, w := range [2]Cell{w1, w2} {
		if w != NoCell && b.state[w]&tileBits != 0 {
			if !explain {
				return errIllegal
			}
			return &RuleError{Rule: RuleWater, Message: fmt.Sprintf("bridge %s-%s passes over the %s tile on %s", x, y, colourOf(b.state[w]), w)}
		}
	}
	for _, t := range [2]Cell{x, y} {
		if p := b.partner[t]; p != NoCell {
			if !explain {
				return errIllegal
			}
			return &RuleError{Rule: RuleOneEnd, Message: fmt.Sprintf("bridge %s-%s: the tile on %s already carries the bridge %s-%s", x, y, t, t, p)}
		}
	}
	if p, q, ok := b.crossing(x, y); ok {
		if !explain {
			return errIllegal
		}
		return &RuleError{Rule: RuleCrossing, Message: fmt.Sprintf("bridge %s-%s crosses or touches the bridge %s-%s", x, y, p, q)}
	}
	return nil
}

// crossing finds a bridge whose segment touches the segment x–y: the first, in cell order,
// of the ends within two cells of x–y's bounding box. Two segments that touch have
// overlapping bounding boxes, and a bridge's ends lie within two cells of any point of its
// segment, so only bridge ends within two cells of x–y's bounding box can matter: at most
// a 7×7 window, whose rows are scanned a machine word at a time through the per-row bitmaps
// of bridge ends. Most bridges touch none, which a smaller window tells: the point where
// two segments touch is within half a bridge (√8/2 < 1.5 cells) of the nearer end of the
// other one, so that end lies within one cell of x–y's bounding box.
func (b *board) crossing(x, y Cell) (Cell, Cell, bool) {
	if _, _, ok := b.crossingWithin(x, y, 1); !ok {
		return NoCell, NoCell, false
	}
	return b.crossingWithin(x, y, 2)
}

// crossingWithin finds the first bridge, in the cell order of its ends within pad cells of
// x–y's bounding box, that touches x–y.
func (b *board) crossingWithin(x, y Cell, pad int) (Cell, Cell, bool) {
	x0, y0 := int(x)%stride, int(x)/stride
	x1, y1 := int(y)%stride, int(y)/stride
	lox, hix := min(x0, x1), max(x0, x1)
	loy, hiy := min(y0, y1), max(y0, y1)
	window := uint32(1)<<(uint(hix+pad+1)&31) - uint32(1)<<(uint(lox-pad)&31)
	for row := loy - pad; row <= hiy+pad; row++ {
		for m := b.ends[uint(row)%rowWords] & window; m != 0; m &= m - 1 {
			col := bits.TrailingZeros32(m)
			p := Cell(row*stride + col)
			q := b.partner[p]
			qx, qy := int(q)%stride, int(q)/stride
			if max(col, qx) < lox || min(col, qx) > hix || max(row, qy) < loy || min(row, qy) > hiy {
				continue // the bounding boxes do not overlap
			}
			if segmentsTouch(x0, y0, x1, y1, col, row, qx, qy) {
				return p, q, true
			}
		}
	}
	return NoCell, NoCell, false
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

// applyBridge builds a checked bridge: blocks the water, indexes the ends, joins the components.
func (b *board) applyBridge(c Colour, x, y Cell) {
	w1, w2 := jumpWater(x, y)
	b.state[w1] |= blocked
	b.water[int(w1)/stride%rowWords] |= 1 << (int(w1) % stride)
	if w2 != NoCell {
		b.state[w2] |= blocked
		b.water[int(w2)/stride%rowWords] |= 1 << (int(w2) % stride)
	}
	b.partner[x], b.partner[y] = y, x
	b.ends[int(x)/stride%rowWords] |= 1 << (int(x) % stride)
	b.ends[int(y)/stride%rowWords] |= 1 << (int(y) % stride)
	b.bridges = append(b.bridges, placedBridge{x, y, c})
	b.tally[c].bridges++
	b.union(c, b.gid[x], b.gid[y])
}

// canPlaceTwo reports whether some pair of cells takes two tiles of colour c legally (R5.1).
// Two tiles legal together are each legal alone (adding tiles never repairs a violation), so
// only pairs of singly legal cells are tried; far-apart pairs succeed at once, so the test
// is quadratic only on nearly full boards where few cells are left.
func (b *board) canPlaceTwo(c Colour) bool {
	var buf [MaxSize * MaxSize]Cell
	cells := b.appendLegalCells(buf[:0], c)
	var p tilePlan
	for i := 0; i < len(cells); i++ {
		for j := i + 1; j < len(cells); j++ {
			if b.checkTiles(c, cells[i], cells[j], &p, false) == nil {
				return true
			}
		}
	}
	return false
}

// appendLegalCells appends the empty, unblocked cells where one tile of colour c is legal.
// Only the cells of each row that hold no tile, are not blocked and are in no halo of the
// colour's islands (which would make a tile illegal) are looked at.
func (b *board) appendLegalCells(dst []Cell, c Colour) []Cell {
	bit, halo := c.bit(), &b.halo[c&1]
	board := uint32(1)<<(b.size+margin) - uint32(1)<<margin // the columns of the board
	for row := margin; row < b.size+margin; row++ {
		r := row % rowWords
		for m := board &^ (b.tiles[r] | b.water[r] | halo[r]); m != 0; m &= m - 1 {
			x := Cell(row*stride + bits.TrailingZeros32(m))
			if b.tileLegal(bit, x) {
				dst = append(dst, x)
			}
		}
	}
	return dst
}

// inHalo reports whether x is an 8-neighbour of an island of colour c.
func (b *board) inHalo(c Colour, x Cell) bool {
	return b.halo[c&1][int(x)/stride%rowWords]>>(int(x)%stride)&1 != 0
}

// tileLegal is checkTiles for one tile of colour bit on x, an empty cell that is no
// 8-neighbour of an island of its colour (which would make it illegal: orthogonally, an
// island of 5; diagonally, R3.2): what checkTiles decides, without a plan. The tile
// makes a group with the groups of its colour next to it; larger than 4 it breaks R3.1;
// smaller it is a sandbank, legal since the halo is clear (R3.2 can only fail next to an
// island); of 4 it is an island, which must touch no other tile of its colour diagonally.
func (b *board) tileLegal(bit uint8, x Cell) bool {
	var ids [4]int16
	n, size := 0, 1
outer:
	for _, d := range orthogonal {
		q := Cell(int(x) + d)
		if b.state[q]&bit == 0 {
			continue
		}
		id := b.gid[q]
		for _, o := range ids[:n] {
			if o == id {
				continue outer
			}
		}
		ids[n] = id
		n++
		size += int(b.groups[id].size)
	}
	switch {
	case size < 4:
		return true
	case size > 4:
		return false
	}
	cells := [4]Cell{x}
	k := 1
	for _, id := range ids[:n] {
		g := &b.groups[id]
		k += copy(cells[k:], g.cells[:g.size])
	}
	for _, cell := range cells {
		for _, d := range diagonal {
			q := Cell(int(cell) + d)
			if b.state[q]&bit != 0 && q != cells[0] && q != cells[1] && q != cells[2] && q != cells[3] {
				return false
			}
		}
	}
	return true
}
