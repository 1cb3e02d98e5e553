package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Every turn row the writer stores in its packed form (turnsPacking) reads back as the
// features of a fresh replay of the game, column by column, for every game of the sample
// data with a 12×12 board, the 40/15 supply, swaps, bridges and dead sandbanks.
func TestPackedTurnsReadBack(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, online, autumn, club, "../sample_data/selfplay-12x12-greedy-40x15.ponte.zst")
	cols := make([]string, len(turnsTable.columns))
	for i, c := range turnsTable.columns {
		cols[i] = "t." + c.name
	}
	rows, err := d.db.Query(`SELECT g.size, g.supply, g.moves, t.turn, ` + strings.Join(cols, ", ") + `
		FROM turns t JOIN games g ON g.id = t.game ORDER BY t.game, t.turn`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var g replay.Game
	var ft replay.FeatureTracker
	var moves []string
	checked := 0
	for rows.Next() {
		var size, turn int
		var supply, text string
		vals := make([]any, len(turnsTable.columns))
		ptrs := []any{&size, &supply, &text, &turn}
		for i := range vals {
			ptrs = append(ptrs, &vals[i])
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if turn == 1 {
			sup, _ := game.ParseSupply(supply)
			g.Reset(size, sup)
			ft.Reset()
			moves = strings.Fields(text)
		}
		m, err := replay.ParseMove(moves[turn-1], size)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ft.Play(&g, m)
		if err != nil {
			t.Fatal(err)
		}
		want := appendPlain(&f)
		for i, c := range turnsTable.columns[1:] { // after the game's number
			got := fmt.Sprint(vals[i+1])
			if b, ok := vals[i+1].([]byte); ok {
				got = string(b)
			}
			if got != want[i] {
				t.Fatalf("turn %d of %q: %s = %s, want %s", turn, text, c.name, got, want[i])
			}
		}
		checked++
	}
	if checked < 10000 {
		t.Errorf("only %d turns checked", checked)
	}
}

// appendPlain is the stored columns of a turn after the game's number, as text, made
// directly from the features (NULL as <nil>, booleans as 0 and 1).
func appendPlain(f *replay.Features) []string {
	null := "<nil>"
	s := func(n int) string { return fmt.Sprint(n) }
	out := []string{s(f.Turn), [2]string{"light", "dark"}[f.Colour], [4]string{"tiles", "bridge", "swap", "pass"}[f.Kind]}
	if f.Kind == replay.Tiles || f.Kind == replay.Bridge {
		out = append(out, f.Move.A.String(), f.Move.B.String())
	} else {
		out = append(out, null, null)
	}
	out = append(out, s(f.IslandsFormed))
	if f.Kind == replay.Tiles {
		out = append(out, s(f.TileGroups[0]), s(f.TileGroups[1]))
	} else {
		out = append(out, null, null)
	}
	if f.Kind == replay.Bridge {
		merged := "0"
		if f.BridgeMerged {
			merged = "1"
		}
		out = append(out, [4]string{null, "straight", "diagonal", "knight"}[f.BridgeShape], s(f.BridgeEnds[0]), s(f.BridgeEnds[1]), merged)
	} else {
		out = append(out, null, null, null, null)
	}
	return append(out, s(f.LargestComponent), s(f.Score[0]), s(f.Score[1]), s(f.Islands[0]), s(f.Islands[1]),
		s(f.Sandbanks[0]), s(f.Sandbanks[1]), s(f.Dead[0]), s(f.Dead[1]), s(f.DeadCreated[0]), s(f.DeadCreated[1]),
		s(f.Mobility[0]), s(f.Mobility[1]), null)
}
