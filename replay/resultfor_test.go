package replay_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestResultFor plays games to their end and checks each colour's share of the result:
// Light's is the result's LightScore, the two add to 1, and a game not over gives 0.
func TestResultFor(t *testing.T) {
	seen := map[game.Result]bool{}
	for seed := uint64(0); seed < 200 && len(seen) < 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		sides := [2]bot.Bot{bot.NewGreedy(), bot.Random{}} // each side wins some
		played, err := bot.Play(sides[seed%2], sides[1-seed%2], 6, game.Unlimited, rng)
		if err != nil {
			t.Fatal(err)
		}
		g, err := replay.NewGame(6, game.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range played.Moves {
			if i == 3 && (g.ResultFor(replay.Light) != 0 || g.ResultFor(replay.Dark) != 0) {
				t.Fatal("a game not over has a result")
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		r := g.Result()
		seen[r] = true
		if l, d := g.ResultFor(replay.Light), g.ResultFor(replay.Dark); l != r.LightScore() || l+d != 1 {
			t.Errorf("seed %d, %v: Light %g, Dark %g", seed, r, l, d)
		}
	}
	t.Logf("results seen: %v", seen)
}
