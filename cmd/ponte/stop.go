package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
)

// errGameStopped is the error of a game that Ctrl-C (or SIGTERM) stopped between two of
// its turns: the game is dropped, not counted nor written.
var errGameStopped = errors.New("game stopped: interrupted")

// stopAt makes b stop its game at ctx's end: asked for a turn once ctx has ended, it plays
// none (bot.Play ends the game with an error) and its Err says why, so that the games in
// play end at their next turn instead of running to their end (issue 31 finding 10). What
// b is besides a bot (a match.PlayoutCounter, an io.Closer, a match.Failer) it stays.
func stopAt(ctx context.Context, b bot.Bot) bot.Bot {
	s := &stoppable{Bot: b, ctx: ctx}
	if _, ok := b.(match.PlayoutCounter); ok {
		return countingStoppable{s}
	}
	return s
}

// stopNew is newBot with its bots made to stop at ctx's end (stopAt).
func stopNew(ctx context.Context, o bot.Options) func(string) (bot.Bot, error) {
	return func(name string) (bot.Bot, error) {
		b, err := newBot(name, o)
		if err != nil {
			return nil, err
		}
		return stopAt(ctx, b), nil
	}
}

// stoppable is a bot that stops its game at its context's end.
type stoppable struct {
	bot.Bot
	ctx     context.Context
	stopped bool // asked for a turn after ctx ended (its game's goroutine only)
}

// stopTurn is the turn a stopped bot returns: one cell named twice, never legal.
var stopTurn = replay.TilesMove(0, 0)

func (s *stoppable) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if s.ctx.Err() != nil {
		s.stopped = true
		return stopTurn
	}
	return s.Bot.Turn(g, rng)
}

// Err is the stop, or else the error of the bot's own (an engine's: match.Failer).
func (s *stoppable) Err() error {
	if s.stopped {
		return fmt.Errorf("%w (%w)", errGameStopped, s.ctx.Err())
	}
	if f, ok := s.Bot.(match.Failer); ok {
		return f.Err()
	}
	return nil
}

// Close closes the bot when it holds something (an engine's process).
func (s *stoppable) Close() error {
	if c, ok := s.Bot.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// countingStoppable is a stoppable of a bot that counts its playouts.
type countingStoppable struct{ *stoppable }

func (c countingStoppable) PlayoutsDone() int64 {
	return c.Bot.(match.PlayoutCounter).PlayoutsDone()
}

// stoppedBy is the error of the first of bots (made by stopAt) that stopped its game at
// its context's end, nil when none did.
func stoppedBy(bots ...bot.Bot) error {
	for _, b := range bots {
		if f, ok := b.(match.Failer); ok {
			if err := f.Err(); errors.Is(err, errGameStopped) {
				return err
			}
		}
	}
	return nil
}

// fitLadder is match.FitLadder (a seam for the tests).
var fitLadder = match.FitLadder

// fitLadderContext fits the ladder on a goroutine of its own and stops waiting for it at
// ctx's end: the fit (400 bootstraps take seconds, 100,000 a quarter of an hour) has no
// pause at which to stop, and Ctrl-C must answer within a second. An abandoned fit ends
// with the process.
func fitLadderContext(ctx context.Context, blocks []match.Block, anchor string, size int, supply string, bootstraps int) (*match.LadderFit, error) {
	type result struct {
		fit *match.LadderFit
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer bug.Recover()
		fit, err := fitLadder(blocks, anchor, size, supply, bootstraps, 1)
		done <- result{fit, err}
	}()
	select {
	case r := <-done:
		return r.fit, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
