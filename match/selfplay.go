package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/termtext"
	"github.com/ponte/ponte/pipeline"
)

// SelfPlay is a run of games between two bots (ponte selfplay): Light opens every game,
// Dark responds and may swap.
type SelfPlay struct {
	Light, Dark string
	// NewBot makes a bot by name, once per seat of every game.
	NewBot func(name string) (bot.Bot, error)
	Size   int
	Supply game.Supply
	// Seed makes every game's random source: game i depends on Seed and i alone, so a run
	// is the same whatever Workers is.
	Seed uint64
	// Games is how many games are played, numbered from 1; Workers how many at once.
	Games, Workers int
}

// Check reports whether each seat's bot can be made: "--light: unknown bot …".
func (sp *SelfPlay) Check() error {
	for _, seat := range []struct{ flag, name string }{{"--light", sp.Light}, {"--dark", sp.Dark}} {
		if _, err := sp.NewBot(seat.name); err != nil {
			return fmt.Errorf("%s: %w", seat.flag, err)
		}
	}
	return nil
}

// SelfPlayGame is one game played, or the error that stopped it.
type SelfPlayGame struct {
	Index  int // from 1
	Game   *bot.Game
	Record *ingest.Record
	Err    error
}

// Run plays games 1 … Games on Workers goroutines (the project's pipeline). It calls
// played for each game as it ends, in any order, and emit for each in game order, both
// from the calling goroutine; once emit returns false, Run starts no more games and emits
// nothing more. At most a window of 4 games per worker is played ahead of the next one to
// emit, so memory stays flat whatever the number of games. The error is ctx's when ctx
// ended the run before every game was emitted: the games in play then stop at their next
// turn (bot.PlayContext), and neither they nor the games after them are emitted.
func (sp *SelfPlay) Run(ctx context.Context, played func(SelfPlayGame), emit func(SelfPlayGame) bool) error {
	workers := min(sp.Workers, sp.Games)
	p := pipeline.Pipeline[int, SelfPlayGame]{
		Workers:  workers,
		MaxItems: 4 * workers,
		NewWorker: func() func(int) SelfPlayGame {
			return func(i int) SelfPlayGame { return sp.play(ctx, i) }
		},
		Arrived: played,
	}
	games := func(yield func(int) bool) {
		for i := 1; i <= sp.Games && yield(i); i++ {
		}
	}
	return p.Run(ctx, games, func(g SelfPlayGame) error {
		if errors.Is(g.Err, bot.ErrStopped) {
			return ctx.Err() // and the games after it: the archive ends at the last whole game
		}
		if !emit(g) {
			return pipeline.Stop
		}
		return nil
	})
}

// play plays game i with bots of its own and a random source made from the seed and i.
// At ctx's end the game stops at its next turn, with an error wrapping bot.ErrStopped.
func (sp *SelfPlay) play(ctx context.Context, i int) SelfPlayGame {
	opener, err := sp.NewBot(sp.Light)
	if err != nil {
		return SelfPlayGame{Index: i, Err: err}
	}
	responder, err := sp.NewBot(sp.Dark)
	if err != nil {
		return SelfPlayGame{Index: i, Err: err}
	}
	g, err := bot.PlayContext(ctx, opener, responder, sp.Size, sp.Supply, rand.New(rand.NewPCG(sp.Seed, uint64(i))))
	if err != nil {
		return SelfPlayGame{Index: i, Err: err}
	}
	return SelfPlayGame{Index: i, Game: g, Record: g.Record(i, sp.Seed)}
}

// Tally counts a self-play run's games by who won them.
type Tally struct {
	Games, OpenerWon, ResponderWon, Draws, Swaps int
}

// Add counts the game g.
func (t *Tally) Add(g *bot.Game) {
	t.Games++
	if g.Swapped {
		t.Swaps++
	}
	switch {
	case g.Result == game.Draw:
		t.Draws++
	case (g.Result == game.LightWins) != g.Swapped: // the opener is Light unless swapped
		t.OpenerWon++
	default:
		t.ResponderWon++
	}
}

// Summary is the line ponte selfplay prints at the end of the run sp, elapsed its time,
// where the archive it wrote.
func (t *Tally) Summary(sp *SelfPlay, elapsed time.Duration, where string) string {
	plural := termtext.Plural
	rate := float64(t.Games) / max(elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("%d %s (%d×%d, %s): opener %s won %d, responder %s won %d, %d %s; %d %s; %s (%s games/s); written to %s",
		t.Games, plural(t.Games, "game", "games"), sp.Size, sp.Size, sp.Supply,
		sp.Light, t.OpenerWon, sp.Dark, t.ResponderWon, t.Draws, plural(t.Draws, "draw", "draws"),
		t.Swaps, plural(t.Swaps, "swap", "swaps"), termtext.Seconds(elapsed.Seconds()), termtext.Rate(rate), where)
}
