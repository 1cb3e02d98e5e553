package score

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestWilson(t *testing.T) {
	for _, tt := range []struct {
		sum, n         float64
		wantLo, wantHi float64
	}{
		{0, 0, 0, 1},
		{5, 10, 0.2365931, 0.7634069},
		{0, 10, 0, 0.2775328},
		{10, 10, 0.7224672, 1},
		{52.5, 100, 0.4280225, 0.6201278},
	} {
		lo, hi := Wilson(tt.sum, tt.n, Z95)
		if math.Abs(lo-tt.wantLo) > 1e-6 || math.Abs(hi-tt.wantHi) > 1e-6 {
			t.Errorf("Wilson(%v, %v) = [%.7f, %.7f], want [%.7f, %.7f]", tt.sum, tt.n, lo, hi, tt.wantLo, tt.wantHi)
		}
	}
	// The ends by rule, not by rounding: z is a variable here, so z² is rounded.
	for _, n := range []float64{1, 3, 7, 10, 33, 1000} {
		if _, hi := Wilson(n, n, Z95); hi != 1 {
			t.Errorf("Wilson(%v, %v): upper end %v, want exactly 1", n, n, hi)
		}
		if lo, _ := Wilson(0, n, Z95); lo != 0 {
			t.Errorf("Wilson(0, %v): lower end %v, want exactly 0", n, lo)
		}
	}
	if lo, hi := Wilson(3, 10, math.Inf(1)); lo != 0 || hi != 1 {
		t.Errorf("infinite z: [%v, %v], want [0, 1]", lo, hi)
	}
}

// The interval covers the true p at about its level: 2,000 seeded binomial draws at
// p = 0.3, n = 50.
func TestWilsonCoverage(t *testing.T) {
	const p, n, runs = 0.3, 50, 2000
	b := distuv.Binomial{N: n, P: p, Src: rand.NewPCG(7, 31)}
	covered := 0
	for range runs {
		if lo, hi := Wilson(b.Rand(), n, Z95); lo <= p && p <= hi {
			covered++
		}
	}
	if c := float64(covered) / runs; c < 0.93 || c > 0.97 {
		t.Errorf("coverage %.3f, want about 0.95", c)
	}
}

func TestEloRoundTrip(t *testing.T) {
	for _, e := range []float64{-800, -191, 0, 0.5, 120, 700} {
		if got := Elo(OfElo(e)); math.Abs(got-e) > 1e-9 {
			t.Errorf("Elo(OfElo(%v)) = %v", e, got)
		}
	}
	if !math.IsInf(Elo(0), -1) || !math.IsInf(Elo(1), 1) || !math.IsNaN(Elo(math.NaN())) {
		t.Error("Elo's ends: want -Inf at 0, +Inf at 1, NaN at NaN")
	}
	if math.Abs(Elo(0.75)-190.848501887865) > 1e-9 {
		t.Errorf("Elo(0.75) = %v", Elo(0.75))
	}
}

// EloPerLogit is the same conversion on the logit scale: Elo(s) = EloPerLogit · logit(s).
func TestEloPerLogit(t *testing.T) {
	for _, s := range []float64{0.01, 0.2, 0.5, 0.75, 0.999} {
		if got, want := EloPerLogit*math.Log(s/(1-s)), Elo(s); math.Abs(got-want) > 1e-9 {
			t.Errorf("EloPerLogit·logit(%v) = %v, Elo = %v", s, got, want)
		}
	}
}

func TestRanks(t *testing.T) {
	got := Ranks([]float64{0.3, 0, 0, 0.1})
	want := []float64{4, 1.5, 1.5, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks with a tie: %v, want %v", got, want)
		}
	}
	if r := Spearman([]float64{1, 2, 3, 4}, []float64{10, 20, 25, 100}); r != 1 {
		t.Errorf("Spearman of a monotone pair %v, want 1", r)
	}
}
