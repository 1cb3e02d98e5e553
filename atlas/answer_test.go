package atlas

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ponte/ponte/store"
)

// VGames is the fewest games whose Wilson interval at α/candidates is at most the width
// asked whatever the score: one game fewer is wider at p̂ = ½.
func TestVGames(t *testing.T) {
	for _, tc := range []struct {
		width, alpha float64
		candidates   int
		want         int
	}{
		{0.04, 0.05, 3, 3577}, // ±2 points, the defaults' 3 candidates
		{0.04, 0.05, 1, 2398}, // the "about 2,400"
		{0.06, 0.05, 3, 1587},
		{0.04, 0.01, 3, 5377},
		{0.3, 0.05, 3, 58},
		{1, 0.05, 1, 1},
	} {
		n := VGames(tc.width, tc.alpha, tc.candidates)
		if n != tc.want {
			t.Errorf("VGames(%g, %g, %d) = %d, want %d", tc.width, tc.alpha, tc.candidates, n, tc.want)
		}
		z := zOf(tc.alpha / float64(tc.candidates))
		if lo, hi := WilsonZ(float64(n)/2, n, z); hi-lo > tc.width+1e-12 {
			t.Errorf("width %g: %d games give an interval %.5f wide", tc.width, n, hi-lo)
		}
		if lo, hi := WilsonZ(float64(n-1)/2, n-1, z); n > 1 && hi-lo <= tc.width {
			t.Errorf("width %g: %d games already give %.5f", tc.width, n-1, hi-lo)
		}
	}
}

// --v-width sets the confirmation's games and is checked like the counts; 0 keeps --confirm.
func TestVWidthSettings(t *testing.T) {
	c := DefaultConfig()
	c.Bot = "sage-4"
	if got := c.CandidateGames(); got != 256 {
		t.Errorf("without --v-width: %d games a candidate, want --confirm's 256", got)
	}
	for _, tc := range []struct {
		width float64
		want  string // "" when accepted
	}{
		{0.04, ""}, {1, ""}, {-0.1, "--v-width -0.1"}, {1.5, "--v-width 1.5"}, {math.NaN(), "--v-width NaN"},
		{0.002, "more than 1048576 games a candidate"},
	} {
		c.VWidth = tc.width
		err := c.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--v-width %g: %v, want %q", tc.width, err, tc.want)
		}
	}
	c.VWidth = 0.04
	if got := c.CandidateGames(); got != 3577 {
		t.Errorf("--v-width 0.04: %d games a candidate, want 3577", got)
	}
	o := c
	o.VWidth = 0.06
	if d := c.Differences(&o); len(d) != 1 || d[0].Flag != "v-width" || d[0].Games {
		t.Errorf("differences %+v, want one rule of the rounds, v-width", d)
	}
	r, err := c.Resume(&o, "a.db", func(f string) bool { return f == "v-width" })
	if err != nil || r.VWidth != 0.06 {
		t.Errorf("a rerun with --v-width 0.06: %v, %+v", err, r)
	}
}

// The atlases made before --v-width read and show as they did: their stored settings
// written again are the same bytes, and --json gains none of the answer's fields.
func TestOldAtlasUnchanged(t *testing.T) {
	for _, name := range []string{"atlas-8x8", "atlas-10x10"} {
		adb, err := store.OpenAtlas("data/"+name+".db", false)
		if err != nil {
			t.Fatal(err)
		}
		defer adb.Close()
		stored, err := adb.AtlasMeta(context.Background(), "config")
		if err != nil {
			t.Fatal(err)
		}
		var c Config
		if err := json.Unmarshal([]byte(stored), &c); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(&c); string(again) != stored {
			t.Errorf("%s: settings written again\n%s\nstored\n%s", name, again, stored)
		}
		classes, err := Classes(c.Size)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Load(context.Background(), adb)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := json.Marshal(c.Estimate(classes, d).JSON(false))
		for _, field := range []string{"v_width", "v_games", "v_known", "rating", "answer"} {
			if strings.Contains(string(text), `"`+field+`"`) {
				t.Errorf("%s: --json has %q", name, field)
			}
		}
	}
}

