package annotate

import "testing"

// mustEngine is the engine name with calibration cal, or the test's end.
func mustEngine(t testing.TB, name string, cal Calibration) *Engine {
	t.Helper()
	e, err := NewEngine(name, cal)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The names an engine is made of, and those refused with the reason.
func TestNewEngine(t *testing.T) {
	for _, tc := range []struct {
		name     string
		playouts int
		bad      bool
	}{
		{"sage-100", 100, false},
		{"lore-50", 50, false},
		{"arch-200", 200, false},
		{"lore-400-t2", 400, false},
		{"lore-50ms", 0, true},
		{"lore-400-s2", 0, true},
		{"lore", 0, true},
		{"greedy", 0, true},
		{"mcts-100", 0, true},
		{"sage-0", 0, true},
		{"play-64", 64, false},
		{"play-1", 1, false},
		{"play-0", 0, true},
		{"play-064", 0, true},
		{"play-x", 0, true},
		{"play-5000", 0, true},
		{"play", 0, true},
	} {
		e, err := NewEngine(tc.name, Identity)
		if tc.bad {
			if err == nil {
				t.Errorf("%s: an engine, want an error", tc.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if e.Bot() != tc.name || e.Playouts() != tc.playouts {
			t.Errorf("%s: engine %s of %d playouts", tc.name, e.Bot(), e.Playouts())
		}
	}
}
