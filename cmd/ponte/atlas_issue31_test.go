package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/store"
)

// tinyAtlas is an atlas of two games a class: a shard of it is played in a fraction of a
// second.
var tinyAtlas = []string{"--size", "5", "--bot", "sage-4", "--first", "2", "--max", "4", "--confirm", "2", "--candidates", "1", "--workers", "2", "-q"}

// atlasRun runs ponte atlas run into db with the tiny atlas's settings and more flags.
func atlasRun(t *testing.T, db string, more ...string) string {
	t.Helper()
	_, errOut, status := runPonte(t, "", append(append([]string{"atlas", "run", "--db", db}, tinyAtlas...), more...)...)
	if status != exitOK {
		t.Fatalf("atlas run --db %s %v: exit %d: %s", db, more, status, errOut)
	}
	return errOut
}

// atlasDump is what an atlas database holds, as text: its settings, games and estimates.
func atlasDump(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, q := range []string{"SELECT * FROM atlas_meta ORDER BY key", "SELECT * FROM atlas_games ORDER BY stage, class, idx", "SELECT * FROM atlas_classes ORDER BY class"} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, q, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			v := make([]any, len(cols))
			p := make([]any, len(cols))
			for i := range v {
				p[i] = &v[i]
			}
			if err := rows.Scan(p...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, v...)
		}
		rows.Close()
	}
	return b.String()
}

// sqlExec changes a database as another program would.
func sqlExec(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %s: %v", path, query, err)
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestAtlasTwoWriters: issue 31 finding 3: two ponte atlas run of other settings on one
// database at once both exited 0 and mixed their games. A writer holds the file's lock
// from open to close: while another holds it (here a second holder in this process, which
// holds it until the commands have run), run and merge are refused with exit 2 naming the
// database, and write nothing to it; once it is let go, they run.
func TestAtlasTwoWriters(t *testing.T) {
	dir := t.TempDir()
	db, shard := filepath.Join(dir, "c.db"), filepath.Join(dir, "shard.db")
	atlasRun(t, shard, "--shard", "1/2")
	holder, err := store.OpenAtlas(db, true) // the first writer, which has not stored its settings yet
	if err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, db)
	for _, args := range [][]string{
		append([]string{"atlas", "run", "--db", db, "--size", "6"}, tinyAtlas[2:]...),
		{"atlas", "merge", "--db", db, shard},
	} {
		_, errOut, status := runPonte(t, "", args...)
		if status != exitUsage || !strings.Contains(errOut, "database is busy") || !strings.Contains(errOut, db) {
			t.Errorf("%v while another writer holds %s: exit %d: %s", args[:2], db, status, errOut)
		}
	}
	if fileSum(t, db) != before {
		t.Error("the refused writers changed the database")
	}
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	if _, errOut, status := runPonte(t, "", "atlas", "merge", "--db", db, shard); status != exitOK {
		t.Errorf("merge once the lock is let go: exit %d: %s", status, errOut)
	}
}

