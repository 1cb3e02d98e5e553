package ingest

import (
	"strings"
	"testing"
)

// A TM that is no clock (past 366 days, negative, not a number) gives its turn no think
// time, with a notice at its value; the game is read.
func TestBoardspaceClockOutOfRange(t *testing.T) {
	t.Parallel()
	for _, tm := range []string{"9223372036854775807", "99999999999999999999", "31622400001", "-5", "1h"} {
		in := sgf("PonteDelDiavolo", "P0 Tile White_Chip_Pool E 5", "P0 Tile White_Chip_Pool F 6", "P0 Done|1000",
			"P1 Tile Red_Chip_Pool A 1", "P1 Tile Red_Chip_Pool A 2", "P1 Done|"+tm,
			"P0 Tile White_Chip_Pool G 4", "P0 Tile White_Chip_Pool J 10", "P0 Done|3000")
		rd := NewReader(strings.NewReader(in), "t")
		rec, err := rd.Read()
		if err != nil || len(rec.Moves) != 3 {
			t.Fatalf("TM[%s]: %v", tm, err)
		}
		if got := []int{rec.Moves[0].Millis, rec.Moves[1].Millis, rec.Moves[2].Millis}; got[0] != 1000 || got[1] != 0 || got[2] != 2000 {
			t.Errorf("TM[%s]: think times %v", tm, got)
		}
		notes := rd.Notices()
		if len(notes) != 1 || notes[0].Line != 12 || notes[0].Column != 16 || !strings.Contains(notes[0].Error(), "TM["+tm+"] is not a clock") {
			t.Errorf("TM[%s]: notices %v", tm, notes)
		}
	}
}
