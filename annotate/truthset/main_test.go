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
	if err := marks(context.Background(), []string{"--engine", "lore-20", "--size", "10", "--best", "truth", set}, &out); err != nil {
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
		{[]string{"--best", "truth", "--engine", "sage-20", "--size", "10", set}, "sage-20 values a turn played together with its own best"},
		{[]string{"--best", "truth", "--write", "m.go", set}, "--write"},
	} {
		err := marks(context.Background(), c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("marks %q: error %v, want one saying %q", c.args, err, c.want)
		}
	}
}

// TestByPlay runs a small reading by play (weak players, few games, one board) and checks its
// tables and CSV, and that what cannot be read is refused.
func TestByPlay(t *testing.T) {
	const set = "../testdata/truthset.parquet"
	var out bytes.Buffer
	csv := filepath.Join(t.TempDir(), "byplay.csv")
	args := []string{"--player", "lore-8", "--games", "9", "--best", "lore-20,truth", "--size", "10", "--csv", csv, set}
	if err := byPlay(context.Background(), args, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"150 candidates read by play: 9 games of lore-8", "best turn of lore-20, 8 games:", "best turn of truth, 9 games:", "| 30 | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("byplay's output has no %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1+2*150 || !strings.HasPrefix(lines[1], "play9-lore-20,10,") || !strings.HasPrefix(lines[2], "play9-truth,10,") {
		t.Errorf("the CSV: %d lines, %q, %q", len(lines), lines[0], lines[1])
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "0", "--size", "10", set}, "games 0"},
		{[]string{"--best", "sage-10ms", "--size", "10", set}, "budget must be of playouts"},
		{[]string{"--size", "9", set}, "no position on 9×9"},
		{[]string{set, set}, "one truth set file"},
	} {
		err := byPlay(context.Background(), c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("byplay %q: error %v, want one saying %q", c.args, err, c.want)
		}
	}
}
