package main

import (
	"context"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/match"
)

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
