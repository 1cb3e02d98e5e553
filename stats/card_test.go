package stats

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0.52, 0.60, 500, OpenerFavoured},
		{0.40, 0.48, 500, ResponderFavoured},
		{0.48, 0.52, 5000, "balanced within ±3%"},
		{0.47, 0.53, 5000, "balanced within ±3%"},
		{0.46, 0.53, 800, NotEnoughGames},
		{0.027, 0.802, 2, NotEnoughGames}, // the 8×8 board of the sample data: 2 games
		{0, 0, 0, NoGames},
	} {
		if got := Judge(tt.lo, tt.hi, tt.n, BalanceMargin); got != tt.want {
			t.Errorf("Judge(%v, %v, %d) = %q, want %q", tt.lo, tt.hi, tt.n, got, tt.want)
		}
	}
}

// The 10×10 board of the sample data said "balanced" beside an estimate that excluded ½;
// now the two are named as disagreeing.
func TestDisagreements(t *testing.T) {
	got := Disagreements([]Reading{
		{Name: "raw opener's score", N: 2019, Value: 0.494, Lo: 0.473, Hi: 0.516},
		{Name: "against a good reply", N: 2019, Value: 0.441, Lo: 0.401, Hi: 0.481},
		{Name: "kept", N: 654, Value: 0.593, Lo: 0.555, Hi: 0.630},
	})
	if len(got) != 3 || !strings.Contains(got[0], "raw opener's score says balanced within ±3%, against a good reply says responder favoured") ||
		!strings.Contains(got[1], "do not overlap") || !strings.Contains(got[2], "do not overlap") {
		t.Errorf("disagreements %q", got)
	}
	if got := Disagreements([]Reading{{Name: "a", N: 10, Value: 0.5, Lo: 0.3, Hi: 0.7}, {Name: "b", N: 10, Value: 0.55, Lo: 0.35, Hi: 0.75}}); len(got) != 0 {
		t.Errorf("agreeing estimates: %q", got)
	}
}
