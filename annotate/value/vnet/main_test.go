package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/annotate/value"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, got)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPlay checks games 0 to 2 of 8×8, seed 777, against the golden file, and that they
// are the games the experiment's first generator played (its JSON Lines, converted),
// with one worker or two, whole or resumed.
func TestPlay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	runPlay := func(name string, args ...string) []byte {
		path := filepath.Join(dir, name)
		var out bytes.Buffer
		if err := play(ctx, append([]string{"--size", "8", "--seed", "777", "--out", path}, args...), &out); err != nil {
			t.Fatal(err)
		}
		return read(t, path)
	}
	whole := runPlay("whole.ponte", "--games", "3", "--workers", "1")
	golden(t, "play-8x8-777.ponte", whole)
	if two := runPlay("two.ponte", "--games", "3", "--workers", "2"); !bytes.Equal(two, whole) {
		t.Errorf("two workers play other games")
	}
	first, rest := runPlay("first.ponte", "--games", "1"), runPlay("rest.ponte", "--from", "1", "--games", "2")
	if !bytes.Equal(append(first, rest...), whole) {
		t.Errorf("a run resumed with --from is not the whole run")
	}
	conv := filepath.Join(dir, "converted.ponte")
	var out bytes.Buffer
	if err := convert(ctx, []string{"--out", conv, "testdata/v8-777-0-2.jsonl"}, &out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, conv), whole) {
		t.Errorf("the first generator's games 0 to 2 converted differ from play's:\n%s", read(t, conv))
	}
	if !strings.Contains(string(whole), `[RandomTurn "32"]`) {
		t.Errorf("game 1's random turn 32 has no tag")
	}
}

// TestTrainTwice checks that a short training run made twice gives the same weights, and
// that the weights are not the first ones.
func TestTrainTwice(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run := func(name string, steps string) []byte {
		path := filepath.Join(dir, name)
		var out bytes.Buffer
		args := []string{"--steps", steps, "--every", "2", "--batch", "16", "--held-out", "50", "--filters", "8", "--layers", "2", "--hidden", "8",
			"--truth", "../../testdata/truthset.parquet", "--out", path, "testdata/play-8x8-777.ponte"}
		if err := train(ctx, args, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "games: 2 training, 1 held out") || !strings.Contains(out.String(), "step "+steps+" of "+steps) {
			t.Errorf("train's lines:\n%s", out.String())
		}
		return read(t, path)
	}
	a, b := run("a.bin", "5"), run("b.bin", "5")
	if !bytes.Equal(a, b) {
		t.Errorf("two runs of the same command: other weights")
	}
	if c := run("c.bin", "1"); bytes.Equal(a, c) {
		t.Errorf("1 step and 5 steps: the same weights")
	}
}

// TestTruth checks truth's figures for the committed model, with the blend with lore-200's
// reading, against the golden file.
func TestTruth(t *testing.T) {
	var out bytes.Buffer
	csv := filepath.Join(t.TempDir(), "model.csv")
	args := []string{"--model", "../testdata/model.bin", "../../testdata/truthset.parquet", "--csv", csv, "--search", "testdata/truthset-lore200.csv"}
	if err := truth(context.Background(), args, &out); err != nil {
		t.Fatal(err)
	}
	golden(t, "truth-model.golden", out.Bytes())
	lines := strings.Split(strings.TrimSpace(string(read(t, csv))), "\n")
	if len(lines) != 771 || lines[0] != "size,position,kind,candidate,value,mean,loss,loss_se,predicted" {
		t.Errorf("the CSV: %d lines, header %q", len(lines), lines[0])
	}
}