// TestAtlasMergeChecked: issue 31 finding 4: a shard with impossible rows was merged and made
// the database unreadable. Every row is checked before a game of the shard goes in; the
// first bad row is named (file, row, stage, class, game, column), exit 2, and the database
// is left as it was.
func TestAtlasMergeChecked(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	atlasRun(t, good, "--shard", "1/2")
	where := "WHERE stage = 'main' AND class = 3 AND idx = 1"
	for _, tc := range []struct {
		name, change, says string
	}{
		{"points 7", "UPDATE atlas_games SET points = 7 " + where, `(stage "main", class 3, game 1), column points: 7: must be 0, 1 or 2`},
		{"points 7.5", "UPDATE atlas_games SET points = 7.5 " + where, "column points: 7.5 (a real): must be a whole number"},
		{"game index -3", "UPDATE atlas_games SET idx = -3 " + where, `(stage "main", class 3, game -3), column idx: -3: must be from 0 to 3`},
		{"seed -5", "UPDATE atlas_games SET seed = '-5' " + where, `column seed: "-5": must be a whole number`},
		{"another game's seed", "UPDATE atlas_games SET seed = '12345' " + where, "column seed: 12345: not this game's seed"},
		{"another bot", "UPDATE atlas_games SET bot = 'sage-5' " + where, `column bot: "sage-5": the main stage's bot is sage-4`},
		{"not a stage", "UPDATE atlas_games SET stage = 'nope' " + where, `column stage: "nope": must be`},
		{"class 99", "UPDATE atlas_games SET class = 99 " + where, "column class: 99: must be from 1 to 49"},
		{"turn 1 not the opening", "UPDATE atlas_games SET moves = 'a1,e5' || substr(moves, instr(moves, ' ')) " + where, "column moves: turn 1 \"a1,e5\": must be class 3's opening"},
		{"a move the rules refuse", "UPDATE atlas_games SET moves = replace(moves, ' pass', ' z9,z8') " + where, "column moves: turn"},
		{"another outcome", "UPDATE atlas_games SET points = (points + 1) % 3 " + where, "column points"},
		{"moves a blob", "UPDATE atlas_games SET moves = x'00ff' " + where, "column moves: a blob of 2 bytes: must be text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad, into := filepath.Join(t.TempDir(), "bad.db"), filepath.Join(t.TempDir(), "m.db")
			copyFile(t, good, bad)
			sqlExec(t, bad, tc.change)
			// Into a new database: nothing is left of it. Into one with the good shard: it
			// is left as it was.
			_, errOut, status := runPonte(t, "", "atlas", "merge", "--db", into, bad)
			if status != exitUsage || !strings.Contains(errOut, "bad.db refused, nothing of it merged: ") ||
				!strings.Contains(errOut, tc.says) || !regexp.MustCompile(`bad\.db: atlas_games row \d+ \(stage`).MatchString(errOut) {
				t.Errorf("merge: exit %d: %s\nwant %q", status, errOut, tc.says)
			}
			if _, err := os.Stat(into); !os.IsNotExist(err) {
				t.Errorf("a refused merge into a new database left it: %v", err)
			}
			if _, errOut, status := runPonte(t, "", "atlas", "merge", "--db", into, good); status != exitOK {
				t.Fatalf("merge of the good shard: exit %d: %s", status, errOut)
			}
			before := atlasDump(t, into)
			if _, errOut, status := runPonte(t, "", "atlas", "merge", "--db", into, bad); status != exitUsage {
				t.Errorf("merge after the good shard: exit %d: %s", status, errOut)
			}
			if after := atlasDump(t, into); after != before {
				t.Error("a refused shard changed the database")
			}
			if _, errOut, status := runPonte(t, "", "atlas", "show", "--db", into); status != exitOK {
				t.Errorf("show after a refused merge: exit %d: %s", status, errOut)
			}
		})
	}
}

