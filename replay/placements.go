package replay

import (
	"math/bits"
	"slices"
	"sync"
)

// Placements: the places where an island could still form, for the dead sandbanks of
// FeatureTracker. A placement is one of the 19 fixed tetrominoes (the connected sets of 4
// cells, up to translation) put down at an anchor cell, its first cell in cell order
// (lowest row, then lowest column). A placement is viable for a colour when each of its
// cells is empty and unblocked or a tile of the colour, and no tile of the colour outside
// it is an 8-neighbour of one of its cells (it lies on the placement's ring): exactly what
// growIsland looks for. Viability only gets lost: cells only fill, and tiles and blocked
// water stay.
//
// A viable placement that holds one tile of a sandbank holds all of it: a tile of the
// sandbank next to a cell of the placement but outside it would lie on its ring. So a
// sandbank is dead exactly when no viable placement of its colour holds a given tile of
// it, whichever.
//
// The viable placements of both colours are kept in slots of 64 bits, one per anchor: bit
// s (0 to 18) is set while shape s at that anchor is viable for Light, bit 32+s for Dark.
// The slots start from placements on the board (viableTemplate), and each change clears
// what it spoils (killTile, killWater).

// numShapes is the number of fixed tetrominoes.
const numShapes = 19

// The slots are indexed by the anchor plus viablePad: the anchors of the placements that
// hold or touch a board cell lie up to 4 rows below it, below the first row of the grid.
// Every index is taken modulo viableLen, which keeps it in the array without a bounds
// check.
const (
	viablePad = 3 * stride
	viableLen = 1024 // at least numCells + viablePad, a power of 2
)

// slotShift is the position of colour c's half in a slot.
func slotShift(c Colour) uint { return 32 * uint(c) }

// shapeOffset is a set of shapes sharing a relative position: the shapes in mask have a cell
// (in cellOffsets) or a ring cell (in ringOffsets) off cells after their anchor.
type shapeOffset struct {
	off  int
	mask uint32
}

var (
	// tetrominoes are the cells of each fixed tetromino as offsets from its anchor.
	tetrominoes = fixedTetrominoes()
	// cellOffsets: a cell x lies in the placements of shapes mask anchored at x - off.
	cellOffsets = offsetsOf(false)
	// ringOffsets: a cell x lies on the ring of the placements of shapes mask anchored at
	// x - off.
	ringOffsets = offsetsOf(true)
	// holds is cellOffsets for nextPlacement, as an array, with its offsets made ready
	// to take from a cell to get a slot.
	holds = holdList()
	// tileKeeps[c][i]: what a tile of colour c on x leaves of the slot of anchor
	// x - tileKillOffsets[i]; its complement is the placements that hold x for the other
	// colour, and those that have x on their ring for c.
	tileKeeps = [2][len(tileKillOffsets)]uint64{
		[len(tileKillOffsets)]uint64(keeps(tileKillOffsets[:], Light)),
		[len(tileKillOffsets)]uint64(keeps(tileKillOffsets[:], Dark)),
	}
	// waterKeeps[i]: what a blocked cell x leaves of the slot of anchor
	// x - waterKillOffsets[i]: all but the placements that hold x, of either colour.
	waterKeeps = [len(waterKillOffsets)]uint64(keeps(waterKillOffsets[:], water))
	// viableTemplates are the slots of the empty board, per board size, built on first
	// use.
	viableTemplates [MaxSize + 1]struct {
		once sync.Once
		v    [viableLen]uint64
	}
)

// fixedTetrominoes enumerates the fixed tetrominoes: sets of 4 orthogonally connected cells
// whose first cell (in cell order) is the anchor, offset 0.
func fixedTetrominoes() [][4]int {
	var out [][4]int
	var grow func(set []int)
	grow = func(set []int) {
		if len(set) == 4 {
			s := [4]int(slices.Clone(set))
			slices.Sort(s[:])
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
			return
		}
		for _, c := range set {
			for _, d := range orthogonal {
				if q := c + d; q > 0 && !slices.Contains(set, q) {
					grow(append(set, q))
				}
			}
		}
	}
	grow(make([]int, 1, 4))
	slices.SortFunc(out, func(a, b [4]int) int { return slices.Compare(a[:], b[:]) })
	return out
}

