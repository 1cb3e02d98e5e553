package store

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/turntext"
)

// The per-turn layout is defined once, in Go (internal/turntext: Builder, Scanner and the
// accessors of turntext.Turn), which the Parquet writer reads through (turnUnpacker). The
// view turns unpacks the same text in SQL (viewSQL): for games of random turns, narrow and
// wide (think times, running values that jump to their bounds), each column of the view
// holds, field by field, what the Go definition gives.
func TestTurnsViewMatchesLayout(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	rng := rand.New(rand.NewPCG(20, 3))
	var want [][]turntext.Turn
	for g := range 30 {
		feats, millis := turntext.RandomGame(rng, 1+rng.IntN(200), []int{0, 2, 30}[g%3])
		var b turntext.Builder
		var turns []turntext.Turn
		for i := range feats {
			tt := turntext.Pack(&feats[i], millis[i])
			b.Add(&tt)
			turns = append(turns, tt)
		}
		if b.Err() != nil {
			t.Fatal(b.Err())
		}
		if _, err := d.db.Exec("INSERT INTO game_turns (game, turns) VALUES (?, ?)", g+1, b.String()); err != nil {
			t.Fatal(err)
		}
		want = append(want, turns)
	}
	for g := range want {
		checkViewGame(t, d, int64(g+1), want[g])
	}
}

func checkViewGame(t *testing.T, d *DB, game int64, want []turntext.Turn) {
	t.Helper()
	rows := strings.Split(strings.TrimSuffix(dump(t, d.db, "SELECT "+turnsTable.names()+" FROM turns WHERE game = ? ORDER BY turn", game), "\n"), "\n")
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
		if err := u.set(&r, game, int32(i+1), &want[i], &sl); err != nil {
			t.Fatal(err)
		}
		got, fromGo := strings.Split(rows[i], " | "), rowParts(r)
		for c, name := range names {
			if got[c] != fromGo[c] {
				t.Errorf("game %d turn %d: column %s is %s in the view, %s by turntext", game, i+1, name, got[c], fromGo[c])
			}
		}
	}
}
