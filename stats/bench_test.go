package stats

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/store"
)

// sumsSource hands out the turn summaries of games 1 … n, those of game id being
// games[id % len(games)] (a few, in the cache, as a game's just read are), without a copy.
type sumsSource struct {
	memSource
	n     int64
	games [][]turnsum.Turn
}

func (s *sumsSource) TurnSummaries(_ context.Context, from, to int64, fn func(*store.TurnSummary) error) error {
	var ts store.TurnSummary
	for id := max(from, 1); id <= min(to, s.n); id++ {
		ts.Game, ts.Turns = id, s.games[id%int64(len(s.games))]
		if err := fn(&ts); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkTurnSums sums 20,000 games of 30 to 70 random turns (64 games repeated) on 10×10 by turn number,
// as byTurn does in each range of games, without the store's reading: ns/turn.
func BenchmarkTurnSums(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := &sumsSource{}
	var ids []int64
	var sizes []uint8
	var turns []int32
	total := 0
	for range 64 {
		sums := make([]turnsum.Turn, 30+r.IntN(41))
		for i := range sums {
			sums[i] = turnsum.Turn{IslandsFormed: r.IntN(3), Bridge: r.IntN(2) == 0,
				DeadCreated: [2]int{r.IntN(2), r.IntN(2)}, Mobility: [2]int{r.IntN(100), r.IntN(100)}}
		}
		src.games = append(src.games, sums)
	}
	src.n = 20000
	for id := range src.n {
		n := len(src.games[(id+1)%int64(len(src.games))])
		ids, sizes, turns = append(ids, id+1), append(sizes, 10), append(turns, int32(n))
		total += n
	}
	for b.Loop() {
		if _, err := turnSums(context.Background(), src, ids, sizes, turns); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*total), "ns/turn")
}
