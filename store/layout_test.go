package store

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/turntext"
)

// The per-turn layout is defined once, in Go (internal/turntext: Pack and the accessors
// of turntext.Turn), which the Parquet writer reads through (turnUnpacker). The view turns
// unpacks the same bits in SQL (turnsPacking): for turns of random bits in every field,
// each column of the view holds, field by field, what the Go definition gives.
func TestTurnsViewMatchesLayout(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	rng := rand.New(rand.NewPCG(20, 3))
	var b turntext.Builder
	var want []turntext.Turn
	cells := []string{"", "a1", "d4", "z26"}
	for i := range 500 {
		tt := turntext.Turn{P1: rng.Int64N(1 << 40), P2: rng.Int64N(1 << 58), P3: rng.Int64N(1 << 54)}
		switch i {
		case 0: // every bit of every field set
			tt.P1, tt.P2, tt.P3 = 1<<40-1, 1<<58-1, 1<<54-1
		case 1: // none
			tt.P1, tt.P2, tt.P3 = 0, 0, 0
		}
		if c := cells[rng.IntN(len(cells))]; c != "" {
			tt.A, tt.B = c, cells[1+rng.IntN(len(cells)-1)]
		}
		if rng.IntN(2) == 0 {
			tt.Think = rng.Int64N(1 << 30)
		}
		b.Add(&tt)
		want = append(want, tt)
	}
	if _, err := d.db.Exec("INSERT INTO game_turns (game, turns, by_turn) VALUES (1, ?, x'')", b.String()); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(dump(t, d.db, "SELECT "+turnsTable.names()+" FROM turns WHERE game = 1 ORDER BY turn"), "\n"), "\n")
	if len(rows) != len(want) {
		t.Fatalf("the view shows %d turns, want %d", len(rows), len(want))
	}
	var u turnUnpacker
	var sl slab
	names := strings.Split(turnsTable.names(), ", ")
	typ := reflect.TypeOf(TurnRow{})
	if typ.NumField() != len(names) {
		t.Fatalf("TurnRow has %d fields, the view %d columns", typ.NumField(), len(names))
	}
	for i := range want {
		var r TurnRow
		if err := u.set(&r, 1, int32(i+1), &want[i], &sl); err != nil {
			t.Fatal(err)
		}
		got, fromGo := strings.Split(rows[i], " | "), rowParts(r)
		for c, name := range names {
			if got[c] != fromGo[c] {
				t.Errorf("turn %d (P1 %#x, P2 %#x, P3 %#x): column %s is %s in the view, %s by turntext", i+1, want[i].P1, want[i].P2, want[i].P3, name, got[c], fromGo[c])
			}
		}
	}
}
