package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
)

// GameRow and TurnRow are the games and turns tables, column for column, and their
// Parquet schemas have the columns' names, order, types and nullability; games.parquet's
// date is a DATE, and its derived columns follow the table's.
func TestSchemaRows(t *testing.T) {
	if _, err := planOf[GameRow](&gamesTable); err != nil {
		t.Error(err)
	}
	if _, err := planOf[TurnRow](&turnsTable); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		schema *parquet.Schema
		t      *table
	}{{parquet.SchemaOf(GameRow{}), &gamesTable}, {parquet.SchemaOf(TurnRow{}), &turnsTable}} {
		fields := c.schema.Fields()
		extra := parquetExtra(c.t)
		if len(fields) != len(c.t.columns)+len(extra) {
			t.Fatalf("%s: %d Parquet columns, %d SQL columns and %d derived", c.t.name, len(fields), len(c.t.columns), len(extra))
		}
		for i, col := range extra {
			if f := fields[len(c.t.columns)+i]; f.Name() != col.name || f.Optional() != col.null {
				t.Errorf("%s derived column %d: Parquet %s (optional %v), documented %s (null %v)", c.t.name, i, f.Name(), f.Optional(), col.name, col.null)
			}
		}
		for i, f := range fields[:len(c.t.columns)] {
			col := c.t.columns[i]
			if f.Name() != col.name || f.Optional() != col.null {
				t.Errorf("%s column %d: Parquet %s (optional %v), SQL %s (null %v)", c.t.name, i, f.Name(), f.Optional(), col.name, col.null)
			}
			kind := f.Type().Kind()
			switch col.typ {
			case "TEXT":
				if c.t == &gamesTable && col.name == "date" {
					if kind != parquet.Int32 || f.Type().LogicalType().String() != "DATE" {
						t.Errorf("games.date: Parquet %v, want a DATE", f.Type())
					}
				} else if kind != parquet.ByteArray || f.Type().LogicalType().String() != "STRING" {
					t.Errorf("%s.%s: Parquet %v for TEXT", c.t.name, col.name, f.Type())
				}
			case "INTEGER":
				if kind != parquet.Int32 && kind != parquet.Int64 {
					t.Errorf("%s.%s: Parquet %v for INTEGER", c.t.name, col.name, kind)
				}
			case "BOOLEAN":
				if kind != parquet.Boolean {
					t.Errorf("%s.%s: Parquet %v for BOOLEAN", c.t.name, col.name, kind)
				}
			}
		}
	}
}

// readParquet reads every row of a Parquet file.
func readParquet[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	var out []T
	buf := make([]T, 500)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...) // the last rows come with io.EOF
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The Parquet files hold exactly the rows of SQLite, read back with parquet-go; the
// rename leaves no temporary file; writing again replaces them.
func TestParquetReadBack(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn, online, "../sample_data/selfplay-12x12-random.jsonl.zst")
	dir := filepath.Join(t.TempDir(), "pq")
	st, err := d.WriteParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	games := readParquet[GameRow](t, filepath.Join(dir, "games.parquet"))
	turns := readParquet[TurnRow](t, filepath.Join(dir, "turns.parquet"))
	if int64(len(games)) != st.Games || int64(len(turns)) != st.Turns ||
		st.Games != count(t, d.db, "SELECT count(*) FROM games") || st.Turns != count(t, d.db, "SELECT count(*) FROM turns") {
		t.Fatalf("%d games and %d turns read, %+v written", len(games), len(turns), st)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != MarkerName+" games.parquet tags.parquet turns.parquet" {
		t.Errorf("files in %s: %s, want the marker and the three Parquet files", dir, got)
	}

	// Every value, against SQLite as database/sql reads it.
	gameRows, turnRows := dumpRows(t, d, &gamesTable, "id"), dumpRows(t, d, &turnsTable, "game, turn")
	if len(gameRows) != len(games) || len(turnRows) != len(turns) {
		t.Fatalf("SQLite dump: %d games, %d turns", len(gameRows), len(turnRows))
	}
	for i, want := range gameRows {
		if got := fmtGame(games[i]); got != want {
			t.Errorf("games row %d:\nParquet %s\nSQLite  %s", i+1, got, want)
			break
		}
	}
	for i, want := range turnRows {
		if got := fmtRow(turns[i]); got != want {
			t.Errorf("turns row %d:\nParquet %s\nSQLite  %s", i+1, got, want)
			break
		}
	}
	// A few values by name, and aggregates.
	g := games[4] // autumn-league game 5, illegal at turn 42
	if g.ID != 5 || g.Legal || *g.ErrorRule != "R3" || *g.ErrorTurn != 42 || g.Turns != 41 || g.Raw == nil || g.Result != nil {
		t.Errorf("game 5: %+v", g)
	}
	var legal, turnSum, scoreSum int64
	for _, g := range games {
		if g.Legal {
			legal++
		}
		turnSum += int64(g.Turns)
		if (g.ScoreLight == nil) != g.Unreadable || (g.Margin == nil) != g.Unreadable {
			t.Errorf("game %d (unreadable %v): score %v, margin %v", g.ID, g.Unreadable, g.ScoreLight, g.Margin)
		}
		if g.ScoreLight != nil {
			scoreSum += int64(*g.ScoreLight)
		}
	}
	if legal != count(t, d.db, "SELECT count(*) FROM games WHERE legal") ||
		turnSum != count(t, d.db, "SELECT sum(turns) FROM games") || turnSum != int64(len(turns)) ||
		scoreSum != count(t, d.db, "SELECT sum(score_light) FROM games") {
		t.Errorf("aggregates differ: %d legal, %d turns, %d light score", legal, turnSum, scoreSum)
	}

	// Again, after more games: the files are replaced.
	ingestInto(t, d, Options{}, club)
	st2, err := d.WriteParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st2.Games != st.Games+16 || len(readParquet[GameRow](t, filepath.Join(dir, "games.parquet"))) != int(st2.Games) {
		t.Errorf("rewritten: %+v after %+v", st2, st)
	}
}

