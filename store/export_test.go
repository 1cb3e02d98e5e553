package store

import (
	"context"
	"io"

	"github.com/ponte/ponte/ingest"
)

// ComputeStats is stats.Compute's report of the games of population in r, as
// `ponte stats --json` prints it (set by stats_hook_test.go, an external test).
var ComputeStats func(r *Reader, population string) ([]byte, error)

// The tests of package store that ingest run intake.Run through IngestHook (set by
// intake_hook_test.go, an external test: intake imports store). Options, Progress and
// Summary are intake's, as the tests give and read them.
var IngestHook func(ctx context.Context, d *DB, paths []string, opts Options) (*Summary, error)

// Options are intake.Options with store.WriteOptions' fields beside the others.
type Options struct {
	Workers       int
	Stdin         io.Reader
	Progress      func(Progress)
	CommitGames   int
	ParquetDir    string
	StreamParquet bool
	Skip          func(path string) (skip bool, notice string)
	Limits        ingest.Limits
}

// Progress is intake.Progress.
type Progress struct {
	Files, FilesDone, Games int
	Bytes, TotalBytes       int64
}

// Summary is intake.Summary, with its peak of bytes in flight.
type Summary struct {
	Files, Skipped, Resumed int
	Counts
	Errors, Notices []string
	Interrupted     bool
	Seconds         float64
	peakInFlight    int64
}

// SetPeak sets the summary's peak of bytes in flight (intake.Summary.PeakInFlight).
func (s *Summary) SetPeak(n int64) { s.peakInFlight = n }

// Ingest is intake.Run into d.
func (d *DB) Ingest(ctx context.Context, paths []string, opts Options) (*Summary, error) {
	return IngestHook(ctx, d, paths, opts)
}
