package bot

import "testing"

// TestParseNameAgreesWithNew: ParseName accepts a name exactly when New makes its bot, with
// New's error.
func TestParseNameAgreesWithNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"random", true}, {"greedy", true}, {"mcts", true}, {"sage", true},
		{"mcts-1", true}, {"mcts-1000000", true}, {"sage-250", true}, {"sage-100ms", true},
		{"sage-3600000ms", true}, {"arch-400-t2", true}, {"arch-400-s2", true}, {"arch-40ms-s2", true},
		{"arch-400-s0", false}, {"arch-400-s2-t2", false}, {"arch-s2", false},
		{"", false}, {"Random", false}, {"mcts-0", false}, {"mcts-01", false},
		{"mcts-1000001", false}, {"mcts-100ms", false}, {"sage-", false}, {"sage-ms", false},
		{"sage-3600001ms", false}, {"sage--5", false}, {"alphazero", false},
	} {
		err := ParseName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ParseName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
		b, nerr := New(tc.name, Options{})
		switch {
		case (nerr == nil) != (err == nil):
			t.Errorf("New(%q): %v, ParseName: %v", tc.name, nerr, err)
		case err != nil && err.Error() != nerr.Error():
			t.Errorf("%q: ParseName says %q, New %q", tc.name, err, nerr)
		case err == nil && b.Name() != tc.name && !(tc.name == "mcts" || tc.name == "sage"):
			t.Errorf("New(%q) made %q", tc.name, b.Name())
		}
	}
}