// TestMergeAtlasAllOrNothing: issue 31 finding 4: a good shard then one of other settings
// left the good shard's games added while atlas_classes counted the old. Every shard's
// settings are checked before any is merged, so nothing is; a shard with a bad row after a
// good one leaves the good one merged whole, with estimates that count it.
func TestMergeAtlasAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	m, s1, s2, other, bad := filepath.Join(dir, "m.db"), filepath.Join(dir, "s1.db"), filepath.Join(dir, "s2.db"), filepath.Join(dir, "other.db"), filepath.Join(dir, "bad.db")
	atlasRun(t, s1, "--shard", "1/2")
	atlasRun(t, s2, "--shard", "2/2")
	atlasRun(t, other, "--shard", "2/2", "--seed", "7")
	copyFile(t, s2, bad)
	sqlExec(t, bad, "UPDATE atlas_games SET points = 7 WHERE class = 40 AND idx = 1")
	if _, errOut, status := runPonte(t, "", "atlas", "merge", "--db", m, s1); status != exitOK {
		t.Fatalf("merge: exit %d: %s", status, errOut)
	}
	before := atlasDump(t, m)
	_, errOut, status := runPonte(t, "", "atlas", "merge", "--db", m, s2, other)
	if status != exitUsage || !strings.Contains(errOut, "other.db refused, nothing of it merged: an atlas of other games than "+m+"'s: --seed 1 in "+m+", 7 in the shard") {
		t.Errorf("merge of a good shard and one of another seed: exit %d: %s", status, errOut)
	}
	if atlasDump(t, m) != before {
		t.Error("the good shard was merged before the other one was refused")
	}
	_, errOut, status = runPonte(t, "", "atlas", "merge", "--db", m, s2, bad)
	if status != exitUsage || !strings.Contains(errOut, "s2.db: 49 games added") || !strings.Contains(errOut, "bad.db refused, nothing of it merged") {
		t.Errorf("merge of a good shard and a bad one: exit %d: %s", status, errOut)
	}
	// The estimates stored count the games stored.
	db, err := sql.Open("sqlite", "file:"+m+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var games, counted int
	db.QueryRow("SELECT count(*) FROM atlas_games").Scan(&games)
	db.QueryRow("SELECT sum(games) FROM atlas_classes").Scan(&counted)
	if games != 98 || counted != games {
		t.Errorf("%d games stored, %d counted by atlas_classes; want 98 both", games, counted)
	}
}

// TestAtlasOneAtlasAFile: issue 31 finding 6: atlas run and merge added atlas tables to a
// games database. A file that holds other tables (or is not SQLite's) is refused before
// anything is written to it; and the games' commands refuse an atlas's file, saying so.
func TestAtlasOneAtlasAFile(t *testing.T) {
	dir := t.TempDir()
	games := fixtureDB(t)
	text := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(text, []byte("my notes, not a database, but long enough to have a header of a hundred bytes ......................."), 0o644); err != nil {
		t.Fatal(err)
	}
	shard := filepath.Join(dir, "shard.db")
	atlasRun(t, shard, "--shard", "1/2")
	for _, path := range []string{games, text} {
		before := fileSum(t, path)
		for _, args := range [][]string{
			append([]string{"atlas", "run", "--db", path}, tinyAtlas...),
			{"atlas", "merge", "--db", path, shard},
		} {
			_, errOut, status := runPonte(t, "", args...)
			if status != exitUsage || !strings.Contains(errOut, "not an atlas database") {
				t.Errorf("%v: exit %d: %s", args, status, errOut)
			}
		}
		if fileSum(t, path) != before {
			t.Errorf("%s: changed", path)
		}
	}
	for _, args := range [][]string{
		{"ingest", "--quiet", "--no-parquet", "--db", shard, "../../stats/testdata/fixture.ponte"},
		{"stats", "--db", shard},
		{"annotate", "--db", shard},
	} {
		_, errOut, status := runPonte(t, "", args...)
		if status != exitUsage || !strings.Contains(errOut, "an opening atlas's database (ponte atlas show --db "+shard+" reads it), not a games database") {
			t.Errorf("%v: exit %d: %s", args[0], status, errOut)
		}
	}
}

