package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ponte/ponte/game"
)

// CalibrationPoints reads the decided games by the one final-result rule, game.Final: a
// game that ended by resignation, on time or by an agreed draw counts with the result it
// claims (an agreed draw too, which an SQL rule of its own used to leave out), an
// abandoned or unfinished one does not; the result is the opener's side's before a swap.
func TestCalibrationPointsFinalResult(t *testing.T) {
	ctx := context.Background()
	ends := `[Round "resign"]
[Result "1-0"]
[Termination "resign"]

1. c3,h8 2. d4,g7 1-0

[Round "time"]
[Result "0-1"]
[Termination "time"]

1. c4,h8 2. d4,g7 0-1

[Round "agreement"]
[Result "1/2-1/2"]
[Termination "agreement"]

1. c5,h8 2. d4,g7 1/2-1/2

[Round "abandoned"]
[Result "1-0"]
[Termination "abandoned"]

1. c6,h8 2. d4,g7 1-0

[Round "unfinished"]

1. c7,h8 2. d4,g7 *

[Round "swap, resign"]
[Result "0-1"]
[Termination "resign"]

1. c2,h8 2. swap 3. d4,g7 0-1
`
	dir := t.TempDir()
	path := filepath.Join(dir, "ends.ponte")
	if err := os.WriteFile(path, []byte(ends), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(filepath.Join(dir, "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Ingest(ctx, []string{path}, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	games, err := d.GamesToAnnotate(ctx, Filter{}, "sage-8")
	if err != nil || len(games) != 6 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	var rows []TurnEval
	for _, g := range games {
		rows = append(rows,
			TurnEval{GameID: g.GameID, Turn: 1, Bot: "sage-8", Playouts: 8, Colour: "light", Played: "c3,h8", RawBefore: 0.5, RawAfter: 0.5, BestQ: 0.5, PlayedQ: 0.5, Before: 0.5, After: 0.5},
			TurnEval{GameID: g.GameID, Turn: 2, Bot: "sage-8", Playouts: 8, Colour: "dark", Played: "d4,g7", RawBefore: 0.5, RawAfter: 0.5, BestQ: 0.5, PlayedQ: 0.5, Before: 0.5, After: 0.5})
	}
	if n, err := d.SaveEvals(ctx, rows); err != nil || n != int64(len(rows)) {
		t.Fatalf("stored %d, %v", n, err)
	}
	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pts, err := r.CalibrationPoints(ctx, "sage-8", Filter{Population: game.PopulationAll})
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, p := range pts {
		got = append(got, p.Won)
	}
	// resign 1-0, time 0-1, agreement ½, swap then resign 0-1 (the opener, Light at turns
	// 1 and 2, ended as Dark and won); two turns each.
	if want := []float64{1, 1, 0, 0, 0.5, 0.5, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("won %v, want %v", got, want)
	}
}
