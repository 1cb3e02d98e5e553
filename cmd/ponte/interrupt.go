package main

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/ponte/ponte/internal/bug"
)

// cancellable returns in, or, when in is standard input that may wait for ever (a pipe
// that sends nothing, a FIFO), a reader whose Read returns at once when ctx
// ends (Ctrl-C, SIGTERM), without waiting for the read under it, which is left to the
// end of the process.
func cancellable(ctx context.Context, in io.Reader) io.Reader {
	f, ok := in.(*os.File)
	if !ok {
		return in
	}
	// A pipe or a socket only: a terminal or another device stays an *os.File, which the
	// commands look at to refuse it (a device is not read; verify's and export's loops
	// stop at once anyway, see detached).
	if fi, err := f.Stat(); err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in
	}
	return &ctxReader{ctx: ctx, r: in, res: make(chan readResult, 1)}
}

// ctxReader reads r on a goroutine of its own, one read at a time, until ctx ends.
type ctxReader struct {
	ctx      context.Context
	r        io.Reader
	buf      []byte // what the read in flight fills
	inFlight bool
	res      chan readResult
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !c.inFlight {
		n := min(len(p), 256<<10)
		if cap(c.buf) < n {
			c.buf = make([]byte, n)
		}
		buf := c.buf[:n]
		c.inFlight = true
		go func() {
			defer bug.Recover()
			n, err := c.r.Read(buf)
			c.res <- readResult{n, err}
		}()
	}
	select {
	case r := <-c.res:
		c.inFlight = false
		return copy(p, c.buf[:r.n]), r.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}

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
