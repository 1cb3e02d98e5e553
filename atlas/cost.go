package atlas

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/internal/cputime"
)

// Rate is a bot's measured speed on an atlas's games: the games played and the process's
// CPU time they took (cputime.Process: every thread, the searches' and the garbage collector's).
type Rate struct {
	Games      int
	CPUSeconds float64
}

// PerCoreSecond is the games per CPU-second, 0 without a measure.
func (r Rate) PerCoreSecond() float64 {
	if r.Games == 0 || r.CPUSeconds <= 0 {
		return 0
	}
	return float64(r.Games) / r.CPUSeconds
}

// CoreHours is the CPU time that games would take at this rate, NaN without a measure.
func (r Rate) CoreHours(games float64) float64 {
	if v := r.PerCoreSecond(); v > 0 {
		return games / v / 3600
	}
	return math.NaN()
}

// Cost is what a target still needs: its games (a mean when they are simulated) and, in
// Weighted, the same counted in games of the atlas's bot (the stability bot's at four
// times the time when its budget is four times as large).
type Cost struct {
	Target   string
	Games    float64
	Weighted float64
	Note     string
}

// Costs prices, from the games counted in d, the next round, the atlas to its end, V to
// ±vHalf (the confirmation's interval) and every class decided at the atlas's margin.
// The atlas to its end is simulated reps times, each class's games drawn from its main
// estimate so far (½ for a class without games, which the rounds stop last); the last
// target is the fixed-n count z²·p(1−p)/gap² of each class's estimate, gap its distance to
// the edge of the fair band, z the last look's critical value; a class that needs MaxCount
// games or more is left out and counted in the note.
func (c *Config) Costs(classes []Class, d *Data, vHalf float64, reps int) []Cost {
	var out []Cost
	p := c.NextPlan(classes, d)
	if p.Done {
		out = append(out, Cost{Target: "the next round", Note: "none: the atlas is done"})
	} else {
		_, n := p.Shard(d, 1, 1)
		w := float64(n)
		if p.Stage == Stability {
			w *= c.stabilityWeight()
		}
		out = append(out, Cost{Target: fmt.Sprintf("the next round (%s round %d)", p.Stage, p.Round), Games: float64(n), Weighted: w})
	}
	all, mainGames := c.simulate(classes, d, reps)
	end := Cost{Target: "the atlas to its end", Games: all[Main] + all[Confirm] + all[Stability],
		Weighted: all[Main] + all[Confirm] + c.stabilityWeight()*all[Stability], Note: fmt.Sprintf("simulated %d times from the estimates so far", reps)}
	if mainGames == 0 {
		end.Note = "no game yet: every class taken at p = ½, the most a class can cost"
	}
	switch {
	case all[Stability] > 0 && c.stabilityWeight() > 1:
		end.Note += fmt.Sprintf("; %.0f games of %s counted at 4× the time (its budget)", all[Stability], c.StabilityBot)
	case all[Stability] > 0:
		end.Note += fmt.Sprintf("; %.0f games of %s counted at %s's time (not timed)", all[Stability], c.StabilityBot, c.Bot)
	}
	out = append(out, end)

	z := distuv.UnitNormal.Quantile(1 - c.Spending.Alpha/2/float64(c.Candidates))
	per := math.Ceil(z * z / 4 / (vHalf * vHalf))
	confirm := 0.0
	for _, id := range c.candidates(classes, d) {
		confirm += math.Max(0, per-float64(d.prefix(Confirm, id)))
	}
	if p.Stage == Main && !p.Done {
		confirm = per * float64(c.Candidates)
	}
	v := all[Main] + confirm
	out = append(out, Cost{Target: fmt.Sprintf("V to ±%.3g points", 100*vHalf), Games: v, Weighted: v,
		Note: fmt.Sprintf("the main rounds, then %.0f games for each of %d %s (z %.2f, p ½)", per, c.Candidates, costPlural(c.Candidates, "candidate", "candidates"), z)})

	decided := Cost{Target: fmt.Sprintf("every class decided at m = %.3g", c.Margin)}
	zLast := c.Z(c.Looks())
	capped, unknown := 0, 0
	for _, cl := range classes {
		t := d.Tally(Main, cl.ID, d.prefix(Main, cl.ID))
		if t.Games() == 0 {
			unknown++
			continue
		}
		pe := t.Mean()
		gap := math.Abs(math.Abs(pe-0.5) - c.Margin)
		need := float64(MaxCount)
		if pv := pe * (1 - pe); gap > 0 {
			need = math.Ceil(zLast * zLast * math.Max(pv, 1/float64(4*MaxCount)) / (gap * gap))
		}
		if need >= MaxCount {
			capped++
			continue
		}
		decided.Games += math.Max(0, need-float64(t.Games()))
	}
	decided.Weighted = decided.Games
	switch {
	case unknown == len(classes):
		decided.Games, decided.Weighted = math.NaN(), math.NaN()
		decided.Note = "needs a first round: the estimates say how far each class is from the band"
	default:
		decided.Note = fmt.Sprintf("z²·p(1−p)/gap² a class, z %.2f", zLast)
		if capped > 0 {
			decided.Note += fmt.Sprintf("; %d left out: so near the band's edge that each needs over %d games", capped, MaxCount)
		}
		if unknown > 0 {
			decided.Note += fmt.Sprintf("; %d without games left out", unknown)
		}
	}
	return append(out, decided)
}

