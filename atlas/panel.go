package atlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Replicates is the number of bootstrap replicates of the stability panel's comparison.
const Replicates = 2000

// Thresholds of the stability sentence (Stableness.Sentence): p(o) is said not to move
// with strength when the rank correlation's interval lies above KeptRank and the mean
// shift's inside the fair band; to move when the shift's interval excludes 0 or the rank
// correlation's lies below KeptRank.
const KeptRank = 0.8

// PanelComparison is the comparison of one panel of classes played at two strengths: the
// rank correlation of p̂ with its bootstrap interval, and the mean shift of p̂ (the
// stronger side's less the other's) with its own, both at 95 %.
type PanelComparison struct {
	Classes                     int
	Spearman, Lo, Hi            float64 // NaN while undefined
	MeanShift, ShiftLo, ShiftHi float64
	Replicates                  int // those of the Replicates where the correlation is defined
	// pLo and pHi are the percentile interval of the rank correlation, for the coverage
	// test's comparison.
	pLo, pHi float64
}

// ComparePanels compares the tallies of the panel's classes at two strengths, base[i]
// and strong[i] for class i, with a seeded bootstrap of reps replicates. A replicate
// draws the classes with replacement, and within each class each side's games with
// replacement from its tally (wins, draws and losses), so that it varies both the panel's
// choice and the games' luck. The mean shift's interval is the replicates' percentile
// interval. The rank correlation's is the basic (reverse percentile) interval
// [2r − q97.5, 2r − q2.5], clamped to [−1, 1]: the games drawn again add their noise once
// more, which pulls the replicates' correlation below r as the games' noise pulls r below
// the correlation of the true p's, and the basic interval turns that pull back; a
// percentile interval would hold the true correlation far less often than 95 % (docs/atlas.md
// has the coverage of both).
func ComparePanels(base, strong []Tally, seed uint64, reps int) PanelComparison {
	k := len(base)
	pc := PanelComparison{Classes: k, Spearman: math.NaN(), Lo: math.NaN(), Hi: math.NaN(),
		MeanShift: math.NaN(), ShiftLo: math.NaN(), ShiftHi: math.NaN()}
	if k < 2 || len(strong) != k {
		return pc
	}
	x, y := make([]float64, k), make([]float64, k)
	for i := range k {
		x[i], y[i] = base[i].Mean(), strong[i].Mean()
	}
	pc.Spearman = undefinedAsNaN(spearman(x, y))
	pc.MeanShift = stat.Mean(y, nil) - stat.Mean(x, nil)
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74)) // "boot"
	var rs, shifts []float64
	for range reps {
		for i := range k {
			j := rng.IntN(k)
			x[i], y[i] = redraw(rng, base[j]), redraw(rng, strong[j])
		}
		shifts = append(shifts, stat.Mean(y, nil)-stat.Mean(x, nil))
		if r := undefinedAsNaN(spearman(x, y)); !math.IsNaN(r) {
			rs = append(rs, r)
		}
	}
	pc.Replicates = len(rs)
	pc.ShiftLo, pc.ShiftHi = percentiles(shifts)
	if len(rs) > 0 && !math.IsNaN(pc.Spearman) {
		qlo, qhi := percentiles(rs)
		pc.pLo, pc.pHi = qlo, qhi
		pc.Lo = math.Max(-1, math.Min(1, 2*pc.Spearman-qhi))
		pc.Hi = math.Max(-1, math.Min(1, 2*pc.Spearman-qlo))
	}
	return pc
}

// redraw is the mean score of as many games as t holds, each drawn from t's: the wins a
// binomial draw, then the draws one among the other games.
func redraw(rng *rand.Rand, t Tally) float64 {
	n := t.Games()
	if n == 0 {
		return 0.5
	}
	wins := distuv.Binomial{N: float64(n), P: float64(t.Wins) / float64(n), Src: rng}.Rand()
	draws := 0.0
	if rest := n - t.Wins; rest > 0 {
		draws = distuv.Binomial{N: float64(n) - wins, P: float64(t.Draws) / float64(rest), Src: rng}.Rand()
	}
	return (2*wins + draws) / float64(2*n)
}

// percentiles are the 2.5 % and 97.5 % points of v (NaN for none); v is sorted.
func percentiles(v []float64) (lo, hi float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))))] }
	return at(0.025), at(0.975)
}

func undefinedAsNaN(r float64) float64 {
	if math.IsInf(r, 0) {
		return math.NaN()
	}
	return r
}

// Sentence says whether p(o) moves with strength, from the intervals only: it moves when
// the mean shift's interval excludes 0 or the rank correlation's lies below KeptRank; it
// does not when the rank correlation's lies above KeptRank and the shift's inside ±margin;
// otherwise the panel is too small to tell.
func (pc PanelComparison) Sentence(weak, strong string, margin float64) string {
	if math.IsNaN(pc.Lo) {
		return fmt.Sprintf("Whether p(o) moves with strength is not known: the rank correlation of %s and %s is undefined over %d classes.", weak, strong, pc.Classes)
	}
	figures := fmt.Sprintf("rank correlation %.2f [%.2f, %.2f], mean shift %+.1f points [%+.1f, %+.1f] from %s to %s over %d classes",
		pc.Spearman, pc.Lo, pc.Hi, 100*pc.MeanShift, 100*pc.ShiftLo, 100*pc.ShiftHi, weak, strong, pc.Classes)
	switch {
	case pc.ShiftLo > 0 || pc.ShiftHi < 0:
		dir := "up"
		if pc.ShiftHi < 0 {
			dir = "down"
		}
		return fmt.Sprintf("p(o) moves with strength (%s on average): %s.", dir, figures)
	case pc.Hi < KeptRank:
		return fmt.Sprintf("p(o) moves with strength (the openings change order): %s.", figures)
	case pc.Lo >= KeptRank && pc.ShiftLo >= -margin && pc.ShiftHi <= margin:
		return fmt.Sprintf("p(o) does not move with strength: %s.", figures)
	}
	return fmt.Sprintf("The panel is too small to tell whether p(o) moves with strength: %s.", figures)
}

// StabilitySentence says whether p(o) moves with strength (PanelComparison.Sentence),
// once the panel has been played at both strengths (Config.StabilityBoth); "" otherwise.
func (a *Atlas) StabilitySentence() string {
	if a.Stable == nil || a.Stable.Compared == nil {
		return ""
	}
	return a.Stable.Compared.Sentence(a.Config.Bot, a.Stable.Bot, a.Config.Margin)
}