// offsetsOf lists, for every relative position, the shapes that have a cell there (ring
// false) or a ring cell there (ring true), in offset order.
func offsetsOf(ring bool) []shapeOffset {
	masks := map[int]uint32{}
	for s, cells := range tetrominoes {
		for _, c := range cells {
			if !ring {
				masks[c] |= 1 << s
				continue
			}
			for _, d := range eightWay {
				if q := c + d; !slices.Contains(cells[:], q) {
					masks[q] |= 1 << s
				}
			}
		}
	}
	out := make([]shapeOffset, 0, len(masks))
	for off, m := range masks {
		out = append(out, shapeOffset{off, m})
	}
	slices.SortFunc(out, func(a, b shapeOffset) int { return a.off - b.off })
	return out
}

// numHolds is the number of anchors whose placements can hold a given cell.
const numHolds = 13

// slotHold is an entry of holds: the placements of shapes mask in the slot of index x - off
// (modulo viableLen) hold the cell x.
type slotHold struct {
	off  uint
	mask uint32
}

// holdList builds holds from cellOffsets.
func holdList() (out [numHolds]slotHold) {
	if len(cellOffsets) != numHolds {
		panic("replay: holds does not fit the tetrominoes")
	}
	for i, e := range cellOffsets {
		out[i] = slotHold{uint(e.off-viablePad) % viableLen, e.mask}
	}
	return out
}

// tileKillOffsets are the offsets from a cell x to the anchors of the placements that hold
// x or have it on their ring, in order; waterKillOffsets those of the placements that hold
// x. killTile and killWater are written out for them, and TestKillOffsets checks them
// against cellOffsets and ringOffsets.
var (
	tileKillOffsets  = [...]int{-33, -32, -31, -30, -29, -28, -3, -2, -1, 0, 1, 2, 3, 4, 29, 30, 31, 32, 33, 34, 35, 36, 61, 62, 63, 64, 65, 66, 67, 94, 95, 96, 97, 98, 127, 128, 129}
	waterKillOffsets = [...]int{0, 1, 2, 3, 30, 31, 32, 33, 34, 63, 64, 65, 96}
)

// keeps builds, for a change on a cell, what it leaves of the slots at offs: for a tile of
// colour c, all but the placements that hold the cell for the other colour and those
// that have it on their ring for c; for a blocked cell (c is water), all but those that
// hold it.
func keeps(offs []int, c Colour) []uint64 {
	hold := map[int]uint32{}
	for _, e := range cellOffsets {
		hold[e.off] = e.mask
	}
	ring := map[int]uint32{}
	for _, e := range ringOffsets {
		ring[e.off] = e.mask
	}
	out := make([]uint64, len(offs))
	for i, off := range offs {
		var m uint64
		switch c {
		case water:
			m = uint64(hold[off]) | uint64(hold[off])<<32
		default:
			m = uint64(hold[off])<<slotShift(c.Other()) | uint64(ring[off])<<slotShift(c)
		}
		out[i] = ^m
	}
	return out
}

// water stands for a blocked cell in keeps.
const water Colour = 2

// viableTemplate returns the slots of the empty board of side size: the placements whose
// cells are all on the board are viable for both colours. Slots of anchors off the board
// are 0.
func viableTemplate(size int) *[viableLen]uint64 {
	t := &viableTemplates[size]
	t.once.Do(func() {
		for a := range Cell(numCells) {
			if !a.On(size) {
				continue
			}
			for s, cells := range tetrominoes {
				on := true
				for _, c := range cells {
					on = on && Cell(int(a)+c).On(size)
				}
				if on {
					t.v[int(a)+viablePad] |= (1 | 1<<32) << s
				}
			}
		}
	})
	return &t.v
}

// viableRows is how much of a template a new game copies. The placements read hold a board
// cell, so their anchors lie no higher than the board; the placements cleared have a board
// cell on their ring, so their anchors lie at most one row higher. Slots above are left
// as the last game left them.
func viableRows(size int) int { return (size+margin+1)*stride + viablePad }

// placement is a placement of one colour, packed as its slot times 64 plus its bit in the
// slot (the shape, plus 32 for Dark).
type placement uint16

// viableIn reports whether p is still viable in v.
func (p placement) viableIn(v *[viableLen]uint64) bool {
	return v[uint(p>>6)%viableLen]>>(p&63)&1 != 0
}