// dumpRows formats every row of t as fmtRow formats a row struct.
func dumpRows(t *testing.T, d *DB, tb *table, order string) []string {
	t.Helper()
	text := dump(t, d.db, "SELECT "+tb.names()+" FROM "+tb.name+" ORDER BY "+order)
	// dump separates rows by newlines, which raw and moves may hold: split on the ids instead.
	var rows []string
	for _, line := range strings.SplitAfter(text, "\n") {
		if len(rows) > 0 && !startsRow(line, len(rows)+1, tb) {
			rows[len(rows)-1] += line
			continue
		}
		if line != "" {
			rows = append(rows, line)
		}
	}
	for i := range rows {
		rows[i] = strings.TrimSuffix(rows[i], "\n")
	}
	return rows
}

// startsRow reports whether line starts the next row of a dump: games rows start with
// their id, turns rows with their game's number.
func startsRow(line string, n int, tb *table) bool {
	if tb == &gamesTable {
		return strings.HasPrefix(line, strconv.Itoa(n)+" | ")
	}
	return line != "" && line[0] >= '0' && line[0] <= '9' && strings.Count(line, " | ") == len(tb.columns)-1
}

// fmtRow formats a row struct as dump formats a row: values separated by " | ", NULL for
// a nil pointer, booleans as 0 and 1.
func fmtRow(row any) string {
	return strings.Join(rowParts(row), " | ")
}

// rowParts formats each field of a row struct as fmtRow does.
func rowParts(row any) []string {
	v := reflect.ValueOf(row)
	var parts []string
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				parts = append(parts, "NULL")
				continue
			}
			f = f.Elem()
		}
		switch f.Kind() {
		case reflect.Bool:
			if f.Bool() {
				parts = append(parts, "1")
			} else {
				parts = append(parts, "0")
			}
		case reflect.Int32, reflect.Int64:
			parts = append(parts, strconv.FormatInt(f.Int(), 10))
		case reflect.String:
			parts = append(parts, f.String())
		case reflect.Float64:
			parts = append(parts, strconv.FormatFloat(f.Float(), 'g', -1, 64))
		}
	}
	return parts
}

// The Parquet files are current after they are written, and stop being so when the
// database changes or a file goes missing or holds other rows.
func TestParquetCurrent(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	dir := t.TempDir()
	current := func() bool {
		t.Helper()
		ok, err := d.ParquetCurrent(dir)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if current() {
		t.Error("an empty database with no files is current")
	}
	ingestInto(t, d, Options{}, autumn)
	if current() {
		t.Error("current before the files are written")
	}
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	if !current() {
		t.Error("not current right after they are written")
	}
	ingestInto(t, d, Options{}, online)
	if current() {
		t.Error("current after more games were stored")
	}
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	other := openTemp(t) // another database's files of other rows, written later
	defer other.Close()
	ingestInto(t, other, Options{}, autumn)
	otherDir := t.TempDir()
	if _, err := other.WriteParquet(otherDir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"games.parquet", "turns.parquet"} {
		copyFile(t, filepath.Join(otherDir, name), filepath.Join(dir, name))
	}
	if current() {
		t.Error("current with another database's files")
	}
	copyFile(t, filepath.Join(otherDir, MarkerName), filepath.Join(dir, MarkerName))
	if current() {
		t.Error("current with another database's files and marker")
	}
	for _, name := range append([]string{MarkerName}, parquetFiles...) {
		os.Remove(filepath.Join(dir, name))
	}
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "turns.parquet"))
	if current() {
		t.Error("current with turns.parquet missing")
	}
}

