package match

import (
	"context"
	"reflect"
	"testing"

	"github.com/ponte/ponte/bot"
)

// Issue 31 finding 11: a ladder block keeps counts, not games: PlayBlock counts each
// pair's outcomes as it ends. Its block is the one NewBlock makes from every pair
// kept, outcome for outcome.
func TestLadderBlockCounts(t *testing.T) {
	o := bot.Options{Workers: 1}
	cfg := &Config{A: "greedy", B: "random", Size: 5, Seed: 9, Pairs: 12, Workers: 2,
		NewBot: func(name string) (bot.Bot, error) { return bot.New(name, o) }}
	var pairs []*Pair
	res, err := Run(context.Background(), cfg, nil, func(q *Pair, _ *Result) bool {
		pairs = append(pairs, q)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := NewBlock(cfg, res, pairs)
	got, gotRes, err := PlayBlock(context.Background(), cfg, nil)
	if err != nil || gotRes.Pairs != cfg.Pairs {
		t.Fatalf("%v, %d pairs", err, gotRes.Pairs)
	}
	if len(want.Outcomes) < 2 || !reflect.DeepEqual(got.Outcomes, want.Outcomes) {
		t.Errorf("outcomes %+v, want %+v", got.Outcomes, want.Outcomes)
	}
	if got.Games != want.Games || got.Wins != want.Wins || got.Pentanomial != want.Pentanomial {
		t.Errorf("block %+v, want %+v", got, want)
	}
}
