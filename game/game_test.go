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
		term string
		want string
	}{
		{true, "", "normal"}, {true, "resign", "normal"}, {false, "resign", "resign"}, {false, "normal", Unfinished},
		{false, "", Unfinished}, {false, "agreement", "agreement"},
	} {
		if got := Ending(tc.over, tc.term); got != tc.want {
			t.Errorf("Ending(%v, %q) = %q, want %q", tc.over, tc.term, got, tc.want)
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
