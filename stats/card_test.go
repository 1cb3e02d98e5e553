package stats

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0.52, 0.60, 500, OpenerFavoured},
		{0.40, 0.48, 500, ResponderFavoured},
		{0.48, 0.52, 5000, "balanced within ±3%"},
		{0.47, 0.53, 5000, "balanced within ±3%"},
		{0.46, 0.53, 800, NotEnoughGames},
		{0.027, 0.802, 2, NotEnoughGames}, // the 8×8 board of the sample data: 2 games
		{0, 0, 0, NoGames},
	} {
		if got := Judge(tt.lo, tt.hi, tt.n, BalanceMargin); got != tt.want {
			t.Errorf("Judge(%v, %v, %d) = %q, want %q", tt.lo, tt.hi, tt.n, got, tt.want)
		}
	}
}

// The 10×10 board of the sample data said "balanced" beside an estimate that excluded ½;
// now the two are named as disagreeing.
func TestDisagreements(t *testing.T) {
	got := Disagreements([]Reading{
		{Name: "raw opener's score", N: 2019, Value: 0.494, Lo: 0.473, Hi: 0.516},
		{Name: "against a good reply", N: 2019, Value: 0.441, Lo: 0.401, Hi: 0.481},
		{Name: "kept", N: 654, Value: 0.593, Lo: 0.555, Hi: 0.630},
	})
	if len(got) != 2 || !strings.Contains(got[0], "raw opener's score says balanced within ±3%, against a good reply says responder favoured") ||
		!strings.Contains(got[1], "raw opener's score (49.4% [47.3–51.6]) and kept (59.3% [55.5–63.0]) disagree: their intervals do not overlap") {
		t.Errorf("disagreements %q", got)
	}
	// Each estimate is compared with the primary one, and the branches with each other:
	// the raw score, which agrees with the primary, does not repeat the primary's
	// disagreements; the branches that disagree with each other say so once, with why.
	got = Disagreements([]Reading{
		{Name: ReadingAdjusted, N: 1000, Value: 0.50, Lo: 0.468, Hi: 0.532},
		{Name: ReadingRaw, N: 1000, Value: 0.50, Lo: 0.47, Hi: 0.53},
		{Name: ReadingKeptAdjusted, N: 400, Value: 0.43, Lo: 0.375, Hi: 0.487},
		{Name: ReadingSwappedAdjusted, N: 600, Value: 0.53, Lo: 0.492, Hi: 0.568},
		{Name: ReadingBestReply, N: 1000, Value: 0.44, Lo: 0.40, Hi: 0.48},
	})
	want := []string{
		ReadingAdjusted + " says not enough games to tell, " + ReadingKeptAdjusted + " says responder favoured",
		ReadingAdjusted + " says not enough games to tell, " + ReadingBestReply + " says responder favoured",
		ReadingKeptAdjusted + " (43.0% [37.5–48.7]) and " + ReadingSwappedAdjusted + " (53.0% [49.2–56.8]) disagree: their intervals do not overlap: the second player's choice matters",
	}
	if !slices.Equal(got, want) {
		t.Errorf("disagreements\n%q\nwant\n%q", got, want)
	}
	if got := Disagreements([]Reading{{Name: "a", N: 10, Value: 0.5, Lo: 0.3, Hi: 0.7}, {Name: "b", N: 10, Value: 0.55, Lo: 0.35, Hi: 0.75}}); len(got) != 0 {
		t.Errorf("agreeing estimates: %q", got)
	}
}

// A card rests on the strength-adjusted estimate when there is one, else on the raw score
// and says why; it words its verdict by Judge and names the readings that disagree.
func TestNewCard(t *testing.T) {
	// The 10×10 board of the sample data, bots: 2000 games, the raw score 49.3%, the
	// opener against a good reply 44.0% [40.0–48.0].
	b := Board{Size: 10, Population: PopulationBots, Games: 2000, Sources: []SourceCount{{"ponte", 1700}, {"jsonl", 300}}}
	b.Swap.Opener = NewRate(986, 2000)
	b.Swap.OpenerKept, b.Swap.OpenerSwapped = NewRate(380, 644), NewRate(606, 1356)
	b.Swap.BestReply = Estimate{Value: 0.44, Lo: 0.40, Hi: 0.48, Openings: 57, Games: 1063}
	b.Swap.Strength = &Strength{
		Games:   2000,
		Kept:    Advantage{Games: 644, Score: 0.484, ScoreLo: 0.441, ScoreHi: 0.528},
		Swapped: Advantage{Games: 1356, Score: 0.495, ScoreLo: 0.466, ScoreHi: 0.523},
		Overall: ExpectedScore{Value: 0.491, Lo: 0.468, Hi: 0.515, N: 2000},
	}
	c := newCard(&b)
	if c.Estimate != EstimateAdjusted || c.N != 2000 || c.Value != 0.491 || c.Verdict != NotEnoughGames || c.Few || c.Why != "" {
		t.Errorf("card %+v", c)
	}
	var names []string
	for _, r := range c.Readings {
		names = append(names, r.Name)
	}
	if want := []string{ReadingAdjusted, ReadingRaw, ReadingKeptAdjusted, ReadingSwappedAdjusted, ReadingBestReply}; !slices.Equal(names, want) {
		t.Errorf("readings %q, want %q", names, want)
	}
	if len(c.Disagreements) == 0 || !strings.Contains(strings.Join(c.Disagreements, "\n"), "against a good reply says responder favoured") {
		t.Errorf("disagreements %q: the good reply excludes ½ and the card should say so", c.Disagreements)
	}

	// Without a fit: the raw score, with its reason, and the raw branches; whose
	// intervals do not overlap, which is the second player's choice mattering.
	b.Swap.Strength, b.Swap.StrengthError = nil, "no game names both players"
	b.Swap.BestReply = Estimate{}
	c = newCard(&b)
	if c.Estimate != EstimateRaw || c.Why != "no game names both players" || c.N != 2000 || c.Value != b.Swap.Opener.P || len(c.Readings) != 3 {
		t.Errorf("raw card %+v", c)
	}
	if d := strings.Join(c.Disagreements, "\n"); !strings.Contains(d, ReadingKept+" (59.0% [55.2–62.7]) and "+ReadingSwapped+" (44.7% [42.1–47.3]) disagree: their intervals do not overlap: the second player's choice matters") {
		t.Errorf("disagreements %q", c.Disagreements)
	}

	// No decided game: no games, and an empty list of disagreements, not null.
	c = newCard(&Board{Size: 6, Population: PopulationPeople, Games: 2, Swap: Swap{StrengthError: "no decided game reached turn 2"}})
	if c.Verdict != NoGames || c.N != 0 || !c.Few || c.Disagreements == nil {
		t.Errorf("empty card %+v", c)
	}
}

// Cards come with boards of few games last, then the most games first.
func TestSortCards(t *testing.T) {
	cs := []Card{
		{Size: 8, Population: PopulationPeople, N: 2, Few: true},
		{Size: 10, Population: PopulationPeople, N: 23, Few: true},
		{Size: 12, Population: PopulationBots, N: 1000},
		{Size: 10, Population: PopulationBots, N: 2000},
		{Size: 12, Population: PopulationPeople, N: 30},
		{Size: 10, Population: PopulationAll, N: 2000},
	}
	SortCards(cs)
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%d %s %d", c.Size, c.Population, c.N))
	}
	want := []string{"10 bots 2000", "10 all 2000", "12 bots 1000", "12 people 30", "10 people 23", "8 people 2"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