// TestAtlasCountBounds: issue 31 findings 10 and 11: --max 9223372036854775807 spun for ever,
// --first 1000000000 took 640 MB before a game; such a database's plan hung. Every count
// flag is bounded when it is parsed (exit 2, no file made), and settings out of bounds read
// back from a database are refused.
func TestAtlasCountBounds(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	within := func(args ...string) (string, int) {
		t.Helper()
		type result struct {
			errOut string
			status int
		}
		done := make(chan result, 1)
		go func() {
			_, errOut, status := runPonteCtx(t, context.Background(), args...)
			done <- result{errOut, status}
		}()
		select {
		case r := <-done:
			return r.errOut, r.status
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: still running after 20 s", args)
		}
		return "", 0
	}
	for _, tc := range []struct{ flag, value string }{
		{"--max", "9223372036854775807"},
		{"--first", "1000000000"},
		{"--confirm", "1000000000000"},
		{"--panel-games", "1000000000000"},
		{"--candidates", "0"},
		{"--panel", "-1"},
	} {
		errOut, status := within("atlas", "run", "--db", db, "--size", "5", "--bot", "sage-4", "-q", "--stability", tc.flag, tc.value)
		if status != exitUsage || !strings.Contains(errOut, tc.flag) || !strings.Contains(errOut, "from 1 to 1048576") {
			t.Errorf("%s %s: exit %d: %s", tc.flag, tc.value, status, errOut)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("%s %s: a database was made", tc.flag, tc.value)
		}
	}
	// Settings that fail their checks: no file left either.
	if errOut, status := within("atlas", "run", "--db", db, "--size", "5", "--bot", "sage-4", "--first", "8", "--max", "4"); status != exitUsage {
		t.Errorf("--first 8 --max 4: exit %d: %s", status, errOut)
	} else if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Error("--first 8 --max 4: a database was left")
	}
	// A database whose stored settings are out of bounds.
	atlasRun(t, db)
	sqlExec(t, db, `UPDATE atlas_meta SET value = replace(value, '"Max":4', '"Max":9223372036854775807') WHERE key = 'config'`)
	for _, cmd := range []string{"plan", "show", "run"} {
		errOut, status := within("atlas", cmd, "--db", db)
		if status != exitUsage || !strings.Contains(errOut, "--max 9223372036854775807: must be at most 1048576") {
			t.Errorf("atlas %s of a database with max 2^63-1: exit %d: %s", cmd, status, errOut)
		}
	}
}

// TestAtlasMergeSettingsNamed: issue 31 finding 13: run --shard said "46 games stored" of a
// database of 744; a merge refused for "an atlas of other settings" named none, and refused
// a shard that differed only in --max, which may change between runs: it is merged, and
// its rules taken, as a run with them would.
func TestAtlasMergeSettingsNamed(t *testing.T) {
	dir := t.TempDir()
	m, s1, s2 := filepath.Join(dir, "m.db"), filepath.Join(dir, "s1.db"), filepath.Join(dir, "s2.db")
	atlasRun(t, s1, "--shard", "1/2")
	if _, errOut, status := runPonte(t, "", "atlas", "merge", "--db", m, s1); status != exitOK {
		t.Fatalf("merge: exit %d: %s", status, errOut)
	}
	copyFile(t, m, s2)
	errOut := atlasRun(t, s2, "--shard", "2/2", "--max", "8")
	var held int
	db, err := sql.Open("sqlite", "file:"+s2+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	db.QueryRow("SELECT count(*) FROM atlas_games").Scan(&held)
	db.Close()
	if want := fmt.Sprintf("%d games stored by this run, %d in the database", held-49, held); held <= 49 || !strings.Contains(errOut, want) {
		t.Errorf("run --shard 2/2 on a copy of 49 games: %s\nwant %q", errOut, want)
	}
	_, errOut, status := runPonte(t, "", "atlas", "merge", "--db", m, s2)
	if status != exitOK || !strings.Contains(errOut, fmt.Sprintf("s2.db: %d games added", held-49)) ||
		!strings.Contains(errOut, "s2.db: the rules of the rounds of the shard taken: --max 4 in "+m+", 8 in the shard") {
		t.Errorf("a shard of another --max: exit %d: %s", status, errOut)
	}
	if dump := atlasDump(t, m); !strings.Contains(dump, `"Max":8,`) {
		t.Errorf("the merged database's settings after a shard of --max 8: %.300s", dump)
	}
	other := filepath.Join(dir, "other.db")
	atlasRun(t, other, "--shard", "1/2", "--bot", "sage-5", "--size", "6")
	_, errOut, status = runPonte(t, "", "atlas", "merge", "--db", m, other)
	if status != exitUsage || !strings.Contains(errOut, "--size 5 in "+m+", 6 in the shard; --bot sage-4 in "+m+", sage-5 in the shard") {
		t.Errorf("a shard of another bot and board: exit %d: %s", status, errOut)
	}
}
