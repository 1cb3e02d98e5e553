// Package pos is a position of Ponte del Diavolo made for the playouts of a search: the
// rules of package replay on bitboards, with groups, components and the score kept in
// fixed arrays, so that a position is copied by value and a playout allocates nothing;
// and the playout policy of the sage bot, drawn faster with the same distribution. Its
// verdicts are replay's, which the differential test checks turn by turn
// (docs/bot-design.md, "The search position").
package pos

import (
	"errors"
	"fmt"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// The bits of a cell's square (Position.sq), below the group size.
const (
	sqBlocked uint8 = 4
	sqWall    uint8 = 8
	sqTiles   uint8 = 3
)

// group is a maximal set of orthogonally connected tiles of one colour. A group merged
// into another keeps its id in the component union-find, with size 0.
type group struct {
	cells  [4]int16
	size   int8
	colour replay.Colour
}

// head is the part of a position that is copied whole: the turn, the supply, the tallies
// and the bitboards.
type head struct {
	g           *geom
	supply      game.Supply
	turn        int
	swapped     bool
	lightPassed bool
	over        bool
	tilesLeft   [2]int
	bridgesLeft int
	score       [2]int
	islands     [2]int
	sandbanks   [2]int
	bridges     [2]int
	ngroups     int
	icomp       [2]int // per colour, the components that hold an island

	tiles   [2]bitset // per colour, its tiles
	blocked bitset    // cells under a bridge (R4.5)
	ends    bitset    // tiles that carry a bridge end
	halo    [2]bitset // per colour, the 8-neighbours of its islands' cells
	mid     [2]bitset // per colour, the tiles of its sandbanks of 2 and 3
	icells  [2]bitset // per colour, the tiles of components that hold an island
	// may10 says, per colour, that a bridge worth 10 or more (between two components
	// with islands) may be legal; false only when none is. Such bridges appear only when
	// icells grows (grew, set by markComponent), and Play then looks for one again.
	may10  [2]bool
	grew   bool
	added  [32]int16 // the tiles the turn added to icells (the first 32 of nadded)
	nadded int
}

// Position is a position of a game: tiles, groups, bridges, blocked cells, the components
// of R6 and the score, whose turn it is, the supply left and the pass state. It is a plain
// value: q := *p copies it, and CopyFrom copies only what the board size uses. Only Play
// and CopyFrom change a position (the queries, PlayoutTurn included, only read it), so
// goroutines may share a position that none of them plays on. The zero Position is not ready; use New or FromGame.
type Position struct {
	head
	sq      [numIdx]uint8 // per cell: the tile's colour bit, sqBlocked, sqWall, and the tile's group size << 4
	gid     [numIdx]int16 // the group of the tile on the cell (valid where a tile is)
	partner [numIdx]int16 // the other end of the bridge whose end is on the cell (valid where ends is set)
	groups  [maxGroups]group
	parent  [maxGroups]int16 // per group id, the root group of its component (R6)
	isl     [maxGroups]int16 // islands of the component, kept at its root
	cnext   [maxGroups]int16 // the groups of a component in a circular list
}

// New returns the empty position of a board of side size with the given supply.
func New(size int, supply game.Supply) (Position, error) {
	var p Position
	if size < game.MinSize || size > game.MaxSize {
		return p, fmt.Errorf("%w, not %d", replay.ErrSize, size)
	}
	if supply != game.Unlimited && supply != game.Supply40x15 {
		return p, fmt.Errorf("pos: unknown supply %d", supply)
	}
	p.g = geoms[size]
	p.sq = p.g.walls
	p.supply = supply
	p.tilesLeft = [2]int{replay.TilesPerColour, replay.TilesPerColour}
	p.bridgesLeft = replay.BridgePool
	return p, nil
}

// ErrInconsistent is returned by FromGame when the game's own tallies disagree with the
// position rebuilt from its cells (which a game built by replay never does).
var ErrInconsistent = errors.New("pos: the game's tallies disagree with its cells")

// FromGame returns the position of g: its tiles, bridges, groups and components, the
// turn, the swap, the supply left and the pass state.
func FromGame(g *replay.Game) (Position, error) {
	p, err := New(g.Size(), g.Supply())
	if err != nil {
		return p, err
	}
	p.turn, p.swapped, p.over, p.lightPassed = g.Turn(), g.Swapped(), g.Over(), g.LightPassed()
	if p.supply == game.Supply40x15 {
		p.tilesLeft = [2]int{g.TilesLeft(replay.Light), g.TilesLeft(replay.Dark)}
		p.bridgesLeft = g.BridgesLeft()
	}
	geo := p.g
	n := geo.size
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cell := game.CellAt(c, r)
			i := geo.idx(cell)
			if col, ok := g.At(cell); ok {
				p.tiles[col].set(i)
				p.sq[i] = 1<<col | uint8(g.GroupSize(cell))<<4
			}
			if g.Blocked(cell) {
				p.blocked.set(i)
				p.sq[i] |= sqBlocked
			}
		}
	}
	// Groups by flood fill, in cell order.
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := geo.idx(game.CellAt(c, r))
			col, ok := p.colourAt(i)
			if !ok || p.seen(i) {
				continue
			}
			id := int16(p.ngroups)
			p.ngroups++
			grp := &p.groups[id]
			grp.colour = col
			stack := [8]int{i}
			top := 1
			p.gid[i] = id
			grp.cells[0], grp.size = int16(i), 1
			for top > 0 {
				top--
				x := stack[top]
				for _, d := range [4]int{1, -1, geo.s, -geo.s} {
					q := x + d
					if !p.tiles[col].has(q) || p.inGroup(grp, q) {
						continue
					}
					if grp.size == 4 {
						return p, fmt.Errorf("%w: a group of more than 4 tiles", ErrInconsistent)
					}
					grp.cells[grp.size] = int16(q)
					grp.size++
					p.gid[q] = id
					stack[top] = q
					top++
				}
			}
			p.parent[id] = id
			p.cnext[id] = id
			if grp.size == 2 || grp.size == 3 {
				for _, x := range grp.cells[:grp.size] {
					p.mid[col].set(int(x))
				}
			}
			if grp.size == 4 {
				p.isl[id] = 1
				p.icomp[col]++
				p.islands[col]++
				p.score[col]++
				p.addHalo(col, grp)
			} else {
				p.sandbanks[col]++
			}
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			a := game.CellAt(c, r)
			b := g.BridgeEnd(a)
			if b == game.NoCell {
				continue
			}
			i, j := geo.idx(a), geo.idx(b)
			p.ends.set(i)
			p.partner[i] = int16(j)
			if i < j {
				col, _ := p.colourAt(i)
				p.bridges[col]++
				p.union(col, p.gid[i], p.gid[j])
			}
		}
	}
	p.markIslandComponents()
	p.may10 = [2]bool{p.exists10(replay.Light), p.exists10(replay.Dark)}
	if p.score != g.Score() || p.islands != g.Islands() || p.bridges != g.Bridges() || p.sandbanks != g.Sandbanks() {
		return p, fmt.Errorf("%w: score %v islands %v bridges %v, the game says %v %v %v", ErrInconsistent, p.score, p.islands, p.bridges, g.Score(), g.Islands(), g.Bridges())
	}
	return p, nil
}

