package ingest

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/ponte/ponte/internal/cputime"
)

// cpuLoop runs body b.N times, as b.Loop does, and reports the CPU time the process used
// for it per iteration (cpu-ms/op), beside the wall time.
func cpuLoop(b *testing.B, body func()) {
	start := cputime.Process()
	n := 0
	for b.Loop() {
		body()
		n++
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(time.Millisecond)/float64(max(n, 1)), "cpu-ms/op")
}

// benchInput repeats a conformance corpus in memory to about 20 MB.
func benchInput(b *testing.B, name string) (data []byte, games int) {
	b.Helper()
	one, err := os.ReadFile(corpusDir + name)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	rd := NewReader(bytes.NewReader(one), name)
	for {
		if _, err := rd.Read(); err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
		n++
	}
	reps := 20 << 20 / len(one)
	return bytes.Repeat(one, reps), n * reps
}

func benchReader(b *testing.B, name string) {
	data, games := benchInput(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpuLoop(b, func() {
		rd := NewReader(bytes.NewReader(data), name)
		n := 0
		for {
			_, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != games {
			b.Fatalf("read %d games, want %d", n, games)
		}
	})
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPonteReader measures the .ponte reader on about 35,000 games.
func BenchmarkPonteReader(b *testing.B) { benchReader(b, "corpus.ponte") }

// BenchmarkJSONLReader measures the JSON Lines reader on the same games.
func BenchmarkJSONLReader(b *testing.B) { benchReader(b, "corpus.jsonl") }

// BenchmarkPonteReaderReleased is BenchmarkPonteReader for a reader whose records are
// released once read (Record.Release), as verify's pipeline releases them: the records,
// their tags, turns and text are filled again, without allocating.
func BenchmarkPonteReaderReleased(b *testing.B) {
	data, games := benchInput(b, "corpus.ponte")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rd := NewReader(bytes.NewReader(data), "corpus.ponte")
		n := 0
		for {
			rec, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
			n++
		}
		if n != games {
			b.Fatalf("read %d games, want %d", n, games)
		}
	}
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
