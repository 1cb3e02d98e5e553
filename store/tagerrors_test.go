package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// A record with tag values that cannot be read is stored as read, not unreadable: its
// error is the first slip, tag_errors holds them all as ponte verify prints them, its
// turns and scores are the replay's; the Parquet file holds the same.
func TestIngestTagErrors(t *testing.T) {
	const text = `[GameId "slip-1"]
[Date "2026-3-1"]
[Size "6"]
[Result "1-0"]
[Termination "forfeit"]

1. a1,a2 2. f1,f2 3. b1,b2 0-1

[Size "6"]

1. a1,a2 2. f1,f2 *
`
	path := filepath.Join(t.TempDir(), "slips.ponte")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := ingest.NewReader(strings.NewReader(text), path).Read()
	if err != nil {
		t.Fatal(err)
	}
	var g replay.Game
	v := verdict.Of(rec, &g)
	wantJSON, _ := json.Marshal(v.TagErrors)
	if len(v.TagErrors) != 3 {
		t.Fatalf("%d tag errors: %s", len(v.TagErrors), wantJSON)
	}

	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, path)
	if sum.Games != 2 || sum.Legal != 1 || sum.Illegal != 1 || sum.Unreadable != 0 {
		t.Errorf("summary %+v", sum)
	}
	got := dump(t, d.db, `SELECT game_id, record_id, legal, unreadable, error_rule, error_turn, error_line, error_col, error_message,
		tag_errors, turns, claimed_result, termination, score_light, margin, (SELECT count(*) FROM turns WHERE game = g.id)
		FROM games g WHERE id = 1`)
	want := v.GameID + ` | slip-1 | 0 | 0 | format | NULL | 2 | 7 | Date "2026-3-1": must be YYYY.MM.DD, ?? for unknown parts | ` +
		string(wantJSON) + " | 3 | * | NULL | 1 | 1 | 3\n"
	if got != want {
		t.Errorf("games row\n%s\nwant\n%s", got, want)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games WHERE id = 2 AND tag_errors IS NULL AND legal"); n != 1 {
		t.Error("a game without slips has tag_errors")
	}

	dir := t.TempDir()
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	rows := readParquet[GameRow](t, filepath.Join(dir, "games.parquet"))
	if r := rows[0]; r.TagErrors == nil || *r.TagErrors != string(wantJSON) || r.ScoreLight == nil || *r.ScoreLight != 1 || r.Unreadable {
		t.Errorf("Parquet row %+v", r)
	}
	if rows[1].TagErrors != nil {
		t.Errorf("Parquet: game 2 has tag_errors %s", *rows[1].TagErrors)
	}
}
