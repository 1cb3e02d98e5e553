package store

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// GameRow and TurnRow are the games and turns tables, column for column, and their
// Parquet schemas have the columns' names, order, types and nullability.
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
		if len(fields) != len(c.t.columns) {
			t.Fatalf("%s: %d Parquet columns, %d SQL columns", c.t.name, len(fields), len(c.t.columns))
		}
		for i, f := range fields {
			col := c.t.columns[i]
			if f.Name() != col.name || f.Optional() != col.null {
				t.Errorf("%s column %d: Parquet %s (optional %v), SQL %s (null %v)", c.t.name, i, f.Name(), f.Optional(), col.name, col.null)
			}
			kind := f.Type().Kind()
			switch col.typ {
			case "INTEGER":
				if kind != parquet.Int32 && kind != parquet.Int64 {
					t.Errorf("%s.%s: Parquet %v for INTEGER", c.t.name, col.name, kind)
				}
			case "BOOLEAN":
				if kind != parquet.Boolean {
					t.Errorf("%s.%s: Parquet %v for BOOLEAN", c.t.name, col.name, kind)
				}
			case "TEXT":
				if kind != parquet.ByteArray || f.Type().LogicalType().String() != "STRING" {
					t.Errorf("%s.%s: Parquet %v for TEXT", c.t.name, col.name, f.Type())
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
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in %s, want the two Parquet files", len(entries), dir)
	}

	// Every value, against SQLite as database/sql reads it.
	gameRows, turnRows := dumpRows(t, d, &gamesTable, "id"), dumpRows(t, d, &turnsTable, "game, turn")
	if len(gameRows) != len(games) || len(turnRows) != len(turns) {
		t.Fatalf("SQLite dump: %d games, %d turns", len(gameRows), len(turnRows))
	}
	for i, want := range gameRows {
		if got := fmtRow(games[i]); got != want {
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
		}
	}
	return strings.Join(parts, " | ")
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
	if _, err := other.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	if current() {
		t.Error("current with another database's files")
	}
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "turns.parquet"))
	if current() {
		t.Error("current with turns.parquet missing")
	}
}
