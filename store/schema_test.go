package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/replay"
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
		"INSERT INTO game_turns (game, turns) VALUES (1, '" + darkPass() + "')",
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
	if _, err := d.db.Exec("INSERT INTO game_turns (game, turns) VALUES (2, NULL)"); err == nil || !strings.Contains(err.Error(), "NOT NULL constraint failed: game_turns.turns") {
		t.Errorf("a game without its turns: %v", err)
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

// darkPass is the turns text of one game of one turn, a pass of Dark's.
func darkPass() string {
	var b turntext.Builder
	tt := turntext.Pack(&replay.Features{Turn: 1, Colour: replay.Dark, Kind: replay.Pass, Mobility: [2]int{100, 100}}, 0)
	b.Add(&tt)
	return b.String()
}

// The statistics read the turns of a range of games by game_turns' key (Reader.TurnSummaries'
// query); the view turns, asked for one game, reads that game's row by the key too (through
// its window, which is by game), and unpacks a turn's record once (its innermost step is a
// subquery of its own, not copied into each use of the record: three co-routines).
func TestTurnsByKey(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn)
	for _, tc := range []struct{ query, want string }{
		{"SELECT game, turns FROM game_turns WHERE game >= 1 AND game <= 10 ORDER BY game", "SEARCH game_turns USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"},
		{"SELECT * FROM turns WHERE game = 3", "SEARCH g USING INTEGER PRIMARY KEY (rowid=?)"},
	} {
		if got := dump(t, d.db, "EXPLAIN QUERY PLAN "+tc.query); !strings.Contains(got, tc.want) {
			t.Errorf("%s: the plan\n%s", tc.query, got)
		}
	}
	if got := dump(t, d.db, "EXPLAIN QUERY PLAN SELECT * FROM turns"); strings.Count(got, "CO-ROUTINE") != 3 {
		t.Errorf("the view's plan, want three co-routines:\n%s", got)
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
	if d, err = openUpgrading(old); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n := count(t, d.db, "PRAGMA page_size"); n != 4096 {
		t.Errorf("page size %d after the upgrade, want 4096", n)
	}
}
