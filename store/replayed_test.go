package store

import (
	"testing"
	"unicode/utf8"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
)

// Whatever a Replayed holds, every text the store makes of it is valid UTF-8: the games
// row and the tags' text.
func TestPrepareValidText(t *testing.T) {
	bad := "caf\xe9"
	turn, draw := 3, game.Draw
	g := Replayed{GameID: bad, Source: bad, Format: bad, Event: &bad, Site: &bad, Date: &bad, Round: &bad, RecordID: &bad,
		Light: &bad, Dark: &bad, Opener: &bad, ClaimedResult: game.Draw, Termination: &bad,
		Error: &FirstError{Rule: bad, Turn: &turn, Message: bad}, TagErrors: bad, Result: &draw, Winner: bad, TieBreak: bad,
		Scored: true, Score: [2]int{3, 5000}, OpeningA: bad, OpeningB: "d4", Moves: bad, Raw: &bad,
		ComponentsLight: bad, ComponentsDark: bad, MoveNumbers: bad, Tags: []ingest.Tag{{Name: bad, Value: bad}}}
	var p Preparer
	p.Prepare(&g)
	if len(g.row) != len(gamesTable.columns) {
		t.Fatalf("%d values for the %d columns of games", len(g.row), len(gamesTable.columns))
	}
	texts := 0
	for i, v := range g.row {
		if s, ok := v.(string); ok {
			texts++
			if !utf8.ValidString(s) {
				t.Errorf("games.%s: not valid UTF-8: %q", gamesTable.columns[i].name, s)
			}
		}
	}
	if texts < 25 {
		t.Errorf("%d texts in the row, want every text column's", texts)
	}
	if !utf8.ValidString(g.tagsText) || g.tagsText != "[[\"caf\uFFFD\",\"caf\uFFFD\"]]" {
		t.Errorf("tags %q", g.tagsText)
	}
	if margin := g.row[41]; margin != int64(4997) { // games.margin
		t.Errorf("margin %v, want 4997", margin)
	}
}
