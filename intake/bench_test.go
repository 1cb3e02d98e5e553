package intake

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ponte/ponte/store"
)

// BenchmarkIngest measures `ponte ingest --no-parquet`: read, replay with the per-turn
// features on all cores, and store, into a new database each time, of the shipped sample
// archives (3,305 records, about 172,000 turns), or of the archive PONTE_BENCH_ARCHIVE
// names. allocs/game and B/game count every allocation of the run (the readers, the
// workers, the writer, SQLite).
func BenchmarkIngest(b *testing.B) {
	paths := []string{"../sample_data"}
	if p := os.Getenv("PONTE_BENCH_ARCHIVE"); p != "" {
		paths = []string{p}
	}
	var games, rows, turns int64
	var elapsed time.Duration
	var mallocs, bytes uint64
	var before, after runtime.MemStats
	for b.Loop() {
		b.StopTimer()
		d, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		runtime.ReadMemStats(&before)
		sum, err := Run(context.Background(), d, paths, Options{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
		elapsed += time.Since(start)
		games += int64(sum.Games)
		rows += sum.Rows
		turns += sum.TurnRows
		b.StopTimer()
		d.Close()
		b.StartTimer()
	}
	secs := elapsed.Seconds()
	b.ReportMetric(float64(games)/secs, "games/s")
	b.ReportMetric(float64(rows)/secs, "rows/s")
	b.ReportMetric(float64(turns)/secs, "turns/s")
	b.ReportMetric(float64(mallocs)/float64(games), "allocs/game")
	b.ReportMetric(float64(bytes)/float64(games), "B/game")
}
