package match

import (
	"math"
	"math/rand/v2"
)

// Planted is a simulated truth: A stronger than B by Elo, games drawn at rate Draws, and
// openings that favour one seat. Each pair draws its opening's bias d uniformly from
// [−Bias, Bias]: A's expected score is s + d in the pair's first game and s − d in its
// second, s the score of Elo, so the two games of a pair are correlated as on real
// openings while A's expected score stays s exactly.
type Planted struct {
	Elo   float64
	Draws float64 // the probability of a draw in each game
	Bias  float64
}

// Pair draws one pair's points for A, in halves (0 to 4), from rng.
func (pl Planted) Pair(rng *rand.Rand) int {
	s := ScoreOfElo(pl.Elo)
	d := (2*rng.Float64() - 1) * pl.Bias
	return pl.game(s+d, rng) + pl.game(s-d, rng)
}

// game draws A's points in one game, in halves, with an expected score s.
func (pl Planted) game(s float64, rng *rand.Rand) int {
	draw := min(pl.Draws, 2*s, 2*(1-s)) // keeps the win and loss chances in [0, 1]
	win := s - draw/2
	switch u := rng.Float64(); {
	case u < win:
		return 2
	case u < win+draw:
		return 1
	}
	return 0
}

// Distribution is the planted pentanomial distribution, the chances of 0 to 4 halves in a
// pair, integrated over the openings' bias (by the midpoint rule on 1,000 points).
func (pl Planted) Distribution() [5]float64 {
	s := ScoreOfElo(pl.Elo)
	var out [5]float64
	const steps = 1000
	for k := range steps {
		d := pl.Bias * (2*(float64(k)+0.5)/steps - 1)
		g1, g2 := pl.gameDist(s+d), pl.gameDist(s-d)
		for i, a := range g1 {
			for j, b := range g2 {
				out[i+j] += a * b / steps
			}
		}
	}
	return out
}

// gameDist is a game's chances of 0, 1 and 2 halves for A at expected score s.
func (pl Planted) gameDist(s float64) [3]float64 {
	draw := min(pl.Draws, 2*s, 2*(1-s))
	win := s - draw/2
	return [3]float64{1 - win - draw, draw, win}
}

// SequentialRun is one simulated SPRT: its verdict and the games it took.
type SequentialRun struct {
	Verdict Verdict
	Games   int
	LLR     float64
}

// SimulateSPRT runs the test t on pairs drawn from the planted truth until a bound is
// crossed or maxPairs pairs are played, deciding after every pair as `ponte match` does.
func SimulateSPRT(t SPRT, pl Planted, maxPairs int, rng *rand.Rand) SequentialRun {
	var p Pentanomial
	for p.Pairs() < maxPairs {
		p.Add(pl.Pair(rng))
		llr := t.LLR(p)
		if v := t.Decide(llr); v != Continue {
			return SequentialRun{v, 2 * p.Pairs(), llr}
		}
	}
	return SequentialRun{Continue, 2 * p.Pairs(), t.LLR(p)}
}

// WaldGames is Wald's approximation of the expected number of games the test t takes when
// the truth is pl: E[N] = (P(H1)·b + (1 − P(H1))·a) / E[LLR per pair], two games a pair,
// with P(H1) the test's nominal operating characteristic at the truth (α at Elo0, 1 − β at
// Elo1; other truths are not asked for) and the expected LLR per pair the one the
// generalised LLR tends to. It ignores the overshoot of the bounds, so the true mean is a
// little larger.
func WaldGames(t SPRT, pl Planted) float64 {
	pH1 := t.Alpha
	if pl.Elo == t.Elo1 {
		pH1 = 1 - t.Beta
	}
	a, b := t.Bounds()
	drift := llrPerPair(pl.Distribution(), ScoreOfElo(t.Elo0), ScoreOfElo(t.Elo1))
	if drift == 0 {
		return math.Inf(1)
	}
	return 2 * (pH1*b + (1-pH1)*a) / drift
}

// Calibration is what repeated simulated matches say of the statistics.
type Calibration struct {
	Runs       int
	AcceptH1   float64 // the share of runs that accepted H1
	MeanGames  float64 // the runs' mean number of games
	WaldGames  float64 // Wald's expectation (WaldGames)
	Unfinished int     // runs that reached the games' cap without a verdict
}

// CalibrateSPRT runs the test runs times on the planted truth, each run with its own
// random source made from seed and the run's index, with at most maxPairs pairs each.
func CalibrateSPRT(t SPRT, pl Planted, runs, maxPairs int, seed uint64) Calibration {
	c := Calibration{Runs: runs, WaldGames: WaldGames(t, pl)}
	h1, games := 0, 0
	for r := range runs {
		res := SimulateSPRT(t, pl, maxPairs, runRand(seed, r))
		switch res.Verdict {
		case H1:
			h1++
		case Continue:
			c.Unfinished++
		}
		games += res.Games
	}
	c.AcceptH1 = float64(h1) / float64(runs)
	c.MeanGames = float64(games) / float64(runs)
	return c
}

// CoverElo plays runs simulated matches of pairs pairs each on the planted truth and
// returns the share whose 95% Elo interval holds the planted difference.
func CoverElo(pl Planted, runs, pairs int, seed uint64) float64 {
	covered := 0
	for r := range runs {
		rng := runRand(seed, r)
		var p Pentanomial
		for range pairs {
			p.Add(pl.Pair(rng))
		}
		if e := p.Elo(); e.Lo <= pl.Elo && pl.Elo <= e.Hi {
			covered++
		}
	}
	return float64(covered) / float64(runs)
}

// runRand is run r's random source: its two seeds are splitmix64 hashes of seed and r, so
// that the runs' streams are independent, not neighbouring states of one generator.
func runRand(seed uint64, r int) *rand.Rand {
	a := splitmix(seed ^ splitmix(uint64(r)))
	return rand.New(rand.NewPCG(a, splitmix(a)))
}

// splitmix is the finaliser of splitmix64 (Steele, Lea, Flood 2014): a bijection that
// mixes every bit of x into every bit of the result.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
