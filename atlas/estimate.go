package atlas

import (
	"cmp"
	"github.com/ponte/ponte/internal/score"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Estimate is the atlas's statement on one class of openings.
type Estimate struct {
	Class
	Tally
	P      float64 // Light's mean score p̂ (draws ½)
	Lo, Hi float64 // the interval of p at the last look (the confidence sequence's)
	// FixedLo and FixedHi are the fixed-n interval at level 1 − α of the same games, as if
	// their number had been fixed in advance: narrower, not valid under the stopping.
	FixedLo, FixedHi float64
	Verdict
	Elo    float64 // 400·log10(p̂/(1−p̂))
	Rounds int     // the looks taken
}

// Atlas is what the games say: an estimate per class, V with its interval, and the
// stability check's figures when it was run.
type Atlas struct {
	Config    Config
	Estimates []Estimate // by class
	Games     int        // every game counted, all stages
	MainGames int
	// Done says whether every stage is complete (V and the stability figures are final).
	Done bool
	// V is the opener's value under the pie rule, max over the openings of min(p, 1−p), from
	// the confirmation run on fresh seeds (NaN before it): the best candidate's confirmed
	// value, with a lower bound from the candidates' confirmed intervals (each at
	// α/Candidates) and an upper bound from the main intervals of every class.
	V, VLo, VHi float64
	VClass      int         // the candidate that gives V
	Confirmed   []Estimate  // the candidates on fresh seeds
	Stable      *Stableness // nil without the stability check
	// Strength says what is known of the bot's strength (its ladder rating); the caller
	// sets it, "" when it is not known.
	Strength string
	// Rating is the bot's ladder rating in Elo over greedy, NaN when it is not known; the
	// caller sets it with Strength.
	Rating float64
}

// Stableness compares the panel's estimates at the larger budget with the main ones, or
// with the panel's own at the main bot (Config.StabilityBoth).
type Stableness struct {
	Bot      string
	Panel    []Estimate // at the larger budget, by class
	Spearman float64    // rank correlation of p̂ between the budgets over the panel; NaN while undefined
	// Flips are the panel's classes whose verdicts are both decided and differ.
	Flips []int
	// MeanShift is the panel's mean p̂ at the larger budget less the main one.
	MeanShift float64
	// Base is the panel at the main bot, PanelGames games a class (StabilityBoth only;
	// nil otherwise), and Compared the comparison of panel with panel, with the rank
	// correlation's and the mean shift's bootstrap intervals.
	Base     []Estimate
	Compared *PanelComparison
}

// Estimate computes the atlas from the games counted.
func (c *Config) Estimate(classes []Class, d *Data) *Atlas {
	a := &Atlas{Config: *c, V: math.NaN(), VLo: math.NaN(), VHi: math.NaN(), Rating: math.NaN()}
	for _, dk := range sortedKeys(d) {
		n := d.prefix(dk.stage, dk.class)
		if dk.stage == Main {
			a.MainGames += n
		}
		a.Games += n
	}
	a.Done = c.NextPlan(classes, d).Done
	vHi := 0.0
	for _, cl := range classes {
		e := c.mainEstimate(cl, d)
		a.Estimates = append(a.Estimates, e)
		_, hi := openerRange(e.Lo, e.Hi)
		vHi = math.Max(vHi, hi)
	}
	byID := map[int]Class{}
	for _, cl := range classes {
		byID[cl.ID] = cl
	}
	if c.NextPlan(classes, d).Stage != Main || a.Done {
		j := 1 // one look of ConfirmGames, whose games are counted as they come
		if c.VWidth > 0 {
			j, _ = c.confirmLook(classes, d)
		}
		ids := c.candidates(classes, d)
		a.Confirmed, a.V, a.VLo, a.VHi, a.VClass = c.confirmation(byID, ids, d, j, vHi)
	}
	if c.StabilityBot != "" && (a.Done || c.NextPlan(classes, d).Stage != Main) {
		ids := c.panel(classes, d)
		s := &Stableness{Bot: c.StabilityBot}
		var x, y []float64
		var base, strong []Tally
		for _, id := range ids {
			t := d.Tally(Stability, id, c.PanelGames)
			if t.Games() < c.PanelGames {
				continue
			}
			e := estimateOf(byID[id], t, zOf(c.Spending.Alpha), c.Margin)
			e.Rounds = 1
			m := a.Estimates[indexOf(classes, id)]
			if c.StabilityBoth {
				bt := d.Tally(Base, id, c.PanelGames)
				if bt.Games() < c.PanelGames {
					continue
				}
				m = estimateOf(byID[id], bt, zOf(c.Spending.Alpha), c.Margin)
				m.Rounds = 1
				s.Base = append(s.Base, m)
				base, strong = append(base, bt), append(strong, t)
			}
			s.Panel = append(s.Panel, e)
			x, y = append(x, m.P), append(y, e.P)
			if m.Verdict != Open && e.Verdict != Open && m.Verdict != e.Verdict {
				s.Flips = append(s.Flips, id)
			}
		}
		s.Spearman = math.NaN()
		if len(x) > 1 {
			s.Spearman = spearman(x, y)
			s.MeanShift = stat.Mean(y, nil) - stat.Mean(x, nil)
		}
		if c.StabilityBoth && len(s.Panel) == len(ids) && len(ids) > 0 {
			pc := ComparePanels(base, strong, c.Seed, Replicates)
			s.Compared = &pc
		}
		a.Stable = s
	}
	return a
}

// mainEstimate is a class's estimate of the main rounds at the look where it stopped, or
// at its last complete one; before the first, of the games so far at the first look's
// level.
func (c *Config) mainEstimate(cl Class, d *Data) Estimate {
	j, _ := c.look(d, cl.ID)
	e := estimateOf(cl, d.Tally(Main, cl.ID, c.Target(max(j, 1))), c.Z(j), c.Margin)
	if j == 0 {
		e = estimateOf(cl, d.Tally(Main, cl.ID, d.prefix(Main, cl.ID)), c.Z(1), c.Margin)
	}
	e.Rounds = j
	e.FixedLo, e.FixedHi = Wilson(e.Sum(), e.Games(), c.Spending.Alpha)
	return e
}

// confirmation is the candidates' estimates at look j of the confirmation (from 1; 0
// before the first is complete: the first look's games so far) and V from them: the
// value of the candidate whose interval's lower end of min(p, 1−p) is the highest, that
// end, and as upper end the highest of vHi (the main rounds') and the candidates'. V is
// NaN while no candidate has the look's games.
func (c *Config) confirmation(byID map[int]Class, ids []int, d *Data, j int, vHi float64) (conf []Estimate, v, lo, hi float64, class int) {
	v, lo, hi = math.NaN(), math.NaN(), math.NaN()
	n, z := c.ConfirmLooks()[max(j, 1)-1], c.confirmZ(max(j, 1), len(ids))
	best := -1.0
	for _, id := range ids {
		t := d.Tally(Confirm, id, n)
		e := estimateOf(byID[id], t, z, c.Margin)
		e.Rounds = max(j, 1)
		if c.VWidth > 0 {
			e.Rounds = j
		}
		conf = append(conf, e)
		if t.Games() < n {
			continue
		}
		elo, ehi := openerRange(e.Lo, e.Hi)
		if elo > best {
			best = elo
			v, lo, class = min(e.P, 1-e.P), elo, id
		}
		vHi = math.Max(vHi, ehi)
	}
	if best >= 0 {
		hi = vHi
	}
	return conf, v, lo, hi, class
}

// mainVHi is the upper end of V from the main rounds: the highest upper end of
// min(p, 1−p) over every class's interval.
func (c *Config) mainVHi(classes []Class, d *Data) float64 {
	vHi := 0.0
	for _, cl := range classes {
		e := c.mainEstimate(cl, d)
		_, hi := openerRange(e.Lo, e.Hi)
		vHi = math.Max(vHi, hi)
	}
	return vHi
}

func indexOf(classes []Class, id int) int {
	return slices.IndexFunc(classes, func(c Class) bool { return c.ID == id })
}

func estimateOf(cl Class, t Tally, z, m float64) Estimate {
	lo, hi := WilsonZ(t.Sum(), t.Games(), z)
	p := t.Mean()
	return Estimate{Class: cl, Tally: t, P: p, Lo: lo, Hi: hi, Verdict: Judge(lo, hi, m), Elo: score.Elo(p)}
}

func sortedKeys(d *Data) []dataKey {
	keys := make([]dataKey, 0, len(d.points))
	for k := range d.points {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b dataKey) int {
		return cmp.Or(cmp.Compare(a.stage, b.stage), cmp.Compare(a.class, b.class))
	})
	return keys
}

