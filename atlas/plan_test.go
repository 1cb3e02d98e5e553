package atlas

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The stages follow one another, each played to its plan, and the finished atlas has V and
// the stability check's panel; a game counted twice is counted once.
func TestStagesToTheEnd(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.Bot, c.StabilityBot, c.First, c.Max, c.ConfirmGames, c.PanelSize, c.PanelGames = 5, "a-1", "a-4", 4, 8, 6, 10, 3
	classes, err := Classes(5)
	if err != nil {
		t.Fatal(err)
	}
	d := NewData()
	var stages []Stage
	for range 20 {
		p := c.NextPlan(classes, d)
		if p.Done {
			break
		}
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
		}
		units, _ := p.Shard(d, 1, 1)
		for u := range units {
			g := Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: 2 * ((u.Class + u.Index) % 2)}
			d.Add(g)
			d.Add(g)
		}
	}
	if len(stages) != 3 || stages[0] != Main || stages[1] != Confirm || stages[2] != Stability {
		t.Fatalf("stages played: %v", stages)
	}
	a := c.Estimate(classes, d)
	if !a.Done || a.V != a.V || a.Stable == nil || len(a.Stable.Panel) != 10 || len(a.Confirmed) != 3 {
		t.Fatalf("done %v, V %v, stable %+v, %d confirmed", a.Done, a.V, a.Stable, len(a.Confirmed))
	}
	if a.Games != a.MainGames+3*6+10*3 {
		t.Errorf("%d games, %d in the main rounds", a.Games, a.MainGames)
	}
}

// With StabilityBoth the panel is played at the main bot too, after the stability stage,
// and the check compares panel with panel, with its intervals and its sentence; without
// it, nothing of that is in the atlas or its JSON.
func TestStabilityBoth(t *testing.T) {
	for _, both := range []bool{false, true} {
		c := DefaultConfig()
		c.Size, c.Bot, c.StabilityBot, c.First, c.Max, c.ConfirmGames, c.PanelSize, c.PanelGames = 5, "a-1", "a-2", 4, 8, 6, 10, 12
		c.StabilityBoth = both
		classes, err := Classes(5)
		if err != nil {
			t.Fatal(err)
		}
		d := NewData()
		var stages []Stage
		for range 20 {
			p := c.NextPlan(classes, d)
			if p.Done {
				break
			}
			if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
				stages = append(stages, p.Stage)
			}
			units, _ := p.Shard(d, 1, 1)
			for u := range units {
				d.Add(Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: win((u.Index+u.Class*int(u.Stage+1))%(2+u.Class%5) == 0)})
			}
		}
		a := c.Estimate(classes, d)
		js, err := json.Marshal(a.JSON(false))
		if err != nil {
			t.Fatal(err)
		}
		st := a.Stable
		if !both {
			if len(stages) != 3 || st.Base != nil || st.Compared != nil || a.StabilitySentence() != "" || strings.Contains(string(js), "spearman_lo") {
				t.Errorf("one strength: stages %v, base %v, sentence %q, JSON %s", stages, st.Base, a.StabilitySentence(), js)
			}
			continue
		}
		if len(stages) != 4 || stages[3] != Base || !a.Done {
			t.Fatalf("stages played: %v, done %v", stages, a.Done)
		}
		if len(st.Base) != 10 || st.Compared == nil || st.Compared.Classes != 10 || st.Compared.Replicates == 0 {
			t.Fatalf("base %d classes, compared %+v", len(st.Base), st.Compared)
		}
		pc := st.Compared
		if !(pc.Lo <= pc.Hi && pc.ShiftLo <= pc.MeanShift && pc.MeanShift <= pc.ShiftHi) || pc.Spearman != st.Spearman {
			t.Errorf("intervals %+v, spearman %v", pc, st.Spearman)
		}
		if a.Games != a.MainGames+3*6+2*10*12 {
			t.Errorf("%d games, %d in the main rounds", a.Games, a.MainGames)
		}
		for _, key := range []string{`"spearman_lo":`, `"spearman_hi":`, `"mean_shift_lo":`, `"base_bot":"a-1"`, `"sentence":"`} {
			if !strings.Contains(string(js), key) {
				t.Errorf("JSON without %s", key)
			}
		}
		if again := c.Estimate(classes, d).Stable.Compared; fmt.Sprint(*again) != fmt.Sprint(*pc) {
			t.Errorf("the bootstrap is not deterministic: %+v then %+v", pc, again)
		}
		var text strings.Builder
		if err := a.Print(&text, false); err != nil {
			t.Fatal(err)
		}
		if lines := strings.SplitN(text.String(), "\n", 3); lines[1] != a.StabilitySentence() {
			t.Errorf("show's second line %q, want the sentence %q", lines[1], a.StabilitySentence())
		}
		g := Game{Stage: Base, Class: 1, Index: 0}
		if GameSeed(c.Seed, Base, 1, 0) == GameSeed(c.Seed, Stability, 1, 0) || c.BotOf(Base) != c.Bot {
			t.Errorf("the base stage shares the stability stage's seeds or bot")
		}
		c.StabilityBoth = false
		if err := c.CheckGame(classes, g); err == nil || !strings.Contains(err.Error(), "one strength") {
			t.Errorf("a base game of an atlas without --stability-both: %v", err)
		}
	}
}

func win(b bool) int {
	if b {
		return 2
	}
	return 0
}

// The sentence says only what the intervals support.
func TestStabilitySentence(t *testing.T) {
	for _, tc := range []struct {
		pc   PanelComparison
		want string
	}{
		{PanelComparison{Classes: 40, Spearman: 0.9, Lo: 0.85, Hi: 1, MeanShift: 0.004, ShiftLo: -0.01, ShiftHi: 0.02}, "p(o) does not move with strength: "},
		{PanelComparison{Classes: 40, Spearman: 0.9, Lo: 0.85, Hi: 1, MeanShift: 0.03, ShiftLo: 0.01, ShiftHi: 0.05}, "p(o) moves with strength (up on average): "},
		{PanelComparison{Classes: 40, Spearman: 0.9, Lo: 0.85, Hi: 1, MeanShift: -0.03, ShiftLo: -0.05, ShiftHi: -0.01}, "p(o) moves with strength (down on average): "},
		{PanelComparison{Classes: 40, Spearman: 0.4, Lo: 0.2, Hi: 0.6, MeanShift: 0, ShiftLo: -0.01, ShiftHi: 0.01}, "p(o) moves with strength (the openings change order): "},
		{PanelComparison{Classes: 40, Spearman: 0.8, Lo: 0.6, Hi: 1, MeanShift: 0, ShiftLo: -0.01, ShiftHi: 0.01}, "The panel is too small to tell"},
		{PanelComparison{Classes: 40, Spearman: 0.9, Lo: 0.85, Hi: 1, MeanShift: 0, ShiftLo: -0.04, ShiftHi: 0.05}, "The panel is too small to tell"},
		{PanelComparison{Classes: 1, Spearman: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}, "Whether p(o) moves with strength is not known"},
	} {
		if got := tc.pc.Sentence("sage-100", "sage-200", 0.03); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want %q…", tc.pc, got, tc.want)
		}
	}
}
