package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/schema.md documents the schema: its tables of columns are made from the schema's
// own descriptions, and this test keeps them in step (go test ./store -update rewrites them
// between their markers).
func TestDocsSchema(t *testing.T) {
	const path = "../docs/schema.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, tb := range tables {
		begin := "<!-- schema " + tb.name + " -->\n"
		const end = "<!-- end schema -->"
		i := strings.Index(readme, begin)
		if i < 0 {
			t.Errorf("%s has no %q marker for the %s table", path, strings.TrimSpace(begin), tb.name)
			continue
		}
		i += len(begin)
		j := strings.Index(readme[i:], end)
		if j < 0 {
			t.Errorf("%s: no %q after %q", path, end, strings.TrimSpace(begin))
			continue
		}
		want := tb.markdown()
		if got := readme[i : i+j]; got != want {
			if *update {
				readme = readme[:i] + want + readme[i+j:]
				continue
			}
			t.Errorf("the %s table of docs/schema.md differs from the schema (go test ./store -update rewrites it):\n%s", tb.name, want)
		}
	}
	if *update && readme != string(b) {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The DDL makes the tables with their keys: a game id is unique, a game has one row of
// turns; turns is a view of them, which cannot be written.
func TestSchemaConstraints(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	for _, q := range []string{
		"INSERT INTO games (id, game_id, source_id, source, file_index, line, format, swapped, size, supply, claimed_result, legal, unreadable, turns, over, score_light, score_dark, islands_light, islands_dark, bridges_light, bridges_dark, margin, moves, duplicates) VALUES (1, 'x', 1, 's', 1, 1, 'ponte', 0, 10, 'unlimited', '*', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '', 0)",
		"INSERT INTO game_turns (game, turns, by_turn) VALUES (1, '[[7,0,0]]', x'0000000000')",
	} {
		if _, err := d.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if got := dump(t, d.db, "SELECT game, turn, colour, kind, a, b FROM turns"); got != "1 | 1 | dark | pass | NULL | NULL\n" {
		t.Errorf("the view shows %q", got)
	}
	if _, err := d.db.Exec("INSERT INTO game_turns SELECT * FROM game_turns"); err == nil {
		t.Errorf("a second row of turns for game 1 was accepted")
	}
	if _, err := d.db.Exec("INSERT INTO game_turns (game, turns) VALUES (2, '[[7,0,0]]')"); err == nil || !strings.Contains(err.Error(), "NOT NULL constraint failed: game_turns.by_turn") {
		t.Errorf("turns without their summary: %v", err)
	}
	if _, err := d.db.Exec("INSERT INTO turns (game, turn) VALUES (1, 2)"); err == nil || !strings.Contains(err.Error(), "view") {
		t.Errorf("a turn was written to the view: %v", err)
	}
	if _, err := d.db.Exec("INSERT INTO games SELECT 2, game_id, source_id, source, file_index, line, format, event, site, date, round, record_id, light, dark, opener, swapped, size, supply, claimed_result, termination, claimed_score_light, claimed_score_dark, legal, unreadable, error_rule, error_turn, error_line, error_col, error_message, tag_errors, turns, over, result, winner, tiebreak, score_light, score_dark, islands_light, islands_dark, bridges_light, bridges_dark, margin, opening_a, opening_b, moves, raw, duplicates, components_light, components_dark FROM games"); err == nil {
		t.Errorf("a second game with the game_id 'x' was accepted")
	}
	if v := count(t, d.db, "PRAGMA user_version"); v != SchemaVersion {
		t.Errorf("user_version %d", v)
	}
}

// The statistics read the summaries of the turns (stats.turnSums's query) from the index
// that holds them, not from the table's pages, which hold the turns texts too.
func TestByTurnIndex(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn)
	got := dump(t, d.db, "EXPLAIN QUERY PLAN SELECT game, by_turn, typeof(by_turn) = 'blob' FROM game_turns WHERE game >= ? AND game <= ? ORDER BY game", 1, 10)
	if !strings.Contains(got, "USING COVERING INDEX game_turns_by_turn (game>? AND game<?)") {
		t.Errorf("the summaries are read with the plan\n%s", got)
	}
	if n := count(t, d.db, "SELECT count(*) FROM game_turns INDEXED BY game_turns_by_turn WHERE by_turn IS NOT NULL"); n < 10 {
		t.Errorf("%d summaries in the index", n)
	}
}

// A new database has pages of 16 KB (a game's turns fit them with little waste); one made
// with other pages keeps them.
func TestPageSize(t *testing.T) {
	d := openTemp(t)
	if n := count(t, d.db, "PRAGMA page_size"); n != pageSize || pageSize != 16384 {
		t.Errorf("page size %d, want %d", n, 16384)
	}
	path := d.Path()
	d.Close()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, d.db, "PRAGMA page_size"); n != pageSize {
		t.Errorf("page size %d when opened again", n)
	}
	d.Close()
	old := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, old, 3, "") // SQLite's default pages of 4 KB
	if d, err = Open(old); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n := count(t, d.db, "PRAGMA page_size"); n != 4096 {
		t.Errorf("page size %d after the upgrade, want 4096", n)
	}
}
