package game

import (
	"testing"
)

// TestFoldPairOrbits checks FoldPair against Burnside's lemma: the number of distinct
// folded pairs on an n×n board is the average, over the 8 symmetries, of the pairs each
// symmetry leaves in place; and every image of a pair folds to the same pair.
func TestFoldPairOrbits(t *testing.T) {
	for _, n := range []int{5, 6, 10, 12} {
		var cells []Cell
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				cells = append(cells, CellAt(c, r))
			}
		}
		image := func(sym int, x Cell) Cell {
			c, r := symmetries[sym](x.Col(), x.Row(), n)
			return CellAt(c, r)
		}
		classes := map[[2]Cell]bool{}
		fixed := 0
		for i, a := range cells {
			for _, b := range cells[i+1:] {
				fa, fb := FoldPair(a, b, n)
				classes[[2]Cell{fa, fb}] = true
				for sym := range symmetries {
					ia, ib := image(sym, a), image(sym, b)
					if ga, gb := FoldPair(ib, ia, n); ga != fa || gb != fb {
						t.Fatalf("n=%d: %s %s folds to %s %s, its image %s %s to %s %s", n, a, b, fa, fb, ia, ib, ga, gb)
					}
					if ia == a && ib == b || ia == b && ib == a {
						fixed++
					}
				}
			}
		}
		if want := fixed / 8; len(classes) != want || fixed%8 != 0 {
			t.Errorf("n=%d: %d folded pairs, Burnside says %d/8", n, len(classes), fixed)
		}
	}
}

func TestFoldPairExamples(t *testing.T) {
	cell := func(s string) Cell { return CellAt(int(s[0]-'a'), int(s[1]-'1')) }
	for _, tc := range []struct {
		a, b   string
		n      int
		fa, fb string
	}{
		{"a4", "c4", 5, "b1", "b3"}, // a quarter turn of d1 d3, then a mirror
		{"d1", "d3", 5, "b1", "b3"},
		{"a1", "b3", 6, "a1", "c2"},
		{"f6", "e4", 6, "a1", "c2"}, // the half turn of a1 b3
		{"e5", "f6", 10, "e5", "f6"},
		{"f6", "e5", 10, "e5", "f6"},
	} {
		fa, fb := FoldPair(cell(tc.a), cell(tc.b), tc.n)
		if fa.String() != tc.fa || fb.String() != tc.fb {
			t.Errorf("%s %s on %d×%d folds to %s %s, want %s %s", tc.a, tc.b, tc.n, tc.n, fa, fb, tc.fa, tc.fb)
		}
	}
}

// FoldCell gives one cell per class of cells under the square's 8 symmetries: on a board of
// side n there are m(m+1)/2 classes, m = ⌈n/2⌉, and every cell folds onto a cell of its class.
func TestFoldCell(t *testing.T) {
	for _, n := range []int{5, 6, 10, 12, 26} {
		classes := map[Cell]bool{}
		for col := range n {
			for row := range n {
				c := CellAt(col, row)
				f := FoldCell(c, n)
				if FoldCell(f, n) != f {
					t.Fatalf("%d×%d: %v folds to %v, which folds further", n, n, c, f)
				}
				classes[f] = true
			}
		}
		m := (n + 1) / 2
		if len(classes) != m*(m+1)/2 {
			t.Errorf("%d×%d: %d classes, want %d", n, n, len(classes), m*(m+1)/2)
		}
	}
}
