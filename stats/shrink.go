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
	Raw  float64 `json:"raw"` // k / n; 0 for n = 0 (N says there were no trials)
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

// BetaPrior is the fitted distribution of the true rates: Beta(A, B), with mean A/(A+B)
// and A+B worth of prior games.
type BetaPrior struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// Mean is the prior's mean, the rate every estimate is pulled towards.
func (p BetaPrior) Mean() float64 { return p.A / (p.A + p.B) }

// maxPriorGames bounds A+B: past it the openings are as good as identical, and the fit
// would only chase a flat likelihood.
const maxPriorGames = 1e4

// FitBetaPrior fits Beta(A, B) to the tallies by maximum marginal (beta-binomial)
// likelihood. Tallies with n = 0 are ignored.
//
// The prior's weight A+B is at most the trials of all tallies together: when the tallies
// show no spread between them (as a handful of games often does by chance) the prior is
// then as certain as the pooled rate, never more; without that bound the fit would claim
// thousands of games' certainty from a few. With a single tally there is no spread to
// measure: the prior has the weight of one trial. Its mean is kept off 0 and 1 by a
// Jeffreys prior (half a success and half a failure; (k + ½)/(n + 1) for one tally), so
// that a board whose few games all went one way does not make certain the openings not
// seen.
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
	pooled := (k + 0.5) / (n + 1)
	maxWeight := math.Min(maxPriorGames, n)
	if used < 2 {
		return BetaPrior{pooled, 1 - pooled}, nil
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
		// A Jeffreys prior on the mean, in these coordinates: half a success and half a
		// failure, which keep a mean fitted to games all won (or all lost) off 1 (or 0).
		return f - 0.5*(math.Log(m)+math.Log1p(-m))
	}
	problem := optimize.Problem{Func: nll}
	start := []float64{math.Log(pooled / (1 - pooled)), math.Log(math.Min(10, maxWeight))}
	res, err := optimize.Minimize(problem, start, &optimize.Settings{MajorIterations: 1000}, &optimize.NelderMead{})
	if res == nil {
		return BetaPrior{}, err
	}
	m, s := sigmoid(res.X[0]), math.Min(math.Exp(res.X[1]), maxWeight)
	return BetaPrior{m * s, (1 - m) * s}, nil
}

// Shrink returns the tally's rate under the prior, with its 95% interval.
func (p BetaPrior) Shrink(t Tally) Shrunk {
	post := distuv.Beta{Alpha: p.A + t.K, Beta: p.B + float64(t.N) - t.K}
	s := Shrunk{Rate: post.Mean(), Lo: post.Quantile(0.025), Hi: post.Quantile(0.975), N: t.N}
	if t.N > 0 {
		s.Raw = t.K / float64(t.N)
	}
	return s
}

// The hierarchical fit of ShrinkAll: the prior's weight A+B ranges over [minWeight,
// maxPriorGames] on a grid of weightRows values, evenly spaced in log; for each, the
// prior's mean over meanCols values around its most likely one. A weight under 1 is a
// U-shaped prior (openings nearly always or nearly never swapped, as a deterministic bot
// makes them); down to ½ keeps the intervals honest there (94% in TestShrinkAllCoverage's
// Beta(0.3, 0.2)) while an opening seen once is not taken at its one game's word (down to
// 0.05, one win in one game read as 80%).
const (
	minWeight  = 0.5
	weightRows = 25
	meanCols   = 15
)

