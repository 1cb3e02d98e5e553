package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// BenchmarkRandomPlayout plays whole games of the uniformly random bot against itself on
// 10×10 from the opening: one playout per game.
func BenchmarkRandomPlayout(b *testing.B) {
	turns := 0
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		g, err := Play(Random{}, Random{}, 10, game.Unlimited, rng)
		if err != nil {
			b.Fatal(err)
		}
		turns += len(g.Moves)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkPolicyPlayout plays whole games with the mcts bot's cheap playout policy.
func BenchmarkPolicyPlayout(b *testing.B) {
	m := NewMCTS(Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []replay.Move
	var buf []scoredCell
	turns := 0
	for b.Loop() {
		g, _ := replay.NewGame(10, game.Unlimited)
		for !g.Over() {
			if err := g.Play(m.policy(g, rng, &moves, &buf)); err != nil {
				b.Fatal(err)
			}
			turns++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkSagePolicyPlayout plays whole games with the sage bot's playout policy.
func BenchmarkSagePolicyPlayout(b *testing.B) {
	s := NewSage(Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	turns := 0
	for b.Loop() {
		g, _ := replay.NewGame(10, game.Unlimited)
		for !g.Over() {
			if err := g.Play(s.policy(g, rng)); err != nil {
				b.Fatal(err)
			}
			turns++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}

// benchTurns measures a bot's turns per second over whole games against greedy.
func benchTurns(b *testing.B, name string, o Options) {
	bot, _ := New(name, o)
	other := NewGreedy()
	rng := rand.New(rand.NewPCG(3, 4))
	turns := 0
	for b.Loop() {
		g, _ := replay.NewGame(10, game.Unlimited)
		for !g.Over() {
			var m replay.Move
			if seatToMove(g) == 0 {
				m = bot.Turn(g, rng)
				turns++
			} else {
				m = other.Turn(g, rng)
			}
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
	if s, ok := bot.(*Sage); ok {
		b.ReportMetric(float64(s.PlayoutsDone())/b.Elapsed().Seconds(), "playouts/s")
	} else if m, ok := bot.(*MCTS); ok {
		b.ReportMetric(float64(turns*m.Playouts)/b.Elapsed().Seconds(), "playouts/s")
	}
}

func BenchmarkGreedyTurn(b *testing.B) { benchTurns(b, "greedy", Options{}) }

// BenchmarkMCTSTurn uses the default budget of 400 playouts on one worker.
func BenchmarkMCTSTurn(b *testing.B) { benchTurns(b, "mcts", Options{Playouts: 400, Workers: 1}) }

// BenchmarkMCTSTurn2Workers searches the same budget on two workers.
func BenchmarkMCTSTurn2Workers(b *testing.B) {
	benchTurns(b, "mcts", Options{Playouts: 400, Workers: 2})
}

// BenchmarkSageTurn uses a budget of 400 playouts, as BenchmarkMCTSTurn; playouts/s
// counts the playouts the bot searched.
func BenchmarkSageTurn(b *testing.B) { benchTurns(b, "sage-400", Options{}) }
