package atlas

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ponte/ponte/bot"
)

func TestRate(t *testing.T) {
	for _, tc := range []struct {
		r         Rate
		perSecond float64 // 0: no measure
	}{
		{Rate{Games: 100, CPUSeconds: 10}, 10},
		{Rate{Games: 36, CPUSeconds: 0.1}, 360},
		{Rate{}, 0},
		{Rate{Games: 5}, 0},
	} {
		if got := tc.r.PerCoreSecond(); math.Abs(got-tc.perSecond) > 1e-9 {
			t.Errorf("%+v: %g games per core-second, want %g", tc.r, got, tc.perSecond)
		}
		want := math.NaN()
		if tc.perSecond > 0 {
			want = 10 / tc.perSecond // 36,000 games
		}
		if got := tc.r.CoreHours(36000); !(math.Abs(got-want) < 1e-9 || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%+v: %g core-hours of 36,000 games, want %g", tc.r, got, want)
		}
	}
}

// addGames counts n main games of class from index from, wins first, then draws.
func addGames(d *Data, class, from, n, wins, draws int) {
	for i := range n {
		pts := 0
		switch {
		case i < wins:
			pts = 2
		case i < wins+draws:
			pts = 1
		}
		d.Add(Game{Stage: Main, Class: class, Index: from + i, Points: pts})
	}
}

func TestCosts(t *testing.T) {
	c := DefaultConfig()
	c.Bot, c.First, c.Max, c.Candidates, c.ConfirmGames = "sim", 16, 64, 1, 100
	classes := []Class{{ID: 1}, {ID: 2}, {ID: 3}}
	zLast := c.Z(c.Looks())
	need := func(p float64) float64 { // the fixed-n games of a class at p̂ = p, margin 0.03
		gap := math.Abs(math.Abs(p-0.5) - 0.03)
		return math.Ceil(zLast * zLast * p * (1 - p) / (gap * gap))
	}
	vPer := math.Ceil(math.Pow(distuv.UnitNormal.Quantile(1-0.025), 2) / 4 / (0.02 * 0.02)) // 2401
	doneData := NewData()
	for _, cl := range classes {
		addGames(doneData, cl.ID, 0, 16, 16, 0) // Light wins all: swap, decided at the first look
	}
	for _, id := range c.candidates(classes, doneData) {
		for i := range 100 {
			doneData.Add(Game{Stage: Confirm, Class: id, Index: i, Points: 2})
		}
	}
	for _, tc := range []struct {
		name       string
		data       func() *Data
		next, end  float64 // games; end < 0: only bounds checked
		v, decided float64 // NaN: unknown
	}{
		{"a new atlas", NewData, 3 * 16, -1, -1, math.NaN()},
		{"half the first round", func() *Data {
			d := NewData()
			addGames(d, 1, 0, 16, 12, 0)
			addGames(d, 2, 0, 8, 4, 0)
			return d
		}, 8 + 16, -1, -1, need(0.75) - 16 + need(0.5) - 8},
		{"done", func() *Data { return doneData }, 0, 0, vPer - 100, 0}, // p̂ = 1: nothing more to decide
	} {
		t.Run(tc.name, func(t *testing.T) {
			costs := c.Costs(classes, tc.data(), 0.02, 8)
			if len(costs) != 4 {
				t.Fatalf("%d costs, want 4", len(costs))
			}
			next, end, v, decided := costs[0], costs[1], costs[2], costs[3]
			if next.Games != tc.next {
				t.Errorf("the next round: %g games, want %g", next.Games, tc.next)
			}
			if tc.end >= 0 && end.Games != tc.end {
				t.Errorf("to the end: %g games, want %g", end.Games, tc.end)
			}
			// To the end: at least the next round, at most every class to Max and the
			// confirmation.
			if lo, hi := next.Games, float64(3*64+100); tc.end < 0 && (end.Games < lo || end.Games > hi) {
				t.Errorf("to the end: %g games, want from %g to %g", end.Games, lo, hi)
			}
			if tc.v >= 0 && v.Games != tc.v {
				t.Errorf("V to ±2 points: %g games, want %g", v.Games, tc.v)
			}
			if tc.v < 0 && v.Games < vPer {
				t.Errorf("V to ±2 points before the main rounds end: %g games, want at least %g", v.Games, vPer)
			}
			if got := decided.Games; !(got == tc.decided || math.IsNaN(got) && math.IsNaN(tc.decided)) {
				t.Errorf("every class decided: %g games, want %g", got, tc.decided)
			}
		})
	}
}

