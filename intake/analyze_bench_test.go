package intake

import (
	"io"
	"os"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/store"
)

// BenchmarkAnalyze measures a worker of the ingest alone: analyze (the replay with the
// features, the verdict, the packing of the turns and the row the store takes) of every
// record of sample_data/autumn-league.ponte, or of the file PONTE_BENCH_ARCHIVE names,
// read into memory first. It reports the CPU time per turn and per game.
func BenchmarkAnalyze(b *testing.B) {
	path := "../sample_data/autumn-league.ponte"
	if p := os.Getenv("PONTE_BENCH_ARCHIVE"); p != "" {
		path = p
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var recs []*ingest.Record
	var errs []error
	rd := ingest.NewReader(f, path)
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		recs, errs = append(recs, rec), append(errs, err)
	}
	var a analyzer
	var g store.Replayed
	turns := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		for i, rec := range recs {
			a.analyze(rec, errs[i], &g)
			turns += g.TurnRows
		}
	}
	cpu := float64((cputime.Process() - cpu0).Nanoseconds())
	b.ReportMetric(cpu/float64(turns), "cpu-ns/turn")
	b.ReportMetric(cpu/float64(len(recs)*b.N), "cpu-ns/game")
}
