package bot

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestArchSharedPlaysLegalGames plays the arch bot on a shared tree, on one to three
// threads, against itself and other bots on several sizes and both supplies, and replays
// every game again.
func TestArchSharedPlaysLegalGames(t *testing.T) {
	games := 0
	for _, size := range []int{5, 7, 10} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, pair := range [][2]string{{"arch-60-s2", "sage-30"}, {"greedy", "arch-40-s3"}, {"arch-30-s1", "arch-40-s2"}, {"arch-5ms-s2", "arch-30-t2"}} {
				g, err := Play(mustNew(t, pair[0], Options{}), mustNew(t, pair[1], Options{}), size, supply, seeded(games))
				if err != nil {
					t.Fatal(err)
				}
				replayMoves(t, g)
				games++
			}
		}
	}
}

// TestArchSharedStatistics: after a search on several threads every virtual loss is taken
// back: each node's visits are the sum of its turns' visits, the root's are the playouts
// searched, and every half point won is within the visits.
func TestArchSharedStatistics(t *testing.T) {
	for _, threads := range []int{1, 2, 3} {
		for _, vl := range []int{1, 3} {
			a := NewArch(Options{Playouts: 600, Threads: threads, Shared: true})
			a.VirtualLoss = vl
			a.Reuse = false
			g := newGame(t, 8)
			rng := rand.New(rand.NewPCG(3, 4))
			for g.Turn() < 6 {
				if err := g.Play(a.Turn(g, rng)); err != nil {
					t.Fatal(err)
				}
				s := a.shared
				if s == nil {
					continue // the opening turn
				}
				checkSharedTree(t, s, threads, vl)
			}
		}
	}
}

// checkSharedTree checks the statistics of every node of s.
func checkSharedTree(t *testing.T, s *sharedTree, threads, vl int) {
	t.Helper()
	nodes := int32(s.nodes.next.Load())
	for i := range nodes {
		nd := s.nodes.at(i)
		if nd.state.Load() != sharedExpanded {
			if nd.visits.Load() != 0 {
				t.Fatalf("threads %d, virtual loss %d: node %d is not expanded but has %d visits", threads, vl, i, nd.visits.Load())
			}
			continue
		}
		var sum int64
		cs := s.cands.run(nd.candStart, nd.sorted.Load()) // the turns placed: the others have no visits
		for k := range cs {
			c := &cs[k]
			n, w2 := c.n.Load(), c.w2.Load()
			if n < 0 || w2 < 0 || w2 > 2*n {
				t.Fatalf("threads %d, virtual loss %d: node %d turn %d (%s): %d visits, %d half points", threads, vl, i, k, c.move, n, w2)
			}
			sum += n
		}
		if sum != nd.visits.Load() {
			t.Fatalf("threads %d, virtual loss %d: node %d has %d visits, its turns %d", threads, vl, i, nd.visits.Load(), sum)
		}
	}
	if v := s.nodes.at(0).visits.Load(); v != 600 {
		t.Fatalf("threads %d, virtual loss %d: the root has %d visits after 600 playouts", threads, vl, v)
	}
}

// TestArchSharedKeepsTheTree: the shared tree keeps the subtree of the reply, whose
// statistics the next search adds to.
func TestArchSharedKeepsTheTree(t *testing.T) {
	a := NewArch(Options{Playouts: 3000, Threads: 2, Shared: true})
	b := NewArch(Options{Playouts: 200})
	g := newGame(t, 8)
	rng := rand.New(rand.NewPCG(5, 6))
	kept := 0
	for g.Turn() < 12 && !g.Over() {
		p := Bot(b)
		if g.Turn()%2 == 0 {
			p = a
		}
		var start int64
		if p == a && a.shared != nil {
			if reply, ok := a.reply(g); ok {
				if y := a.shared.childOf(0, a.played); y >= 0 {
					if z := a.shared.childOf(y, reply); z >= 0 && a.shared.nodes.at(z).state.Load() == sharedExpanded {
						start = a.shared.nodes.at(z).visits.Load()
					}
				}
			}
		}
		m := p.Turn(g, rng)
		if p == a && start > 0 {
			kept++
			if v := a.shared.nodes.at(0).visits.Load(); v != start+3000 {
				t.Fatalf("turn %d: the kept root had %d visits and has %d after 3000 playouts", g.Turn()+1, start, v)
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if kept == 0 {
		t.Fatal("no turn kept the tree")
	}
}

// TestArchSharedAnalyse: the shared tree's analysis weighs the turn played.
func TestArchSharedAnalyse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	record, err := Play(NewGreedy(), NewGreedy(), 8, game.Unlimited, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, 8)
	for _, m := range record.Moves[:5] {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	played := record.Moves[5]
	for _, o := range []Options{{Playouts: 400, Threads: 2, Shared: true}, {TimePerTurn: 20 * time.Millisecond, Threads: 2, Shared: true}} {
		a := NewArch(o)
		an := a.Analyse(g, &played, rng)
		if an.Light < 0 || an.Light > 1 || an.PlayedN < 1 || an.PlayedQ < 0 || an.PlayedQ > 1 || g.Legal(an.Best) != nil {
			t.Fatalf("%s: %+v", a.Name(), an)
		}
		if o.TimePerTurn == 0 && an.PlayedN < 100-2 {
			t.Fatalf("%s: the turn played has %d visits, want about a quarter of 400", a.Name(), an.PlayedN)
		}
	}
}

func newGame(t *testing.T, size int) *replay.Game {
	t.Helper()
	g, err := replay.NewGame(size, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