func TestUsageErrors(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func([]string) error
		args []string
		want string
	}{
		{"play without --out", func(a []string) error { return play(ctx, a, &bytes.Buffer{}) }, nil, "--out"},
		{"play size", func(a []string) error { return play(ctx, a, &bytes.Buffer{}) }, []string{"--size", "4", "--out", "x.ponte"}, "--size 4"},
		{"train without games", func(a []string) error { return train(ctx, a, &bytes.Buffer{}) }, []string{"--out", "m.bin"}, "archives"},
		{"train of no step", func(a []string) error { return train(ctx, a, &bytes.Buffer{}) },
			[]string{"--out", "m.bin", "--steps", "0", "testdata/play-8x8-777.ponte"}, "--steps"},
		{"train on an illegal game", func(a []string) error { return train(ctx, a, &bytes.Buffer{}) },
			[]string{"--out", "m.bin", "testdata/illegal.ponte"}, "illegal.ponte, game 1, turn 3"},
		{"truth without model", func(a []string) error { return truth(ctx, a, &bytes.Buffer{}) }, []string{"x.parquet"}, "--model"},
		{"truth not a model", func(a []string) error { return truth(ctx, a, &bytes.Buffer{}) }, []string{"--model", "testdata/v8-777-0-2.jsonl", "x.parquet"}, "not a value model"},
	} {
		err := c.run(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func TestParseMixed(t *testing.T) {
	for _, c := range []struct {
		args  []string
		files []string
		steps int
	}{
		{[]string{"a", "--steps", "3", "b"}, []string{"a", "b"}, 3},
		{[]string{"--steps", "4", "a", "b"}, []string{"a", "b"}, 4},
		{[]string{"a", "-", "--", "--steps"}, []string{"a", "-", "--steps"}, 1},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		steps := fs.Int("steps", 1, "")
		files, err := parseMixed(fs, c.args)
		if err != nil || !slices.Equal(files, c.files) || *steps != c.steps {
			t.Errorf("%q: files %q, steps %d, error %v; want %q, %d", c.args, files, *steps, err, c.files, c.steps)
		}
	}
}

// TestDrawSupply draws positions from games of the printed supply (40/15) on 12×12, where a player
// runs out of tiles and passes: they are replayed with their own supply, not an unlimited one.
func TestDrawSupply(t *testing.T) {
	games, err := readGames(context.Background(), []string{"testdata/random-40-15.ponte"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var s value.Sample
	drawn := 0
	for range 500 {
		for _, g := range games {
			switch err := draw(g, rng, &s); {
			case err == nil:
				drawn++
			case !errors.Is(err, errNoPosition):
				t.Fatalf("game %d: %v", g.index, err)
			}
		}
	}
	if drawn == 0 {
		t.Fatal("no position drawn")
	}
}

// TestTruthEngine checks truth --engine: each loss measured against the engine's own best
// turn (as ponte annotate finds it), never below 0, and 0 for a candidate that is that turn;
// the figures against the golden file.
func TestTruthEngine(t *testing.T) {
	var out bytes.Buffer
	path := filepath.Join(t.TempDir(), "model.csv")
	args := []string{"--model", "../testdata/model.bin", "--engine", "lore-50", "--csv", path, "../../testdata/truthset.parquet"}
	if err := truth(context.Background(), args, &out); err != nil {
		t.Fatal(err)
	}
	golden(t, "truth-model-lore50.golden", out.Bytes())
	e, err := annotate.NewEngine("lore-50", annotate.CalibrationOf("lore-50"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := annotate.ReadTruthSet("../../testdata/truthset.parquet")
	if err != nil {
		t.Fatal(err)
	}
	moves := map[[2]int32][]string{}
	for _, r := range rows {
		moves[[2]int32{r.Size, r.Position}] = strings.Fields(r.Moves)
	}
	recs, err := csv.NewReader(bytes.NewReader(read(t, path))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// size,position,kind,candidate,value,mean,loss,loss_se,predicted
	zero, own := 0, 0
	for _, f := range recs[1:] {
		if f[2] == "best" {
			continue
		}
		size, _ := strconv.Atoi(f[0])
		position, _ := strconv.Atoi(f[1])
		candidate := f[3]
		predicted, err := strconv.ParseFloat(f[8], 64)
		if err != nil {
			t.Fatal(err)
		}
		if predicted < 0 {
			t.Errorf("%d×%d position %d, candidate %s: loss %g below 0", size, size, position, candidate, predicted)
		}
		if predicted == 0 {
			zero++
		}
		if position%5 != 0 { // the engine's best in a fifth of the positions, to keep it short
			continue
		}
		best, err := e.BestTurn(annotate.TruthGameID(int32(size), int32(position)), size, moves[[2]int32{int32(size), int32(position)}])
		if err != nil {
			t.Fatal(err)
		}
		if best == candidate {
			own++
			if predicted != 0 {
				t.Errorf("%d×%d position %d: the engine's best %s has loss %g, want 0", size, size, position, candidate, predicted)
			}
		}
	}
	if own == 0 || zero == 0 {
		t.Errorf("no candidate was the engine's best (%d) or read a loss of 0 (%d): the test checks nothing", own, zero)
	}
}
