package stats

import (
	"math"
	"testing"

	"github.com/ponte/ponte/game"
)

// The estimate against a good reply sums floats over the openings: the same tally gives
// the same bits every time, whatever order a map gives its openings in.
func TestBestReplyDeterministic(t *testing.T) {
	b := newBoardTally()
	for i := range 300 {
		o := &openingTally{}
		for g := range 10 + i%7 {
			o.opener.add(float64((g*7+i)%3) / 2)
			o.openerSwapped.add(float64((g*5+i)%3) / 2)
			o.openerKept.add(float64((g*3+i)%3) / 2)
		}
		o.opener.n += i % 13
		b.openings[[2]game.Cell{game.CellAt(i%12, i/12%12), game.CellAt((i+5)%12, (i/3)%12)}] = o
		b.swapped.add(1)
	}
	first := b.board(12, PopulationPeople).Swap.BestReply
	if first.Openings < 100 {
		t.Fatalf("only %d openings in the estimate", first.Openings)
	}
	for range 50 {
		e := b.board(12, PopulationPeople).Swap.BestReply
		if math.Float64bits(e.Value) != math.Float64bits(first.Value) || math.Float64bits(e.Hi) != math.Float64bits(first.Hi) {
			t.Fatalf("best reply %v, then %v", first, e)
		}
	}
}
