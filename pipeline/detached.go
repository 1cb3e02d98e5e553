package pipeline

import (
	"context"
	"errors"
	"sync"

	"github.com/ponte/ponte/internal/bug"
)

// ErrAbandoned is what a Detached loop's Step returns once the caller stopped waiting
// for the loop.
var ErrAbandoned = errors.New("stopped: the command was interrupted")

// Detached runs a command's reading loop on a goroutine of its own, so that the command
// stops at once when interrupted even while the loop waits on an input for ever (a FIFO
// that nobody opens, a pipe that sends nothing), and says what was done. Each step of
// the loop that changes what the command reports (counts, output) runs under Step, which
// refuses it once the command has stopped waiting. Its zero value is ready to Run.
type Detached struct {
	mu        sync.Mutex
	abandoned bool
}

// Run runs loop and returns its error; or, when ctx ends first, stops waiting for it and
// returns ctx's error: no Step runs after that.
func (d *Detached) Run(ctx context.Context, loop func() error) error {
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

// Step runs f unless the caller has stopped waiting for the loop.
func (d *Detached) Step(f func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.abandoned {
		return ErrAbandoned
	}
	return f()
}
