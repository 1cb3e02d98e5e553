// Package score holds the conversions of a score that several packages share: the Wilson
// interval of a mean score, the Elo difference a score stands for, and the rank correlation
// of two series.
package score

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson is the Wilson score interval, with critical value z, of a mean of n scores in
// [0, 1] that add up to sum (a win 1, a draw ½; n may be an effective number of games,
// not whole). Its ends are clamped to [0, 1], and reach them exactly at p = 0 and p = 1. n ≤ 0, or an infinite z, gives [0, 1]:
// nothing is known.
func Wilson(sum, n, z float64) (lo, hi float64) {
	if n <= 0 || math.IsInf(z, 1) {
		return 0, 1
	}
	p := sum / n
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	// At p = 0 and p = 1 an end is 0 or 1 exactly, whatever the rounding of z².
	if sum <= 0 {
		lo = 0
	}
	if sum >= n {
		hi = 1
	}
	return lo, hi
}

// EloPerLogit is the Elo points of one logit (400 / ln 10): a model fitted on the logit
// scale, as ponte stats' rating model, gives Elo differences times it, since
// Elo(s) = EloPerLogit · ln(s / (1 − s)).
const EloPerLogit = 400 / math.Ln10

// Elo is the Elo difference at which the stronger player's expected score is s:
// −400·log10(1/s − 1); −Inf at 0 and below, +Inf at 1 and above, NaN for NaN.
func Elo(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return s
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// OfElo is the expected score of a player stronger by elo: 1 / (1 + 10^(−elo/400)).
func OfElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// Ranks returns the ranks of x from 1, ties given their mean rank.
func Ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	out := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			out[idx[k]] = float64(i+j+1) / 2
		}
		i = j
	}
	return out
}

// Spearman is the rank correlation of x and y (ties at their mean rank): NaN when either
// is constant.
func Spearman(x, y []float64) float64 {
	return stat.Correlation(Ranks(x), Ranks(y), nil)
}
