package annotate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Fit recovers the weights of positions drawn from a known calibration, and the fitted
// calibration's deciles hold their observed rates.
func TestFitRecoversKnownCalibration(t *testing.T) {
	want := Calibration{W: [4]float64{0.3, 0.6, -0.4, 0.5}}
	rng := rand.New(rand.NewPCG(1, 2))
	var pts []Point
	for range 20000 {
		p := Point{Raw: 0.02 + 0.96*rng.Float64(), Phase: 1.2 * rng.Float64()}
		if rng.Float64() < want.Chance(p.Raw, p.Phase) {
			p.Won = 1
		}
		pts = append(pts, p)
	}
	got, err := Fit(pts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.W {
		if math.Abs(got.W[i]-want.W[i]) > 0.15 {
			t.Errorf("W[%d] = %.3f, want %.3f", i, got.W[i], want.W[i])
		}
	}
	within, n := 0, 0
	for _, b := range got.Reliability(pts) {
		if b.N > 0 {
			n++
			if b.Within() {
				within++
			}
		}
	}
	if within < n-1 {
		t.Errorf("%d of %d deciles within their interval", within, n)
	}
	if b, id := got.Brier(pts), Identity.Brier(pts); b >= id {
		t.Errorf("Brier %.4f fitted, %.4f raw: the fit should do better", b, id)
	}
}

func TestMarkOf(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Mark
	}{{0, Good}, {InaccuracyLoss - 1e-9, Good}, {InaccuracyLoss, Inaccuracy}, {MistakeLoss, Mistake}, {BlunderLoss, Blunder}, {1, Blunder}} {
		if got := MarkOf(c.loss); got != c.want {
			t.Errorf("MarkOf(%v) = %v, want %v", c.loss, got, c.want)
		}
	}
	if Blunder.String() != "blunder" || Blunder.Symbol() != "??" || Good.String() != "" {
		t.Error("names")
	}
}

// The same game read twice, or by two engines of the same budget, gives the same rows.
func TestAnalyseDeterministic(t *testing.T) {
	g := selfPlayed(t, 3)
	a, err := NewEngine(20, Fitted).Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(20, Fitted)
	if _, err := e.Analyse(selfPlayed(t, 4), nil, nil); err != nil {
		t.Fatal(err)
	}
	b, err := e.Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(g.Moves) {
		t.Fatalf("%d rows for %d turns", len(a), len(g.Moves))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("turn %d: %+v then %+v", i+1, a[i], b[i])
		}
	}
}
