package stats

import (
	"context"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/store"
)

// memSource is a Source of rows held in memory: the statistics without a database.
type memSource struct {
	games []store.LegalGame
	sums  map[int64][]turnsum.Turn
}

func (m *memSource) Tally(context.Context, store.Filter) (store.Tally, error) {
	return store.Tally{Games: len(m.games), Legal: len(m.games)}, nil
}
func (m *memSource) ByRule(context.Context, store.Filter) ([]store.RuleCount, error) { return nil, nil }
func (m *memSource) ByFormat(context.Context, store.Filter) ([]store.FormatCount, error) {
	return []store.FormatCount{{Format: "ponte", Files: 1, Games: len(m.games), Legal: len(m.games)}}, nil
}
func (m *memSource) IllegalGames(context.Context, store.Filter, int) ([]store.IllegalGame, error) {
	return nil, nil
}
func (m *memSource) SiteCounts(context.Context, store.Filter) ([]store.SiteCount, error) {
	return []store.SiteCount{{Format: "ponte", Site: "club", Games: len(m.games)}}, nil
}
func (m *memSource) MostOnABoard(context.Context, store.Filter) (int, error) {
	return len(m.games), nil
}
func (m *memSource) IDs(context.Context) (int64, int64, bool, error) {
	return m.games[0].ID, m.games[len(m.games)-1].ID, true, nil
}
func (m *memSource) LegalGames(_ context.Context, _ store.Filter, from, to int64, fn func(*store.LegalGame) error) error {
	for i := range m.games {
		if g := m.games[i]; g.ID >= from && g.ID <= to {
			if err := fn(&g); err != nil {
				return err
			}
		}
	}
	return nil
}
func (m *memSource) TurnSummaries(_ context.Context, from, to int64, fn func(*store.TurnSummary) error) error {
	for _, g := range m.games {
		if s, ok := m.sums[g.ID]; ok && g.ID >= from && g.ID <= to {
			if err := fn(&store.TurnSummary{Game: g.ID, Turns: s}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Compute is computation over rows: four people's games on 5×5 held in memory, with the
// same opening up to symmetry, give the swap rate, the opener's score, one opening class
// and the means by turn that the rows say.
func TestComputeOverRows(t *testing.T) {
	src := &memSource{sums: map[int64][]turnsum.Turn{}}
	// a1,b1 and e1,d1 are one opening class on 5×5 (a mirror image).
	for i, g := range []struct {
		swapped bool
		result  game.Result
		a, b    string
	}{{false, game.LightWins, "a1", "b1"}, {true, game.LightWins, "e1", "d1"}, {true, game.DarkWins, "a1", "b1"}, {false, game.Draw, "e1", "d1"}} {
		id := int64(i + 1)
		src.games = append(src.games, store.LegalGame{ID: id, Size: 5, Swapped: g.swapped, Turns: 2,
			Result: g.result, Termination: game.Resign, Claimed: g.result,
			OpeningA: g.a, OpeningB: g.b, Light: "Ann", Dark: "Bob", Opener: "Ann", Format: "ponte"})
		var b []turnsum.Turn
		for turn := range 2 {
			b = append(b, turnsum.Turn{IslandsFormed: turn, Mobility: [2]int{10 + i, 20}})
		}
		src.sums[id] = b
	}
	r, err := Compute(context.Background(), src, Filter{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Boards) != 1 {
		t.Fatalf("%d boards, want one", len(r.Boards))
	}
	b := r.Boards[0]
	if b.Size != 5 || b.Games != 4 || b.Decided != 4 || b.Swap.Games != 4 {
		t.Errorf("board %d: %d games, %d decided, %d in the swap balance; want 5, 4, 4, 4", b.Size, b.Games, b.Decided, b.Swap.Games)
	}
	// Swapped twice; the opener won game 1 (Light, kept) and game 3 (Dark after the swap),
	// lost game 2 and drew game 4.
	if b.Swap.Swapped.Hits != 2 || b.Swap.Opener.Hits != 2.5 {
		t.Errorf("swapped %v, opener %v; want 2 and 2.5 of 4", b.Swap.Swapped, b.Swap.Opener)
	}
	if len(b.Openings) != 1 || b.Openings[0].A != "a1" || b.Openings[0].B != "b1" || b.Openings[0].Games != 4 {
		t.Errorf("openings %+v, want a1 b1 four times", b.Openings)
	}
	if len(b.ByTurn) != 2 || b.ByTurn[1].IslandsFormed != 1 || b.ByTurn[0].Mobility != [2]float64{11.5, 20} {
		t.Errorf("by turn %+v", b.ByTurn)
	}
	// Not over by the rules: their results are the resignations' word.
	if got := b.Scoring.Endings[1]; got.Name != "resign" || got.Rate.Hits != 4 || b.Finished != 0 {
		t.Errorf("endings %+v, %d finished: want 4 resignations, none finished", b.Scoring.Endings, b.Finished)
	}
}
