package replay

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTetrominoes checks the shapes against a plain enumeration: every set of 4 cells of a
// 7×4 window that is orthogonally connected, moved so that its first cell is the anchor.
func TestTetrominoes(t *testing.T) {
	if len(tetrominoes) != numShapes {
		t.Fatalf("%d tetrominoes, want %d", len(tetrominoes), numShapes)
	}
	var window []int
	for dy := 0; dy < 4; dy++ {
		for dx := -3; dx <= 3; dx++ {
			window = append(window, dy*stride+dx)
		}
	}
	want := map[[4]int]bool{}
	var pick func(from int, set []int)
	pick = func(from int, set []int) {
		if len(set) == 4 {
			if connected(set) {
				s := [4]int(slices.Clone(set))
				slices.Sort(s[:])
				for i := range s {
					s[i] -= set[0] // set[0] is the smallest: window is in cell order
				}
				slices.Sort(s[:])
				want[s] = true
			}
			return
		}
		for i := from; i < len(window); i++ {
			pick(i+1, append(set, window[i]))
		}
	}
	pick(0, nil)
	if len(want) != numShapes {
		t.Fatalf("the enumeration finds %d shapes", len(want))
	}
	for _, s := range tetrominoes {
		if !want[s] {
			t.Errorf("shape %v is not a tetromino anchored at its first cell", s)
		}
	}
}

// connected reports whether the cells are orthogonally connected.
func connected(cells []int) bool {
	seen := []int{cells[0]}
	for i := 0; i < len(seen); i++ {
		for _, d := range orthogonal {
			if q := seen[i] + d; slices.Contains(cells, q) && !slices.Contains(seen, q) {
				seen = append(seen, q)
			}
		}
	}
	return len(seen) == len(cells)
}

// placementCells returns the cells of shape s at the anchor of slot a.
func placementCells(a, s int) [4]int {
	var out [4]int
	for i, c := range tetrominoes[s] {
		out[i] = a - viablePad + c
	}
	return out
}

// onRing reports whether x is an 8-neighbour of one of cells and not one of them.
func onRing(cells [4]int, x int) bool {
	if slices.Contains(cells[:], x) {
		return false
	}
	for _, c := range cells {
		for _, d := range eightWay {
			if c+d == x {
				return true
			}
		}
	}
	return false
}

// TestKillOffsets checks the written-out offsets of killTile and killWater against the
// shapes: a tile clears, for the other colour, exactly the placements that hold it, and for
// its own, those that have it on their ring; a blocked cell clears those that hold it.
func TestKillOffsets(t *testing.T) {
	for _, x := range []Cell{CellAt(0, 0), CellAt(7, 11), CellAt(MaxSize-1, MaxSize-1)} {
		for _, c := range []Colour{Light, Dark, water} {
			var v [viableLen]uint64
			for i := range v {
				v[i] = ^uint64(0)
			}
			if c == water {
				killWater(&v, x)
			} else {
				killTile(&v, x, &tileKeeps[c])
			}
			for a := range v {
				want := ^uint64(0)
				for s := range tetrominoes {
					cells := placementCells(a, s)
					hold, ring := slices.Contains(cells[:], int(x)), onRing(cells, int(x))
					switch {
					case c == water && hold:
						want &^= (1 | 1<<32) << s
					case c != water && hold:
						want &^= 1 << (slotShift(c.Other()) + uint(s))
					case c != water && ring:
						want &^= 1 << (slotShift(c) + uint(s))
					}
				}
				if v[a] != want {
					t.Fatalf("cell %s, colour %d: slot %d is %x, want %x", x, c, a, v[a], want)
				}
			}
		}
	}
	if len(tileKillOffsets) != len(cellOffsets)+len(ringOffsets)-countShared() {
		t.Errorf("%d tile offsets", len(tileKillOffsets))
	}
}

// countShared counts the offsets that are both in cellOffsets and in ringOffsets.
func countShared() int {
	n := 0
	for _, e := range cellOffsets {
		for _, f := range ringOffsets {
			if e.off == f.off {
				n++
			}
		}
	}
	return n
}

// TestViableTemplate checks the slots of the empty boards: a placement is viable for both
// colours when all its cells are on the board.
func TestViableTemplate(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		v := viableTemplate(size)
		for a := range v {
			var want uint64
			for s := range tetrominoes {
				on := true
				for _, c := range placementCells(a, s) {
					on = on && c >= 0 && Cell(c).On(size)
				}
				if on {
					want |= (1 | 1<<32) << s
				}
			}
			if v[a] != want {
				t.Fatalf("size %d: slot %d is %x, want %x", size, a, v[a], want)
			}
		}
		if n := viableRows(size); n > viableLen {
			t.Fatalf("size %d copies %d slots", size, n)
		}
	}
}

// TestNextPlacement walks the placements that hold a cell, witness after witness, on slots
// with random bits, and checks that each viable one comes exactly once.
func TestNextPlacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for range 200 {
		var v [viableLen]uint64
		for i := range v {
			v[i] = rng.Uint64() & rng.Uint64() & (0x7ffff | 0x7ffff<<32)
		}
		x := CellAt(rng.IntN(MaxSize), rng.IntN(MaxSize))
		c := Colour(rng.IntN(2))
		want := map[placement]bool{}
		for a := range v {
			for s := range tetrominoes {
				cells := placementCells(a, s)
				if bit := slotShift(c) + uint(s); slices.Contains(cells[:], int(x)) && v[a]>>bit&1 != 0 {
					want[placement(uint(a)<<6|bit)] = true
				}
			}
		}
		got := map[placement]bool{}
		from, skip := uint(0), uint32(0)
		for {
			p, at, ok := nextPlacement(&v, c, x, from, skip)
			if !ok {
				break
			}
			if got[p] || !want[p] || p.colour() != c || !p.viableIn(&v) {
				t.Fatalf("cell %s: placement %d comes again, or does not hold the cell", x, p)
			}
			got[p] = true
			from, skip = at, 2<<(p&31)-1
		}
		if len(got) != len(want) {
			t.Fatalf("cell %s: %d placements found, %d hold it", x, len(got), len(want))
		}
	}
}

// TestIsDiagonal compares isDiagonal with the cells' coordinates.
func TestIsDiagonal(t *testing.T) {
	for c1 := 0; c1 < 8; c1++ {
		for r1 := 0; r1 < 8; r1++ {
			for c2 := 0; c2 < 8; c2++ {
				for r2 := 0; r2 < 8; r2++ {
					want := uint(0)
					if abs(c1-c2) == 1 && abs(r1-r2) == 1 {
						want = 1
					}
					if got := isDiagonal(uint(CellAt(c1, r1)), uint(CellAt(c2, r2))); got != want {
						t.Fatalf("(%d,%d) (%d,%d): %d", c1, r1, c2, r2, got)
					}
				}
			}
		}
	}
}

// TestFeaturesLargeBoards checks the tracker against the whole-board oracle on the large
// boards that TestIncrementalFeatures does not play, one tracker for games of changing
// sizes.
func TestFeaturesLargeBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 34))
	var ft FeatureTracker
	for gi, size := range []int{MaxSize, 6, 20, MaxSize - 1, 5, 17} {
		playAgainstOracle(t, rng, &ft, gi, size, Unlimited, 160, 4)
	}
}
