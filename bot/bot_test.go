package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

func seeded(i int) *rand.Rand { return rand.New(rand.NewPCG(42, uint64(i))) }

func mustNew(t testing.TB, name string, o Options) Bot {
	t.Helper()
	b, err := New(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replayMoves plays the moves again from their notation on a fresh game: an independent
// check that every turn was legal and that the game ended.
func replayMoves(t *testing.T, g *Game) {
	t.Helper()
	r, _ := replay.NewGame(g.Size, g.Supply)
	for i, m := range g.Moves {
		if err := r.PlayText(m.String()); err != nil {
			t.Fatalf("%s vs %s, turn %d %s: %v", g.Opener, g.Responder, i+1, m, err)
		}
	}
	if !r.Over() || r.Score() != g.Score || r.Swapped() != g.Swapped {
		t.Fatalf("replayed: over %v score %v swapped %v; played: score %v swapped %v", r.Over(), r.Score(), r.Swapped(), g.Score, g.Swapped)
	}
}

// TestBotsPlayLegalGames plays every pairing of bots on several sizes and both supplies
// and replays every game through the engine again.
func TestBotsPlayLegalGames(t *testing.T) {
	games := 0
	for _, size := range []int{5, 7, 10, 12} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, a := range Names {
				for _, b := range Names {
					n := 6
					if a == "mcts" || b == "mcts" || a == "sage" || b == "sage" {
						n = 1 // the search is slow; the other pairings cover the sizes widely
					}
					for i := range n {
						g, err := Play(mustNew(t, a, Options{Playouts: 20}), mustNew(t, b, Options{Playouts: 20}), size, supply, seeded(games+i))
						if err != nil {
							t.Fatal(err)
						}
						replayMoves(t, g)
					}
					games += n
				}
			}
		}
	}
	t.Logf("%d games legal", games)
}

// TestDeterministic: a bot's game is the same for the same seed, whatever else ran
// before, and with several search workers.
func TestDeterministic(t *testing.T) {
	for _, name := range Names {
		for _, workers := range []int{1, 2} {
			play := func(seed int) string {
				g, err := Play(mustNew(t, name, Options{Playouts: 40, Workers: workers}), mustNew(t, "greedy", Options{}), 8, game.Unlimited, seeded(seed))
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(g.Moves)
			}
			a, b, c := play(1), play(2), play(1)
			if a != c {
				t.Errorf("%s (%d workers): the same seed gave two games", name, workers)
			}
			if a == b {
				t.Errorf("%s (%d workers): two seeds gave the same game", name, workers)
			}
		}
	}
}

// match plays n games between a and b on a board of side size, alternating who opens,
// and returns the wins of a, of b, and the draws.
func match(t *testing.T, a, b string, o Options, size, n int) (wa, wb, draws int) {
	for i := range n {
		opener, responder := a, b
		if i%2 == 1 {
			opener, responder = b, a
		}
		g, err := Play(mustNew(t, opener, o), mustNew(t, responder, o), size, game.Unlimited, seeded(1000+i))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case g.Result == game.Draw:
			draws++
		case (g.Result == game.LightWins) == (g.Light() == mustNew(t, a, o).Name()):
			wa++
		default:
			wb++
		}
	}
	return wa, wb, draws
}

// TestStrengthOrder: random < greedy < mcts < sage on a small, fast configuration. The games are
// seeded, so the counts are reproducible; the margins are wide.
func TestStrengthOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 80 games")
	}
	g, r, d := match(t, "greedy", "random", Options{}, 8, 20)
	t.Logf("greedy %d, random %d, draws %d", g, r, d)
	if g < 18 {
		t.Errorf("greedy won %d of 20 against random", g)
	}
	m, g2, d2 := match(t, "mcts", "greedy", Options{Playouts: 80}, 8, 30)
	t.Logf("mcts %d, greedy %d, draws %d", m, g2, d2)
	if m <= g2+4 {
		t.Errorf("mcts won %d, greedy %d of 30", m, g2)
	}
	sg, m2, d3 := match(t, "sage", "mcts", Options{Playouts: 300}, 8, 30)
	t.Logf("sage %d, mcts %d, draws %d", sg, m2, d3)
	if sg <= m2+6 {
		t.Errorf("sage won %d, mcts %d of 30 at the same budget", sg, m2)
	}
}

func TestNew(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		want string
	}{
		{"random", Options{}, "random"},
		{"greedy", Options{}, "greedy"},
		{"mcts", Options{}, "mcts-400"},
		{"mcts", Options{Playouts: 50}, "mcts-50"},
		{"mcts-25", Options{Playouts: 50}, "mcts-25"},
		{"mcts-1000000", Options{}, "mcts-1000000"},
		{"sage", Options{}, "sage-300"},
		{"sage", Options{Playouts: 50}, "sage-50"},
		{"sage", Options{TimePerTurn: 250 * time.Millisecond}, "sage-250ms"},
		{"sage-400", Options{TimePerTurn: time.Second}, "sage-400"},
		{"sage-100ms", Options{Playouts: 50}, "sage-100ms"},
	} {
		b, err := New(c.name, c.o)
		if err != nil || b.Name() != c.want {
			t.Errorf("New(%q, %+v) = %v, %v; want the bot %s", c.name, c.o, b, err, c.want)
		}
	}
	for _, name := range []string{"alphazero", "mcts-", "mcts-0", "mcts-x", "mcts-007", "mcts--5", "mcts-1000001", "mcts-99999999999999999999",
		"sage-", "sage-0", "sage-ms", "sage-0ms", "sage-05", "sage-1.5ms", "sage-100s", "sage-3600001ms"} {
		if _, err := New(name, Options{}); err == nil {
			t.Errorf("New accepted the bot %q", name)
		}
	}
}