// stabilityWeight is the time of a stability game in games of the atlas's bot: 4 when its
// bot is the atlas's with four times the budget, else 1 (not known).
func (c *Config) stabilityWeight() float64 {
	if c.StabilityBot != "" && c.StabilityBot == FourTimes(c.Bot) {
		return 4
	}
	return 1
}

// simulate plays the rest of the atlas reps times with each game drawn from its class's
// main games so far, and returns the mean games a stage still needs and the main games
// counted now.
func (c *Config) simulate(classes []Class, d *Data, reps int) (map[Stage]float64, int) {
	type truth struct{ win, draw float64 }
	truths := map[int]truth{}
	mainGames := 0
	for _, cl := range classes {
		t := d.Tally(Main, cl.ID, d.prefix(Main, cl.ID))
		n := float64(t.Games())
		mainGames += t.Games()
		truths[cl.ID] = truth{(float64(t.Wins) + 0.5) / (n + 1), float64(t.Draws) / (n + 1)}
	}
	sum := map[Stage]float64{}
	reps = max(reps, 1)
	for rep := range reps {
		rng := rand.New(rand.NewPCG(c.Seed, uint64(rep)))
		sim := &Data{points: make(map[dataKey][]int8, len(d.points))}
		for k, v := range d.points {
			sim.points[k] = append([]int8(nil), v...)
		}
		for {
			p := c.NextPlan(classes, sim)
			if p.Done {
				break
			}
			units, _ := p.Shard(sim, 1, 1)
			played := 0
			for u := range units {
				t, pts := truths[u.Class], 0
				switch r := rng.Float64(); {
				case r < t.draw:
					pts = 1
				case r < t.draw+t.win:
					pts = 2
				}
				sim.Add(Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: pts})
				sum[u.Stage]++
				played++
			}
			if played == 0 {
				break // a plan that asks for nothing new: never, but no loop forever
			}
		}
	}
	for s := range sum {
		sum[s] /= float64(reps)
	}
	return sum, mainGames
}

// MeasureRate plays games of the next plan (the atlas's own games, seeds and all, not
// stored) on workers goroutines until they have taken at least budget of CPU time or 256
// are played: up to 256 spread over the plan, in an order drawn from the seed. A done atlas
// is measured on main-stage games past its indices. The games are only timed.
func (c *Config) MeasureRate(ctx context.Context, classes []Class, d *Data, newBot func(string) (bot.Bot, error), workers int, budget time.Duration) (Rate, error) {
	const sample = 256
	var units []Unit
	if p := c.NextPlan(classes, d); !p.Done {
		seq, n := p.Shard(d, 1, 1)
		stride, i := max(1, n/sample), 0
		for u := range seq {
			if i%stride == 0 && len(units) < sample {
				units = append(units, u)
			}
			i++
		}
	}
	if len(units) == 0 { // a done atlas: main-stage games past its indices, spread over the classes
		n := min(sample, len(classes))
		for i := range n {
			units = append(units, Unit{Main, classes[i*len(classes)/n].ID, MaxCount - 1})
		}
	}
	rand.New(rand.NewPCG(c.Seed, 0x72617465)).Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] }) // "rate"
	byID := map[int]Class{}
	for _, cl := range classes {
		byID[cl.ID] = cl
	}
	workers = max(1, workers)
	start := cputime.Process()
	var r Rate
	for len(units) > 0 && (r.Games == 0 || cputime.Process()-start < budget) {
		batch := units[:min(workers, len(units))]
		units = units[len(batch):]
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, u := range batch {
			wg.Go(func() { _, _, errs[i] = c.Play(ctx, u, byID[u.Class], newBot) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return r, err
			}
		}
		r.Games += len(batch)
		r.CPUSeconds = (cputime.Process() - start).Seconds()
	}
	return r, nil
}

// PrintCosts writes the rate and the costs as a table: games, core-hours, and the hours on
// cores CPUs.
func PrintCosts(w io.Writer, c *Config, r Rate, costs []Cost, cores int) error {
	fmt.Fprintf(w, "%s on %d×%d: %.4g games per core-second (%d games in %.2f CPU-s, measured now)\n",
		c.Bot, c.Size, c.Size, r.PerCoreSecond(), r.Games, r.CPUSeconds)
	width := len("target")
	for _, k := range costs {
		width = max(width, utf8.RuneCountInString(k.Target))
	}
	pad := func(t string) string { return t + strings.Repeat(" ", width-utf8.RuneCountInString(t)) }
	last := fmt.Sprintf("hours on %d cores", cores)
	fmt.Fprintf(w, "%s  %11s  %10s  %s\n", pad("target"), "games", "core-hours", last)
	for _, k := range costs {
		h := r.CoreHours(k.Weighted)
		fmt.Fprintf(w, "%s  %11s  %10s  %*s\n", pad(k.Target), costCount(k.Games), costHours(h), len(last), costHours(h/float64(cores)))
	}
	for _, k := range costs {
		if k.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", k.Target, k.Note)
		}
	}
	return nil
}

func costCount(g float64) string {
	if math.IsNaN(g) {
		return "?"
	}
	return costCommas(int64(math.Round(g)))
}

func costHours(h float64) string {
	switch {
	case math.IsNaN(h):
		return "?"
	case h < 0.1:
		return fmt.Sprintf("%.4f", h)
	case h < 10:
		return fmt.Sprintf("%.2f", h)
	}
	return costCommas(int64(math.Round(h)))
}

func costCommas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func costPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