// ShrinkAll shrinks every tally towards the group's average, as FitBetaPrior and Shrink do,
// but with the prior's own uncertainty integrated out rather than its best fit taken as
// certain (hierarchical Bayes; Gelman et al., Bayesian Data Analysis, ch. 5). The true
// rates follow Beta(m·s, (1−m)·s) with the hyperprior p(α, β) ∝ (α+β)^(−5/2) of that book;
// the posterior of (m, s) is computed on a grid, and each tally's posterior, a mixture of
// Betas over the grid, is summarised by the Beta of the same mean and variance.
//
// With few games per tally (openings played once to a handful of times) the spread
// between the true rates is hardly known, and the best fit alone often takes it for none:
// intervals that assume it then cover the truth in some 80% of cases, not 95%. Integrating
// over it keeps them honest (TestShrinkAllCoverage).
//
// It returns the most likely prior (the grid's mode), for display, and one Shrunk per
// tally, in order; tallies with n = 0 get the group's average with its uncertainty. It
// fails only without any trial.
func ShrinkAll(ts []Tally) (BetaPrior, []Shrunk, error) {
	type pair struct {
		k float64
		n int
	}
	index := map[pair]int{}
	var uniq []pair
	var count []float64
	var k, n float64
	for _, t := range ts {
		if t.N < 0 || t.K < 0 || t.K > float64(t.N) || math.IsNaN(t.K) {
			return BetaPrior{}, nil, errors.New("shrinkage: a tally with k outside 0..n")
		}
		p := pair{t.K, t.N}
		i, ok := index[p]
		if !ok {
			i = len(uniq)
			index[p] = i
			uniq = append(uniq, p)
			count = append(count, 0)
		}
		count[i]++
		k, n = k+t.K, n+float64(t.N)
	}
	if n == 0 {
		return BetaPrior{}, nil, errors.New("shrinkage: no trials")
	}
	lbeta := func(a, b float64) float64 {
		la, _ := math.Lgamma(a)
		lb, _ := math.Lgamma(b)
		lab, _ := math.Lgamma(a + b)
		return la + lb - lab
	}
	// The log posterior of (logit m, log s), the hyperprior's density in those
	// coordinates being m(1−m)·s^(−½).
	logPost := func(x0, x1 float64) float64 {
		m, s := sigmoid(x0), math.Exp(x1)
		a, b := m*s, (1-m)*s
		base := lbeta(a, b)
		f := 0.0
		for j, u := range uniq {
			if u.n > 0 {
				f += count[j] * (lbeta(a+u.k, b+float64(u.n)-u.k) - base)
			}
		}
		return f + math.Log(m) + math.Log1p(-m) - 0.5*x1
	}
	type cell struct{ a, b, logw float64 }
	cells := make([]cell, 0, weightRows*meanCols)
	lo, hi := math.Log(minWeight), math.Log(maxPriorGames)
	pooled := (k + 0.5) / (n + 1)
	x0 := math.Log(pooled / (1 - pooled))
	for r := range weightRows {
		x1 := lo + (hi-lo)*float64(r)/(weightRows-1)
		// The most likely mean for this weight, by Newton's method on numerical
		// derivatives, and the posterior's spread around it.
		const h = 1e-3
		curv := -1.0
		for range 30 {
			f0, fp, fm := logPost(x0, x1), logPost(x0+h, x1), logPost(x0-h, x1)
			g, c := (fp-fm)/(2*h), (fp-2*f0+fm)/(h*h)
			if c >= 0 || math.IsNaN(c) {
				break
			}
			curv = c
			step := math.Max(-2, math.Min(2, -g/c))
			x0 = math.Max(-12, math.Min(12, x0+step))
			if math.Abs(step) < 1e-7 {
				break
			}
		}
		sd := math.Min(3, math.Max(1e-4, 1/math.Sqrt(-curv)))
		width := 10 * sd / (meanCols - 1)
		for c := range meanCols {
			xc := x0 + (float64(c)-(meanCols-1)/2.0)*width
			m, s := sigmoid(xc), math.Exp(x1)
			cells = append(cells, cell{a: m * s, b: (1 - m) * s, logw: logPost(xc, x1) + math.Log(width)})
		}
	}
	best := 0
	for i, c := range cells {
		if c.logw > cells[best].logw || math.IsNaN(cells[best].logw) {
			best = i
		}
	}
	top := cells[best].logw
	weights := make([]float64, len(cells))
	total := 0.0
	for i, c := range cells {
		if w := math.Exp(c.logw - top); w > 1e-9 {
			weights[i] = w
			total += w
		}
	}
	shrink := func(t Tally) Shrunk {
		var mean, second float64
		for i, c := range cells {
			if weights[i] == 0 {
				continue
			}
			w := weights[i] / total
			a, b := c.a+t.K, c.b+float64(t.N)-t.K
			mu := a / (a + b)
			v := a * b / ((a + b) * (a + b) * (a + b + 1))
			mean += w * mu
			second += w * (v + mu*mu)
		}
		variance := math.Max(second-mean*mean, 1e-15)
		common := mean*(1-mean)/variance - 1
		s := Shrunk{Rate: mean, N: t.N}
		if t.N > 0 {
			s.Raw = t.K / float64(t.N)
		}
		if common <= 0 || math.IsNaN(common) {
			s.Lo, s.Hi = 0, 1
			return s
		}
		post := distuv.Beta{Alpha: mean * common, Beta: (1 - mean) * common}
		s.Lo, s.Hi = post.Quantile(0.025), post.Quantile(0.975)
		return s
	}
	byPair := make([]Shrunk, len(uniq))
	for j, u := range uniq {
		byPair[j] = shrink(Tally{K: u.k, N: u.n})
	}
	out := make([]Shrunk, len(ts))
	for i, t := range ts {
		out[i] = byPair[index[pair{t.K, t.N}]]
	}
	return BetaPrior{A: cells[best].a, B: cells[best].b}, out, nil
}
