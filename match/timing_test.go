package match

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// slowBot takes its cost from a fake clock: ms milliseconds a turn, and counts playouts.
type slowBot struct {
	name  string
	ms    int
	clock *fakeClock
	order *[]string
	done  int64
}

func (b *slowBot) Name() string { return b.name }
func (b *slowBot) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	*b.order = append(*b.order, b.name)
	b.clock.t = b.clock.t.Add(time.Duration(b.ms) * time.Millisecond)
	b.done += 10
	return bot.Random{}.Turn(g, rng)
}
func (b *slowBot) PlayoutsDone() int64 { return b.done }

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestTiming(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	var order []string
	cfg := &Timing{Bots: []string{"a", "b", "random"}, Size: 8, Supply: game.Unlimited, Positions: 4, Rounds: 3, Seed: 1, Now: clock.now,
		NewBot: func(name string) (bot.Bot, error) {
			switch name {
			case "a":
				return &slowBot{name: "a", ms: 5, clock: clock, order: &order}, nil
			case "b":
				return &slowBot{name: "b", ms: 20, clock: clock, order: &order}, nil
			}
			return bot.New(name, bot.Options{})
		}}
	steps := 0
	got, err := cfg.Run(context.Background(), func() { steps++ })
	if err != nil {
		t.Fatal(err)
	}
	if steps != cfg.Turns() || steps != 36 {
		t.Fatalf("%d steps, want %d", steps, cfg.Turns())
	}
	if got[0].MsPerTurn != 5 || got[1].MsPerTurn != 20 || got[2].MsPerTurn != 0 || got[0].Turns != 12 {
		t.Fatalf("timings %+v", got)
	}
	if got[0].PlayoutsPerTurn == nil || *got[0].PlayoutsPerTurn != 10 || got[2].PlayoutsPerTurn != nil {
		t.Fatalf("playouts %+v", got)
	}
	// The bots take turns: no bot is asked twice in a row within a position's round.
	for i := 1; i < len(order); i++ {
		if order[i] == order[i-1] && i%2 == 1 {
			t.Fatalf("bot %s asked twice in a row at %d: %v", order[i], i, order)
		}
	}
	// Each position starts with another bot.
	if order[0] == order[2] && order[0] == order[4] {
		t.Fatalf("the same bot starts every position: %v", order)
	}
}

func TestTimingBounds(t *testing.T) {
	for _, cfg := range []*Timing{
		{Bots: []string{"random"}, Size: 8, Positions: 0, Rounds: 1},
		{Bots: []string{"random"}, Size: 8, Positions: 1, Rounds: 0},
		{Bots: []string{"random", "greedy"}, Size: 8, Positions: MaxTimingTurns, Rounds: 1},
		{Bots: []string{"random"}, Size: 4, Positions: 1, Rounds: 1},
		{Size: 8, Positions: 1, Rounds: 1},
	} {
		if err := cfg.Check(); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// TestTimingInterrupted: a cancelled pass returns what it measured.
func TestTimingInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cfg := &Timing{Bots: []string{"random", "greedy"}, Size: 8, Positions: 5, Rounds: 2, Seed: 3,
		NewBot: func(name string) (bot.Bot, error) { return bot.New(name, bot.Options{}) }}
	got, err := cfg.Run(ctx, func() {
		if n++; n == 3 {
			cancel()
		}
	})
	if err == nil || got[0].Turns+got[1].Turns != 3 {
		t.Fatalf("err %v, timings %+v", err, got)
	}
}
