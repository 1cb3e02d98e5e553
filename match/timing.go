package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Timing is a timing pass: every bot is asked for a turn on the same positions, the bots
// taking turns position by position and round by round, so that they are measured on
// one machine at one moment under the same load.
type Timing struct {
	Bots   []string
	NewBot func(name string) (bot.Bot, error)
	Size   int
	Supply game.Supply
	// Positions is how many positions are timed: position i is taken from a game of
	// greedy against itself seeded by Seed and i, at a turn drawn from 1 to 40.
	Positions int
	// Rounds is how many times each bot is asked on each position.
	Rounds int
	Seed   uint64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// MaxTimingTurns bounds the turns a timing pass asks for (positions × rounds × bots).
const MaxTimingTurns = 100_000

// BotTiming is what a timing pass measured of one bot.
type BotTiming struct {
	Name  string `json:"name"`
	Turns int    `json:"turns"`
	// MsPerTurn is the median time of a turn; MsP25 and MsP75 its quartiles.
	MsPerTurn float64 `json:"ms_per_turn"`
	MsP25     float64 `json:"ms_p25"`
	MsP75     float64 `json:"ms_p75"`
	// PlayoutsPerTurn is the mean, nil for a bot that does not count them.
	PlayoutsPerTurn *float64 `json:"playouts_per_turn"`
}

// Check reports the first setting of t that cannot be run, before any work.
func (t *Timing) Check() error {
	switch {
	case len(t.Bots) == 0:
		return fmt.Errorf("no bot to time")
	case t.Positions < 1 || t.Rounds < 1:
		return fmt.Errorf("positions and rounds must be at least 1, not %d and %d", t.Positions, t.Rounds)
	case t.Positions*t.Rounds > MaxTimingTurns/len(t.Bots):
		return fmt.Errorf("%d positions × %d rounds × %d bots is more than %d turns", t.Positions, t.Rounds, len(t.Bots), MaxTimingTurns)
	case t.Size < game.MinSize || t.Size > game.MaxSize:
		return fmt.Errorf("board size %d: %w", t.Size, replay.ErrSize)
	}
	return nil
}

// Turns returns how many turns the pass asks for.
func (t *Timing) Turns() int { return t.Positions * t.Rounds * len(t.Bots) }

// Run plays the timing pass, calling step after every turn asked. When ctx ends it returns
// what was measured so far with ctx's error.
func (t *Timing) Run(ctx context.Context, step func()) ([]BotTiming, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	now := t.Now
	if now == nil {
		now = time.Now
	}
	bots := make([]bot.Bot, len(t.Bots))
	for i, name := range t.Bots {
		b, err := t.NewBot(name)
		if err != nil {
			return nil, err
		}
		bots[i] = b
	}
	positions, err := t.positions()
	if err != nil {
		return nil, err
	}
	ms := make([][]float64, len(bots))
	playouts := make([]int64, len(bots))
	counts := make([]bool, len(bots))
	for i, b := range bots {
		_, counts[i] = b.(PlayoutCounter)
	}
	var ctxErr error
pass:
	for r := range t.Rounds {
		for p, g := range positions {
			// The bots take turns, starting with another one at each position and round.
			for k := range bots {
				if ctxErr = ctx.Err(); ctxErr != nil {
					break pass
				}
				i := (k + p + r) % len(bots)
				rng := rand.New(rand.NewPCG(t.Seed, uint64(r*len(positions)+p)))
				var before int64
				if counts[i] {
					before = bots[i].(PlayoutCounter).PlayoutsDone()
				}
				start := now()
				m := bots[i].Turn(g, rng)
				elapsed := now().Sub(start)
				if !g.IsLegal(m) {
					return nil, fmt.Errorf("%s played an illegal turn %s in a timed position", t.Bots[i], m)
				}
				ms[i] = append(ms[i], float64(elapsed)/float64(time.Millisecond))
				if counts[i] {
					playouts[i] += bots[i].(PlayoutCounter).PlayoutsDone() - before
				}
				step()
			}
		}
	}
	out := make([]BotTiming, len(bots))
	for i := range bots {
		s := slices.Clone(ms[i])
		slices.Sort(s)
		out[i] = BotTiming{Name: t.Bots[i], Turns: len(s)}
		if len(s) > 0 {
			out[i].MsPerTurn, out[i].MsP25, out[i].MsP75 = quantile(s, 0.5), quantile(s, 0.25), quantile(s, 0.75)
		}
		if counts[i] && len(s) > 0 {
			v := float64(playouts[i]) / float64(len(s))
			out[i].PlayoutsPerTurn = &v
		}
	}
	return out, ctxErr
}

// positions plays the seeded games of greedy against itself and keeps one position of each.
func (t *Timing) positions() ([]*replay.Game, error) {
	out := make([]*replay.Game, 0, t.Positions)
	for i := range t.Positions {
		rng := rand.New(rand.NewPCG(t.Seed, 1<<32+uint64(i)))
		g, err := replay.NewGame(t.Size, t.Supply)
		if err != nil {
			return nil, err
		}
		stop := 1 + rng.IntN(40)
		greedy := bot.NewGreedy()
		for g.Turn() < stop {
			m := greedy.Turn(g, rng)
			x := g.Clone()
			if err := x.Play(m); err != nil {
				return nil, err
			}
			if x.Over() {
				break
			}
			g = x
		}
		out = append(out, g)
	}
	return out, nil
}