// The answer says what the opener secures, at what strength, by which opening, and
// whether the interval is yet as narrow as asked.
func TestAnswer(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.Bot, c.First, c.Max, c.Candidates = 5, "sage-4", 4, 4, 1
	classes, err := Classes(5)
	if err != nil {
		t.Fatal(err)
	}
	played := func(c Config, confirm int) *Atlas {
		d := NewData()
		for _, cl := range classes {
			for k := range 4 {
				d.Add(Game{Stage: Main, Class: cl.ID, Index: k, Points: 2 * (k % 2)})
			}
			for k := range confirm {
				d.Add(Game{Stage: Confirm, Class: cl.ID, Index: k, Points: 2 * (k % 2)})
			}
		}
		return c.Estimate(classes, d)
	}
	wide := c
	wide.VWidth = 0.3
	for _, tc := range []struct {
		name    string
		a       *Atlas
		rating  float64
		want    []string
		unknown bool
	}{
		{"before the confirmation", played(c, 0), math.NaN(),
			[]string{"not yet known with sage-4 on both sides (not on the 5×5 ladder)", "not complete"}, true},
		{"wider than asked", played(c, 256), 650,
			[]string{"secures 0.500 [0.", ", 0.500] at +650 Elo over greedy (sage-4 on both sides, 5×5 ladder), by opening a1 b1 (class 1, 256 fresh games). Not yet: V is known to within", "not the 4 asked."}, true},
		{"as narrow as asked", played(wide, VGames(0.3, 0.05, 1)), -20,
			[]string{"at -20 Elo over greedy", "(class 1, 39 fresh games): V is known to within 16.1 points."}, false},
	} {
		tc.a.Rating = tc.rating
		got := tc.a.Answer()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		if tc.a.VKnown() == tc.unknown {
			t.Errorf("%s: VKnown %v", tc.name, tc.a.VKnown())
		}
		var text strings.Builder
		if err := tc.a.Print(&text, false); err != nil || !strings.HasPrefix(text.String(), got+"\n") {
			t.Errorf("%s: show does not lead with the answer:\n%.300s", tc.name, text.String())
		}
	}
	a := played(wide, VGames(0.3, 0.05, 1))
	r := a.JSON(false)
	text, _ := json.Marshal(r)
	if r.VWidth == nil || *r.VWidth != 0.3 || r.VGames != 39 || r.VKnown == nil || !*r.VKnown || r.Answer != a.Answer() ||
		!strings.Contains(string(text), `"rating":null`) {
		t.Errorf("--json of an atlas with --v-width: %s", text)
	}
}

// vScenario is a planted truth for the coverage of V's interval: n classes, V planted.
type vScenario struct {
	name  string
	truth func(rng *rand.Rand) []Planted
	max   int // --max of the main rounds
}

func mirrored(rng *rand.Rand, p float64) float64 {
	if rng.IntN(2) == 0 {
		return 1 - p
	}
	return p
}

var vScenarios = []vScenario{
	// Every class near ½, none at it: many near-best candidates, the winner's curse at its
	// strongest, V's upper end from intervals that hold ½.
	{"near ½", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			out[i] = Planted{P: mirrored(rng, 0.44+0.05*rng.Float64()), Draw: 0.02}
		}
		return out
	}, 256},
	// Ten classes at 0.47 among lopsided ones: V = 0.47.
	{"0.47 among lopsided", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			p := 0.47
			if i >= 10 {
				p = 0.55 + 0.15*rng.Float64()
			}
			out[i] = Planted{P: mirrored(rng, p), Draw: 0.02}
		}
		return out
	}, 1024},
	// Every class lopsided, V = 0.40: the main intervals leave ½, so V's upper end is
	// their own and can miss.
	{"every class lopsided", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			p := 0.40
			if i >= 5 {
				p = 0.62 + 0.2*rng.Float64()
			}
			out[i] = Planted{P: mirrored(rng, p), Draw: 0.02}
		}
		return out
	}, 1024},
}

// TestVCoverage checks V's interval against planted truth: candidates chosen on the main
// rounds, confirmed on fresh seeds with --v-width 0.04's games, the upper end from every
// class. The interval must hold the planted V at its stated 95 % (within three standard
// errors of the runs); the log also gives the interval V would have without the
// confirmation. 20 atlases a scenario; -atlas.full runs 1,000 (docs/atlas.md).
func TestVCoverage(t *testing.T) {
	runs := 20
	if *full {
		runs = 1000
	}
	if testing.Short() {
		runs = 5
	}
	c := DefaultConfig()
	c.Bot, c.VWidth = "sim", 0.04
	for _, sc := range vScenarios {
		c := c
		c.Max = sc.max
		var covered, low, high, naive, narrow, games int
		for run := range runs {
			truth := sc.truth(rand.New(rand.NewPCG(uint64(run), 2)))
			r := c.Simulate(truth, uint64(run)+1_000_000)
			games += r.Games
			for _, x := range []struct {
				ok bool
				n  *int
			}{{r.VCovered, &covered}, {r.VLow, &low}, {r.VHigh, &high}, {r.NaiveCovered, &naive}, {r.VHi-r.VLo <= c.VWidth+1e-12, &narrow}} {
				if x.ok {
					*x.n++
				}
			}
		}
		rate := float64(covered) / float64(runs)
		t.Logf("%s (100 classes, --max %d, --v-width 0.04, %d games a candidate): V's interval holds the planted V in %d of %d runs (%.1f%%; VLo above it %d, VHi below it %d), at most 4 points wide in %d; without the confirmation %d of %d; %d games a run",
			sc.name, sc.max, c.CandidateGames(), covered, runs, 100*rate, low, high, narrow, naive, runs, games/runs)
		if floor := 0.95 - 3*math.Sqrt(0.95*0.05/float64(runs)); rate < floor {
			t.Errorf("%s: V covered in %d of %d runs, below %.1f%%", sc.name, covered, runs, 100*floor)
		}
	}
}
