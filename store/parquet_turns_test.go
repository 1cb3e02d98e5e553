package store

import (
	"os"
	"strings"
	"testing"
)

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
