package store

import (
	"context"
	"os"
	"path/filepath"
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
		{GameID: "no such game", Turn: 1, Bot: "sage-8", Colour: "light", Played: "a1,a2"},
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
	if err := ReadEvalsParquet(path, func(rs []TurnEval) error { back = append(back, rs...); return nil }); err != nil {
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

	// A Parquet file of the columns before the counts.
	type oldEval struct {
		GameID  string  `parquet:"game_id,dict"`
		Turn    int32   `parquet:"turn,delta"`
		Bot     string  `parquet:"bot,dict"`
		BestQ   float64 `parquet:"best_q"`
		PlayedQ float64 `parquet:"played_q"`
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
	if err := ReadEvalsParquet(path, func(rs []TurnEval) error { back = append(back, rs...); return nil }); err != nil {
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
