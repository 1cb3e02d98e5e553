package annotate

import (
	"math"
	"testing"

	"github.com/ponte/ponte/replay"
)

// The loss counts only the part of the values' difference beyond its standard error: a
// gap the visit counts cannot tell from noise loses nothing, a wide one loses nearly all
// of it, and rows without counts lose the whole difference.
func TestApplyLoss(t *testing.T) {
	cal := Identity
	for _, tc := range []struct {
		name           string
		colour         replay.Colour
		bestQ, playedQ float64
		bestN, playedN int
		lo, hi         float64
	}{
		{"no counts: the whole difference", replay.Light, 0.7, 0.3, 0, 0, 0.4, 0.4},
		{"no counts, dark", replay.Dark, 0.7, 0.3, 0, 0, 0.4, 0.4},
		{"within the noise of 10 and 25 playouts", replay.Light, 0.6, 0.45, 10, 25, 0, 0},
		{"beyond it by the rest", replay.Light, 0.9, 0.3, 10, 25, 0.4, 0.5},
		{"many playouts: nearly all of it", replay.Dark, 0.8, 0.4, 400, 400, 0.36, 0.4},
		{"the played turn is better", replay.Light, 0.4, 0.6, 10, 25, 0, 0},
	} {
		tu := Turn{Turn: 20, Colour: tc.colour, RawBefore: 0.5, RawAfter: 0.5, BestQ: tc.bestQ, PlayedQ: tc.playedQ, BestN: tc.bestN, PlayedN: tc.playedN}
		cal.Apply(&tu, 10)
		if tu.Loss < tc.lo-1e-9 || tu.Loss > tc.hi+1e-9 || math.IsNaN(tu.Loss) {
			t.Errorf("%s: loss %.3f, want %.2f to %.2f", tc.name, tu.Loss, tc.lo, tc.hi)
		}
		if tu.Mark != MarkOf(tu.Loss) {
			t.Errorf("%s: mark %v for loss %.3f", tc.name, tu.Mark, tu.Loss)
		}
	}
}
