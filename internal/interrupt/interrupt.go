// Package interrupt turns the first SIGINT (Ctrl-C) or SIGTERM into the end of a command's
// context, so that the command stops, says what it did and keeps what is finished; the
// second one has its default effect and ends the process at once.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ponte/ponte/internal/bug"
)

// Signal is the cause of a context that a signal ended (context.Cause).
type Signal struct{ Sig os.Signal }

func (s *Signal) Error() string { return "interrupted by " + s.Sig.String() }

// Terminated reports whether the signal was SIGTERM (timeout, systemd, docker stop), not
// SIGINT.
func (s *Signal) Terminated() bool { return s.Sig == syscall.SIGTERM }

// Context returns a context of parent that the first SIGINT or SIGTERM ends, with a
// *Signal as its cause; stop releases it and the signals.
func Context(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer bug.Recover()
		select {
		case sig := <-sigs:
			signal.Stop(sigs) // the next one has its default effect: the process ends
			cancel(&Signal{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		cancel(nil)
		signal.Stop(sigs)
	}
}
