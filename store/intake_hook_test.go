package store_test

import (
	"context"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/store"
)

// The tests of package store that ingest run intake.Run through this hook: intake imports
// store, so store's own tests cannot import intake.
func init() {
	store.IngestHook = func(ctx context.Context, d *store.DB, paths []string, o store.Options) (*store.Summary, error) {
		opts := intake.Options{Workers: o.Workers, Stdin: o.Stdin, Skip: o.Skip, Limits: o.Limits,
			Store: store.WriteOptions{CommitGames: o.CommitGames, ParquetDir: o.ParquetDir, StreamParquet: o.StreamParquet}}
		if o.Progress != nil {
			opts.Progress = func(p intake.Progress) {
				o.Progress(store.Progress{Files: p.Files, FilesDone: p.FilesDone, Games: p.Games, Bytes: p.Bytes, TotalBytes: p.TotalBytes})
			}
		}
		sum, err := intake.Run(ctx, d, paths, opts)
		if sum == nil {
			return nil, err
		}
		s := &store.Summary{Files: sum.Files, Skipped: sum.Skipped, Resumed: sum.Resumed, Counts: sum.Counts,
			Errors: sum.Errors, Notices: sum.Notices, Interrupted: sum.Interrupted, Seconds: sum.Seconds}
		s.SetPeak(sum.PeakInFlight())
		return s, err
	}
}
