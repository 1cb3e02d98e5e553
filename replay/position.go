package replay

// What a bot or a report asks of a position.

// At returns the colour of the tile on cell c, and false when c holds no tile.
func (g *Game) At(c Cell) (Colour, bool) {
	if !c.On(g.size) {
		return Light, false
	}
	s := g.state[c]
	return colourOf(s), s&tileBits != 0
}

// Blocked reports whether c lies under a bridge (R4.5).
func (g *Game) Blocked(c Cell) bool { return c.On(g.size) && g.state[c]&blocked != 0 }

// BridgeEnd returns the other end of the bridge whose end is the tile on c, or NoCell.
func (g *Game) BridgeEnd(c Cell) Cell {
	if !c.On(g.size) {
		return NoCell
	}
	return g.partner[c]
}

// BuiltBridges returns the bridges of colour c in the order they were built.
func (g *Game) BuiltBridges(c Colour) []Move {
	var out []Move
	for _, b := range g.bridges {
		if b.colour == c {
			out = append(out, BridgeMove(b.a, b.b))
		}
	}
	return out
}

// Group is a maximal set of orthogonally connected tiles of one colour: an island when it
// has 4 tiles, a sandbank when it has fewer.
type Group struct {
	Colour    Colour
	Cells     []Cell
	Component int // index into Components()
}

// Island reports whether the group is an island (exactly 4 tiles).
func (gr Group) Island() bool { return len(gr.Cells) == 4 }

// Component is a connected component of one colour's groups joined by bridges (R6).
type Component struct {
	Colour  Colour
	Groups  []int // indices into Groups()
	Islands int
}

// Score returns what the component scores: k(k+1)/2 for k islands.
func (c Component) Score() int { return c.Islands * (c.Islands + 1) / 2 }

// Groups returns the groups on the board and the components they form, Light's first,
// each in the order its first tile was placed.
func (g *Game) Groups() ([]Group, []Component) {
	var groups []Group
	var comps []Component
	index := make(map[int16]int) // component root -> index into comps
	for _, colour := range [2]Colour{Light, Dark} {
		for id := range g.groups {
			grp := &g.groups[id]
			if grp.size == 0 || grp.colour != colour {
				continue
			}
			root := g.find(int16(id))
			ci, ok := index[root]
			if !ok {
				ci = len(comps)
				index[root] = ci
				comps = append(comps, Component{Colour: colour})
			}
			comps[ci].Groups = append(comps[ci].Groups, len(groups))
			if grp.size == 4 {
				comps[ci].Islands++
			}
			groups = append(groups, Group{Colour: colour, Cells: append([]Cell(nil), grp.cells[:grp.size]...), Component: ci})
		}
	}
	return groups, comps
}

// LegalTileCells returns the empty cells where a single tile of colour c would be legal,
// the colour's mobility. A legal two-tile turn uses two of these cells.
func (g *Game) LegalTileCells(c Colour) []Cell {
	if g.supply == Supply40x15 && g.tilesLeft[c] < 2 {
		return nil
	}
	return g.appendLegalCells(nil, c)
}

// CanPlaceTwo reports whether colour c could place two tiles somewhere (the test of R5.1).
func (g *Game) CanPlaceTwo(c Colour) bool {
	if g.supply == Supply40x15 && g.tilesLeft[c] < 2 {
		return false
	}
	return g.canPlaceTwo(c)
}

// jumps are the 16 bridge jumps (R4.1) as index offsets.
var jumps = [16]int{
	2, -2, 2 * stride, -2 * stride, // straight
	2*stride + 2, 2*stride - 2, -2*stride + 2, -2*stride - 2, // diagonal
	2*stride + 1, 2*stride - 1, -2*stride + 1, -2*stride - 1, // knight
	stride + 2, stride - 2, -stride + 2, -stride - 2,
}

// LegalBridges returns every bridge colour c could build now.
func (g *Game) LegalBridges(c Colour) []Move {
	if g.supply == Supply40x15 && g.bridgesLeft == 0 {
		return nil
	}
	var out []Move
	bit := c.bit()
	for r := 0; r < g.size; r++ {
		row := (r+margin)*stride + margin
		for i := row; i < row+g.size; i++ {
			a := Cell(i)
			if g.state[a]&bit == 0 || g.partner[a] != NoCell {
				continue
			}
			for _, d := range jumps {
				b := Cell(i + d)
				if b > a && g.state[b]&bit != 0 && g.checkBridge(c, a, b, false) == nil {
					out = append(out, BridgeMove(a, b))
				}
			}
		}
	}
	return out
}

// CopyFrom makes g a copy of src, reusing g's memory: the cheap way for a search to try
// a turn on a scratch game.
func (g *Game) CopyFrom(src *Game) {
	groups, parent, islands, bridges := g.groups, g.parent, g.islands, g.bridges
	*g = *src
	g.groups = append(groups[:0], src.groups...)
	g.parent = append(parent[:0], src.parent...)
	g.islands = append(islands[:0], src.islands...)
	g.bridges = append(bridges[:0], src.bridges...)
}

// GroupSize returns the number of tiles in the group of the tile on c, 0 for a cell
// without a tile.
func (g *Game) GroupSize(c Cell) int {
	if !c.On(g.size) || g.state[c]&tileBits == 0 {
		return 0
	}
	return int(g.groups[g.gid[c]].size)
}

// ComponentOf identifies the component (R6) of the tile on c: a number shared by all the
// tiles of one component, and the islands it holds. It returns -1, 0 for a cell without a
// tile.
func (g *Game) ComponentOf(c Cell) (id, islands int) {
	if !c.On(g.size) || g.state[c]&tileBits == 0 {
		return -1, 0
	}
	r := g.find(g.gid[c])
	return int(r), int(g.islands[r])
}

// Mobility returns the number of empty cells where a single tile of colour c would be legal.
func (g *Game) Mobility(c Colour) int {
	if g.supply == Supply40x15 && g.tilesLeft[c] < 2 {
		return 0
	}
	var buf [MaxSize * MaxSize]Cell
	return len(g.appendLegalCells(buf[:0], c))
}

// Census counts the sandbanks of one colour.
type Census struct {
	Sandbanks [4]int // by size, index 1 to 3
	Dead      [4]int // of those, the dead ones, by size
	// Room counts, over the sandbanks that are not dead, the free cells (empty and not
	// blocked) orthogonally next to each of their tiles: how much space they have to grow.
	Room int
}

// Census counts the sandbanks of colour c: how many of each size, how many of them are
// dead, and how much room the others have.
func (g *Game) Census(c Colour) Census {
	var out Census
	for id := range g.groups {
		grp := &g.groups[id]
		if grp.colour != c || grp.size == 0 || grp.size >= 4 {
			continue
		}
		out.Sandbanks[grp.size]++
		if g.isDead(grp) {
			out.Dead[grp.size]++
			continue
		}
		for _, cell := range grp.cells[:grp.size] {
			for _, d := range orthogonal {
				if g.state[int(cell)+d] == 0 {
					out.Room++
				}
			}
		}
	}
	return out
}

// GroupID identifies the group of the tile on c: a number shared by the tiles of one group
// (until groups merge). It returns -1 for a cell without a tile.
func (g *Game) GroupID(c Cell) int {
	if !c.On(g.size) || g.state[c]&tileBits == 0 {
		return -1
	}
	return int(g.gid[c])
}

// LightPassed reports whether Light has passed and Dark has the one more turn of R5.2.
func (g *Game) LightPassed() bool { return g.lightPassed }
