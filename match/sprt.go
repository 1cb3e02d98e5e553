package match

import (
	"errors"
	"fmt"
	"math"
)

// SPRT is a sequential probability ratio test of H0 "A is stronger than B by Elo0" against
// H1 "by Elo1" (logistic Elo), with the error rates Alpha (accepting H1 when H0 holds) and
// Beta (accepting H0 when H1 holds), as fishtest runs it on game pairs.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Verdict is what an SPRT says after the pairs played so far.
type Verdict int

const (
	Continue Verdict = iota // neither bound crossed: more pairs are needed
	H0                      // the LLR reached the lower bound: A is not stronger by Elo1
	H1                      // the LLR reached the upper bound: A is stronger by Elo0
)

func (v Verdict) String() string {
	switch v {
	case H0:
		return "H0"
	case H1:
		return "H1"
	}
	return "continue"
}

// MarshalText writes the verdict as String does, for JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Check says what is wrong with the test's settings, or nil.
func (t SPRT) Check() error {
	switch {
	case math.IsNaN(t.Elo0) || math.IsNaN(t.Elo1) || math.IsInf(t.Elo0, 0) || math.IsInf(t.Elo1, 0):
		return errors.New("the SPRT's Elo bounds must be numbers")
	case t.Elo0 >= t.Elo1:
		return fmt.Errorf("the SPRT's ELO0 (%g) must be below its ELO1 (%g)", t.Elo0, t.Elo1)
	case math.Abs(t.Elo0) > 1000 || math.Abs(t.Elo1) > 1000:
		return errors.New("the SPRT's Elo bounds must be within ±1000")
	case !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("the SPRT's alpha and beta must be above 0 and below 0.5, not %g and %g", t.Alpha, t.Beta)
	}
	return nil
}

// Bounds are Wald's bounds on the LLR: log(β/(1−α)) below, log((1−β)/α) above (±2.94 for
// α = β = 0.05).
func (t SPRT) Bounds() (lo, hi float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 to H0 after the pairs p, as fishtest computes it
// for the pentanomial model (LLRcalc.LLR_logistic): the generalised LLR of Van den Bergh,
// each hypothesis's distribution the one nearest the pairs' empirical distribution
// (maximum likelihood) whose mean score is the hypothesis's. An empty count of a
// pentanomial outcome counts as 0.001, as fishtest's regularisation has it.
func (t SPRT) LLR(p Pentanomial) float64 {
	n := p.Pairs()
	if n == 0 {
		return 0
	}
	var pdf [5]float64
	sum := 0.0
	for i, c := range p {
		pdf[i] = max(float64(c), 1e-3)
		sum += pdf[i]
	}
	for i := range pdf {
		pdf[i] /= sum
	}
	return float64(n) * llrPerPair(pdf, ScoreOfElo(t.Elo0), ScoreOfElo(t.Elo1))
}

// Decide is the verdict for an LLR.
func (t SPRT) Decide(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return H1
	case llr <= lo:
		return H0
	}
	return Continue
}

// pairValues are the pentanomial outcomes as a game's mean score.
var pairValues = [5]float64{0, 0.25, 0.5, 0.75, 1}

// llrPerPair is the expected log-likelihood ratio per pair under pdf of the distributions
// nearest pdf with mean s1 and with mean s0: Σ pdf_i log(q1_i / q0_i).
func llrPerPair(pdf [5]float64, s0, s1 float64) float64 {
	x0, x1 := secular(pdf, s0), secular(pdf, s1)
	llr := 0.0
	for i, q := range pdf {
		if q == 0 {
			continue
		}
		// q_s,i = pdf_i / (1 + x_s (v_i − s)): the ratio's pdf_i cancels.
		llr += q * (math.Log1p(x0*(pairValues[i]-s0)) - math.Log1p(x1*(pairValues[i]-s1)))
	}
	return llr
}

// secular solves Σ pdf_i (v_i − s) / (1 + x (v_i − s)) = 0 for x, the Lagrange multiplier
// of the distribution nearest pdf with mean s: q_i = pdf_i / (1 + x (v_i − s)). The sum
// falls strictly in x between the poles −1/max(v−s) and −1/min(v−s), so bisection finds
// its root. s must lie strictly between 0 and 1.
func secular(pdf [5]float64, s float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for i, q := range pdf {
		if q == 0 {
			continue
		}
		a := pairValues[i] - s
		switch {
		case a > 0:
			lo = max(lo, -1/a)
		case a < 0:
			hi = min(hi, -1/a)
		}
	}
	f := func(x float64) float64 {
		sum := 0.0
		for i, q := range pdf {
			a := pairValues[i] - s
			sum += q * a / (1 + x*a)
		}
		return sum
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0 // every outcome on one side of s: cannot happen with fishtest's regularisation
	}
	const eps = 1e-12
	a, b := lo+eps*(hi-lo), hi-eps*(hi-lo)
	for range 200 {
		m := (a + b) / 2
		if m == a || m == b {
			break
		}
		if f(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}
