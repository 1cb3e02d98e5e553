package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Game is a game played by two bots: the opener (Light at turn 1) and the responder, who
// decides on the swap at turn 2. After a swap the responder plays Light.
type Game struct {
	Opener, Responder string // the bots' names
	Size              int
	Supply            game.Supply
	Moves             []replay.Move
	Swapped           bool
	Result            game.Result
	DecidedBy         replay.TieBreak
	Score             [2]int // [light, dark] at the end
	Islands           [2]int
	Bridges           [2]int
}

// Light and Dark return the names of the bots by the colour they played at the end, as the
// records' Light and Dark tags name players.
func (g *Game) Light() string {
	if g.Swapped {
		return g.Responder
	}
	return g.Opener
}

// Dark returns the name of the bot that played Dark at the end.
func (g *Game) Dark() string {
	if g.Swapped {
		return g.Opener
	}
	return g.Responder
}

// Play plays a whole game between opener and responder on a board of side size. All
// randomness comes from rng, so a seeded rng replays the same game. Every turn is checked
// by the engine: a bot that returns an illegal turn is an error.
func Play(opener, responder Bot, size int, supply game.Supply, rng *rand.Rand) (*Game, error) {
	return PlayContext(context.Background(), opener, responder, size, supply, rng)
}

// ErrStopped is wrapped, with the context's error, by PlayContext's error for a game its
// context ended.
var ErrStopped = errors.New("game stopped")

// MaxTurns is the most turns a game on a board of side size can last: tiles, bridges and
// passes are all finite. Play's loop never goes past it.
func MaxTurns(size int) int { return 4*size*size + 8 }

// PlayContext is Play that looks at ctx before every turn: the same game for the same
// seats and rng, or, once ctx has ended, an error wrapping ErrStopped and ctx's error.
func PlayContext(ctx context.Context, opener, responder Bot, size int, supply game.Supply, rng *rand.Rand) (*Game, error) {
	g, err := replay.NewGame(size, supply)
	if err != nil {
		return nil, err
	}
	out := &Game{Opener: opener.Name(), Responder: responder.Name(), Size: size, Supply: supply}
	limit := MaxTurns(size)
	for !g.Over() {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w before turn %d: %w", ErrStopped, g.Turn()+1, err)
		}
		if g.Turn() >= limit {
			return nil, fmt.Errorf("game did not end after %d turns", limit)
		}
		seat := opener // Light before a swap, Dark after it
		if (g.ToMove() == replay.Light) == g.Swapped() {
			seat = responder
		}
		m := seat.Turn(g, rng)
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("%s played an illegal turn %d (%s): %w", seat.Name(), g.Turn()+1, m, err)
		}
		out.Moves = append(out.Moves, m)
	}
	out.Swapped = g.Swapped()
	out.Result, out.DecidedBy = g.Standing()
	out.Score, out.Islands, out.Bridges = g.Score(), g.Islands(), g.Bridges()
	return out, nil
}
