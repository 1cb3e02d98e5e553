package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkVerify runs `ponte verify --json` end to end (reading, replay on all cores,
// ordered output) on a file of 4,500 games: the conformance corpus repeated 30 times.
func BenchmarkVerify(b *testing.B) {
	corpus, err := os.ReadFile("../../replay/testdata/conformance/random/corpus.ponte")
	if err != nil {
		b.Fatal(err)
	}
	const copies = 30
	path := filepath.Join(b.TempDir(), "archive.ponte")
	if err := os.WriteFile(path, bytes.Repeat(append(corpus, '\n'), copies), 0o644); err != nil {
		b.Fatal(err)
	}
	info, _ := os.Stat(path)
	games := copies * strings.Count(string(corpus), "[Event ")
	b.SetBytes(info.Size())
	b.ResetTimer()
	for b.Loop() {
		if status := run([]string{"verify", "--json", "--quiet", path}, nil, io.Discard, io.Discard); status != exitIllegal {
			b.Fatalf("exit status %d", status)
		}
	}
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
