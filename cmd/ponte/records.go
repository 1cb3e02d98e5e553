package main

import (
	"context"
	"errors"
	"io"
	"iter"
	"sync/atomic"

	"github.com/ponte/ponte/ingest"
)

var errStopReading = errors.New("stop reading")

// records turns ingest.OpenFrom's callbacks into an iterator of records and errors, in
// order; stdin is what the path "-" reads. A path that does not exist ends the sequence
// with its *ingest.PathError. The sequence ends early, between two records, once ctx is
// done (Ctrl-C).
func records(ctx context.Context, paths []string, stdin io.Reader, lim ingest.Limits) iter.Seq2[*ingest.Record, error] {
	return countedRecords(ctx, paths, stdin, nil, lim)
}

// countedRecords is records (read within lim) adding to *read, when read is not nil, the bytes read of the
// inputs as they are read (ingest.OpenContext), for a progress bar. A FIFO nobody opens and a pipe that
// sends nothing give up when ctx ends. Ponte's own outputs
// met in the walk of a folder are not read: each is a notice (ownOutputs).
func countedRecords(ctx context.Context, paths []string, stdin io.Reader, read *atomic.Int64, lim ingest.Limits) iter.Seq2[*ingest.Record, error] {
	return func(yield func(*ingest.Record, error) bool) {
		ins, err := inputs(paths)
		if err != nil {
			yield(nil, err)
			return
		}
		fn := func(rec *ingest.Record, err error) error {
			if ctx.Err() != nil || !yield(rec, err) {
				return errStopReading
			}
			return nil
		}
		for _, in := range ins {
			if ctx.Err() != nil {
				return
			}
			if in.Err != nil {
				if !yield(nil, in.Err) {
					return
				}
				continue
			}
			if err := ingest.OpenWith(ctx, []string{in.Path}, ingest.OpenOptions{Stdin: stdin, Read: read, Limits: lim}, fn); err != nil {
				if !errors.Is(err, errStopReading) && ctx.Err() == nil {
					yield(nil, err)
				}
				return
			}
		}
	}
}
