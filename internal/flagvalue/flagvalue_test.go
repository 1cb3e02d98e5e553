package flagvalue

import (
	"errors"
	"slices"
	"testing"
)

// A list of bots is read whole or refused whole, naming the bad name; spaces around the
// names are dropped.
func TestBots(t *testing.T) {
	names := []string{"random"}
	for _, tc := range []struct {
		in   string
		ok   bool
		want []string
	}{
		{"greedy, sage-10", true, []string{"greedy", "sage-10"}},
		{"greedy,nobot", false, []string{"greedy", "sage-10"}},
		{"mcts-4", true, []string{"mcts-4"}},
		{"", false, []string{"mcts-4"}},
	} {
		err := Bots(&names).Set(tc.in)
		if (err == nil) != tc.ok || !slices.Equal(names, tc.want) {
			t.Errorf("Set(%q) = %v: %q, want ok %v, %q", tc.in, err, names, tc.ok, tc.want)
		}
		if ve, isValue := errors.AsType[*ValueError](err); err != nil && (!isValue || ve.Quote) {
			t.Errorf("Set(%q): %#v, want a *ValueError said with the flag's name alone", tc.in, err)
		}
	}
}
