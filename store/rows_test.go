package store

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/ponte/ponte/ingest"
)

// The analyzer's summary of a game's turns (game_turns.by_turn) is the summary of its turns
// text, turn for turn, and stays so while the analyzer goes on to other games: the writer
// keeps each game's until its row is inserted, and the games share the analyzer's sums,
// which a new one replaces when full (a dozen times over the sample files).
func TestAnalyzeSummary(t *testing.T) {
	var a analyzer
	var outs []analysis
	var sums int
	err := ingest.Open([]string{"../sample_data"}, func(rec *ingest.Record, err error) error {
		if ingest.IsNotice(err) {
			return nil
		}
		had := unsafe.SliceData(a.sums)
		outs = append(outs, a.analyze(rec, err))
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
		if out.nturns == 0 {
			if out.byTurn != nil {
				t.Errorf("record %d: a summary of no turn: %x", i+1, out.byTurn)
			}
			continue
		}
		games++
		want, err := appendSummary(nil, int64(i+1), out.turns)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.byTurn, want) || len(want) != 5*out.nturns {
			t.Errorf("record %d (%d turns): summary %x, want %x", i+1, out.nturns, out.byTurn, want)
		}
		if cap(out.byTurn) != len(out.byTurn) {
			t.Errorf("record %d: its summary can grow into the next one's (cap %d, len %d)", i+1, cap(out.byTurn), len(out.byTurn))
		}
	}
	if games < 2000 {
		t.Errorf("only %d games with turns", games)
	}
}
