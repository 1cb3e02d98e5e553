package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// clubDB is a database of sample_data/club-2025.ponte.gz, closed when the test ends.
func clubDB(t *testing.T) *DB {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Ingest(context.Background(), []string{"../sample_data/club-2025.ponte.gz"}, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEvalsSaveAndRecalibrate(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) == 0 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	g := games[0]
	rows := []TurnEval{
		{GameID: g.GameID, Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "a1,a2", RawBefore: 0.5, RawAfter: 0.4, BestQ: 0.6, PlayedQ: 0.6, Before: 0.5, After: 0.4},
		{GameID: g.GameID, Turn: 2, Bot: "sage-8", Playouts: 8, Colour: "dark", Played: "swap", RawBefore: 0.4, RawAfter: 0.3, BestQ: 0.7, PlayedQ: 0.2, BestN: 12, PlayedN: 25, Before: 0.4, After: 0.3},
		{GameID: "no such game", Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "a1,a2"},
	}
	if n, err := d.SaveEvals(ctx, rows); err != nil || n != 2 {
		t.Fatalf("stored %d, %v; want the 2 rows of a stored game", n, err)
	}
	if n, err := d.SaveEvals(ctx, rows); err != nil || n != 0 {
		t.Fatalf("stored again %d, %v", n, err)
	}
	left, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(left) != len(games)-1 {
		t.Fatalf("%d games left of %d, %v", len(left), len(games), err)
	}
	fix := func(r *TurnEval, size int) {
		if size != g.Size {
			t.Errorf("size %d, want %d", size, g.Size)
		}
		if r.Turn == 2 && (r.BestN != 12 || r.PlayedN != 25) {
			t.Errorf("turn 2 given with visit counts %d and %d, want 12 and 25", r.BestN, r.PlayedN)
		}
		r.Loss = max(0, r.BestQ-r.PlayedQ)
		if r.Loss > 0.3 {
			m := "blunder"
			r.Mark = &m
		}
	}
	if n, err := d.RecalibrateEvals(ctx, "sage-8", fix); err != nil || n != 1 {
		t.Fatalf("recalibrated %d, %v; want turn 2", n, err)
	}
	if n, err := d.RecalibrateEvals(ctx, "sage-8", fix); err != nil || n != 0 {
		t.Fatalf("recalibrated again %d, %v", n, err)
	}
	got, err := dbEvalsOf(ctx, d, g.ID)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d rows, %v", len(got), err)
	}
	if r := got[1]; r.Mark == nil || *r.Mark != "blunder" || r.Loss < 0.49 || r.Player == "" || r.BestN != 12 || r.PlayedN != 25 {
		t.Errorf("turn 2: %+v", r)
	}
	path := filepath.Join(t.TempDir(), EvalsParquetName)
	if n, err := d.WriteEvalsParquet(ctx, path); err != nil || n != 2 {
		t.Fatalf("parquet: %d rows, %v", n, err)
	}
	var back []TurnEval
	if err := ReadWholeEvalsParquet(path, func(_ int64, r *TurnEval) error { back = append(back, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[1].Game != g.ID || back[1].GameID != g.GameID || *back[1].Mark != "blunder" || back[1].BestN != 12 || back[1].PlayedN != 25 {
		t.Errorf("read back %+v", back)
	}
}

// A turn_evals table made before the visit counts were kept reads with counts 0, and
// gets their columns when rows are next stored; a turn_evals.parquet file without them
// reads too.
func TestEvalsWithoutCounts(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) < 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	old := strings.NewReplacer("\tbest_n INTEGER NOT NULL DEFAULT 0,\n", "", "\tplayed_n INTEGER NOT NULL DEFAULT 0,\n", "").Replace(evalsTableSQL)
	if old == evalsTableSQL {
		t.Fatal("the old table is the new one")
	}
	if _, err := d.db.ExecContext(ctx, old); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, raw_before, raw_after, over_after,
		best_q, played_q, light_before, light_after, loss) VALUES (?, 'sage-8', 1, 8, 'light', 'a1,a2', 0.5, 0.4, 0, 0.6, 0.5, 0.5, 0.4, 0.1)`, games[0].GameID); err != nil {
		t.Fatal(err)
	}
	got, err := dbEvalsOf(ctx, d, games[0].ID)
	if err != nil || len(got) != 1 || got[0].BestN != 0 || got[0].PlayedN != 0 || got[0].BestQ != 0.6 {
		t.Fatalf("old rows: %+v, %v", got, err)
	}
	row := TurnEval{GameID: games[1].GameID, Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "a1,a2", BestQ: 0.6, PlayedQ: 0.5, BestN: 9, PlayedN: 25}
	if n, err := d.SaveEvals(ctx, []TurnEval{row}); err != nil || n != 1 {
		t.Fatalf("stored %d, %v", n, err)
	}
	if got, err = dbEvalsOf(ctx, d, games[1].ID); err != nil || len(got) != 1 || got[0].BestN != 9 || got[0].PlayedN != 25 {
		t.Fatalf("new rows: %+v, %v", got, err)
	}
	if got, err = dbEvalsOf(ctx, d, games[0].ID); err != nil || len(got) != 1 || got[0].BestN != 0 {
		t.Fatalf("old rows after the new columns: %+v, %v", got, err)
	}

	// A Parquet file of the columns before the counts (best_n, played_n).
	type oldEval struct {
		GameID    string  `parquet:"game_id,dict"`
		Turn      int32   `parquet:"turn,delta"`
		Bot       string  `parquet:"bot,dict"`
		Playouts  int32   `parquet:"playouts"`
		Colour    string  `parquet:"colour,dict"`
		Played    string  `parquet:"played"`
		RawBefore float64 `parquet:"raw_before"`
		RawAfter  float64 `parquet:"raw_after"`
		OverAfter bool    `parquet:"over_after"`
		BestQ     float64 `parquet:"best_q"`
		PlayedQ   float64 `parquet:"played_q"`
		Before    float64 `parquet:"light_before"`
		After     float64 `parquet:"light_after"`
		Loss      float64 `parquet:"loss"`
	}
	path := filepath.Join(t.TempDir(), EvalsParquetName)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[oldEval](f)
	if _, err := w.Write([]oldEval{{GameID: "g1", Turn: 3, Bot: "sage-8", BestQ: 0.7, PlayedQ: 0.2}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var back []TurnEval
	if err := ReadWholeEvalsParquet(path, func(_ int64, r *TurnEval) error { back = append(back, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].GameID != "g1" || back[0].BestQ != 0.7 || back[0].BestN != 0 || back[0].PlayedN != 0 {
		t.Errorf("read back %+v", back)
	}
}

// dbEvalsOf is Reader.EvalsOf on the database being written, whose turn_evals may lack the
// counts' columns.
func dbEvalsOf(ctx context.Context, d *DB, game int64) ([]TurnEval, error) {
	counts, err := countsSQL(ctx, d.db)
	if err != nil {
		return nil, err
	}
	return evalsOf(ctx, d.db, counts, game)
}

// A Reader opened before the first annotation finds turn_evals when ponte annotate makes
// it, and reads a table made before the counts were kept with counts 0.
func TestReaderEvalsAppear(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := r.EvalsOf(ctx, 1); err != nil || got != nil {
		t.Fatalf("no turn_evals yet: %+v, %v", got, err)
	}
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) == 0 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	// The table as it was made before the counts were kept, with one row.
	if _, err := d.db.ExecContext(ctx, "DROP TABLE turn_evals"); err != nil {
		t.Fatal(err)
	}
	old := strings.NewReplacer("\tbest_n INTEGER NOT NULL DEFAULT 0,\n", "", "\tplayed_n INTEGER NOT NULL DEFAULT 0,\n", "").Replace(evalsTableSQL)
	if _, err := d.db.ExecContext(ctx, old); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, raw_before, raw_after, over_after,
		best_q, played_q, light_before, light_after, loss) VALUES (?, 'sage-8', 1, 8, 'light', 'a1,a2', 0.5, 0.4, 0, 0.6, 0.5, 0.5, 0.4, 0.1)`, games[0].GameID); err != nil {
		t.Fatal(err)
	}
	got, err := r.EvalsOf(ctx, games[0].ID)
	if err != nil || len(got) != 1 || got[0].BestN != 0 || got[0].BestQ != 0.6 {
		t.Fatalf("the old table's row: %+v, %v", got, err)
	}
	n := 0
	if err := r.EachEval(ctx, Filter{}, func(TurnEval) error { n++; return nil }); err != nil || n != 1 {
		t.Fatalf("EachEval: %d rows, %v", n, err)
	}
}

