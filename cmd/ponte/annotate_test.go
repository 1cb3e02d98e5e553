package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/annotate"
)

// annotateDB ingests the club archive into a new database with its Parquet folder.
func annotateDB(t *testing.T, dir, name string) string {
	t.Helper()
	db := filepath.Join(dir, name)
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--db", db, "../../sample_data/club-2025.ponte.gz"); status != exitOK {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}
	return db
}

func annotateJSON(t *testing.T, args ...string) annotate.Result {
	t.Helper()
	out, errOut, status := runPonte(t, "", append([]string{"annotate", "--json", "--engine", "sage-8"}, args...)...)
	if status != exitOK {
		t.Fatalf("annotate %v: exit status %d: %s", args, status, errOut)
	}
	var r annotate.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("annotate %v: %v: %s", args, err, out)
	}
	return r
}

// TestAnnotateTwiceStoresNothingNew: the second run finds every game read.
func TestAnnotateTwiceStoresNothingNew(t *testing.T) {
	db := annotateDB(t, t.TempDir(), "ponte.db")
	first := annotateJSON(t, "--db", db, "--games", "3")
	if first.Games != 3 || first.Stored == 0 || first.Rows != first.Stored || first.Bot != "sage-8" {
		t.Fatalf("first run: %+v", first)
	}
	if first.Positions != first.Stored+3 {
		t.Errorf("%d positions for %d turns of 3 games", first.Positions, first.Stored)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db), "ponte.parquet", "turn_evals.parquet")); err != nil {
		t.Errorf("turn_evals.parquet: %v", err)
	}
	again := annotateJSON(t, "--db", db, "--games", "3", "--workers", "1")
	if again.Games != 3 || again.Stored == 0 || again.Rows != first.Rows+again.Stored {
		t.Fatalf("the next 3 games: %+v", again)
	}
	all := annotateJSON(t, "--db", db)
	none := annotateJSON(t, "--db", db)
	if none.Games != 0 || none.Stored != 0 || none.Rows != all.Rows {
		t.Fatalf("second run over all the games: %+v after %+v", none, all)
	}
}

