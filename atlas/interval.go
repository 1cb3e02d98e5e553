package atlas

import (
	"fmt"
	"github.com/ponte/ponte/internal/score"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Verdict is what the atlas says of an opening against the fair band [½ − m, ½ + m].
type Verdict int

const (
	// Open: the interval meets the band and reaches past it; more games would tell.
	Open Verdict = iota
	// Swap: the interval lies above ½ + m; the responder should swap.
	Swap
	// Keep: the interval lies below ½ − m; the responder should not swap.
	Keep
	// Fair: the interval lies inside the band.
	Fair
)

func (v Verdict) String() string {
	switch v {
	case Swap:
		return "swap"
	case Keep:
		return "keep"
	case Fair:
		return "fair"
	}
	return "open"
}

// ParseVerdict reads a verdict written by String.
func ParseVerdict(s string) (Verdict, bool) {
	for _, v := range []Verdict{Open, Swap, Keep, Fair} {
		if v.String() == s {
			return v, true
		}
	}
	return Open, false
}

// Judge is the verdict of the interval [lo, hi] with margin m.
func Judge(lo, hi, m float64) Verdict {
	switch {
	case lo > 0.5+m:
		return Swap
	case hi < 0.5-m:
		return Keep
	case lo >= 0.5-m && hi <= 0.5+m:
		return Fair
	}
	return Open
}

// Spending is how the intervals spend their error rate α over the looks at a class (the
// rounds in which it was played), as group-sequential designs do (repeated confidence
// intervals, Jennison and Turnbull): the chance that look 1 misses p is (1 − Rest)·α,
// and the chance that look j ≥ 2 of k is the first to miss it is Rest·α/(k−1). The parts
// add up to α, so the intervals of all the looks cover p together with probability at
// least 1 − α, whichever look the rounds stop at: an interval stays valid although the
// stopping depends on the data. Each look's critical value comes from the joint law of
// the looks' statistics (Bounds), not from the union bound, so the later looks are barely
// wider than a fixed-n interval.
type Spending struct {
	Alpha float64 // 0.05 for 95 %
	Rest  float64 // the share of α kept for the looks after the first
}

// DefaultSpending is the spending of the atlas's intervals: 95 %, a fifth of α for the
// looks after the first.
var DefaultSpending = Spending{Alpha: 0.05, Rest: 0.2}

// At is the error rate spent at look j (from 1) of k.
func (s Spending) At(j, k int) float64 {
	switch {
	case k <= 1:
		return s.Alpha
	case j <= 1:
		return (1 - s.Rest) * s.Alpha
	}
	return s.Rest * s.Alpha / float64(k-1)
}

// Bounds are the critical values z_1 … z_k of looks after n[0] < n[1] < … games: z_j is
// such that a standardised mean (the normal approximation of the games' mean) first leaves
// [−z_j, z_j] at look j with the chance At(j, k). They are computed once per schedule from
// 400,000 simulated paths of a fixed seed, so every run gets the same values.
func (s Spending) Bounds(n []int) []float64 {
	key := boundsKey{s, fmt.Sprint(n)}
	boundsMu.Lock()
	defer boundsMu.Unlock()
	if z, ok := boundsCache[key]; ok {
		return z
	}
	const paths = 400_000
	rng := rand.New(rand.NewPCG(0x626f756e6473, uint64(len(n)))) // "bounds"
	sum := make([]float64, paths)
	alive := make([]bool, paths)
	for i := range alive {
		alive[i] = true
	}
	z := make([]float64, len(n))
	abs := make([]float64, 0, paths)
	prev := 0
	for j, nj := range n {
		sd := math.Sqrt(float64(nj - prev))
		abs = abs[:0]
		for i := range sum {
			sum[i] += sd * rng.NormFloat64()
			if alive[i] {
				abs = append(abs, math.Abs(sum[i])/math.Sqrt(float64(nj)))
			}
		}
		prev = nj
		exits := int(math.Round(s.At(j+1, len(n)) * paths))
		if exits <= 0 || len(abs) == 0 {
			z[j] = math.Inf(1)
			continue
		}
		slices.Sort(abs)
		z[j] = abs[max(0, len(abs)-exits)]
		for i := range sum {
			if alive[i] && math.Abs(sum[i])/math.Sqrt(float64(nj)) >= z[j] {
				alive[i] = false
			}
		}
	}
	boundsCache[key] = z
	return z
}

type boundsKey struct {
	s Spending
	n string
}

var (
	boundsMu    sync.Mutex
	boundsCache = map[boundsKey][]float64{}
)

// Wilson is the Wilson score interval at two-sided error rate alpha of a mean of n scores
// in [0, 1] that add up to sum (a win 1, a draw ½): a draw's variance is below a coin's,
// so the binomial interval is conservative for it. n = 0 gives [0, 1].
func Wilson(sum float64, n int, alpha float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	return WilsonZ(sum, n, distuv.UnitNormal.Quantile(1-alpha/2))
}

// WilsonZ is the Wilson score interval with critical value z ([score.Wilson]).
func WilsonZ(sum float64, n int, z float64) (lo, hi float64) {
	return score.Wilson(sum, float64(n), z)
}

// openerRange is the range of the opener's value min(p, 1−p) over p in [lo, hi].
func openerRange(lo, hi float64) (float64, float64) {
	a := math.Min(lo, 1-hi)
	b := math.Max(math.Min(lo, 1-lo), math.Min(hi, 1-hi))
	if lo <= 0.5 && hi >= 0.5 {
		b = 0.5
	}
	return a, b
}
