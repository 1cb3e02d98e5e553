package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot/learn"
	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestLazyOrder checks that a node listed in part (the turns up to the best legal pair
// in order, the others placed one by one as choose reaches them, arch's pairs made as
// they are placed) ends in the order, with the same checks and RAVE cells, of the node
// listed in full (a stable sort by prior),
// with the hand-made priors (arch) and the learned ones (lore), along games of random
// turns and of playout turns on several boards and both supplies.
func TestLazyOrder(t *testing.T) {
	positions := 0
	for _, model := range []*learn.Model{nil, learn.Trained()} {
		for _, size := range []int{5, 8, 10, 12} {
			for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
				for seed := range uint64(3) {
					p, err := pos.New(size, supply)
					if err != nil {
						t.Fatal(err)
					}
					rng := rand.New(rand.NewPCG(seed, uint64(size)))
					for turn := 0; !p.Over(); turn++ {
						if turn > 0 { // arch lists no turn 0: the greedy bot opens
							checkLazyOrder(t, &p, model, rng.Uint64())
							positions++
						}
						if seed == 0 {
							legal := p.LegalTurns(nil)
							p.Play(legal[rng.IntN(len(legal))])
						} else {
							p.Play(p.PlayoutTurn(rng))
						}
					}
				}
			}
		}
	}
	if positions < 500 {
		t.Fatalf("only %d positions checked", positions)
	}
}

// checkLazyOrder lists p's turns in full and in part (a node expanded as the search
// expands it, then placed to the end), the same noise for both, in the private tree and
// in the shared one (placed one by one, moved by compact half way).
func checkLazyOrder(t *testing.T, p *pos.Position, model *learn.Model, seed uint64) {
	t.Helper()
	tree := func() *archTree {
		src := rand.NewPCG(seed, 1)
		return &archTree{src: src, rng: rand.New(src), lore: newLoreScratch(model), rave: new(raveTable), rave2: new(raveTable)}
	}
	full, lazy := tree(), tree()
	defer checkSharedOrder(t, p, tree(), lazy)
	want := full.listTurns(nil, p, 12)
	lazy.newNode(posSeat(p))
	lazy.expand(0, p, 12, false)
	nd := lazy.nodes[0]
	if int(nd.candN) != len(want) || nd.sorted > nd.candN {
		t.Fatalf("turn %d: %d turns (%d in order), want %d", p.Turn(), nd.candN, nd.sorted, len(want))
	}
	lazy.order(0)
	got := lazy.cands[nd.candStart : nd.candStart+nd.candN]
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("turn %d, %d-th turn: %+v, want %+v", p.Turn(), k, got[k], want[k])
		}
	}
	if nd := lazy.nodes[0]; nd.sorted != nd.candN || nd.others != 0 {
		t.Fatalf("turn %d: placed %d of %d turns, %d listed left", p.Turn(), nd.sorted, nd.candN, nd.others)
	}
	if len(lazy.rcells) != len(full.rcells) {
		t.Fatalf("turn %d: %d RAVE cells, want %d", p.Turn(), len(lazy.rcells), len(full.rcells))
	}
	for i := range full.rcells {
		if lazy.rcells[i] != full.rcells[i] {
			t.Fatalf("turn %d: RAVE cell %d is %v, want %v", p.Turn(), i, lazy.rcells[i], full.rcells[i])
		}
	}
}

// checkSharedOrder expands p's node in a shared tree on thread x and checks that its
// turns, placed one by one (the subtree moved by compact half way), and its RAVE cells
// are those of the private tree's node placed in full by lazy.
func checkSharedOrder(t *testing.T, p *pos.Position, x, lazy *archTree) {
	t.Helper()
	s := newSharedTree()
	s.root = *p
	s.gen++
	s.nodes.alloc(1)
	*s.nodes.at(0) = sharedNode{seat: int8(posSeat(p))}
	if !s.expand(x, 0, p, 12, false) {
		t.Fatalf("turn %d: the shared tree did not expand its root", p.Turn())
	}
	nd := s.nodes.at(0)
	want := lazy.nodes[0]
	for k := nd.sorted.Load(); k < nd.candN; k++ {
		if k == nd.candN/2 {
			s.compact([]*archTree{x}, 0)
			nd = s.nodes.at(0)
		}
		if got := s.placeNext(nd, k); got != k+1 {
			t.Fatalf("turn %d: placing the %d-th turn left %d placed", p.Turn(), k, got)
		}
	}
	if nd.candN != want.candN || nd.others != 0 {
		t.Fatalf("turn %d: shared tree: %d turns, %d listed left, want %d", p.Turn(), nd.candN, nd.others, want.candN)
	}
	cs := s.cands.run(nd.candStart, nd.candN)
	for k := range cs {
		if got, w := cs[k].listed(), lazy.cands[want.candStart+int32(k)]; got != w {
			t.Fatalf("turn %d, %d-th turn of the shared tree: %+v, want %+v", p.Turn(), k, got, w)
		}
	}
	cells := s.cells.run(nd.cellStart, nd.cellN)
	if len(cells) != int(want.cellN) {
		t.Fatalf("turn %d: shared tree: %d RAVE cells, want %d", p.Turn(), len(cells), want.cellN)
	}
	for i := range cells {
		if w := lazy.rcells[want.cellStart+int32(i)]; cells[i] != w {
			t.Fatalf("turn %d: shared tree: RAVE cell %d is %v, want %v", p.Turn(), i, cells[i], w)
		}
	}
}

// TestPosSeat checks posSeat against the seat read from the colours: the responder moves
// when Light is to move after a swap or Dark without one, along random games with and
// without the swap.
func TestPosSeat(t *testing.T) {
	swaps := 0
	for seed := range uint64(40) {
		p, err := pos.New(6, game.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 6))
		for !p.Over() {
			want := 0
			if (p.ToMove() == replay.Light) == p.Swapped() {
				want = 1
			}
			if got := posSeat(&p); got != want {
				t.Fatalf("seed %d, turn %d (swapped %v): seat %d, want %d", seed, p.Turn(), p.Swapped(), got, want)
			}
			legal := p.LegalTurns(nil)
			m := legal[rng.IntN(len(legal))]
			if p.Turn() == 1 && seed%2 == 0 {
				m = replay.SwapMove
				swaps++
			}
			p.Play(m)
		}
	}
	if swaps == 0 {
		t.Fatal("no game swapped")
	}
}
