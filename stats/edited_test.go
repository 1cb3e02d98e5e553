package stats_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// editedDB ingests sample_data/autumn-league.ponte (17 records; game 3 is a legal 12×12
// game played to the end) into a new database, applies the statements edits to it as a
// hand edit would, and opens it for reading.
func editedDB(t *testing.T, edits ...string) *store.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "edited.db")
	w, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := intake.Run(context.Background(), w, []string{"../sample_data/autumn-league.ponte"}, intake.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if _, err := raw.Exec(e); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
	}
	raw.Close()
	db, err := store.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// moveGame gives game 3 the id id, in the three tables.
func moveGame(id string) []string {
	return []string{
		"UPDATE games SET id = " + id + " WHERE id = 3",
		"UPDATE game_turns SET game = " + id + " WHERE game = 3",
		"UPDATE game_tags SET game = " + id + " WHERE game = 3",
	}
}

// withinMemory runs f and fails the test if it allocates more than limit bytes in all, or
// holds more than limit bytes of live heap at any moment: a watchdog samples the heap
// every millisecond and stops the test binary at once, so that a giant allocation fails
// the test instead of exhausting the machine.
func withinMemory(t *testing.T, limit uint64, f func()) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			metrics.Read(s)
			if live := s[0].Value.Uint64(); live > base+limit {
				panic(fmt.Sprintf("%s: %d MB of live heap, more than the %d MB allowed", t.Name(), (live-base)>>20, limit>>20))
			}
		}
	}()
	f()
	close(done)
	<-stopped
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > limit {
		t.Errorf("allocated %d MB, more than the %d MB allowed", got>>20, limit>>20)
	}
}

// TestEditedIDs computes the statistics of databases whose games.id were edited to values
// no ingest writes: the same statistics as before the edit, without a panic and without
// memory sized by the ids.
func TestEditedIDs(t *testing.T) {
	want, err := stats.Compute(context.Background(), editedDB(t), stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"-5", "0", "9223372036854775000", "9223372036854775807", "-9223372036854775808"} {
		t.Run(id, func(t *testing.T) {
			db := editedDB(t, moveGame(id)...)
			var got *stats.Report
			withinMemory(t, 32<<20, func() {
				got, err = stats.Compute(context.Background(), db, stats.Filter{}, stats.Options{})
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the statistics changed with game 3's id:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestEditedValues: a board size, turns or components that no ingest writes are refused
// with ErrEdited and where they are, not used to size anything.
func TestEditedValues(t *testing.T) {
	for _, tc := range []struct {
		name, edit, want string
	}{
		{"huge size", "UPDATE games SET size = 1000000000 WHERE id = 3", "games.id 3 has size 1000000000, not 5 to 26"},
		{"negative size", "UPDATE games SET size = -1 WHERE id = 3", "games.id 3 has size -1, not 5 to 26"},
		{"turns cut short", "UPDATE game_turns SET turns = substr(turns, 1, 100) WHERE game = 3", "game 3: game_turns.turns: byte 101: 75 turns need 682 bytes, the text has 100"},
		{"a turn missing", "UPDATE game_turns SET turns = 'j' || substr(turns, 2, length(turns) - 10) WHERE game = 3", "game 3 has 74 turns in game_turns.turns, but 75 played legally (games.turns)"},
		{"turns past the game's", "UPDATE games SET turns = 70 WHERE id = 3", "game 3 has 75 turns in game_turns.turns, but 70 played legally (games.turns)"},
		{"a record out of range", "UPDATE game_turns SET turns = substr(turns, 1, 16) || '~~~~~~~~~' || substr(turns, 26) WHERE game = 3", "game 3: game_turns.turns: turn 2, byte 17: a record beyond its fields' ranges"},
		{"not text", "UPDATE game_turns SET turns = x'3132' WHERE game = 3", "game 3: game_turns.turns: not text"},
		{"no turns", "DELETE FROM game_turns WHERE game = 3", "game 3 has 75 turns played legally (games.turns) but no row in game_turns"},
		{"the last game's turns missing", "DELETE FROM game_turns WHERE game = (SELECT max(id) FROM games WHERE legal AND turns > 0)", "turns played legally (games.turns) but no row in game_turns"},
		// 40,000 passes: the header '%I$' counts them, each record a pass that changes nothing.
		{"a huge game", "UPDATE game_turns SET turns = '%I$    ' || replace(hex(zeroblob(40000)), '00', '_uE-c`!  ') WHERE game = 3; UPDATE games SET turns = 40000 WHERE id = 3", "game 3 has 40000 turns, more than the 32767 summed"},
		{"no components", "UPDATE games SET components_dark = NULL WHERE id = 3", "games.id 3 is finished but has no components_dark"},
		{"a component of no island", "UPDATE games SET components_light = '[2,0]' WHERE id = 3", `games.id 3: components "[2,0]": want a number of islands from 1 to 169 at byte 4`},
		{"components not an array", "UPDATE games SET components_light = '3' WHERE id = 3", `components "3": not a JSON array at byte 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := editedDB(t, tc.edit)
			withinMemory(t, 32<<20, func() {
				_, err := stats.Compute(context.Background(), db, stats.Filter{}, stats.Options{})
				if !errors.Is(err, stats.ErrEdited) || !strings.Contains(fmt.Sprint(err), tc.want) {
					t.Errorf("error %v, want %q and ErrEdited", err, tc.want)
				}
			})
		})
	}
}