// goodEval is a reading CheckEval takes, of turn 1 of the game g.
func goodEval(g EvalGame) TurnEval {
	best := "b2,b3"
	return TurnEval{GameID: g.GameID, Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "a1,a2", Best: &best,
		RawBefore: 0.5, RawAfter: 0.4, BestQ: 0.6, PlayedQ: 0.5, BestN: 3, PlayedN: 2, Before: 0.5, After: 0.4, Loss: 0.1}
}

// badEvals are readings each wrong in one column, and that column.
func badEvals(g EvalGame) []struct {
	column string
	r      TurnEval
} {
	hostile := `" onmouseover="alert(1)`
	edit := func(f func(*TurnEval)) TurnEval { r := goodEval(g); f(&r); return r }
	return []struct {
		column string
		r      TurnEval
	}{
		{"light_before", edit(func(r *TurnEval) { r.Before = math.NaN() })},
		{"light_after", edit(func(r *TurnEval) { r.After = math.Inf(1) })},
		{"loss", edit(func(r *TurnEval) { r.Loss = math.Inf(-1) })},
		{"raw_before", edit(func(r *TurnEval) { r.RawBefore = -2 })},
		{"loss", edit(func(r *TurnEval) { r.Loss = 7.5 })},
		{"best_q", edit(func(r *TurnEval) { r.BestQ = 1.0000001 })},
		{"turn", edit(func(r *TurnEval) { r.Turn = 0 })},
		{"turn", edit(func(r *TurnEval) { r.Turn = -3 })},
		{"playouts", edit(func(r *TurnEval) { r.Playouts = 0 })},
		{"played_n", edit(func(r *TurnEval) { r.PlayedN = -1 })},
		{"colour", edit(func(r *TurnEval) { r.Colour = "Light" })},
		{"mark", edit(func(r *TurnEval) { r.Mark = &hostile })},
		{"mark", edit(func(r *TurnEval) { m := "good"; r.Mark = &m })},
		{"bot", edit(func(r *TurnEval) { r.Bot = "<script>alert(1)</script>" })},
		{"bot", edit(func(r *TurnEval) { r.Bot = "" })},
		{"played", edit(func(r *TurnEval) { r.Played = hostile })},
		{"best", edit(func(r *TurnEval) { b := "</script>"; r.Best = &b })},
	}
}

