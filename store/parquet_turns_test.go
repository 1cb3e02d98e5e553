package store

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// turns.parquet, its row groups encoded apart on every core and copied into the file, is
// byte for byte the file one writer makes of the same rows: the sample data's 158,737
// turns make two row groups, one full.
func TestTurnsParquetAsOneWriter(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, "../sample_data")
	dir := t.TempDir()
	st, err := d.WriteParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Turns <= turnsPerRowGroup {
		t.Fatalf("%d turns: not more than one row group", st.Turns)
	}
	path := filepath.Join(dir, "turns.parquet")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := readParquet[TurnRow](t, path)
	if int64(len(rows)) != st.Turns {
		t.Fatalf("%d rows read, %d written", len(rows), st.Turns)
	}
	state, ok := parquetState(path)
	if !ok {
		t.Fatal("no state in turns.parquet")
	}
	var want bytes.Buffer
	w := parquet.NewGenericWriter[TurnRow](&want, append(turnsWriterOptions(), parquet.KeyValueMetadata(stateKey, state))...)
	for len(rows) > 0 { // in batches, as the export writes them
		n := min(len(rows), turnsBatchRows)
		if _, err := w.Write(rows[:n]); err != nil {
			t.Fatal(err)
		}
		rows = rows[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("turns.parquet (%d bytes) differs from one writer's file of its rows (%d bytes)", len(got), want.Len())
	}
}

// A game whose turns cannot be read stops the export of turns.parquet with where they are,
// on any core, and leaves no file, whole or partial.
func TestTurnsParquetBadText(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, "../sample_data")
	var last int64
	if err := d.db.QueryRow("SELECT max(game) FROM game_turns").Scan(&last); err != nil {
		t.Fatal(err)
	}
	for _, game := range []int64{1, last / 2, last} {
		var text string
		if err := d.db.QueryRow("SELECT turns FROM game_turns WHERE game = ?", game).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if _, err := d.db.Exec("UPDATE game_turns SET turns = substr(turns, 1, 16) || '~~~~~~~~~' || substr(turns, 26) WHERE game = ?", game); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		_, err := d.WriteParquet(dir)
		if err == nil || !strings.Contains(err.Error(), "turns.parquet") || !strings.Contains(err.Error(), "game_turns.turns of game") ||
			!strings.Contains(err.Error(), "turn 2, byte 17: a record beyond its fields' ranges") {
			t.Errorf("game %d: %v", game, err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), "turns.parquet") {
				t.Errorf("game %d: %s left in the folder", game, e.Name())
			}
		}
		if _, err := d.db.Exec("UPDATE game_turns SET turns = ? WHERE game = ?", text, game); err != nil {
			t.Fatal(err)
		}
	}
}
