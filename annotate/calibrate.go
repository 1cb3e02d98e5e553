package annotate

import (
	"errors"
	"fmt"
	"github.com/ponte/ponte/internal/score"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Point is a position with the search's value for Light, the game's phase there (Phase)
// and what became of Light: 1 a win, ½ a draw, 0 a loss. Game names the game it is from:
// the positions of one game share its result, and the reliability's intervals count the
// games, not the positions, as the independent draws.
type Point struct {
	Raw   float64
	Phase float64
	Won   float64
	Game  string
}

// ridge is the weight of the prior that keeps Fit's weights finite.
const ridge = 1.0

// Fit fits the calibration to points by maximum likelihood (logistic regression, a draw
// counting half a win, with a ridge of weight 1 on the weights): Newton's iterations,
// each step solved with gonum's mat, until the step is below 1e-10.
func Fit(points []Point) (Calibration, error) {
	if len(points) == 0 {
		return Calibration{}, errors.New("no positions to fit")
	}
	c := Identity
	const k = len(c.W)
	for iter := 0; iter < 100; iter++ {
		grad := make([]float64, k)
		hess := mat.NewSymDense(k, nil)
		for _, p := range points {
			x := features(p.Raw, p.Phase)
			q := c.Chance(p.Raw, p.Phase)
			d, w := q-p.Won, q*(1-q)
			for i := range k {
				grad[i] += d * x[i]
				for j := i; j < k; j++ {
					hess.SetSym(i, j, hess.At(i, j)+w*x[i]*x[j])
				}
			}
		}
		// A small ridge (a prior of weight ridge on every weight) keeps the fit finite when
		// some values separate the results.
		for i := range k {
			grad[i] += ridge * c.W[i]
			hess.SetSym(i, i, hess.At(i, i)+ridge)
		}
		var step mat.VecDense
		if err := step.SolveVec(hess, mat.NewVecDense(k, grad)); err != nil {
			return Calibration{}, fmt.Errorf("the fit's Hessian: %w", err)
		}
		// Backtracking: halve the step until the objective does not grow.
		before := objective(c, points)
		t := 1.0
		var next Calibration
		for range 40 {
			next = c
			for i := range k {
				next.W[i] -= t * step.AtVec(i)
			}
			if objective(next, points) <= before {
				break
			}
			t /= 2
		}
		size := 0.0
		for i := range k {
			size += math.Abs(next.W[i] - c.W[i])
		}
		c = next
		if size < 1e-9 {
			return c, nil
		}
	}
	return Calibration{}, errors.New("the fit did not converge in 100 steps")
}

// objective is the negative log-likelihood of points under c, with the ridge.
func objective(c Calibration, points []Point) float64 {
	s := 0.0
	for _, p := range points {
		q := math.Max(1e-15, math.Min(1-1e-15, c.Chance(p.Raw, p.Phase)))
		s -= p.Won*math.Log(q) + (1-p.Won)*math.Log(1-q)
	}
	for _, w := range c.W {
		s += ridge * w * w / 2
	}
	return s
}

// Brier is the mean squared difference between the calibrated chance and the result.
func (c Calibration) Brier(points []Point) float64 {
	if len(points) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, p := range points {
		d := c.Chance(p.Raw, p.Phase) - p.Won
		s += d * d
	}
	return s / float64(len(points))
}

// Bin is one bin of a reliability curve: the positions whose calibrated chance fell in
// [Lo, Hi), their games, their mean chance and the rate at which Light won, with its 95%
// interval: Wilson's on the bin's effective number of positions (Kish's, for the games as
// clusters whose positions share one result), so that fifty
// positions of one game, which share its result, do not count as fifty draws. ObsLoNaive
// and ObsHiNaive are Wilson's interval as if the positions were independent.
type Bin struct {
	Lo, Hi                 float64
	N, Games               int
	Predicted              float64
	Observed               float64
	ObsLo, ObsHi           float64
	ObsLoNaive, ObsHiNaive float64
}

// Within reports whether the bin's mean predicted chance lies in its observed rate's
// 95% interval.
func (b Bin) Within() bool { return b.N > 0 && b.Predicted >= b.ObsLo && b.Predicted <= b.ObsHi }

// WithinNaive is Within for the interval that takes the positions as independent.
func (b Bin) WithinNaive() bool {
	return b.N > 0 && b.Predicted >= b.ObsLoNaive && b.Predicted <= b.ObsHiNaive
}

// Reliability bins points by their calibrated chance into the ten deciles 0–10 %, …,
// 90–100 %. Points without a Game count as games of their own.
func (c Calibration) Reliability(points []Point) []Bin {
	bins := make([]Bin, 10)
	sumP, sumW := make([]float64, 10), make([]float64, 10)
	games := make([]map[string]float64, 10) // per bin, each game's positions in it
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/10, float64(i+1)/10
		games[i] = map[string]float64{}
	}
	for k, p := range points {
		q := c.Chance(p.Raw, p.Phase)
		i := min(9, int(q*10))
		bins[i].N++
		sumP[i] += q
		sumW[i] += p.Won
		g := p.Game
		if g == "" {
			g = fmt.Sprintf("\x00%d", k)
		}
		games[i][g]++
	}
	for i := range bins {
		n := float64(bins[i].N)
		if n == 0 {
			continue
		}
		b := &bins[i]
		b.Games = len(games[i])
		b.Predicted = sumP[i] / n
		b.Observed = sumW[i] / n
		b.ObsLoNaive, b.ObsHiNaive = wilson(sumW[i], n)
		b.ObsLo, b.ObsHi = b.ObsLoNaive, b.ObsHiNaive
		if neff := effectiveN(n, games[i]); neff < n {
			b.ObsLo, b.ObsHi = wilson(b.Observed*neff, neff)
		}
	}
	return bins
}

