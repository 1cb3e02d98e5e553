package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunResumes checks that a run stopped after some positions and started again with
// more measures only the rest, and ends with the file one run makes; a shard run again
// adds nothing; two shards merged, and merged again, are that file too.
func TestRunResumes(t *testing.T) {
	ctx := context.Background()
	tiny := []string{"--size", "6", "--player", "lore-8", "--searcher", "lore-60", "--batch", "4", "--max-games", "8", "--se", "0.01", "--probe", "0"}
	runIn := func(dir string, args ...string) string {
		var out bytes.Buffer
		if err := run(ctx, append(append([]string{"--out", dir}, tiny...), args...), &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	once, twice, shards := t.TempDir(), t.TempDir(), t.TempDir()
	runIn(once, "--positions", "3")
	runIn(twice, "--positions", "2")
	if out := runIn(twice, "--positions", "3"); !strings.Contains(out, "2 measured, 1 to measure") {
		t.Errorf("the second run: %q", out)
	}
	file := "truthset-6x6-seed1-shard1of1.parquet"
	want := read(filepath.Join(once, file))
	if !bytes.Equal(read(filepath.Join(twice, file)), want) {
		t.Errorf("a run resumed is not the one run's file")
	}
	if out := runIn(twice, "--positions", "3"); !strings.Contains(out, "3 measured, 0 to measure") || !bytes.Equal(read(filepath.Join(twice, file)), want) {
		t.Errorf("a finished run again: %q, or its file changed", out)
	}
	runIn(shards, "--positions", "3", "--shard", "1/2")
	runIn(shards, "--positions", "3", "--shard", "2/2")
	merged := filepath.Join(shards, "merged.parquet")
	parts, _ := filepath.Glob(filepath.Join(shards, "truthset-*.parquet"))
	for range 2 {
		var out bytes.Buffer
		if err := merge(ctx, append([]string{"--out", merged}, parts...), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "3 positions") || !bytes.Equal(read(merged), want) {
			t.Errorf("merged shards (%s): not the one run's file", strings.TrimSpace(out.String()))
		}
	}
}

// TestMarksBest checks marks --best: truth reads the engine's values against the truth set's
// best candidate, and what cannot be read so is refused.
func TestMarksBest(t *testing.T) {
	const set = "../testdata/truthset.parquet"
	var out bytes.Buffer
	if err := marks([]string{"--engine", "lore-20", "--size", "10", "--best", "truth", set}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "150 candidates read by lore-20 against the truth set's best candidate") {
		t.Errorf("marks --best truth:\n%s", out.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--best", "mine", set}, `--best "mine"`},
		{[]string{"--best", "truth", "--engine", "sage-20", "--size", "10", set}, "sage-20 values a turn inside the search"},
		{[]string{"--best", "truth", "--write", "m.go", set}, "--write"},
	} {
		err := marks(c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("marks %q: error %v, want one saying %q", c.args, err, c.want)
		}
	}
}
