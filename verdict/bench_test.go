package verdict_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// verifyInput is the self-played 10x10 archive of the sample data (greedy against greedy,
// 600 games of 695 bytes, as `ponte selfplay` writes them), decompressed and repeated to
// about 12 MB in memory: what `ponte verify` reads, without the disk.
func verifyInput(b *testing.B) (data []byte, games int) {
	b.Helper()
	z, err := os.ReadFile("../sample_data/selfplay-10x10-greedy.ponte.zst")
	if err != nil {
		b.Fatal(err)
	}
	d, err := zstd.NewReader(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	one, err := d.DecodeAll(z, nil)
	if err != nil {
		b.Fatal(err)
	}
	const reps = 30
	return bytes.Repeat(one, reps), 600 * reps
}

// release gives a record back to its reader when the ingest package can take it back
// (ingest.Record.Release), as verify's pipeline does; it does nothing where it cannot,
// so that this benchmark measures older versions of the packages too.
func release(rec *ingest.Record) {
	if r, ok := any(rec).(interface{ Release() }); ok {
		r.Release()
	}
}

// BenchmarkVerify measures what `ponte verify` does per game, on self-played 10x10
// games: read the .ponte text and replay each record to its verdict. "serial" does it
// on one goroutine, record by record; "check-N" runs verdict.Check, verify's pipeline,
// with N workers (the reader has a goroutine of its own). It reports games/s, and the
// allocations and bytes allocated per game (the pipeline's per batch included).
func BenchmarkVerify(b *testing.B) {
	data, games := verifyInput(b)
	run := func(b *testing.B, verify func(rd *ingest.Reader) int) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.ResetTimer()
		for b.Loop() {
			if n := verify(ingest.NewReader(bytes.NewReader(data), "bench.ponte")); n != games {
				b.Fatalf("%d legal games, want %d", n, games)
			}
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		all := float64(games) * float64(b.N)
		b.ReportMetric(all/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/all, "allocs/game")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/all, "B/game")
	}
	b.Run("serial", func(b *testing.B) {
		var g replay.Game
		run(b, func(rd *ingest.Reader) int {
			legal := 0
			for {
				rec, err := rd.Read()
				if err == io.EOF {
					return legal
				}
				if err != nil {
					b.Fatal(err)
				}
				if verdict.Of(rec, &g).Legal {
					legal++
				}
				release(rec)
			}
		})
	})
	for _, workers := range []int{1, 2} {
		b.Run("check-"+string(rune('0'+workers)), func(b *testing.B) {
			run(b, func(rd *ingest.Reader) int {
				records := func(yield func(*ingest.Record, error) bool) {
					for {
						rec, err := rd.Read()
						if err == io.EOF || !yield(rec, err) {
							return
						}
					}
				}
				legal := 0
				err := verdict.Check(records, workers, func(v verdict.Verdict, err error) error {
					if err != nil {
						return err
					}
					if v.Legal {
						legal++
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				return legal
			})
		})
	}
}
