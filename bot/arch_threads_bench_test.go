package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/replay"
)

// BenchmarkArchThreads searches one 10×10 position (after 8, 24 or 32 turns of greedy
// play: the opening, the middle and the end, where playouts are short and the tree's own
// work weighs most) for 20 ms, again and again, on one thread, on two with a tree each
// (-t2) and on two sharing one tree (-s2), and reports the playouts per wall second (how
// much more two threads search in the same time) and per CPU second of the process (what
// sharing costs).
func BenchmarkArchThreads(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	played, err := Play(NewGreedy(), NewGreedy(), 10, game.Unlimited, rng)
	if err != nil {
		b.Fatal(err)
	}
	for _, turns := range []int{8, 24, 32} {
		if turns >= len(played.Moves) {
			b.Fatalf("the greedy game has %d turns", len(played.Moves))
		}
		g, err := replay.NewGame(10, game.Unlimited)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range played.Moves[:turns] {
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
		for _, name := range []string{"arch-20ms", "arch-20ms-t2", "arch-20ms-s2"} {
			b.Run(fmt.Sprintf("turn%d/%s", turns, name), func(b *testing.B) {
				x := mustNew(b, name, Options{}).(*Arch)
				x.Reuse = false
				start, cpu := time.Now(), cputime.Process()
				for b.Loop() {
					x.Turn(g, rng)
				}
				b.ReportMetric(float64(x.PlayoutsDone())/time.Since(start).Seconds(), "playouts/s")
				b.ReportMetric(float64(x.PlayoutsDone())/(cputime.Process()-cpu).Seconds(), "playouts/cpu-s")
			})
		}
	}
}
