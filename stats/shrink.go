package stats

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
)

// Per-opening rates are shrunk towards the board's average by beta-binomial empirical
// Bayes: the openings' true rates are taken to follow one Beta(a, b) distribution, fitted
// to all openings by maximum marginal likelihood; an opening seen k times in n games then
// has the posterior Beta(a + k, b + n − k), whose mean is pulled towards the board's
// average the more, the fewer games it has, and whose 95% interval is honest for a handful
// of games. Draws count as half a success (k need not be whole).

// Tally is k successes in n trials (k may be fractional: a draw is half a win).
type Tally struct {
	K float64
	N int
}

// Shrunk is a rate shrunk towards the group's average, with its 95% posterior interval.
type Shrunk struct {
	Raw  float64 `json:"raw"` // k / n, NaN for n = 0
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

// BetaPrior is the fitted distribution of the true rates: Beta(A, B), with mean A/(A+B)
// and A+B worth of prior games.
type BetaPrior struct{ A, B float64 }

// Mean is the prior's mean, the rate every estimate is pulled towards.
func (p BetaPrior) Mean() float64 { return p.A / (p.A + p.B) }

// maxPriorGames bounds A+B: past it the openings are as good as identical, and the fit
// would only chase a flat likelihood.
const maxPriorGames = 1e4

// FitBetaPrior fits Beta(A, B) to the tallies by maximum marginal (beta-binomial)
// likelihood. Tallies with n = 0 are ignored. With fewer than two tallies, or no spread
// between them, the prior is centred on the pooled rate with maxPriorGames of weight.
func FitBetaPrior(ts []Tally) (BetaPrior, error) {
	var k, n float64
	used := 0
	for _, t := range ts {
		if t.N > 0 {
			if t.K < 0 || t.K > float64(t.N) {
				return BetaPrior{}, errors.New("shrinkage: a tally with k outside 0..n")
			}
			k, n = k+t.K, n+float64(t.N)
			used++
		}
	}
	if used == 0 {
		return BetaPrior{}, errors.New("shrinkage: no trials")
	}
	pooled := math.Min(math.Max(k/n, 1e-3), 1-1e-3)
	if used < 2 {
		return BetaPrior{pooled * maxPriorGames, (1 - pooled) * maxPriorGames}, nil
	}
	// Parameters: logit of the mean, log of the prior's weight A+B.
	nll := func(x []float64) float64 {
		m, s := sigmoid(x[0]), math.Exp(x[1])
		a, b := m*s, (1-m)*s
		f := 0.0
		lbeta := func(a, b float64) float64 {
			la, _ := math.Lgamma(a)
			lb, _ := math.Lgamma(b)
			lab, _ := math.Lgamma(a + b)
			return la + lb - lab
		}
		base := lbeta(a, b)
		for _, t := range ts {
			if t.N > 0 {
				f -= lbeta(a+t.K, b+float64(t.N)-t.K) - base
			}
		}
		return f
	}
	problem := optimize.Problem{Func: nll}
	start := []float64{math.Log(pooled / (1 - pooled)), math.Log(10)}
	res, err := optimize.Minimize(problem, start, &optimize.Settings{MajorIterations: 1000}, &optimize.NelderMead{})
	if res == nil {
		return BetaPrior{}, err
	}
	m, s := sigmoid(res.X[0]), math.Min(math.Exp(res.X[1]), maxPriorGames)
	return BetaPrior{m * s, (1 - m) * s}, nil
}

// Shrink returns the tally's rate under the prior, with its 95% interval.
func (p BetaPrior) Shrink(t Tally) Shrunk {
	post := distuv.Beta{Alpha: p.A + t.K, Beta: p.B + float64(t.N) - t.K}
	s := Shrunk{Raw: math.NaN(), Rate: post.Mean(), Lo: post.Quantile(0.025), Hi: post.Quantile(0.975), N: t.N}
	if t.N > 0 {
		s.Raw = t.K / float64(t.N)
	}
	return s
}