// TestSaveEvalsRefuses: issue 31 findings 7 and 8 (on the way in): a reading with NaN, an
// infinity, a chance outside [0, 1], a turn below 1 or a word outside the vocabulary (a
// mark, a bot, a token that would reach a page) is refused, naming its column, and the
// rows stored with it are not stored either.
func TestSaveEvalsRefuses(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) < 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, tc := range badEvals(games[1]) {
		t.Run(tc.column, func(t *testing.T) {
			n, err := d.SaveEvals(ctx, []TurnEval{goodEval(games[0]), tc.r})
			if err == nil || n != 0 {
				t.Fatalf("stored %d rows, err %v; want the batch refused", n, err)
			}
			if !strings.Contains(err.Error(), "column "+tc.column+":") {
				t.Errorf("%v: want column %s named", err, tc.column)
			}
			if stored, err := d.CountEvals(ctx); err != nil || stored != 0 {
				t.Errorf("%d rows stored, %v", stored, err)
			}
		})
	}
}

// storeRaw stores the reading r as it is, with SQL: as an edit of the database, or an older
// ponte, would; the values of set (column → SQL expression) replace r's.
func storeRaw(t *testing.T, d *DB, r TurnEval, set map[string]string) {
	t.Helper()
	cols := []string{"game_id", "bot", "turn", "playouts", "colour", "played", "best", "raw_before", "raw_after", "over_after",
		"best_q", "played_q", "best_n", "played_n", "light_before", "light_after", "loss", "mark"}
	vals := []any{r.GameID, r.Bot, r.Turn, r.Playouts, r.Colour, r.Played, r.Best, r.RawBefore, r.RawAfter, r.OverAfter,
		r.BestQ, r.PlayedQ, r.BestN, r.PlayedN, r.Before, r.After, r.Loss, r.Mark}
	exprs := make([]string, len(cols))
	var args []any
	for i, c := range cols {
		if e, ok := set[c]; ok {
			exprs[i] = e
			continue
		}
		exprs[i] = "?"
		// SQLite keeps NaN bound as a number as NULL: 'NaN' is how one is stored (as text,
		// which database/sql reads back as NaN); 9e999 is SQLite's infinity.
		if f, ok := vals[i].(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			exprs[i] = map[bool]string{true: "'NaN'", false: "9e999"}[math.IsNaN(f)]
			if math.IsInf(f, -1) {
				exprs[i] = "-9e999"
			}
			continue
		}
		args = append(args, vals[i])
	}
	q := "INSERT INTO turn_evals (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(exprs, ", ") + ")"
	if _, err := d.db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestBadEvalsSkipped: issue 31 finding 8 (on the way out): readings stored with NaN,
