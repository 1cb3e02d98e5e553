package bot_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// playRandom plays game index of seed between two random bots.
func playRandom(t *testing.T, size int, supply game.Supply, seed uint64, index int) *bot.Game {
	t.Helper()
	opener, _ := bot.New("random", bot.Options{})
	responder, _ := bot.New("random", bot.Options{})
	g, err := bot.Play(opener, responder, size, supply, rand.New(rand.NewPCG(seed, uint64(index))))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A played game's record, written in either format and read back, replays as a legal
// finished game with the result and score the game had.
func TestGameRecordReplays(t *testing.T) {
	tests := []struct {
		size   int
		supply game.Supply
		games  int
	}{
		{10, game.Unlimited, 12},
		{12, game.Supply40x15, 6},
		{5, game.Unlimited, 12},
		{7, game.Supply40x15, 12},
	}
	for _, tt := range tests {
		for _, format := range []ingest.Format{ingest.FormatPonte, ingest.FormatJSONL} {
			t.Run(fmt.Sprintf("%d/%s/%s", tt.size, tt.supply, format), func(t *testing.T) {
				var played []*bot.Game
				var buf bytes.Buffer
				w := ingest.NewWriter(&buf, format)
				for i := 1; i <= tt.games; i++ {
					g := playRandom(t, tt.size, tt.supply, 42, i)
					played = append(played, g)
					if err := w.Write(g.Record(i, 42)); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				r := ingest.NewReader(&buf, "selfplay")
				var rg replay.Game
				for i, g := range played {
					rec, err := r.Read()
					if err != nil {
						t.Fatalf("game %d: %v", i+1, err)
					}
					v := verdict.Of(rec, &rg)
					if !v.Legal || !v.Over || v.Error != nil {
						t.Fatalf("game %d: verdict %+v, error %+v", i+1, v, v.Error)
					}
					if *v.Result != g.Result || *v.Score != g.Score || *v.Islands != g.Islands || *v.Bridges != g.Bridges {
						t.Errorf("game %d: replay gives %s %v, the game had %s %v", i+1, *v.Result, *v.Score, g.Result, g.Score)
					}
					if v.Turns != len(g.Moves) {
						t.Errorf("game %d: %d turns replayed, %d played", i+1, v.Turns, len(g.Moves))
					}
					if v.RecordID == nil || *v.RecordID != fmt.Sprintf("selfplay-42-%d", i+1) || v.GameID != verdict.GameID(rec) || rec.Tag("Opener") != "random" || rec.Tag("Seed") != "42" {
						t.Errorf("game %d: tags %v", i+1, rec.Tags)
					}
				}
				if _, err := r.Read(); err != io.EOF {
					t.Errorf("after the last game: %v, want EOF", err)
				}
			})
		}
	}
}

// The tags come in the documented order, Light and Dark name the bots by their colour at
// the end, and the typed fields are those the tags give.
func TestGameRecordTags(t *testing.T) {
	g := &bot.Game{
		Opener: "mcts", Responder: "greedy", Size: 12, Supply: game.Supply40x15,
		Moves:   []replay.Move{replay.TilesMove(game.CellAt(0, 0), game.CellAt(2, 2)), replay.SwapMove},
		Swapped: true, Result: game.DarkWins, Score: [2]int{3, 5},
	}
	rec := g.Record(7, 99)
	want := []ingest.Tag{
		{Name: "Event", Value: "selfplay"}, {Name: "Site", Value: "ponte selfplay"}, {Name: "Round", Value: "7"},
		{Name: "GameId", Value: "selfplay-99-7"}, {Name: "Light", Value: "greedy"}, {Name: "Dark", Value: "mcts"},
		{Name: "Size", Value: "12"}, {Name: "Supply", Value: "40/15"}, {Name: "Result", Value: "0-1"},
		{Name: "Termination", Value: "normal"}, {Name: "Score", Value: "3-5"},
		{Name: "Opener", Value: "mcts"}, {Name: "Seed", Value: "99"},
	}
	if fmt.Sprint(rec.Tags) != fmt.Sprint(want) {
		t.Errorf("tags\n%v\nwant\n%v", rec.Tags, want)
	}
	if rec.Format != ingest.FormatPonte || rec.Index != 7 || rec.Result == nil || *rec.Result != game.DarkWins || len(rec.Moves) != 2 ||
		rec.Moves[0].Text != g.Moves[0].String() || rec.Moves[1].Text != "swap" {
		t.Errorf("record %+v", rec)
	}
	// SetTag re-derives every typed field from the tags: nothing may change.
	derived := *rec
	derived.Tags = append([]ingest.Tag(nil), rec.Tags...)
	if err := derived.SetTag("Event", "selfplay"); err != nil {
		t.Fatal(err)
	}
	if derived.Size != rec.Size || derived.Supply != rec.Supply || derived.Termination != rec.Termination ||
		derived.Score == nil || *derived.Score != *rec.Score {
		t.Errorf("typed fields %d %s %s %v, derived from the tags %d %s %s %v", rec.Size, rec.Supply, rec.Termination,
			rec.Score, derived.Size, derived.Supply, derived.Termination, derived.Score)
	}
}