// RankText writes a rank correlation to two places, "undefined" for NaN (every p̂ equal).
func RankText(r float64) string {
	if math.IsNaN(r) {
		return "undefined"
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// spearman is the rank correlation of x and y (ties at their mean rank).
func spearman(x, y []float64) float64 { return score.Spearman(x, y) }

// Fair lists the classes whose interval lies in the fair band, then those whose interval
// holds ½ (not told apart from fair by the games), each by p̂'s distance from ½.
func (a *Atlas) Fair() (fair, even []Estimate) {
	for _, e := range a.Estimates {
		switch {
		case e.Verdict == Fair:
			fair = append(fair, e)
		case e.Lo <= 0.5 && e.Hi >= 0.5 && e.Games() > 0:
			even = append(even, e)
		}
	}
	near := func(x, y Estimate) int {
		return cmp.Or(cmp.Compare(abs64(x.P-0.5), abs64(y.P-0.5)), cmp.Compare(x.ID, y.ID))
	}
	slices.SortFunc(fair, near)
	slices.SortFunc(even, near)
	return fair, even
}

// Counts is the number of classes of each verdict.
func (a *Atlas) Counts() map[Verdict]int {
	m := map[Verdict]int{}
	for _, e := range a.Estimates {
		m[e.Verdict]++
	}
	return m
}

// zOf is the two-sided critical value of error rate alpha.
func zOf(alpha float64) float64 { return distuv.UnitNormal.Quantile(1 - alpha/2) }
