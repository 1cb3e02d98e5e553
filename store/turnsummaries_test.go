package store

import (
	"context"
	"math"
	"testing"

	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/internal/turntext"
)

// Reader.TurnSummaries reads each game's turns as a turntext.Scanner does, turn by turn,
// the games whose turns have think times (wide turns, read by the Scanner) and those
// without (read in one loop) alike, and only the games from … to.
func TestTurnSummaries(t *testing.T) {
	d := openTemp(t)
	ingestInto(t, d, Options{}, autumn, online, club)
	want := map[int64][]turnsum.Turn{}
	texts := map[int64]string{}
	rows, err := d.db.Query("SELECT game, turns FROM game_turns")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var game int64
		var text string
		if err := rows.Scan(&game, &text); err != nil {
			t.Fatal(err)
		}
		var sc turntext.Scanner
		sums := []turnsum.Turn{}
		for sc.Reset(text); sc.Next(); {
			sums = append(sums, turnsum.OfText(sc.Turn()))
		}
		if sc.Err() != nil {
			t.Fatalf("game %d: %v", game, sc.Err())
		}
		want[game], texts[game] = sums, text
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReader(d.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range []struct{ from, to int64 }{{math.MinInt64, math.MaxInt64}, {3, 7}, {8, 8}} {
		var last int64 = math.MinInt64
		seen, wideSeen := 0, 0
		err := r.TurnSummaries(context.Background(), tc.from, tc.to, func(ts *TurnSummary) error {
			w, ok := want[ts.Game]
			switch {
			case !ok || ts.Game < tc.from || ts.Game > tc.to || ts.Game <= last:
				t.Fatalf("%d … %d: game %d after %d", tc.from, tc.to, ts.Game, last)
			case len(ts.Turns) != len(w):
				t.Fatalf("game %d: %d turns, want %d", ts.Game, len(ts.Turns), len(w))
			}
			for i := range w {
				if ts.Turns[i] != w[i] {
					t.Fatalf("game %d turn %d: %+v, want %+v", ts.Game, i+1, ts.Turns[i], w[i])
				}
			}
			if len(texts[ts.Game]) != turntext.HeaderSize+turntext.RecordSize*len(w) {
				wideSeen++
			}
			last = ts.Game
			seen++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		inRange := 0
		for game := range want {
			if game >= tc.from && game <= tc.to {
				inRange++
			}
		}
		if seen != inRange {
			t.Errorf("%d … %d: %d games, want %d", tc.from, tc.to, seen, inRange)
		}
		if tc.from == math.MinInt64 && (wideSeen == 0 || wideSeen == seen) {
			t.Errorf("%d of %d games with wide turns: the samples do not try both ways", wideSeen, seen)
		}
	}
}
