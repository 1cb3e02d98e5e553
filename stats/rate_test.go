package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		hits   float64
		n      int
		lo, hi float64
	}{
		{10, 20, 0.29929, 0.70071}, // symmetric about ½
		{2, 10, 0.05668, 0.50980},
		{0, 10, 0, 0.27753}, // z²/(n+z²)
		{10, 10, 0.72247, 1},
		{0, 0, 0, 1}, // nothing known
	} {
		r := NewRate(tc.hits, tc.n)
		if math.Abs(r.Lo-tc.lo) > 5e-5 || math.Abs(r.Hi-tc.hi) > 5e-5 {
			t.Errorf("%v of %d: [%.5f, %.5f], want [%.5f, %.5f]", tc.hits, tc.n, r.Lo, r.Hi, tc.lo, tc.hi)
		}
		if tc.n > 0 && (r.P < r.Lo || r.P > r.Hi) {
			t.Errorf("%v of %d: p %.4f outside its interval", tc.hits, tc.n, r.P)
		}
	}
	if got := NewRate(3, 8).String(); got != "37.5% [13.7–69.4] of 8" {
		t.Errorf("String() = %q", got)
	}
}