// TestAnnotateShards: two shards, each in a copy of the database, merged, give the rows of
// one run over the whole database, and merging again adds nothing.
func TestAnnotateShards(t *testing.T) {
	dir := t.TempDir()
	one := annotateDB(t, dir, "one.db")
	a := annotateDB(t, dir, "a.db")
	b := annotateDB(t, dir, "b.db")
	whole := annotateJSON(t, "--db", one)
	ra := annotateJSON(t, "--db", a, "--shard", "1/2")
	rb := annotateJSON(t, "--db", b, "--shard", "2/2", "--workers", "1")
	if ra.Games == 0 || rb.Games == 0 || ra.Games+rb.Games != whole.Games {
		t.Fatalf("shards read %d and %d games, one run %d", ra.Games, rb.Games, whole.Games)
	}
	merged := annotateJSON(t, "--db", a, "--shard", "1/2", "--merge", filepath.Join(dir, "b.parquet", "turn_evals.parquet"))
	if merged.Merged != rb.Stored || merged.Rows != whole.Rows || merged.Games != 0 {
		t.Fatalf("merged: %+v; shard 2 stored %d, one run %d rows", merged, rb.Stored, whole.Rows)
	}
	again := annotateJSON(t, "--db", a, "--merge", filepath.Join(dir, "b.parquet", "turn_evals.parquet"))
	if again.Merged != 0 || again.Stored != 0 {
		t.Fatalf("merged twice: %+v", again)
	}
	dump := func(db string) string {
		t.Helper()
		out, errOut, status := runPonte(t, "", "annotate", "--json", "--engine", "sage-8", "--db", db)
		if status != exitOK {
			t.Fatal(errOut)
		}
		_ = out
		data, err := os.ReadFile(filepath.Join(strings.TrimSuffix(db, ".db")+".parquet", "turn_evals.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if dump(one) != dump(a) {
		t.Error("turn_evals.parquet of the merged shards differs from one run's")
	}
}

func TestAnnotateUsage(t *testing.T) {
	db := annotateDB(t, t.TempDir(), "ponte.db")
	for _, args := range [][]string{
		{"--shard", "3/2"}, {"--shard", "x"}, {"--budget", "0"}, {"--engine", "lore-50ms"}, {"--engine", "greedy"}, {"--workers", "0"}, {"--games", "-1"},
		{"--merge", filepath.Join(t.TempDir(), "none.parquet")}, {"--engine", "play-0"}, {"--engine", "play-5000"},
	} {
		if _, errOut, status := runPonte(t, "", append([]string{"annotate", "--db", db}, args...)...); status != exitUsage || errOut == "" {
			t.Errorf("%v: exit status %d, %q", args, status, errOut)
		}
	}
	if _, errOut, status := runPonte(t, "", "annotate", "--db", filepath.Join(t.TempDir(), "none.db")); status != exitUsage || !strings.Contains(errOut, "no database") {
		t.Errorf("no database: exit status %d, %q", status, errOut)
	}
}

// TestAnnotateByPlay: a reading by play reads a short game of people end to end (one game
// of the sample's Abstract Play export, 18 turns, one game out after each turn), stores a
// row a turn under its name, is calibrated again as it was made, and is not read twice.
func TestAnnotateByPlay(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ap.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--db", db, "../../sample_data/abstractplay-export.json"); status != exitOK {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}
	// annotateJSON's --engine sage-8 comes first: the last --engine is the one read.
	run := func(args ...string) annotate.Result {
		return annotateJSON(t, append([]string{"--db", db, "--engine", "play-1", "--player", "ap34"}, args...)...)
	}
	first := run("--workers", "1")
	if first.Bot != "play-1" || first.Games != 1 || first.Stored != 18 || first.Positions != 19 {
		t.Fatalf("play-1 on an 18-turn game: %+v", first)
	}
	if r := run("--recalibrate"); r.Recalibrated != 0 || r.Games != 0 || r.Rows != first.Rows {
		t.Errorf("rows just read by play calibrated again, or read again: %+v", r)
	}
}

// TestAnnotateRecalibrate: rows just made are calibrated as this ponte calibrates.
func TestAnnotateRecalibrate(t *testing.T) {
	db := annotateDB(t, t.TempDir(), "ponte.db")
	first := annotateJSON(t, "--db", db, "--games", "2")
	r := annotateJSON(t, "--db", db, "--recalibrate", "--player", "nobody")
	if r.Recalibrated != 0 || r.Rows != first.Rows || r.Games != 0 {
		t.Fatalf("rows just made recalibrated: %+v", r)
	}
}

// TestAnalyzeEvals: ponte analyze merges --evals, reads --annotate=N games, and the
// report's pages of those games draw the engine's reading.
func TestAnalyzeEvals(t *testing.T) {
	dir := t.TempDir()
	src := annotateDB(t, dir, "src.db")
	annotateJSON(t, "--db", src, "--games", "2")
	evals := filepath.Join(dir, "src.parquet", "turn_evals.parquet")
	db := filepath.Join(dir, "ponte.db")
	out := filepath.Join(dir, "report")
	stdout, errOut, status := runPonte(t, "", "analyze", "--db", db, "--out", out, "--evals", evals, "--annotate=1", "../../sample_data/club-2025.ponte.gz")
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	if !strings.Contains(stdout, annotate.DefaultEngine+": 1 game read") || !strings.Contains(stdout, "merged") {
		t.Errorf("summary: %s", stdout)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "games", "*.html"))
	drawn := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `id="evalgraph"`) {
			drawn++
		}
	}
	// The game the default engine read is the first of the two sage-8 read (merged): two pages.
	if drawn != 2 {
		t.Errorf("%d pages with the graph, want 2", drawn)
	}
	if _, errOut, status := runPonte(t, "", "analyze", "--db", db, "--out", out, "--annotate=x", "../../sample_data/club-2025.ponte.gz"); status != exitUsage || !strings.Contains(errOut, "--annotate") {
		t.Errorf("--annotate=x: exit status %d, %q", status, errOut)
	}
}
