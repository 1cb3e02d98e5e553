package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
		if status := run([]string{"verify", "--json", "--quiet", path}, nil, io.Discard, io.Discard); status != exitFindings {
			b.Fatalf("exit status %d", status)
		}
	}
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkSelfplayRandom runs `ponte selfplay` end to end (play, record, write) for 100
// games of random against random on 10×10, on one worker and on one per core.
func BenchmarkSelfplayRandom(b *testing.B) {
	const games = 100
	for _, workers := range []int{1, runtime.NumCPU()} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			args := []string{"selfplay", "--games", strconv.Itoa(games), "--light", "random", "--dark", "random",
				"--workers", strconv.Itoa(workers), "--quiet"}
			for b.Loop() {
				if status := run(args, nil, io.Discard, io.Discard); status != exitOK {
					b.Fatalf("exit status %d", status)
				}
			}
			b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