// writeHostile copies the hostile corpus of testdata/hostile into a new directory and adds
// its generated part (as `go run ./scripts/duckdb-check -generate DIR` does for CI): a
// game in a file whose name holds the Latin-1 byte 0xE9, made here because git may mangle
// such names, and an illegal game of about 400 KB within the readers' limits of one
// record (a 200 KB tag value, a 60 KB comment, 9,000 turns).
func writeHostile(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hostile")
	if err := os.CopyFS(dir, os.DirFS("testdata/hostile")); err != nil {
		t.Fatal(err)
	}
	latin1 := "[Event \"A file name in Latin-1\"]\n[Size \"6\"]\n[Result \"*\"]\n\n1. a1,a2 2. f1,f2 *\n"
	var b strings.Builder
	b.WriteString("[Event \"A big illegal game\"]\n[Size \"12\"]\n[Result \"*\"]\n[Annotator \"")
	b.WriteString(strings.Repeat("y", 200_000))
	b.WriteString("\"]\n\n1. a1,a2 2. a1,a2 {")
	b.WriteString(strings.Repeat("x", 60_000))
	b.WriteString("}")
	for i := 3; i <= 9000; i++ {
		c := strconv.Itoa(i%12 + 1)
		b.WriteString(" " + strconv.Itoa(i) + ". b" + c + ",c" + c)
	}
	b.WriteString(" *\n")
	for name, text := range map[string]string{"caf\xe9.ponte": latin1, "big-illegal.ponte": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// invalidStrings returns the string fields of a row struct that are not valid UTF-8.
func invalidStrings(row any) []string {
	var bad []string
	v := reflect.ValueOf(row)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
		}
		if f.Kind() == reflect.String && !utf8.ValidString(f.String()) {
			bad = append(bad, fmt.Sprintf("%s %.60q", v.Type().Field(i).Name, f.String()))
		}
	}
	return bad
}

