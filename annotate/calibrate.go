package annotate

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Point is a position with the search's value for Light, the game's phase there (Phase)
// and what became of Light: 1 a win, ½ a draw, 0 a loss.
type Point struct {
	Raw   float64
	Phase float64
	Won   float64
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
// [Lo, Hi), their mean chance and the rate at which Light won, with its Wilson 95%
// interval.
type Bin struct {
	Lo, Hi    float64
	N         int
	Predicted float64
	Observed  float64
	ObsLo     float64
	ObsHi     float64
}

// Within reports whether the bin's mean predicted chance lies in its observed rate's
// 95% interval.
func (b Bin) Within() bool { return b.N > 0 && b.Predicted >= b.ObsLo && b.Predicted <= b.ObsHi }

// Reliability bins points by their calibrated chance into the ten deciles 0–10 %, …,
// 90–100 %.
func (c Calibration) Reliability(points []Point) []Bin {
	bins := make([]Bin, 10)
	sumP, sumW := make([]float64, 10), make([]float64, 10)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/10, float64(i+1)/10
	}
	for _, p := range points {
		q := c.Chance(p.Raw, p.Phase)
		i := min(9, int(q*10))
		bins[i].N++
		sumP[i] += q
		sumW[i] += p.Won
	}
	for i := range bins {
		if n := float64(bins[i].N); n > 0 {
			bins[i].Predicted = sumP[i] / n
			bins[i].Observed = sumW[i] / n
			bins[i].ObsLo, bins[i].ObsHi = wilson(sumW[i], n)
		}
	}
	return bins
}

// wilson is the Wilson score 95% interval of k successes in n.
func wilson(k, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := (p + z*z/(2*n)) / d
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
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
// positions, the mean predicted chance, the observed rate with its 95% interval and
// whether the prediction lies in it.
func ReliabilityTable(c Calibration, points []Point) string {
	s := "| predicted | positions | mean predicted | observed [95% interval] | within |\n|---|---:|---:|---|---|\n"
	within, nonEmpty := 0, 0
	for _, b := range c.Reliability(points) {
		if b.N == 0 {
			s += fmt.Sprintf("| %.0f–%.0f %% | 0 | | | |\n", b.Lo*100, b.Hi*100)
			continue
		}
		nonEmpty++
		w := "no"
		if b.Within() {
			w = "yes"
			within++
		}
		s += fmt.Sprintf("| %.0f–%.0f %% | %d | %.1f %% | %.1f %% [%.1f–%.1f] | %s |\n",
			b.Lo*100, b.Hi*100, b.N, b.Predicted*100, b.Observed*100, b.ObsLo*100, b.ObsHi*100, w)
	}
	return s + fmt.Sprintf("\n%d of %d deciles within their interval\n", within, nonEmpty)
}
