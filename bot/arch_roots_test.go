package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestRootTurns checks that the root's turns after a search are ranked by visits, the
// first the search's best, their visits the search's playouts; and that there are none
// before a search or on a shared tree.
func TestRootTurns(t *testing.T) {
	g, err := replay.NewGame(8, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"d4,e5", "c3,f6", "d5,e4"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"lore-300", "arch-300-t2"} {
		b, err := New(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a := b.(*Arch)
		if r := a.RootTurns(); r != nil {
			t.Errorf("%s: %d root turns before a search", name, len(r))
		}
		an := a.Analyse(g, nil, rand.New(rand.NewPCG(1, 2)))
		roots := a.RootTurns()
		if len(roots) < 10 || roots[0].Move != an.Best || roots[0].Visits != an.BestN {
			t.Fatalf("%s: %d root turns, first %+v; the search's best %s (%d visits)", name, len(roots), roots[0], an.Best, an.BestN)
		}
		visits := 0
		for i, r := range roots {
			visits += r.Visits
			if i > 0 && r.Visits > roots[i-1].Visits {
				t.Errorf("%s: root turn %d (%s) has %d visits, more than the one before", name, i, r.Move, r.Visits)
			}
			if err := g.Legal(r.Move); err != nil || r.Mean < 0 || r.Mean > 1 {
				t.Errorf("%s: root turn %s, mean %g: %v", name, r.Move, r.Mean, err)
			}
		}
		if visits != an.Playouts {
			t.Errorf("%s: %d visits at the root, %d playouts", name, visits, an.Playouts)
		}
	}
	s, err := New("arch-300-s2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.(*Arch).Analyse(g, nil, rand.New(rand.NewPCG(1, 2)))
	if r := s.(*Arch).RootTurns(); r != nil {
		t.Errorf("shared tree: %d root turns", len(r))
	}
}
