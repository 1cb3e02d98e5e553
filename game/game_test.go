package game

import (
	"testing"
)

func TestTermination(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Termination
		ok   bool
	}{
		{"", Unstated, true}, {"normal", Normal, true}, {"resign", Resign, true}, {"time", Time, true},
		{"abandoned", Abandoned, true}, {"agreement", Agreement, true}, {"Resign", Unstated, false}, {"draw", Unstated, false},
	} {
		got, ok := ParseTermination(tc.text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseTermination(%q) = %v, %v; want %v, %v", tc.text, got, ok, tc.want, tc.ok)
		}
		if ok && got.String() != tc.text {
			t.Errorf("%q parses to %v, which prints %q", tc.text, got, got.String())
		}
	}
	for _, tc := range []struct {
		over bool
		term Termination
		want string
	}{
		{true, Unstated, "normal"}, {true, Resign, "normal"}, {false, Resign, "resign"}, {false, Normal, Unfinished},
		{false, Unstated, Unfinished}, {false, Agreement, "agreement"}, {false, Abandoned, "abandoned"}, {false, Time, "time"},
	} {
		if got := Ending(tc.over, tc.term); got != tc.want {
			t.Errorf("Ending(%v, %v) = %q, want %q", tc.over, tc.term, got, tc.want)
		}
	}
	if !Resign.ClaimsResult() || !Time.ClaimsResult() || !Agreement.ClaimsResult() || Normal.ClaimsResult() || Abandoned.ClaimsResult() {
		t.Error("ClaimsResult: want resign, time and agreement only")
	}
}

func TestIsBot(t *testing.T) {
	tags := func(m map[string]string) func(string) (string, bool) {
		return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
	}
	none := tags(nil)
	for _, tc := range []struct {
		name              string
		site, light, dark string
		bots              []string
		tags              func(string) (string, bool)
		want              bool
	}{
		{"person", "Ponte club", "Alice", "Bob", nil, none, false},
		{"self-play", SelfPlaySite, "greedy", "mcts", nil, none, true},
		{"named", "", "Alice", "bot7", []string{"bot7"}, none, true},
		{"is_ai", "", "Alice", "Bob", nil, tags(map[string]string{DarkIsAI: "TRUE"}), true},
		{"is_ai false", "", "Alice", "Bob", nil, tags(map[string]string{LightIsAI: "false"}), false},
	} {
		if got := IsBot(tc.site, tc.light, tc.dark, tc.bots, tc.tags); got != tc.want {
			t.Errorf("%s: IsBot = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := ParseBots(" a, b ,c"); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("ParseBots = %q", got)
	}
	if ParseBots("  ") != nil {
		t.Error("ParseBots of a blank list is not nil")
	}
}

func TestFinal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		over     bool
		computed Result
		term     Termination
		claimed  Result
		want     Result
	}{
		{"over", true, LightWins, Unstated, DarkWins, LightWins},
		{"over, resign claimed", true, Draw, Resign, DarkWins, Draw},
		{"resign", false, NoResult, Resign, DarkWins, DarkWins},
		{"time", false, NoResult, Time, LightWins, LightWins},
		{"agreement", false, NoResult, Agreement, Draw, Draw},
		{"abandoned", false, NoResult, Abandoned, LightWins, NoResult},
		{"normal, not over", false, NoResult, Normal, LightWins, NoResult},
		{"unstated", false, NoResult, Unstated, DarkWins, NoResult},
		{"resign, no claim", false, NoResult, Resign, NoResult, NoResult},
	} {
		if got := Final(tc.over, tc.computed, tc.term, tc.claimed); got != tc.want {
			t.Errorf("%s: Final = %v, want %v", tc.name, got, tc.want)
		}
	}
}
