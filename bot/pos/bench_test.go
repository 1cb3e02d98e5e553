package pos

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/replay"
)

// benchStart returns the empty game of side size, or the game after turns turns of the
// reference policy from a fixed seed.
func benchStart(tb testing.TB, size, turns int) *replay.Game {
	g, err := replay.NewGame(size, game.Unlimited)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20, uint64(size)))
	for g.Turn() < turns && !g.Over() {
		if err := g.Play(refPolicy(g, rng)); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// BenchmarkPlayout plays whole playouts with sage's policy, from the empty board and from
// turn 20, on replay with the reference policy and on Position with PlayoutTurn; the
// metrics are playouts per second of the benchmark's wall clock and, for Position, per
// second of the process's CPU time.
func BenchmarkPlayout(b *testing.B) {
	for _, size := range []int{8, 10, 12} {
		for _, from := range []int{0, 20} {
			g := benchStart(b, size, from)
			b.Run(fmt.Sprintf("size=%d/turn=%d/engine=replay", size, from), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				var sim replay.Game
				turns := 0
				for b.Loop() {
					sim.CopyFrom(g)
					for !sim.Over() {
						_ = sim.Play(refPolicy(&sim, rng))
						turns++
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
				b.ReportMetric(float64(turns)/float64(b.N), "turns/playout")
			})
			b.Run(fmt.Sprintf("size=%d/turn=%d/engine=pos", size, from), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				root, err := FromGame(g)
				if err != nil {
					b.Fatal(err)
				}
				var sim Position
				var d Draw
				turns := 0
				cpu := cputime.Process()
				for b.Loop() {
					sim.CopyFrom(&root)
					for !sim.Over() {
						sim.DrawTurn(rng, &d)
						sim.PlayDraw(&d)
						turns++
					}
				}
				b.ReportMetric(float64(b.N)/(cputime.Process()-cpu).Seconds(), "playouts/cpu-s")
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
				b.ReportMetric(float64(turns)/float64(b.N), "turns/playout")
			})
		}
	}
}

// BenchmarkCopy compares the two ways to start a playout: a copy by value and CopyFrom,
// which copies only what the board size uses, from the turn-20 position of 10×10.
func BenchmarkCopy(b *testing.B) {
	root, err := FromGame(benchStart(b, 10, 20))
	if err != nil {
		b.Fatal(err)
	}
	var sim Position
	b.Run("value", func(b *testing.B) {
		for b.Loop() {
			sim = root
		}
	})
	b.Run("CopyFrom", func(b *testing.B) {
		for b.Loop() {
			sim.CopyFrom(&root)
		}
	})
}

// TestPlayoutAllocs checks that a playout on a Position allocates nothing.
func TestPlayoutAllocs(t *testing.T) {
	root, err := FromGame(benchStart(t, 10, 20))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var sim Position
	var cells []game.Cell
	var bridges []replay.Move
	allocs := testing.AllocsPerRun(200, func() {
		sim.CopyFrom(&root)
		for !sim.Over() {
			cells = sim.LegalTileCells(sim.ToMove(), cells[:0])
			bridges = sim.LegalBridges(sim.ToMove(), bridges[:0])
			sim.Play(sim.PlayoutTurn(rng))
		}
	})
	if allocs != 0 {
		t.Errorf("a playout allocates %.1f times, want 0", allocs)
	}
}

// TestSharedReads runs the queries of two goroutines on one position (under -race, a
// write would show).
func TestSharedReads(t *testing.T) {
	root, err := FromGame(benchStart(t, 10, 30))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(k), 5))
			var moves []replay.Move
			for range 200 {
				root.PlayoutTurn(rng)
				moves = root.LegalTurns(moves[:0])
				for _, m := range root.LegalBridges(root.ToMove(), nil) {
					root.BridgeValue(m)
				}
				root.CanPass()
			}
		})
	}
	wg.Wait()
}
