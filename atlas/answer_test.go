package atlas

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ponte/ponte/store"
)

// VGames is the fewest games, a multiple of 4, whose Wilson interval at the third look
// of the confirmation is at most the width asked whatever the score: 4 games fewer are
// wider at p̂ = ½. The looks are at a quarter, a half and all of them.
func TestVGames(t *testing.T) {
	for _, tc := range []struct {
		width, alpha float64
		candidates   int
		want         int
	}{
		{0.04, 0.05, 3, 5764}, // ±2 points, the defaults' 3 candidates
		{0.04, 0.05, 1, 4380},
		{0.06, 0.05, 3, 2556},
		{0.04, 0.01, 3, 7752},
		{0.3, 0.05, 3, 96},
		{1, 0.05, 1, 4},
	} {
		c := DefaultConfig()
		c.Spending.Alpha, c.Candidates, c.VWidth = tc.alpha, tc.candidates, tc.width
		n := VGames(tc.width, c.Spending, tc.candidates)
		if n != tc.want {
			t.Errorf("VGames(%g, %g, %d) = %d, want %d", tc.width, tc.alpha, tc.candidates, n, tc.want)
		}
		if looks := c.ConfirmLooks(); !slices.Equal(looks, []int{n / 4, n / 2, n}) {
			t.Errorf("width %g: looks %v", tc.width, looks)
		}
		z := c.confirmZ(3, tc.candidates)
		if lo, hi := WilsonZ(float64(n)/2, n, z); hi-lo > tc.width {
			t.Errorf("width %g: %d games give an interval %.5f wide", tc.width, n, hi-lo)
		}
		if lo, hi := WilsonZ(float64(n-4)/2, n-4, z); n > 4 && hi-lo <= tc.width {
			t.Errorf("width %g: %d games already give %.5f", tc.width, n-4, hi-lo)
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
	if got := c.CandidateGames(); got != 5764 {
		t.Errorf("--v-width 0.04: %d games a candidate, want 5764", got)
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

// The atlases made before --v-width (the sage atlases of 2026-11-26/27, in testdata/) read and show as they did: their stored settings
// written again are the same bytes, and --json gains none of the answer's fields.
func TestOldAtlasUnchanged(t *testing.T) {
	for _, name := range []string{"atlas-8x8-sage50", "atlas-10x10-sage25"} {
		adb, err := store.OpenAtlas("testdata/"+name+".db", false)
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
			[]string{"secures 0.500 [0.", ", 0.500] at +650 Elo over greedy (sage-4 on both sides, 5×5 ladder), by opening a1 b1 (class 1, 256 fresh games). Not yet: V is known to within", "not the 4 points asked."}, true},
		{"as narrow as asked", played(wide, VGames(0.3, DefaultSpending, 1)), -20,
			[]string{"at -20 Elo over greedy", "(class 1, 18 fresh games): V is known to within 21.8 points."}, false},
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
	a := played(wide, VGames(0.3, DefaultSpending, 1))
	r := a.JSON(false)
	text, _ := json.Marshal(r)
	if r.VWidth == nil || *r.VWidth != 0.3 || !slices.Equal(r.VLooks, a.Config.ConfirmLooks()) || r.VKnown == nil || !*r.VKnown || r.Answer != a.Answer() ||
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
	// Ten fair classes among lopsided ones: V = ½, the confirmation may stop early.
	{"½ among lopsided", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			p := 0.5
			if i >= 10 {
				p = 0.55 + 0.15*rng.Float64()
			}
			out[i] = Planted{P: mirrored(rng, p), Draw: 0.02}
		}
		return out
	}, 1024},
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
	// Every class at 0.45 (or 0.55), none decided at 64 games: the best of 100 equal
	// classes by their main games is a winner's curse, which the confirmation must undo.
	{"every class at 0.45", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			out[i] = Planted{P: mirrored(rng, 0.45), Draw: 0.02}
		}
		return out
	}, 64},
	// Every class lopsided, one at 0.40 and the rest beyond 0.85: the main intervals
	// leave ½, and V's upper end is mostly the one class's, which misses when its interval
	// does.
	{"every class lopsided", func(rng *rand.Rand) []Planted {
		out := make([]Planted, 100)
		for i := range out {
			p := 0.40
			if i >= 1 {
				p = 0.85 + 0.13*rng.Float64()
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
		t.Run(strings.ReplaceAll(sc.name, " ", "_"), func(t *testing.T) { vCoverage(t, c, sc, runs) })
	}
}

func vCoverage(t *testing.T, c Config, sc vScenario, runs int) {
	{
		c.Max = sc.max
		var covered, low, high, naive, narrow, games, confirm int
		var above, bias, naiveBias float64 // VHi − the planted V, V̂ − it, and the main rounds' V̂ − it, summed
		for run := range runs {
			truth := sc.truth(rand.New(rand.NewPCG(uint64(run), 2)))
			r := c.Simulate(truth, uint64(run)+1_000_000)
			games += r.Games
			confirm += r.Games - r.MainGames
			above += r.VHi - r.PlantedV
			bias += r.V - r.PlantedV
			naiveBias += r.NaiveV - r.PlantedV
			for _, x := range []struct {
				ok bool
				n  *int
			}{{r.VCovered, &covered}, {r.VLow, &low}, {r.VHigh, &high}, {r.NaiveCovered, &naive}, {r.VHi-r.VLo <= c.VWidth, &narrow}} {
				if x.ok {
					*x.n++
				}
			}
		}
		rate := float64(covered) / float64(runs)
		t.Logf("%s (100 classes, --max %d, --v-width 0.04, looks at %v games a candidate): V's interval holds the planted V in %d of %d runs (%.1f%%; VLo above it %d, VHi below it %d; VHi %.1f points above it on average), at most 4 points wide in %d; V̂ %+.2f points off on average, the best main estimate %+.2f (its fixed-n interval holds V in %d of %d); %d games a run, %d a candidate in the confirmation",
			sc.name, sc.max, c.ConfirmLooks(), covered, runs, 100*rate, low, high, 100*above/float64(runs), narrow, 100*bias/float64(runs), 100*naiveBias/float64(runs), naive, runs, games/runs, confirm/runs/c.Candidates)
		if floor := 0.95 - 3*math.Sqrt(0.95*0.05/float64(runs)); rate < floor {
			t.Errorf("%s: V covered in %d of %d runs, below %.1f%%", sc.name, covered, runs, 100*floor)
		}
	}
}

// With --v-width the confirmation plays its looks in rounds and stops at the first whose
// V interval is as narrow as asked: at once when the candidates score ½, after the third
// look when they score 45 % (V's interval then reaches from below 0.43 to ½). Between
// the looks V is stated from the last complete one, and every game's index is checked
// against the last look's games.
func TestConfirmLooks(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.Bot, c.First, c.Max, c.VWidth = 5, "sage-4", 4, 4, 0.04
	classes, err := Classes(5)
	if err != nil {
		t.Fatal(err)
	}
	looks := c.ConfirmLooks()
	for _, tc := range []struct {
		name   string
		points func(k int) int // Light's points in game k of a candidate
		rounds []int           // the confirmation's rounds played
		v      float64
	}{
		{"½", func(k int) int { return 2 * (k % 2) }, []int{1}, 0.5},
		{"45 %", func(k int) int { return 2 * b2i(k%20 < 9) }, []int{1, 2, 3}, 0.45},
	} {
		d := NewData()
		for _, cl := range classes {
			for k := range 4 {
				d.Add(Game{Stage: Main, Class: cl.ID, Index: k, Points: 2 * (k % 2)})
			}
		}
		var rounds []int
		for {
			p := c.NextPlan(classes, d)
			if p.Done {
				break
			}
			if p.Stage != Confirm || len(p.Tasks) != 3 || p.Tasks[0].To != looks[p.Round-1] || len(rounds) > 3 {
				t.Fatalf("%s: plan %+v after rounds %v", tc.name, p, rounds)
			}
			rounds = append(rounds, p.Round)
			units, _ := p.Shard(d, 1, 1)
			for u := range units {
				d.Add(Game{Stage: Confirm, Class: u.Class, Index: u.Index, Points: tc.points(u.Index)})
			}
			if a := c.Estimate(classes, d); math.Abs(a.V-tc.v) > 0.001 || a.VGames() != looks[p.Round-1] || a.Confirmed[0].Rounds != p.Round {
				t.Errorf("%s: after round %d: V %.4f [%.4f, %.4f] on %d games, rounds %d", tc.name, p.Round, a.V, a.VLo, a.VHi, a.VGames(), a.Confirmed[0].Rounds)
			}
		}
		if !slices.Equal(rounds, tc.rounds) {
			t.Errorf("%s: rounds %v, want %v", tc.name, rounds, tc.rounds)
		}
		a := c.Estimate(classes, d)
		if known := a.VHi-a.VLo <= c.VWidth; known != (tc.v == 0.5) || !a.Done {
			t.Errorf("%s: V %.4f [%.4f, %.4f], done %v", tc.name, a.V, a.VLo, a.VHi, a.Done)
		}
		id := a.Confirmed[0].ID
		g := Game{Stage: Confirm, Class: id, Index: looks[2], Seed: GameSeed(c.Seed, Confirm, id, looks[2]), Bot: c.Bot, Points: 2, Turns: 1, Moves: "x"}
		var ge *GameError
		if err := c.CheckGame(classes, g); !errors.As(err, &ge) || ge.Column != "idx" {
			t.Errorf("game %d of a candidate: %v, want refused by its idx", looks[2], err)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestConfirmCost compares the confirmation's looks with one look of the fixed size that
// gives the same width (n = ⌈z²(1/W² − 1)⌉ at z = Φ⁻¹(1 − α/(2k))): three candidates at
// V, V − 0.01 and V − 0.02, V's upper end at ½ (as when any class's interval holds ½),
// --v-width 0.04. The looks must cost less where the width can be reached (V ≥ 0.49)
// and reach it at least as often there. 500 confirmations a V; -atlas.full 4,000.
func TestConfirmCost(t *testing.T) {
	reps := 500
	if *full {
		reps = 4000
	}
	c := DefaultConfig()
	c.Bot, c.VWidth = "sim", 0.04
	k := c.Candidates
	looks := c.ConfirmLooks()
	zf := zOf(c.Spending.Alpha / float64(k))
	fixed := int(math.Ceil(zf * zf * (1/(c.VWidth*c.VWidth) - 1)))
	for _, v := range []float64{0.50, 0.495, 0.49, 0.485, 0.48, 0.47} {
		rng := rand.New(rand.NewPCG(uint64(1000*v), 3))
		sums := make([][]float64, k)
		for i := range sums {
			sums[i] = make([]float64, looks[2]+1)
		}
		vLo := func(n int, z float64) float64 {
			best := 0.0
			for i := range sums {
				lo, _ := openerRange(WilsonZ(sums[i][n], n, z))
				best = max(best, lo)
			}
			return best
		}
		var fixedOK, seqOK, seqGames int
		for range reps {
			for i := range sums {
				p := v - 0.01*float64(i)
				for n := 1; n <= looks[2]; n++ {
					sums[i][n] = sums[i][n-1] + float64(b2i(rng.Float64() < p))
				}
			}
			if 0.5-vLo(fixed, zf) <= c.VWidth {
				fixedOK++
			}
			for j, n := range looks {
				if 0.5-vLo(n, c.confirmZ(j+1, k)) <= c.VWidth || j == len(looks)-1 {
					seqGames += n
					if 0.5-vLo(n, c.confirmZ(j+1, k)) <= c.VWidth {
						seqOK++
					}
					break
				}
			}
		}
		mean := float64(seqGames) / float64(reps)
		fixedRate, seqRate := float64(fixedOK)/float64(reps), float64(seqOK)/float64(reps)
		t.Logf("V %.3f: looks at %v: %.0f games a candidate on average, width ≤ %g in %.1f%%; one look of %d: in %.1f%% (%d confirmations)",
			v, looks, mean, c.VWidth, 100*seqRate, fixed, 100*fixedRate, reps)
		if v >= 0.49 && (mean >= float64(fixed) || seqRate < fixedRate-0.02) {
			t.Errorf("V %.3f: the looks cost %.0f games a candidate and reach the width in %.1f%%, one look %d in %.1f%%", v, mean, 100*seqRate, fixed, 100*fixedRate)
		}
	}
}