// TestCostsToTheEnd: after a first round of a planted atlas, the simulated games to the end
// are within 25 % of what the rest of that atlas plays.
func TestCostsToTheEnd(t *testing.T) {
	c := DefaultConfig()
	c.Bot = "sim"
	truth := PlantedAtlas(100, rand.New(rand.NewPCG(7, 1)))
	classes := make([]Class, len(truth))
	for i := range classes {
		classes[i] = Class{ID: i + 1}
	}
	d := NewData()
	rng := rand.New(rand.NewPCG(7, 2))
	draw := func(u Unit) {
		tr, pts := truth[u.Class-1], 0
		switch r := rng.Float64(); {
		case r < tr.Draw:
			pts = 1
		case r < tr.Draw+(1-tr.Draw)*(tr.P-tr.Draw/2)/(1-tr.Draw):
			pts = 2
		}
		d.Add(Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: pts})
	}
	units, _ := c.NextPlan(classes, d).Shard(d, 1, 1)
	for u := range units {
		draw(u)
	}
	estimate := c.Costs(classes, d, 0.02, 10)[1].Games
	played := 0
	for p := c.NextPlan(classes, d); !p.Done; p = c.NextPlan(classes, d) {
		units, _ := p.Shard(d, 1, 1)
		for u := range units {
			draw(u)
			played++
		}
	}
	if ratio := estimate / float64(played); ratio < 0.75 || ratio > 1.25 {
		t.Errorf("to the end: %.0f games estimated, %d played (ratio %.2f)", estimate, played, ratio)
	}
}

// TestMeasureRate times games of a 5×5 atlas and prints the costs.
func TestMeasureRate(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.Bot, c.First, c.Max = 5, "greedy", 2, 64
	classes, err := Classes(c.Size)
	if err != nil {
		t.Fatal(err)
	}
	newBot := func(name string) (bot.Bot, error) { return bot.New(name, bot.Options{Workers: 1}) }
	r, err := c.MeasureRate(context.Background(), classes, NewData(), newBot, 2, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games < 1 || r.Games > 2*len(classes) || r.CPUSeconds <= 0 {
		t.Fatalf("measured %+v: want some games and CPU time", r)
	}
	var out bytes.Buffer
	if err := PrintCosts(&out, &c, r, c.Costs(classes, NewData(), 0.02, 2), 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`greedy on 5×5: [0-9.e+]+ games per core-second \([0-9]+ games in`, `\nthe next round \(main round 1\) +98 +[0-9.]+ +[0-9.]+\n`, "needs a first round"} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("the costs lack %q:\n%s", want, out.String())
		}
	}
}

// TestCostsStability: the stability check's games are counted at four times the time when
// its bot has four times the budget, and at the atlas's bot's time otherwise.
func TestCostsStability(t *testing.T) {
	c := DefaultConfig()
	c.Bot, c.First, c.Max, c.Candidates, c.ConfirmGames, c.PanelSize, c.PanelGames = "sage-10", 4, 4, 1, 2, 2, 8
	classes := []Class{{ID: 1}, {ID: 2}, {ID: 3}}
	d := NewData()
	for _, cl := range classes {
		addGames(d, cl.ID, 0, 4, 4, 0)
	}
	for _, id := range c.candidates(classes, d) {
		d.Add(Game{Stage: Confirm, Class: id, Index: 0, Points: 2})
		d.Add(Game{Stage: Confirm, Class: id, Index: 1, Points: 2})
	}
	for _, tc := range []struct {
		bot    string
		weight float64
	}{{"sage-40", 4}, {"mcts-400", 1}} {
		c.StabilityBot = tc.bot
		costs := c.Costs(classes, d, 0.02, 1)
		next, end := costs[0], costs[1]
		if next.Games != 16 || next.Weighted != 16*tc.weight || end.Games != 16 || end.Weighted != 16*tc.weight {
			t.Errorf("stability bot %s: next %+v, end %+v: want 16 games weighted %g", tc.bot, next, end, 16*tc.weight)
		}
		if !strings.Contains(end.Note, "16 games of "+tc.bot) {
			t.Errorf("stability bot %s: the note %q does not name its games", tc.bot, end.Note)
		}
	}
}