// infinities, chances outside [0, 1], turns below 1 or past the game's end, or words
// outside the vocabulary are left out by every reader, so no NaN reaches ponte stats or a
// report; the good reading beside them is read.
func TestBadEvalsSkipped(t *testing.T) {
	ctx := context.Background()
	d, games := rawEvalsDB(t)
	good := goodEval(games[0])
	storeRaw(t, d, good, nil)
	for i, tc := range badEvals(games[1]) {
		r := tc.r
		if tc.column != "turn" {
			r.Turn = int32(i + 1)
		}
		storeRaw(t, d, r, nil)
	}
	// Past the game's last turn; a text where a number belongs.
	past := goodEval(games[1])
	past.Turn = int32(games[1].Turns + 1)
	storeRaw(t, d, past, nil)
	text := goodEval(games[1])
	text.Turn = 30
	storeRaw(t, d, text, map[string]string{"loss": "'a lot'"})

	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var read []TurnEval
	if err := r.EachEval(ctx, Filter{}, func(e TurnEval) error { read = append(read, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(read) != 1 || read[0].GameID != good.GameID {
		t.Errorf("EachEval read %d rows, want the good one alone: %+v", len(read), read)
	}
	if rows, err := r.EvalsOf(ctx, games[1].ID); err != nil || len(rows) != 0 {
		t.Errorf("EvalsOf the bad game: %d rows, %v", len(rows), err)
	}
	if sw, err := r.LargestSwings(ctx, Filter{}, 10); err != nil || len(sw) != 1 || math.IsNaN(sw[0].Swing) || sw[0].Swing > 1 {
		t.Errorf("LargestSwings: %+v, %v", sw, err)
	}
}

// TestBadEvalsNamed: issue 31 finding 8: each reading the readers leave out is named by
// BadEvals with its game, turn and first bad column, and the reason says what the column
// must be.
func TestBadEvalsNamed(t *testing.T) {
	ctx := context.Background()
	d, games := rawEvalsDB(t)
	storeRaw(t, d, goodEval(games[0]), nil)
	var want []string
	for i, tc := range badEvals(games[1]) {
		r := tc.r
		if tc.column != "turn" {
			r.Turn = int32(i + 1)
		}
		storeRaw(t, d, r, nil)
		want = append(want, fmt.Sprintf("%d %s", r.Turn, tc.column))
	}
	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	err = r.BadEvals(ctx, Filter{}, func(e *EvalError) error {
		got = append(got, fmt.Sprintf("%d %s", e.Turn, e.Column))
		if e.Game != games[1].ID || !errors.Is(e, ErrBadEval) || !strings.Contains(e.Error(), "column "+e.Column+": ") {
			t.Errorf("%v: want game %d named", e, games[1].ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("named:\n%s\nwant:\n%s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
}

// writeParquet writes rows of type T to a new file and returns its path.
func writeParquet[T any](t *testing.T, rows []T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), EvalsParquetName)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestReadWholeEvalsParquetColumns: issue 31 finding 5: the layout's owner checks a file's
// columns before a merge reads a row of it: a column turn_evals.parquet does not have, one
// of another type, one it always has missing, each a typed *EvalsColumnError; a file of
// its own layout reads whole, its rows numbered from 1.
func TestReadWholeEvalsParquetColumns(t *testing.T) {
	type games struct {
		ID     int64  `parquet:"id"`
		GameID string `parquet:"game_id"`
		Turn   int32  `parquet:"turn"`
	}
	type textTurn struct {
		TurnEval
		Turn string `parquet:"turn"`
	}
	type noLoss struct {
		GameID string `parquet:"game_id"`
		Turn   int32  `parquet:"turn"`
	}
	for _, tc := range []struct {
		name, column string
		path         string
		want         error
	}{
		{"games.parquet", "id", writeParquet(t, []games{{1, "g", 0}}), ErrNotEvalsColumn},
		{"turn as text", "turn", writeParquet(t, []textTurn{{Turn: "1"}}), ErrEvalsColumnType},
		{"game_id and turn alone", "bot", writeParquet(t, []noLoss{{"g", 1}}), ErrEvalsColumnMissing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ReadWholeEvalsParquet(tc.path, func(int64, *TurnEval) error { t.Fatal("a row read"); return nil })
			var ce *EvalsColumnError
			if !errors.As(err, &ce) || ce.Column != tc.column || !errors.Is(err, tc.want) || ce.File != tc.path {
				t.Errorf("%v: want column %s: %v", err, tc.column, tc.want)
			}
		})
	}
	g := EvalGame{GameID: "g"}
	rows := []TurnEval{goodEval(g), goodEval(g)}
	rows[1].Turn = 2
	var read []int64
	err := ReadWholeEvalsParquet(writeParquet(t, rows), func(row int64, r *TurnEval) error {
		if int(r.Turn) != int(row) {
			t.Errorf("row %d: turn %d", row, r.Turn)
		}
		read = append(read, row)
		return nil
	})
	if err != nil || len(read) != 2 {
		t.Errorf("read rows %v, %v", read, err)
	}
	if err := ReadWholeEvalsParquet(filepath.Join("testdata", "no such file"), nil); err == nil {
		t.Error("a missing file read")
	}
}

// TestLargestSwingsOneEngine: with games read by two engines, the swings are those of the
// engine that read most of them, each game once, whatever the other engine's swings.
func TestLargestSwingsOneEngine(t *testing.T) {
	ctx := context.Background()
	d, games := rawEvalsDB(t)
	for _, g := range games[:2] {
		storeRaw(t, d, goodEval(g), nil) // sage-8: a swing of 10 points in each
	}
	big := goodEval(games[0]) // play-64 read one of them, with a larger swing
	big.Bot, big.Before, big.After = "play-64", 0.9, 0.1
	storeRaw(t, d, big, nil)
	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sw, err := r.LargestSwings(ctx, Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw) != 2 || sw[0].Bot != "sage-8" || sw[1].Bot != "sage-8" || sw[0].Game == sw[1].Game {
		t.Errorf("LargestSwings: %+v, want the two games of sage-8", sw)
	}
}

// rawEvalsDB is the club archive in a new database with its turn_evals table made, and the
// games an engine would read there (two or more), for rows stored as they are (storeRaw).
func rawEvalsDB(t *testing.T) (*DB, []EvalGame) {
	t.Helper()
	ctx := context.Background()
	d := clubDB(t)
	if err := d.ensureEvals(ctx); err != nil {
		t.Fatal(err)
	}
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) < 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	return d, games
}