// A hostile corpus (Latin-1 bytes in tag values, names, comments and move tokens, invalid
// UTF-8 in JSON keys and strings, a file name with the byte 0xE9, a file in no format whose
// first line is not UTF-8, an illegal game of 400 KB): every text stored in SQLite and
// written to Parquet is valid UTF-8 (DuckDB refuses a whole Parquet file for one invalid
// string) and within its bound; the Parquet files hold what SQLite holds; the file named
// in Latin-1 is stored under its name made valid, and found again by its content on the
// next run.
func TestHostileCorpus(t *testing.T) {
	dir := writeHostile(t)
	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, dir)
	if sum.Files != 5 || sum.Games < 10 || len(sum.Errors) != 1 || !strings.Contains(sum.Errors[0], "not-a-record.txt") {
		t.Errorf("ingest: %d files, %d games, errors %q", sum.Files, sum.Games, sum.Errors)
	}
	pq := filepath.Join(t.TempDir(), "pq")
	st, err := d.WriteParquet(pq)
	if err != nil {
		t.Fatal(err)
	}

	// Every text value of every table of the database.
	tables := strings.Fields(dump(t, d.db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
	for _, table := range tables {
		rows, err := d.db.Query("SELECT * FROM " + table)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if s, ok := v.(string); ok && !utf8.ValidString(s) {
					t.Errorf("%s.%s: not valid UTF-8: %.60q", table, cols[i], s)
				}
			}
		}
		rows.Close()
	}
	// Bounds, in bytes (intake's maxRaw, maxMoves and maxMessage).
	const maxRaw, maxMoves, maxMessage = 64 << 10, 128 << 10, 4 << 10
	for _, c := range []struct {
		expr  string
		limit int
	}{
		{"SELECT max(length(CAST(raw AS BLOB))) FROM games", maxRaw},
		{"SELECT max(length(CAST(moves AS BLOB))) FROM games", maxMoves},
		{"SELECT max(length(CAST(error_message AS BLOB))) FROM games", maxMessage},
	} {
		if n := count(t, d.db, c.expr); n > int64(c.limit) || n == 0 {
			t.Errorf("%s: %d, bound %d", c.expr, n, c.limit)
		}
	}
	// A tag is kept whole: the big game's Annotator of 200,000 bytes.
	if n := count(t, d.db, "SELECT max(length(CAST(value AS BLOB))) FROM tags"); n != 200_000 {
		t.Errorf("the longest tag value has %d bytes, want the Annotator's 200,000", n)
	}
	// The illegal game of 400 KB: its raw text is cut at a line end, and says so.
	var raw string
	if err := d.db.QueryRow(`SELECT raw FROM games WHERE source LIKE '%big-illegal.ponte'`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if i := strings.LastIndex(raw, "\n… [cut: the record's text is "); i < 0 || !strings.HasSuffix(raw, " are kept]") {
		t.Errorf("the big game's raw text does not end with the note: %q", raw[max(0, len(raw)-200):])
	}
	// The file named in Latin-1, under its name made valid, in sources and games.
	name := filepath.Join(dir, "caf\uFFFD.ponte")
	if n := count(t, d.db, "SELECT count(*) FROM sources WHERE path = ?", name); n != 1 {
		t.Errorf("%d sources rows named %q", n, name)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games WHERE source = ?", name); n != 1 {
		t.Errorf("%d games from %q", n, name)
	}

	// Parquet: read back with parquet-go, every string valid, every row SQLite's.
	games := readParquet[GameRow](t, filepath.Join(pq, "games.parquet"))
	turns := readParquet[TurnRow](t, filepath.Join(pq, "turns.parquet"))
	if int64(len(games)) != st.Games || int64(len(turns)) != st.Turns {
		t.Fatalf("%d games and %d turns read, %+v written", len(games), len(turns), st)
	}
	for _, g := range games {
		if bad := invalidStrings(g); len(bad) > 0 {
			t.Errorf("games.parquet row %d: not valid UTF-8: %s", g.ID, bad)
		}
	}
	for _, r := range turns {
		if bad := invalidStrings(r); len(bad) > 0 {
			t.Errorf("turns.parquet game %d turn %d: not valid UTF-8: %s", r.Game, r.Turn, bad)
		}
	}
	for _, r := range readParquet[TagRow](t, filepath.Join(pq, "tags.parquet")) {
		if bad := invalidStrings(r); len(bad) > 0 {
			t.Errorf("tags.parquet game %s tag %d: not valid UTF-8: %s", r.GameID, r.Seq, bad)
		}
	}
	for i, want := range dumpRows(t, d, &gamesTable, "id") {
		if got := fmtGame(games[i]); got != want {
			t.Errorf("games row %d:\nParquet %.300s\nSQLite  %.300s", i+1, got, want)
		}
	}
	for i, want := range dumpRows(t, d, &turnsTable, "game, turn") {
		if got := fmtRow(turns[i]); got != want {
			t.Errorf("turns row %d:\nParquet %s\nSQLite  %s", i+1, got, want)
		}
	}
	// A 400 KB game costs the file no more than its bounded texts (it took 1.1 MB).
	if info, err := os.Stat(filepath.Join(pq, "games.parquet")); err != nil || info.Size() > 64<<10 {
		t.Errorf("games.parquet: %v, %v bytes", err, info.Size())
	}

	// Again: every file is found by its content, the one named in Latin-1 too.
	again := ingestInto(t, d, Options{}, dir)
	if again.New != 0 || again.Games != 0 || again.Skipped != 4 {
		t.Errorf("again: %d new of %d games, %d files skipped, want 4 (all but the file in no format)", again.New, again.Games, again.Skipped)
	}
	if n := count(t, d.db, "SELECT count(*) FROM sources WHERE path = ?", name); n != 1 {
		t.Errorf("again: %d sources rows named %q", n, name)
	}
}

// A database written before the store made every text valid UTF-8 may hold other bytes:
// the Parquet files get them replaced by U+FFFD, as the store now stores them, so that
// DuckDB can read the files.
func TestParquetOldInvalidText(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn)
	for _, q := range []string{
		`UPDATE games SET light = CAST(X'4A6F73E9' AS TEXT), raw = CAST(X'7B64E96AE0207072697320FF7D' AS TEXT) WHERE id = 1`,
		`UPDATE games SET source = CAST(X'636166E92E706F6E7465' AS TEXT) WHERE id = 2`,
	} {
		if _, err := d.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	pq := t.TempDir()
	if _, err := d.WriteParquet(pq); err != nil {
		t.Fatal(err)
	}
	games := readParquet[GameRow](t, filepath.Join(pq, "games.parquet"))
	for _, g := range games {
		if bad := invalidStrings(g); len(bad) > 0 {
			t.Errorf("games.parquet row %d: not valid UTF-8: %s", g.ID, bad)
		}
	}
	if *games[0].Light != "Jos\uFFFD" || *games[0].Raw != "{d\uFFFDj\uFFFD pris \uFFFD}" || games[1].Source != "caf\uFFFD.ponte" {
		t.Errorf("games.parquet: light %q, raw %q, source %q", *games[0].Light, *games[0].Raw, games[1].Source)
	}
}

// fmtGame formats the columns of the games table of a row of games.parquet as dump
// formats a row: date as the text stored (date_text), without the derived columns.
func fmtGame(g GameRow) string {
	parts := rowParts(g)[:len(gamesTable.columns)]
	for i, col := range gamesTable.columns {
		if col.name == "date" {
			parts[i] = "NULL"
			if g.DateText != nil {
				parts[i] = *g.DateText
			}
		}
	}
	return strings.Join(parts, " | ")
}
