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
	// One opening: no spread to measure, a prior of one trial's weight at (k+½)/(n+1).
	p, err := FitBetaPrior([]Tally{{K: 3, N: 4}})
	if err != nil || math.Abs(p.Mean()-0.7) > 1e-9 || math.Abs(p.A+p.B-1) > 1e-9 {
		t.Errorf("one opening: %+v %v", p, err)
	}
	// Identical openings: as strong a prior as the 30 trials pooled, and no stronger.
	p, err = FitBetaPrior([]Tally{{K: 5, N: 10}, {K: 5, N: 10}, {K: 5, N: 10}})
	if err != nil || math.Abs(p.Mean()-0.5) > 0.01 || p.A+p.B < 25 || p.A+p.B > 30 {
		t.Errorf("identical openings: %+v %v (want a prior at ½ of at most 30 trials)", p, err)
	}
	if s := p.Shrink(Tally{}); s.Raw != 0 || s.N != 0 || math.Abs(s.Rate-p.Mean()) > 1e-9 {
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

// A board whose only swapped game the opener won used to give every opening never seen
// swapped a score of 99.9% [99.8–99.95]: one game's certainty inflated to 10,000. Now an
// unseen opening's interval is as wide as one game leaves it, and few games that agree
// by chance give no more certainty than their pooled count.
func TestShrinkFewGamesHonest(t *testing.T) {
	p, err := FitBetaPrior([]Tally{{K: 1, N: 1}, {}, {}})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Shrink(Tally{}); s.Hi-s.Lo < 0.5 {
		t.Errorf("an opening without games after one game on the board: %+v, want a wide interval", s)
	}
	p, err = FitBetaPrior([]Tally{{K: 1, N: 1}, {K: 1, N: 1}, {K: 1, N: 1}})
	if err != nil {
		t.Fatal(err)
	}
	pooled := distuv.Beta{Alpha: 3.5, Beta: 0.5} // three wins in three, Jeffreys
	if s := p.Shrink(Tally{}); s.Lo > pooled.Quantile(0.025)+0.02 {
		t.Errorf("after three wins in three games: %+v, narrower than the pooled rate's [%.3f, 1]", s, pooled.Quantile(0.025))
	}
}

// TestShrinkAllCoverage checks ShrinkAll against simulated truth where openings are played
// once to a handful of times, as most are: there the best-fitting prior alone (FitBetaPrior
// and Shrink) often takes the spread between openings for none, and its intervals cover
// the true rates in about 82% of openings (Beta(12, 10), 200 openings of 1–6 games);
// integrating over the prior covers 90–98% in each regime, including bots' near-certain
// rates (Beta(0.3, 0.2)) and openings of many games.
func TestShrinkAllCoverage(t *testing.T) {
	archives := 200
	if testing.Short() {
		archives = 40
	}
	for _, c := range []struct {
		a, b       float64
		openings   int
		nmin, nmax int
	}{
		{12, 10, 200, 1, 6},
		{12, 10, 60, 2, 41},
		{0.3, 0.2, 100, 1, 10},
		{30, 20, 300, 1, 10},
	} {
		planted := distuv.Beta{Alpha: c.a, Beta: c.b}
		var covered, total float64
		for seed := range archives {
			rng := rand.New(rand.NewPCG(uint64(seed), 5))
			planted.Src = rng
			ts := make([]Tally, c.openings+1) // and one opening never played
			truth := make([]float64, len(ts))
			for i := range ts {
				truth[i] = planted.Rand()
				if i == c.openings {
					continue
				}
				n := c.nmin + rng.IntN(c.nmax-c.nmin+1)
				k := 0.0
				for range n {
					if rng.Float64() < truth[i] {
						k++
					}
				}
				ts[i] = Tally{K: k, N: n}
			}
			_, shrunk, err := ShrinkAll(ts)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range shrunk {
				if s.Lo > s.Rate || s.Rate > s.Hi || s.N != ts[i].N {
					t.Fatalf("shrunk %+v of %+v", s, ts[i])
				}
				if s.Lo <= truth[i] && truth[i] <= s.Hi {
					covered++
				}
				total++
			}
		}
		rate := covered / total
		t.Logf("Beta(%g, %g), %d openings of %d–%d games: intervals cover %.1f%%", c.a, c.b, c.openings, c.nmin, c.nmax, 100*rate)
		if !testing.Short() && (rate < 0.90 || rate > 0.98) {
			t.Errorf("Beta(%g, %g), %d openings of %d–%d games: coverage %.3f, want 0.90–0.98", c.a, c.b, c.openings, c.nmin, c.nmax, rate)
		}
	}
}

// ShrinkAll's edges: no trials is an error; a single opening, or a board whose games all
// went one way, leaves the unseen openings' intervals wide; half points are fine.
func TestShrinkAllEdges(t *testing.T) {
	if _, _, err := ShrinkAll([]Tally{{}, {}}); err == nil {
		t.Error("no trials: no error")
	}
	if _, _, err := ShrinkAll([]Tally{{K: 3, N: 2}}); err == nil {
		t.Error("k > n: no error")
	}
	for _, ts := range [][]Tally{{{K: 1, N: 1}, {}}, {{K: 3, N: 3}, {K: 2, N: 2}, {}}, {{K: 1.5, N: 3}, {K: 0.5, N: 2}, {}}} {
		_, s, err := ShrinkAll(ts)
		if err != nil {
			t.Fatal(err)
		}
		if unseen := s[len(s)-1]; unseen.Hi-unseen.Lo < 0.3 || unseen.N != 0 || unseen.Raw != 0 {
			t.Errorf("%v: the opening not played has %+v, want a wide interval", ts, unseen)
		}
	}
}
