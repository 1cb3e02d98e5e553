package parquet

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/internal/turntext"
)

// games makes n games of perGame turns of random features (turntext.RandomGame), packed
// as game_turns.turns holds them.
func games(n, perGame int) []string {
	rng := rand.New(rand.NewPCG(30, 1))
	var out []string
	for range n {
		var b turntext.Builder
		feats, millis := turntext.RandomGame(rng, perGame, 40)
		for i := range feats {
			t := turntext.Pack(&feats[i], millis[i])
			b.Add(&t)
		}
		out = append(out, b.String())
	}
	return out
}

// turns.parquet, its row groups encoded apart on every core and copied into the file, is
// byte for byte the file one writer makes of the same rows: 150,000 turns make two row
// groups, one full.
func TestTurnsAsOneWriter(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	path := filepath.Join(t.TempDir(), "turns.parquet")
	tf, err := CreateTurns(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range games(3000, 50) {
		if err := tf.AddGame(int64(i+1), text); err != nil {
			t.Fatal(err)
		}
	}
	n, _, err := tf.Finish("a state")
	if err != nil {
		t.Fatal(err)
	}
	if n <= TurnsPerRowGroup {
		t.Fatalf("%d turns: not more than one row group", n)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := State(path); !ok || s != "a state" {
		t.Fatalf("state %q, %v", s, ok)
	}
	rows, err := pq.Read[TurnRow](bytes.NewReader(got), int64(len(got)))
	if err != nil || int64(len(rows)) != n {
		t.Fatalf("%d rows read (%v), %d written", len(rows), err, n)
	}
	var want bytes.Buffer
	w := pq.NewGenericWriter[TurnRow](&want, append(turnsWriterOptions(), pq.KeyValueMetadata(StateKey, "a state"))...)
	for len(rows) > 0 { // in batches, as the file is given them
		k := min(len(rows), turnsBatchRows)
		if _, err := w.Write(rows[:k]); err != nil {
			t.Fatal(err)
		}
		rows = rows[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("turns.parquet (%d bytes) differs from one writer's file of its rows (%d bytes)", len(got), want.Len())
	}
}

// A game whose turns cannot be read stops the file with where they are, and Close leaves
// no file.
func TestTurnsBadText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "turns.parquet")
	tf, err := CreateTurns(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	texts := games(3, 10)
	texts[1] = "[[1,2,3],[x]]"
	for i, text := range texts {
		if err = tf.AddGame(int64(i+1), text); err != nil {
			break
		}
	}
	_, _, err = tf.Close(err, "a state")
	if err == nil || !strings.Contains(err.Error(), "game_turns.turns of game 2") || !strings.Contains(err.Error(), "turns.parquet") {
		t.Errorf("Close = %v", err)
	}
	if _, serr := os.Stat(path); !os.IsNotExist(serr) {
		t.Errorf("turns.parquet left: %v", serr)
	}
}

// BenchmarkTurns measures turns.parquet's writing (unpacking, encoding on two goroutines,
// copying), of 3,000 games of 50 random turns, or of the games of the file
// PONTE_BENCH_TURNS names (game_turns.turns, one game a line). cpu-ns/turn counts the CPU
// of every goroutine.
func BenchmarkTurns(b *testing.B) {
	texts := games(3000, 50)
	if p := os.Getenv("PONTE_BENCH_TURNS"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		texts = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	turns := 0
	for _, t := range texts {
		turns += (len(t) - turntext.HeaderSize) / turntext.RecordSize
	}
	dir := b.TempDir()
	i := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		i++
		path := filepath.Join(dir, "turns"+strconv.Itoa(i)+".parquet")
		tf, err := CreateTurns(path, 2)
		if err != nil {
			b.Fatal(err)
		}
		for g, text := range texts {
			if err := tf.AddGame(int64(g+1), text); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, err := tf.Finish("state"); err != nil {
			b.Fatal(err)
		}
		os.Remove(path)
	}
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(b.N*turns), "cpu-ns/turn")
}

// cellIndex finds exactly the names a1 … z26, and cell gives every text back as it is.
func TestCellIndex(t *testing.T) {
	var u TurnUnpacker
	for i, name := range cellNames {
		if got := cellIndex(name); got != i {
			t.Errorf("cellIndex(%q) = %d, want %d", name, got, i)
		}
	}
	for _, c := range []string{"a", "a0", "a01", "a27", "z99", "a100", "A1", "{1", "a1x", "b2 ", "é1", "a\xff", "-"} {
		if got := cellIndex(c); got != -1 {
			t.Errorf("cellIndex(%q) = %d, want -1", c, got)
		}
		if p := u.cell(c); p == nil || *p != c && c != "a\xff" {
			t.Errorf("cell(%q) = %v", c, p)
		}
	}
	if p := u.cell("c12"); p == nil || *p != "c12" || p != u.cell("c12") {
		t.Errorf("cell(c12) = %v, not shared", p)
	}
	if p := u.cell(""); p != nil {
		t.Errorf("cell(\"\") = %q, want nil", *p)
	}
}
