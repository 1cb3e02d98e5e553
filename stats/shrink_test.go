package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestShrinkCoverage checks the shrunk per-opening rates against simulated truth: openings'
// true rates drawn from a planted Beta, each played a few to a few dozen times (as openings
// are); over 200 seeded archives the 95% intervals cover the true rates in 90–98% of the
// openings, the prior's mean is recovered, and the shrunk rates are closer to the truth
// than the raw ones.
func TestShrinkCoverage(t *testing.T) {
	archives := 200
	if testing.Short() {
		archives = 40
	}
	const openings = 60
	planted := distuv.Beta{Alpha: 12, Beta: 10} // openers' scores around 55%, spread ±10%
	var covered, total, meanSum, rawErr, shrunkErr float64
	for seed := range archives {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		planted.Src = rng
		truth := make([]float64, openings)
		ts := make([]Tally, openings)
		for i := range ts {
			truth[i] = planted.Rand()
			n := 2 + rng.IntN(40)
			k := 0.0
			for range n {
				if rng.Float64() < truth[i] {
					k++
				}
			}
			ts[i] = Tally{K: k, N: n}
		}
		prior, err := FitBetaPrior(ts)
		if err != nil {
			t.Fatal(err)
		}
		meanSum += prior.Mean()
		for i, tl := range ts {
			s := prior.Shrink(tl)
			if s.Lo > s.Rate || s.Rate > s.Hi || s.N != tl.N {
				t.Fatalf("shrunk %+v", s)
			}
			if s.Lo <= truth[i] && truth[i] <= s.Hi {
				covered++
			}
			total++
			rawErr += (s.Raw - truth[i]) * (s.Raw - truth[i])
			shrunkErr += (s.Rate - truth[i]) * (s.Rate - truth[i])
		}
	}
	rate := covered / total
	mean := meanSum / float64(archives)
	t.Logf("intervals cover %.1f%% of %.0f openings; prior mean %.3f (planted %.3f); RMS error raw %.3f, shrunk %.3f",
		100*rate, total, mean, planted.Mean(), math.Sqrt(rawErr/total), math.Sqrt(shrunkErr/total))
	if !testing.Short() && (rate < 0.90 || rate > 0.98) {
		t.Errorf("coverage %.3f, want 0.90–0.98", rate)
	}
	if math.Abs(mean-planted.Mean()) > 0.02 {
		t.Errorf("prior mean %.3f, planted %.3f", mean, planted.Mean())
	}
	if shrunkErr >= rawErr {
		t.Errorf("shrinking did not help: squared error %.2f against %.2f raw", shrunkErr, rawErr)
	}
}

// Edge cases: one opening, identical openings, an opening without games, half points.
func TestShrinkEdges(t *testing.T) {
	p, err := FitBetaPrior([]Tally{{K: 3, N: 4}})
	if err != nil || math.Abs(p.Mean()-0.75) > 1e-9 {
		t.Errorf("one opening: %+v %v", p, err)
	}
	p, err = FitBetaPrior([]Tally{{K: 5, N: 10}, {K: 5, N: 10}, {K: 5, N: 10}})
	if err != nil || math.Abs(p.Mean()-0.5) > 0.01 || p.A+p.B < 100 {
		t.Errorf("identical openings: %+v %v (want a strong prior at ½)", p, err)
	}
	if s := p.Shrink(Tally{}); !math.IsNaN(s.Raw) || math.Abs(s.Rate-p.Mean()) > 1e-9 {
		t.Errorf("no games: %+v", s)
	}
	if _, err := FitBetaPrior([]Tally{{K: 2.5, N: 2}}); err == nil {
		t.Error("k > n: no error")
	}
	if _, err := FitBetaPrior(nil); err == nil {
		t.Error("no tallies: no error")
	}
	p, err = FitBetaPrior([]Tally{{K: 1.5, N: 3}, {K: 0.5, N: 2}, {K: 4, N: 5}})
	if err != nil || p.A <= 0 || p.B <= 0 {
		t.Errorf("half points: %+v %v", p, err)
	}
}
