package ingest

import (
	"context"
	"io"
	"os"
)

// OpenFile opens path for reading, giving up when ctx ends: opening a named FIFO waits
// until a process opens it for writing, which may never happen. A regular file is
// opened at once. When ctx ends first, the open is left to finish on its own goroutine,
// which closes what it opens, and OpenFile returns ctx's error.
func OpenFile(ctx context.Context, path string) (*os.File, error) {
	if ctx.Done() == nil {
		return os.Open(path)
	}
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// ContextReader returns a reader of r whose Read returns ctx's error as soon as ctx
// ends, even while a Read of r waits for data that may never come (a pipe whose writer
// sends nothing): that Read is left to finish on its own goroutine, and r is not read
// again. Each Read of r is made on a goroutine, into a buffer of the reader's own.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r, res: make(chan ctxRead, 1)}
}

type ctxRead struct {
	n   int
	err error
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
	res chan ctxRead
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err // and r, whose Read may still be under way, is not read again
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	b := c.buf[:len(p)]
	go func() {
		n, err := c.r.Read(b)
		c.res <- ctxRead{n, err}
	}()
	select {
	case res := <-c.res:
		return copy(p, b[:res.n]), res.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}