// seen reports whether the tile on i already has a group (during FromGame's flood fill).
func (p *Position) seen(i int) bool {
	id := p.gid[i]
	return int(id) < p.ngroups && p.inGroup(&p.groups[id], i)
}

func (p *Position) inGroup(grp *group, i int) bool {
	for _, c := range grp.cells[:grp.size] {
		if int(c) == i {
			return true
		}
	}
	return false
}

// CopyFrom makes p a copy of src, copying only the cells and groups src's board uses:
// the cheap way to start a playout from a search's position.
func (p *Position) CopyFrom(src *Position) {
	if p.g != src.g {
		*p = *src
		return
	}
	p.head = src.head
	n := src.g.last + 1
	copy(p.sq[:n], src.sq[:n])
	copy(p.gid[:n], src.gid[:n])
	copy(p.partner[:n], src.partner[:n])
	k := src.ngroups
	copy(p.groups[:k], src.groups[:k])
	copy(p.parent[:k], src.parent[:k])
	copy(p.isl[:k], src.isl[:k])
	copy(p.cnext[:k], src.cnext[:k])
}

// Size returns the board side N.
func (p *Position) Size() int { return p.g.size }

// Supply returns the supply setting.
func (p *Position) Supply() game.Supply { return p.supply }

// Turn returns the number of turns played so far.
func (p *Position) Turn() int { return p.turn }

// Swapped reports whether turn 2 was the swap.
func (p *Position) Swapped() bool { return p.swapped }

// Over reports whether the game has ended (R5.2, R5.3).
func (p *Position) Over() bool { return p.over }

// LightPassed reports whether Light has passed, so that Dark has one more turn (R5.2).
func (p *Position) LightPassed() bool { return p.lightPassed }

// ToMove returns the colour of the next turn (R1).
func (p *Position) ToMove() replay.Colour {
	// Light opens, Dark answers, and then the turns alternate, the colours exchanged
	// after a swap (which cannot have happened before turn 3): Dark moves when the swap
	// and the turn's oddness agree. Without branches: the colour alternates every turn.
	sw := 0
	if p.swapped {
		sw = 1
	}
	return replay.Colour((p.turn+1)&1 ^ sw ^ 1)
}

// TilesLeft returns how many tiles colour c has left, -1 with the unlimited supply.
func (p *Position) TilesLeft(c replay.Colour) int {
	if p.supply == game.Unlimited {
		return -1
	}
	return p.tilesLeft[c&1]
}

// BridgesLeft returns how many bridges the shared pool holds, -1 with the unlimited supply.
func (p *Position) BridgesLeft() int {
	if p.supply == game.Unlimited {
		return -1
	}
	return p.bridgesLeft
}

// At returns the colour of the tile on cell, and false when it holds none.
func (p *Position) At(cell game.Cell) (replay.Colour, bool) {
	if !cell.On(p.g.size) {
		return replay.Light, false
	}
	return p.colourAt(p.g.idx(cell))
}

func (p *Position) colourAt(i int) (replay.Colour, bool) {
	switch {
	case p.tiles[replay.Light].has(i):
		return replay.Light, true
	case p.tiles[replay.Dark].has(i):
		return replay.Dark, true
	}
	return replay.Light, false
}

// Square returns what a board cell holds, in one read: its tile's colour (tile false
// without one), whether it lies under a bridge, and for a tile its group (an id that
// every tile of the group shares, and no other group) and the group's size.
func (p *Position) Square(cell game.Cell) (c replay.Colour, tile, blocked bool, group int16, size int) {
	i := p.g.idx(cell)
	sq := p.sq[i]
	tile = sq&sqTiles != 0
	return replay.Colour(sq >> 1 & 1), tile, sq&sqBlocked != 0, p.gid[i], int(sq >> 4)
}

// Blocked reports whether cell lies under a bridge (R4.5).
func (p *Position) Blocked(cell game.Cell) bool {
	return cell.On(p.g.size) && p.blocked.has(p.g.idx(cell))
}
