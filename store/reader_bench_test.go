package store

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ponte/ponte/internal/cputime"
)

// BenchmarkTurnSummaries reads every game's turn summary, as ponte stats does, from the
// database PONTE_BENCH_DB names, or from one of the sample league's games. cpu-ns/turn
// counts the CPU time of the whole process (on a busy machine, the firmer figure).
func BenchmarkTurnSummaries(b *testing.B) {
	path := os.Getenv("PONTE_BENCH_DB")
	if path == "" {
		d := openTemp(b)
		if _, err := d.Ingest(context.Background(), []string{autumn}, Options{}); err != nil {
			b.Fatal(err)
		}
		path = d.Path()
		d.Close()
	}
	r, err := OpenReader(filepath.Clean(path))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	turns := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		if err := r.TurnSummaries(ctx, math.MinInt64, math.MaxInt64, func(ts *TurnSummary) error {
			turns += len(ts.Turns)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
}
