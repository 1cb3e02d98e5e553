package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Analyse weighs the turn played with at least a quarter of the budget's playouts and
// reports the playouts behind both values it compares: the same when the turn played is
// the best, and never more than the search ran.
func TestAnalyseCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	played, err := Play(NewGreedy(), NewGreedy(), 10, game.Unlimited, rng)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSage(Options{Playouts: 40})
	g, err := replay.NewGame(10, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range played.Moves {
		if k >= 12 {
			break
		}
		a := s.Analyse(g, &m, rand.New(rand.NewPCG(1, uint64(k))))
		if a.PlayedN < 10 || a.BestN < 1 || a.BestN > a.Playouts || a.PlayedN > a.Playouts {
			t.Errorf("turn %d: best %v with %d playouts, played %v with %d, of %d", k+1, a.Best, a.BestN, m, a.PlayedN, a.Playouts)
		}
		if a.Best == m && (a.BestN != a.PlayedN || a.BestQ != a.PlayedQ) {
			t.Errorf("turn %d: the best turn is the one played, but %d/%.3f and %d/%.3f", k+1, a.BestN, a.BestQ, a.PlayedN, a.PlayedQ)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	a := s.Analyse(g, nil, rng)
	if a.PlayedN != 0 || a.BestN < 1 {
		t.Errorf("without a turn played: best %d playouts, played %d", a.BestN, a.PlayedN)
	}
}
