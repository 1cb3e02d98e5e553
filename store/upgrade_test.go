package store

import (
	"compress/gzip"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	_ "modernc.org/sqlite"
)

// gamesV2 is the games table of schema versions 1 and 2: no tag_errors, and the scores,
// islands, bridges and margin NOT NULL.
func gamesV2() table {
	t := gamesV3()
	t.columns = nil
	for _, c := range gamesV3().columns {
		switch c.name {
		case "tag_errors":
			continue
		case "score_light", "score_dark", "islands_light", "islands_dark", "bridges_light", "bridges_dark", "margin":
			c.null = false
		}
		t.columns = append(t.columns, c)
	}
	return t
}

// tagsV4 is the table tags of schema versions 1 to 4: a row per tag, which version 5 packs
// into game_tags.
func tagsV4() table {
	t := tagsTable
	t.view = false
	t.key = "PRIMARY KEY (game, seq)"
	return t
}

// turnsV1 is the turns table of schema version 1: no think_ms.
func turnsV1() table {
	t := turnsV3()
	t.columns = t.columns[:len(t.columns)-1]
	return t
}

// oldDatabase makes a database of schema version 1, 2, 3 or 4 at path, as those versions
// made it, and fills it with the rows of src (a database of this version) the way they
// stored them: before version 4 a row per turn and no components, 0 for the scores of an
// unreadable record and no tag errors before version 3, no think times in version 1; in
// version 4 the turns text of game_turns without its summary.
func oldDatabase(t *testing.T, path string, version int, src string) {
	if version == 4 {
		v4Database(t, path, src)
		return
	}
	t.Helper()
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	old.SetMaxOpenConns(1) // one connection: the ATTACH holds for every statement
	games, turns, tags := gamesV2(), turnsV3(), tagsV4()
	switch version {
	case 1:
		turns = turnsV1()
	case 3:
		games = gamesV3()
	}
	ddl := games.create() + ";" + turns.create() + ";" + tags.create() + ";" + sourcesTable.create() +
		";CREATE INDEX IF NOT EXISTS sources_sha256 ON sources (sha256)" +
		";CREATE INDEX games_by_size ON games (size, legal)" + // an index of the user's: kept
		";PRAGMA user_version = " + string(rune('0'+version))
	if _, err := old.Exec(ddl); err != nil {
		t.Fatal(err)
	}
	if src == "" {
		return
	}
	var gcols []string
	for _, c := range games.columns {
		switch c.name {
		case "score_light", "score_dark", "islands_light", "islands_dark", "bridges_light", "bridges_dark", "margin":
			if version < 3 {
				gcols = append(gcols, "coalesce("+c.name+", 0)")
				continue
			}
		}
		gcols = append(gcols, c.name)
	}
	for _, q := range []string{
		"ATTACH DATABASE 'file:" + src + "?mode=ro' AS src",
		"INSERT INTO games SELECT " + strings.Join(gcols, ", ") + " FROM src.games",
		"INSERT INTO turns SELECT " + turns.names() + " FROM src.turns ORDER BY game, turn",
		"INSERT INTO tags SELECT * FROM src.tags",
		"INSERT INTO sources SELECT * FROM src.sources",
		"DETACH DATABASE src",
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// v4Database makes a database of schema version 4 at path, with the DDL of version 4, and
// copies into it the rows of src (a database of this version), the turns as the JSON text
// of versions 4 to 6.
func v4Database(t *testing.T, path, src string) {
	t.Helper()
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	old.SetMaxOpenConns(1) // one connection: the ATTACH holds for every statement
	v4, tags, games := gameTurnsV4(), tagsV4(), gamesV5()
	for _, q := range []string{
		games.create(), v4.create(), tags.create(), sourcesTable.create(), metaSQL,
		"CREATE VIEW turns AS SELECT game FROM game_turns", // in the way of the upgrade's view
		"CREATE INDEX IF NOT EXISTS sources_sha256 ON sources (sha256)",
		"CREATE INDEX games_by_size ON games (size, legal)", // an index of the user's: kept
		"PRAGMA user_version = 4",
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if src == "" {
		return
	}
	for _, q := range []string{
		"ATTACH DATABASE 'file:" + src + "?mode=ro' AS src",
		"INSERT INTO games SELECT " + games.names() + " FROM src.games",
		// The turns text of versions 4 to 6, made from the view as upgradeTo4 makes it.
		"INSERT INTO game_turns (game, turns) SELECT game, '[' || group_concat(" + repackSQL + ", ',' ORDER BY turn) || ']' FROM src.turns GROUP BY game ORDER BY game",
		"INSERT INTO tags SELECT * FROM src.tags",
		"INSERT INTO sources SELECT * FROM src.sources",
		"INSERT INTO meta SELECT * FROM src.meta",
		"DETACH DATABASE src",
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// statsJSON is the statistics of the database at path (stats --json's report).
func statsJSON(t *testing.T, path string) string {
	t.Helper()
	db, err := OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := ComputeStats(db, "")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A database of schema version 1, 2, 3 or 4 is upgraded by Open in place, in one
// transaction: turns.think_ms is added (version 1); games gets tag_errors and nullable
// scores, NULL for its unreadable records (versions 1 and 2); the turns become one row of
// game_turns per game, the same text a new ingest stores, and turns a view that shows them
// as before; games gets the final components, the same a new ingest stores (versions 1 to
// 3); game_turns gets the summaries of the turns, the same bytes a new ingest stores, and
// the statistics are the same. The games keep their ids, turns and tags, the indexes are
// made again. The reader refuses such a database until then. Ingesting into it goes on.
func TestSchemaUpgrade(t *testing.T) {
	// The rows: sample records of every kind, stored by this version.
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	d, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, Options{}, autumn, online, "../sample_data/selfplay-12x12-greedy-40x15.ponte.zst")
	d.Close()
	srcDB, err := openReadOnly(src)
	if err != nil {
		t.Fatal(err)
	}
	defer srcDB.Close()
	wantColumns := dump(t, srcDB, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('games')")
	wantTurns := dump(t, srcDB, "SELECT * FROM turns ORDER BY game, turn")
	wantTags := dump(t, srcDB, "SELECT * FROM tags ORDER BY game, seq")
	wantText := dump(t, srcDB, "SELECT game, turns FROM game_turns ORDER BY game")
	wantTurnColumns := dump(t, srcDB, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('game_turns')")
	wantStats := statsJSON(t, src)
	if n := count(t, srcDB, "SELECT count(*) FROM turns WHERE kind = 'bridge' AND bridge_merged"); n == 0 {
		t.Fatal("no bridge that merged components among the turns")
	}
	if n := count(t, srcDB, "SELECT count(*) FROM games WHERE components_light IS NOT NULL AND components_light != '[]'"); n < 100 {
		t.Fatalf("only %d games with components", n)
	}

	for _, version := range []int{1, 2, 3, 4} {
		t.Run("version "+string(rune('0'+version)), func(t *testing.T) {
			// A database of version 1 or 2 holds no tag errors: those versions read no slips.
			// None before version 6 kept the turn numbers that are not their turn's: the
			// upgrade cannot recover them, and leaves move_numbers NULL.
			cols := strings.Replace(gamesTable.names(), "move_numbers", "NULL", 1)
			if version < 3 {
				cols = strings.Replace(cols, "tag_errors", "NULL", 1)
			}
			want := dump(t, srcDB, "SELECT "+cols+" FROM games ORDER BY id")
			if !strings.Contains(want, "| 1 | format |") {
				t.Fatal("no unreadable record among the rows")
			}
			path := filepath.Join(t.TempDir(), "old.db")
			oldDatabase(t, path, version, src)
			if _, err := OpenReader(path); err == nil || !strings.Contains(err.Error(), "run ponte ingest on it once") {
				t.Errorf("OpenReader opened a database of version %d: %v", version, err)
			}
			d, err := openUpgrading(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := openReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if v := count(t, r, "PRAGMA user_version"); v != SchemaVersion {
				t.Errorf("user_version %d, want %d", v, SchemaVersion)
			}
			// The tables are the ones this version makes, and hold what this version stores.
			if got := dump(t, r, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('games')"); got != wantColumns {
				t.Errorf("the columns of games after the upgrade:\n%s\nwant\n%s", got, wantColumns)
			}
			if got := dump(t, r, "SELECT "+gamesTable.names()+" FROM games ORDER BY id"); got != want {
				t.Errorf("games after the upgrade:\n%s\nwant\n%s", got, want)
			}
			if got := dump(t, r, "SELECT game, turns FROM game_turns ORDER BY game"); got != wantText {
				t.Errorf("game_turns after the upgrade differ from a new ingest's:\n%.2000s\nwant\n%.2000s", got, wantText)
			}
			if got := dump(t, r, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('game_turns')"); got != wantTurnColumns {
				t.Errorf("the columns of game_turns after the upgrade:\n%s\nwant\n%s", got, wantTurnColumns)
			}
			if got := statsJSON(t, path); got != wantStats {
				t.Errorf("the statistics after the upgrade differ from a new ingest's:\n%.3000s\nwant\n%.3000s", got, wantStats)
			}
			got := dump(t, r, "SELECT * FROM turns ORDER BY game, turn")
			if version == 1 { // version 1 kept no think times; the sample files hold none
				if n := count(t, r, "SELECT count(*) FROM turns WHERE think_ms IS NOT NULL"); n != 0 {
					t.Errorf("%d think times", n)
				}
			}
			if got != wantTurns {
				t.Error("turns changed by the upgrade")
			}
			if got := dump(t, r, "SELECT * FROM tags ORDER BY game, seq"); got != wantTags {
				t.Errorf("tags changed by the upgrade:\n%.2000s\nwant\n%.2000s", got, wantTags)
			}
			got = dump(t, r, "SELECT type, name FROM sqlite_schema WHERE type IN ('index', 'view', 'table') ORDER BY type, name")
			if want := "index | games_by_size\nindex | sources_sha256\nindex | sqlite_autoindex_games_1\ntable | game_tags\ntable | game_turns\ntable | games\ntable | meta\ntable | sources\nview | tags\nview | turns\n"; got != want {
				t.Errorf("the schema after the upgrade:\n%s\nwant\n%s", got, want)
			}
			if _, err := d.db.Exec("INSERT INTO games SELECT * FROM games WHERE id = 1"); err == nil {
				t.Error("a copy of game 1 was accepted")
			}
			// Ingest goes on: the files already stored are skipped, others are stored.
			sum := ingestInto(t, d, Options{}, autumn, club)
			d.Close()
			if sum.Skipped != 1 || sum.Games != 17 || sum.New != 16 { // club holds one game twice
				t.Errorf("ingest after the upgrade: %+v", sum)
			}
		})
	}
}

// An upgrade that fails leaves the database as it was.
func TestSchemaUpgradeFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	oldDatabase(t, path, 2, "")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	// A table in the way of the rebuild.
	if _, err := old.Exec("CREATE TABLE games_v3 (x)"); err != nil {
		t.Fatal(err)
	}
	old.Close()
	old, _ = failedUpgrade(t, path, 2, "upgrading schema version 2 to "+strconv.Itoa(SchemaVersion))
	if n := count(t, old, "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'tag_errors'"); n != 0 {
		t.Error("games has tag_errors after a failed upgrade")
	}
}

// oldAutumn makes a database of schema version holding the games of autumn, as that
// version stored them (oldDatabase), and returns its path.
func oldAutumn(t *testing.T, version int) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	d, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, Options{}, autumn)
	d.Close()
	path := filepath.Join(dir, "old.db")
	oldDatabase(t, path, version, src)
	return path
}

// failedUpgrade opens the database of schema version at path for writing, which must fail
// with an error that says every one of wants, and returns the database opened read-only
// (closed with the test), which must still be of that version, and the error.
func failedUpgrade(t *testing.T, path string, version int, wants ...string) (*sql.DB, error) {
	t.Helper()
	d, err := openUpgrading(path)
	for _, want := range wants {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open: %v\nwant %q", err, want)
		}
	}
	if d != nil {
		d.Close()
	}
	old, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { old.Close() })
	if v := count(t, old, "PRAGMA user_version"); v != int64(version) {
		t.Errorf("user_version %d after a failed upgrade, want %d", v, version)
	}
	return old, err
}

// An upgrade of version 3 that meets turns it cannot keep as they are (a turn missing,
// which only an edit makes) fails, names the game, and leaves the database as it was.
func TestSchemaUpgradeFailsV3(t *testing.T) {
	path := oldAutumn(t, 3)
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec("DELETE FROM turns WHERE game = 3 AND turn = 7"); err != nil {
		t.Fatal(err)
	}
	before := dump(t, old, "SELECT type, name, sql FROM sqlite_schema ORDER BY name") + dump(t, old, "SELECT * FROM turns ORDER BY game, turn")
	old.Close()
	old, _ = failedUpgrade(t, path, 3, "upgrading schema version 3 to "+strconv.Itoa(SchemaVersion)+": turns of game 3 are not numbered 1 to 74 (they run from 1 to 75)")
	if after := dump(t, old, "SELECT type, name, sql FROM sqlite_schema ORDER BY name") + dump(t, old, "SELECT * FROM turns ORDER BY game, turn"); after != before {
		t.Errorf("a failed upgrade changed the database:\n%.3000s", after)
	}
}

// Parquet files written before an upgrade are not current after it, though the rows are
// the same: their columns are not.
func TestParquetCurrentAfterUpgrade(t *testing.T) {
	path := oldAutumn(t, 2)
	// The files version 2 wrote: its fingerprint had no schema version.
	old, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var state string
	if err := old.QueryRow("SELECT " + strings.SplitN(stateSQL, "|| ", 2)[1]).Scan(&state); err != nil {
		t.Fatal(err)
	}
	old.Close()
	pq := filepath.Join(t.TempDir(), "parquet")
	os.Mkdir(pq, 0o777)
	for _, name := range []string{"games.parquet", "turns.parquet"} {
		f, err := os.Create(filepath.Join(pq, name))
		if err != nil {
			t.Fatal(err)
		}
		w := parquet.NewGenericWriter[TurnRow](f, parquet.KeyValueMetadata(stateKey, state))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	d, err := openUpgrading(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if ok, err := d.ParquetCurrent(pq); ok || err != nil {
		t.Errorf("ParquetCurrent %v, %v: the files of version 2 are current after the upgrade", ok, err)
	}
	if !strings.HasPrefix(stateSQL, "SELECT 'schema "+strconv.Itoa(SchemaVersion)) {
		t.Errorf("the fingerprint does not begin with the schema version: %s", stateSQL)
	}
}

// The sample files as ponte stored them in schema version 4 (testdata/v4.db.gz, made by
// ponte at commit fcd7e0a: `ponte ingest --no-parquet --db v4.db` of v4Files, from this
// folder), upgraded by Open, hold what a new ingest of the same files stores, and give the
// same statistics; their turns are summarised as a new ingest summarises them.
func TestUpgradeVersion4(t *testing.T) {
	v4Files := []string{autumn, online, club, "../sample_data/boardspace-2026-03.zip", "../sample_data/selfplay-10x10-greedy-mcts400.ponte.zst"}
	dir := t.TempDir()
	path := filepath.Join(dir, "v4.db")
	gunzip(t, "testdata/v4.db.gz", path)
	if _, err := OpenReader(path); err == nil || !strings.Contains(err.Error(), "a database of schema version 4: run ponte ingest on it once to upgrade it to version "+strconv.Itoa(SchemaVersion)) {
		t.Errorf("OpenReader of a database of version 4: %v", err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	fresh := filepath.Join(dir, "fresh.db")
	if d, err = Open(fresh); err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, Options{}, v4Files...)
	d.Close()
	upgraded, err := openReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer upgraded.Close()
	want, err := openReadOnly(fresh)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	if n := count(t, upgraded, "SELECT count(*) FROM game_turns"); n < 70 {
		t.Fatalf("only %d games with turns in the fixture", n)
	}
	// No version before 6 kept the turn numbers that are not their turn's: the upgrade
	// leaves move_numbers NULL, where a new ingest keeps them.
	if n := count(t, upgraded, "SELECT count(*) FROM games WHERE move_numbers IS NOT NULL"); n != 0 {
		t.Errorf("%d upgraded games with move_numbers", n)
	}
	for _, q := range []string{
		"PRAGMA user_version",
		"SELECT " + strings.Replace(gamesTable.names(), "move_numbers", "NULL", 1) + " FROM games ORDER BY id",
		"SELECT game, turns FROM game_turns ORDER BY game",
		"SELECT * FROM turns ORDER BY game, turn",
		"SELECT game, seq, name, value FROM tags ORDER BY game, seq",
		"SELECT type, name FROM sqlite_schema ORDER BY name",
	} {
		got, want := dump(t, upgraded, q), dump(t, want, q)
		// A version 4 database kept an illegal record's text with its turn numbers
		// written afresh; a new ingest keeps a number that is not the turn's as it was
		// read (an R9 error), which the upgrade cannot recover.
		got, want = turnNumbers.ReplaceAllString(got, "N. "), turnNumbers.ReplaceAllString(want, "N. ")
		if got != want {
			t.Errorf("%s, upgraded:\n%.2000s\nwant (a new ingest):\n%.2000s", q, got, want)
		}
	}
	if got, want := statsJSON(t, path), statsJSON(t, fresh); got != want {
		t.Errorf("the statistics of the upgraded database:\n%.3000s\nwant (a new ingest):\n%.3000s", got, want)
	}
}

// turnNumbers matches the turn numbers of .ponte movetext.
var turnNumbers = regexp.MustCompile(`\b[0-9]+\. `)

// gunzip writes the gzip file src, decompressed, to dst.
func gunzip(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// An upgrade of version 4 that meets a turns text it cannot read (which only an edit
// makes) fails, names the game and what is wrong, and leaves the database as it was.
func TestSchemaUpgradeFailsV4(t *testing.T) {
	for _, tc := range []struct {
		name, edit, want string
	}{
		{"a turn cut short", "UPDATE game_turns SET turns = '[[1,2,3],[1,2]]' WHERE game = 3",
			"game_turns.turns of game 3: turn 2, byte 14: a turn has fewer than 3 numbers"},
		{"not an array", `UPDATE game_turns SET turns = '{"a": 1}' WHERE game = 5`,
			"game_turns.turns of game 5: byte 1: not a JSON array"},
		{"a fraction", "UPDATE game_turns SET turns = '[[1,2,3],[1.5,2,3]]' WHERE game = 7",
			"game_turns.turns of game 7: turn 2, byte 11: not an integer"},
		{"not text", "UPDATE game_turns SET turns = zeroblob(3) WHERE game = 3",
			"game_turns.turns of game 3 is not text but blob"},
		{"a cell off the board", `UPDATE game_turns SET turns = '[[576,0,0,"z99","a1"]]' WHERE game = 3`,
			`game_turns.turns of game 3: turn 1: cells "z99" and "a1" are not cells of a board of at most 26×26`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "v4.db")
			gunzip(t, "testdata/v4.db.gz", path)
			old, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := old.Exec(tc.edit); err != nil {
				t.Fatal(err)
			}
			before := dump(t, old, "SELECT type, name, sql FROM sqlite_schema ORDER BY name") + dump(t, old, "SELECT * FROM game_turns ORDER BY game")
			old.Close()
			old, err = failedUpgrade(t, path, 4, "upgrading schema version 4 to "+strconv.Itoa(SchemaVersion)+": ", tc.want, editedAdvice)
			if err != nil && strings.Contains(err.Error(), "SQL logic error") {
				t.Errorf("Open: %v: the driver's words around what is wrong", err)
			}
			if after := dump(t, old, "SELECT type, name, sql FROM sqlite_schema ORDER BY name") + dump(t, old, "SELECT * FROM game_turns ORDER BY game"); after != before {
				t.Errorf("a failed upgrade changed the database:\n%.3000s", after)
			}
		})
	}
}
