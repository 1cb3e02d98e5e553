package atlas

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/pipeline"
)

// Runner plays an atlas's rounds.
type Runner struct {
	Config  *Config
	Classes []Class
	// NewBot makes a bot by name, once per seat of every game.
	NewBot func(string) (bot.Bot, error)
	// Workers is how many games are played at once.
	Workers int
	// Shard (from 1) of Shards: the share of each round this runner plays. With one
	// shard it plays round after round to the end.
	Shard, Shards int
	// Save stores a game as it ends, from the goroutine that called Run; an error stops
	// the run.
	Save func(Game) error
	// Round, when not nil, is told of each plan before its games are played.
	Round func(p *Plan, units int)
}

// ErrWaiting is Run's error when a shard has played its share of the round and the next
// plan needs the other shards' games: merge them, then run again.
var ErrWaiting = errors.New("this shard's share of the round is played: merge the shards, then run again")

// Run plays the plan's games not yet in d, counting each in d as it is saved, until the
// atlas is done (nil), the shard has played its share (ErrWaiting), or ctx ends (its
// error): the games saved so far are kept.
func (r *Runner) Run(ctx context.Context, d *Data) error {
	byID := map[int]Class{}
	for _, cl := range r.Classes {
		byID[cl.ID] = cl
	}
	for {
		p := r.Config.NextPlan(r.Classes, d)
		if p.Done {
			return nil
		}
		units, n := p.Shard(d, r.Shard, r.Shards)
		if n == 0 {
			return ErrWaiting
		}
		if r.Round != nil {
			r.Round(p, n)
		}
		if err := r.play(ctx, units, n, byID, d); err != nil {
			return err
		}
	}
}

// play plays the n units on the project's pipeline and saves the games in the units'
// order. When ctx ends, no game is begun, the games in play are dropped (they stop at
// their next turn), and those that ended are saved.
func (r *Runner) play(ctx context.Context, units iter.Seq[Unit], n int, byID map[int]Class, d *Data) error {
	type done struct {
		g   Game
		err error
	}
	workers := max(1, r.Workers)
	p := pipeline.Pipeline[Unit, done]{
		Workers:  workers,
		MaxItems: workers,
		NewWorker: func() func(Unit) done {
			return func(u Unit) done {
				if err := ctx.Err(); err != nil {
					return done{err: err}
				}
				// The game is played detached so that a turn in progress (seconds for a large
				// budget) does not hold up Ctrl-C: the game is left to stop at its next turn,
				// and its result to the garbage collector.
				var detached pipeline.Detached
				var res done
				err := detached.Run(ctx, func() error {
					g, _, err := r.Config.Play(ctx, u, byID[u.Class], r.NewBot)
					return detached.Step(func() error { res = done{g, err}; return nil })
				})
				if err != nil {
					return done{err: err}
				}
				return res
			}
		},
	}
	saved := 0
	err := p.Run(ctx, units, func(res done) error {
		if res.err != nil && ctx.Err() != nil && errors.Is(res.err, ctx.Err()) {
			return nil // not played to its end: the others that ended are saved
		}
		if res.err != nil {
			return res.err
		}
		if err := r.Save(res.g); err != nil {
			return err
		}
		d.Add(res.g)
		saved++
		return nil
	})
	if err == nil && saved < n {
		err = ctx.Err()
		if err == nil {
			err = fmt.Errorf("%d of %d games played", saved, n)
		}
	}
	return err
}