// colour returns the colour of placement p.
func (p placement) colour() Colour { return Colour(p >> 5 & 1) }

// nextPlacement returns the first placement viable for colour c in v that holds cell x,
// in the order of holds from index from, then of shapes, passing over the shapes skip at
// index from; with its index in holds. It returns false when there is none.
func nextPlacement(v *[viableLen]uint64, c Colour, x Cell, from uint, skip uint32) (placement, uint, bool) {
	sh := slotShift(c)
	for i := from; i < numHolds; i++ {
		e := &holds[i]
		a := (uint(x) - e.off) % viableLen
		if m := uint32(v[a]>>(sh&63)) & e.mask &^ skip; m != 0 {
			return placement(a<<6 | sh + uint(bits.TrailingZeros32(m))), i, true
		}
		skip = 0
	}
	return 0, 0, false
}

// killTile clears from v the placements that a new tile on x spoils; keep is tileKeeps[c]
// for a tile of colour c. The offsets of tileKillOffsets are written out (slot = x +
// viablePad - offset): without a loop, this is a third of the instructions.
func killTile(v *[viableLen]uint64, x Cell, keep *[len(tileKillOffsets)]uint64) {
	b := uint(x) + viablePad
	v[(b+33)%viableLen] &= keep[0]
	v[(b+32)%viableLen] &= keep[1]
	v[(b+31)%viableLen] &= keep[2]
	v[(b+30)%viableLen] &= keep[3]
	v[(b+29)%viableLen] &= keep[4]
	v[(b+28)%viableLen] &= keep[5]
	v[(b+3)%viableLen] &= keep[6]
	v[(b+2)%viableLen] &= keep[7]
	v[(b+1)%viableLen] &= keep[8]
	v[b%viableLen] &= keep[9]
	v[(b-1)%viableLen] &= keep[10]
	v[(b-2)%viableLen] &= keep[11]
	v[(b-3)%viableLen] &= keep[12]
	v[(b-4)%viableLen] &= keep[13]
	v[(b-29)%viableLen] &= keep[14]
	v[(b-30)%viableLen] &= keep[15]
	v[(b-31)%viableLen] &= keep[16]
	v[(b-32)%viableLen] &= keep[17]
	v[(b-33)%viableLen] &= keep[18]
	v[(b-34)%viableLen] &= keep[19]
	v[(b-35)%viableLen] &= keep[20]
	v[(b-36)%viableLen] &= keep[21]
	v[(b-61)%viableLen] &= keep[22]
	v[(b-62)%viableLen] &= keep[23]
	v[(b-63)%viableLen] &= keep[24]
	v[(b-64)%viableLen] &= keep[25]
	v[(b-65)%viableLen] &= keep[26]
	v[(b-66)%viableLen] &= keep[27]
	v[(b-67)%viableLen] &= keep[28]
	v[(b-94)%viableLen] &= keep[29]
	v[(b-95)%viableLen] &= keep[30]
	v[(b-96)%viableLen] &= keep[31]
	v[(b-97)%viableLen] &= keep[32]
	v[(b-98)%viableLen] &= keep[33]
	v[(b-127)%viableLen] &= keep[34]
	v[(b-128)%viableLen] &= keep[35]
	v[(b-129)%viableLen] &= keep[36]
}

// killWater clears from v the placements that hold x, which a bridge blocked. The offsets
// of waterKillOffsets are written out, without a loop.
func killWater(v *[viableLen]uint64, x Cell) {
	b := uint(x) + viablePad
	v[b%viableLen] &= waterKeeps[0]
	v[(b-1)%viableLen] &= waterKeeps[1]
	v[(b-2)%viableLen] &= waterKeeps[2]
	v[(b-3)%viableLen] &= waterKeeps[3]
	v[(b-30)%viableLen] &= waterKeeps[4]
	v[(b-31)%viableLen] &= waterKeeps[5]
	v[(b-32)%viableLen] &= waterKeeps[6]
	v[(b-33)%viableLen] &= waterKeeps[7]
	v[(b-34)%viableLen] &= waterKeeps[8]
	v[(b-63)%viableLen] &= waterKeeps[9]
	v[(b-64)%viableLen] &= waterKeeps[10]
	v[(b-65)%viableLen] &= waterKeeps[11]
	v[(b-96)%viableLen] &= waterKeeps[12]
}
