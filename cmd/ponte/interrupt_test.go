package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
)

// interrupter is a bot that plays greedy's turns and, at its k-th turn of the run,
// cancels the run's context as Ctrl-C does, in the middle of a game; it counts the turns
// it is asked for after that.
type interrupter struct {
	bot.Bot
	cancel context.CancelFunc
	turns  *atomic.Int64 // asked so far, over every game of the run
	after  *atomic.Int64 // asked after the cancel
	k      int64
}

func (b interrupter) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	switch n := b.turns.Add(1); {
	case n == b.k:
		b.cancel()
	case n > b.k:
		b.after.Add(1)
	}
	return b.Bot.Turn(g, rng)
}

// Issue 31 finding 10: Ctrl-C was honoured between games only: selfplay, match and bots
// --play played every game in play to its end (sage-2000: 13 to 19 s after the signal),
// then exited 0. The games in play now stop at their next turn: no bot is asked for a turn
// after the interrupt, the exit status is 130, and what was written is whole games.
func TestPlayInterruptedInAGame(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"selfplay", []string{"selfplay", "--games", "6", "--size", "6", "--workers", "1", "--out", filepath.Join(dir, "s.ponte")}, "ponte selfplay: interrupted after"},
		{"match", []string{"match", "greedy", "random", "--games", "6", "--size", "6", "--workers", "1", "--out", filepath.Join(dir, "m.ponte")}, "ponte match: interrupted after"},
		{"bots --play", []string{"bots", "--play", "--ladder", filepath.Join(dir, "l.jsonl"), "--bots", "greedy,random", "--games", "6", "--block", "6", "--size", "6", "--workers", "1"}, "ponte bots: interrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var turns, after atomic.Int64
			newBot = func(name string, o bot.Options) (bot.Bot, error) {
				b, err := bot.New("greedy", o)
				return interrupter{Bot: b, cancel: cancel, turns: &turns, after: &after, k: 20}, err
			}
			t.Cleanup(func() { newBot = bot.New })
			_, errOut, status := runPonteCtx(t, ctx, c.args...)
			if status != exitInterrupted || !strings.Contains(errOut, c.want) {
				t.Errorf("exit status %d, %q; want 130 and %q", status, errOut, c.want)
			}
			if turns.Load() < 20 {
				t.Fatalf("%d turns asked: the interrupt never came", turns.Load())
			}
			if n := after.Load(); n != 0 {
				t.Errorf("%d turns asked after the interrupt: the games in play were played on", n)
			}
		})
	}
	if out, errOut, status := runPonte(t, "", "verify", filepath.Join(dir, "s.ponte"), filepath.Join(dir, "m.ponte")); status != exitOK && !strings.Contains(errOut, "no game record") {
		t.Errorf("the games written: exit status %d: %s%s", status, out, errOut)
	}
}

// Issue 31 finding 10: ponte bots (and bots --time) fits the ladder before anything else,
// 3.7 s for its 400 bootstraps and a quarter of an hour for 100,000, with no pause to
// stop at. Ctrl-C stops the command at once, whatever the fit has left to do.
func TestBotsFitInterrupted(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	fitLadder = func([]match.Block, string, int, string, int, uint64) (*match.LadderFit, error) {
		started <- struct{}{}
		<-release // a fit that takes as long as the test wants
		return nil, context.Canceled
	}
	t.Cleanup(func() { close(release); fitLadder = match.FitLadder })
	for _, args := range [][]string{{"bots"}, {"bots", "--time", "--positions", "1", "--rounds", "1"}} {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-started // the fit is under way
			cancel()
		}()
		done := make(chan int, 1)
		var errOut string
		go func() {
			var status int
			_, errOut, status = runPonteCtx(t, ctx, args...)
			done <- status
		}()
		select {
		case status := <-done:
			if status != exitInterrupted || !strings.Contains(errOut, "ponte bots: interrupted") {
				t.Errorf("ponte %s: exit status %d, %q; want 130", strings.Join(args, " "), status, errOut)
			}
		case <-time.After(30 * time.Second): // a bound on a failure, not a wait for an event
			t.Fatalf("ponte %s: not stopped 30 s after the interrupt", strings.Join(args, " "))
		}
	}
}
