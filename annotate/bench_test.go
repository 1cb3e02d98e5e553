package annotate

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
)

// selfPlayed plays a game of greedy against greedy on 10×10 and returns it as a Game.
func selfPlayed(t testing.TB, seed uint64) Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	g, err := bot.Play(bot.NewGreedy(), bot.NewGreedy(), 10, game.Unlimited, rng)
	if err != nil {
		t.Fatal(err)
	}
	out := Game{GameID: "bench", Size: 10}
	for _, m := range g.Moves {
		out.Moves = append(out.Moves, m.String())
	}
	return out
}

// BenchmarkPosition is the cost of one position of a 10×10 game for the default engine
// and for sage-100, the engine before the truth set (reported as positions/s).
func BenchmarkPosition(b *testing.B) {
	g := selfPlayed(b, 1)
	for _, name := range []string{"sage-100", DefaultEngine} {
		b.Run(name, func(b *testing.B) {
			e := mustEngine(b, name, CalibrationOf(name))
			positions := 0
			for positions < b.N {
				turns, err := e.Analyse(g, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				positions += len(turns) + 1
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
