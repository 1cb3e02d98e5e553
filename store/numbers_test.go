package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/verdict"
)

// A JSON Lines record whose moves carry turn numbers that are not their turns' (an R9
// error, "3.d3,d4" at turn 2) is stored with those numbers (games.move_numbers), and read
// back with them: the record ponte export writes of it has the game_id it was stored under
// (issue 19, item 12: before schema version 6 the numbers were lost, and the id changed).
func TestMoveNumbersRoundTrip(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "numbers.jsonl")
	lines := `{"game_id": "a", "size": 6, "moves": ["b2,c3", "3.d3,d4", "9.e5,e6"]}
{"game_id": "b", "size": 6, "moves": ["1.b2,c3", "2.d3,d4"]}
{"game_id": "c", "size": 6, "moves": ["b2,c3", "d3,d4"]}
`
	if err := os.WriteFile(archive, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openTemp(t)
	ingestInto(t, d, Options{}, archive)
	if got := dump(t, d.db, "SELECT coalesce(move_numbers, 'NULL') FROM games ORDER BY id"); got != "2:3 3:9\nNULL\n" {
		t.Errorf("move_numbers:\n%s", got)
	}
	ids := dump(t, d.db, "SELECT game_id FROM games ORDER BY id")
	d.Close()

	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got string
	err = r.Records(context.Background(), Filter{}, AnyVerdict, func(rec *ingest.Record, unreadable bool) error {
		got += verdict.GameID(rec) + "\n"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != ids {
		t.Errorf("the records read back have the ids\n%s\nstored under\n%s", got, ids)
	}
}

// A database of schema version 5 is upgraded to 6 by Open: games gets move_numbers, NULL
// for the games stored before (their numbers were not kept), and nothing else changes;
// OpenReader refuses it until then.
func TestUpgradeVersion5(t *testing.T) {
	d := openTemp(t)
	ingestInto(t, d, Options{}, autumn, online)
	path := d.path
	v5 := gamesV5()
	before := dump(t, d.db, "SELECT "+v5.names()+" FROM games ORDER BY id")
	// Version 5's turns are the JSON text of versions 4 to 6 (made as upgradeTo4 makes it).
	if _, err := d.db.Exec("CREATE TEMP TABLE v5 AS SELECT game, '[' || group_concat(" + repackSQL + ", ',' ORDER BY turn) || ']' AS turns FROM turns GROUP BY game;" +
		"UPDATE game_turns SET turns = (SELECT turns FROM v5 WHERE v5.game = game_turns.game); DROP TABLE v5"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.Exec("ALTER TABLE games DROP COLUMN move_numbers; PRAGMA user_version = 5"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := OpenReader(path); err == nil || !strings.Contains(err.Error(), "a database of schema version 5: run ponte ingest on it once") {
		t.Errorf("OpenReader of a database of version 5: %v", err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if v := count(t, d.db, "PRAGMA user_version"); v != SchemaVersion {
		t.Errorf("user_version %d after the upgrade", v)
	}
	if got := dump(t, d.db, "SELECT "+v5.names()+" FROM games ORDER BY id"); got != before {
		t.Errorf("games changed by the upgrade:\n%.2000s\nwant\n%.2000s", got, before)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games WHERE move_numbers IS NOT NULL"); n != 0 {
		t.Errorf("%d games with move_numbers after the upgrade", n)
	}
}
