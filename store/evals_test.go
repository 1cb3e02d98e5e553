package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestEvalsSaveAndRecalibrate(t *testing.T) {
	ctx := context.Background()
	d, err := Open(filepath.Join(t.TempDir(), "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Ingest(ctx, []string{"../sample_data/club-2025.ponte.gz"}, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) == 0 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	g := games[0]
	rows := []TurnEval{
		{GameID: g.GameID, Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "a1,a2", RawBefore: 0.5, RawAfter: 0.4, BestQ: 0.6, PlayedQ: 0.6, Before: 0.5, After: 0.4},
		{GameID: g.GameID, Turn: 2, Bot: "sage-8", Playouts: 8, Colour: "dark", Played: "swap", RawBefore: 0.4, RawAfter: 0.3, BestQ: 0.7, PlayedQ: 0.2, Before: 0.4, After: 0.3},
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
	got, err := evalsOf(ctx, d.db, g.ID)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d rows, %v", len(got), err)
	}
	if r := got[1]; r.Mark == nil || *r.Mark != "blunder" || r.Loss < 0.49 || r.Player == "" {
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
	if len(back) != 2 || back[1].Game != g.ID || back[1].GameID != g.GameID || *back[1].Mark != "blunder" {
		t.Errorf("read back %+v", back)
	}
}