// effectiveN is Kish's effective number of the n positions of a bin, (Σm)²/Σm² for its
// games of m positions each: a game's positions share its result, so the bin's rate is a
// mean of the games' results weighted by m.
func effectiveN(n float64, games map[string]float64) float64 {
	sq := 0.0
	for _, m := range games {
		sq += m * m
	}
	return n * n / sq
}

// wilson is the Wilson score 95% interval of k successes in n.
func wilson(k, n float64) (lo, hi float64) { return score.Wilson(k, n, score.Z95) }

// Check is a calibration's reliability on held-out games: what fitcal measured when it made
// Fitted, kept with it so that every report can show it.
type Check struct {
	Bot                    string
	FitGames, FitPositions int
	Games, Positions       int     // held out
	Brier, RawBrier        float64 // calibrated, and the search's value as it is
	Bins                   []Bin
}

// Within counts the non-empty bins whose mean prediction lies in their interval, and the
// non-empty bins.
func (c Check) Within() (within, bins int) {
	within, _, bins = tally(c.Bins)
	return within, bins
}

// tally counts the non-empty bins whose mean prediction lies in their interval by games
// (within) and in the one by positions (naive), and the non-empty bins.
func tally(bins []Bin) (within, naive, nonEmpty int) {
	for _, b := range bins {
		if b.N == 0 {
			continue
		}
		nonEmpty++
		if b.Within() {
			within++
		}
		if b.WithinNaive() {
			naive++
		}
	}
	return within, naive, nonEmpty
}

// HeldOut reports whether a game of stable id gameID is among the held-out games of the
// calibration (those whose id ends in an odd hex digit); the others are fitted on.
func HeldOut(gameID string) bool {
	if gameID == "" {
		return false
	}
	c := gameID[len(gameID)-1]
	var v byte
	switch {
	case c >= '0' && c <= '9':
		v = c - '0'
	case c >= 'a' && c <= 'f':
		v = c - 'a' + 10
	case c >= 'A' && c <= 'F':
		v = c - 'A' + 10
	}
	return v%2 == 1
}

// ReliabilityTable is the reliability of c on points as a Markdown table: per decile the
// positions and their games, the mean predicted chance, the observed rate with its 95%
// interval counting the games as the independent draws, whether the prediction lies in it,
// and the same for the interval that counts every position as independent.
func ReliabilityTable(c Calibration, points []Point) string {
	s := "| predicted | positions | games | mean predicted | observed [95% interval, by games] | within | [interval by positions] | within |\n|---|---:|---:|---:|---|---|---|---|\n"
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	bins := c.Reliability(points)
	for _, b := range bins {
		if b.N == 0 {
			s += fmt.Sprintf("| %.0f–%.0f %% | 0 | 0 | | | | | |\n", b.Lo*100, b.Hi*100)
			continue
		}
		s += fmt.Sprintf("| %.0f–%.0f %% | %d | %d | %.1f %% | %.1f %% [%.1f–%.1f] | %s | [%.1f–%.1f] | %s |\n",
			b.Lo*100, b.Hi*100, b.N, b.Games, b.Predicted*100, b.Observed*100, b.ObsLo*100, b.ObsHi*100, yes(b.Within()),
			b.ObsLoNaive*100, b.ObsHiNaive*100, yes(b.WithinNaive()))
	}
	within, naive, nonEmpty := tally(bins)
	return s + fmt.Sprintf("\n%d of %d deciles within their interval by games (%d within the interval by positions)\n", within, nonEmpty, naive)
}

// Choose returns the calibration to keep of fitted and the search's value as it is
// (Identity), judged on the held-out points: the one with more deciles within their
// interval by games, and at equal deciles the lower Brier score (fitted when both are
// equal); and says why. A fit that does worse on the games it was not fitted on than no fit
// at all is not kept.
func Choose(fitted Calibration, heldOut []Point) (Calibration, string) {
	fw, _, fb := tally(fitted.Reliability(heldOut))
	rw, _, rb := tally(Identity.Reliability(heldOut))
	fs, rs := fitted.Brier(heldOut), Identity.Brier(heldOut)
	say := fmt.Sprintf("held out, the fit %d of %d deciles within, Brier %.4f; the raw value %d of %d, Brier %.4f", fw, fb, fs, rw, rb, rs)
	if rw > fw || rw == fw && rs < fs {
		return Identity, say + ": the raw value is kept"
	}
	return fitted, say + ": the fit is kept"
}
