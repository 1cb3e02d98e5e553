package main

import (
	"context"
	"errors"
	"sync"

	"github.com/ponte/ponte/internal/bug"
)

// errAbandoned is what a detached loop's step returns once the command stopped waiting
// for the loop.
var errAbandoned = errors.New("stopped: the command was interrupted")

// detached runs a command's reading loop on a goroutine of its own, so that the command
// stops at once when interrupted even while the loop waits on an input for ever (a FIFO
// that nobody opens, a pipe that sends nothing), and says what was done. Each step of
// the loop that changes what the command reports (counts, output) runs under step, which
// refuses it once the command has stopped waiting.
type detached struct {
	mu        sync.Mutex
	abandoned bool
}

// run runs loop and returns its error; or, when ctx ends first, stops waiting for it and
// returns ctx's error: no step runs after that.
func (d *detached) run(ctx context.Context, loop func() error) error {
	done := make(chan error, 1)
	go func() {
		defer bug.Recover()
		done <- loop()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case err := <-done: // it ended meanwhile
		return err
	default:
	}
	d.abandoned = true
	return ctx.Err()
}

// step runs f unless the command has stopped waiting for the loop.
func (d *detached) step(f func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.abandoned {
		return errAbandoned
	}
	return f()
}
