package intake

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/store"
)

// The analyzer's summary of a game's turns (game_turns.by_turn) is the summary of its turns
// text, turn for turn, and stays so while the analyzer goes on to other games: the writer
// keeps each game's until its row is inserted, and the games share the analyzer's sums,
// which a new one replaces when full (a dozen times over the sample files).
func TestAnalyzeSummary(t *testing.T) {
	var a analyzer
	var outs []store.Replayed
	var sums int
	err := ingest.Open([]string{"../sample_data"}, func(rec *ingest.Record, err error) error {
		if ingest.IsNotice(err) {
			return nil
		}
		had := unsafe.SliceData(a.sums)
		var g store.Replayed
		a.analyze(rec, err, &g)
		outs = append(outs, g)
		if unsafe.SliceData(a.sums) != had {
			sums++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sums < 5 {
		t.Fatalf("the games filled %d sums, want at least 5", sums)
	}
	games := 0
	for i, out := range outs {
		if out.TurnRows == 0 {
			if out.ByTurn != nil {
				t.Errorf("record %d: a summary of no turn: %x", i+1, out.ByTurn)
			}
			continue
		}
		games++
		want, err := summaryOf(out.PackedTurns)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.ByTurn, want) || len(want) != 5*out.TurnRows {
			t.Errorf("record %d (%d turns): summary %x, want %x", i+1, out.TurnRows, out.ByTurn, want)
		}
		if cap(out.ByTurn) != len(out.ByTurn) {
			t.Errorf("record %d: its summary can grow into the next one's (cap %d, len %d)", i+1, cap(out.ByTurn), len(out.ByTurn))
		}
	}
	if games < 2000 {
		t.Errorf("only %d games with turns", games)
	}
}

// summaryOf is the summary of the turns of a game_turns.turns, read with turntext.Scanner.
func summaryOf(text string) ([]byte, error) {
	var dst []byte
	var sc turntext.Scanner
	for sc.Reset(text); sc.Next(); {
		sum := turnsum.OfText(sc.Turn())
		var err error
		if dst, err = turnsum.Append(dst, &sum); err != nil {
			return nil, err
		}
	}
	return dst, sc.Err()
}
