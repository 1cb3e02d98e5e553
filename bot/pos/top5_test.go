package pos

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTop5: top5 keeps the five highest of the values inserted, best first, a value after
// those equal to it (as a stable sort of them all, highest first, would place them), with
// their cells; ties are drawn often, and floor is -Inf until five are kept.
func TestTop5(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	for round := range 2000 {
		var top top5
		var all []scored
		for i := range rng.IntN(12) {
			v := float64(rng.IntN(6)) * 0.5 // ties
			if round%2 == 0 {
				v += rng.Float64()
			}
			top.insert(i, v)
			all = append(all, scored{i, v})
			want := slices.Clone(all)
			slices.SortStableFunc(want, func(a, b scored) int {
				switch {
				case a.v > b.v:
					return -1
				case a.v < b.v:
					return 1
				}
				return 0
			})
			want = want[:min(len(want), 5)]
			if n := top.n; n != len(want) {
				t.Fatalf("round %d: %d kept, want %d", round, n, len(want))
			}
			for j, w := range want {
				if top.v(j) != w.v || top.i[j] != w.i {
					t.Fatalf("round %d: place %d holds cell %d of %v, want cell %d of %v", round, j, top.i[j], top.v(j), w.i, w.v)
				}
			}
			floor := math.Inf(-1)
			if len(want) == 5 {
				floor = want[4].v
			}
			if top.floor() != floor {
				t.Fatalf("round %d: floor %v, want %v", round, top.floor(), floor)
			}
		}
	}
}
