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
// expands it, then placed to the end), the same noise for both.
func checkLazyOrder(t *testing.T, p *pos.Position, model *learn.Model, seed uint64) {
	t.Helper()
	tree := func() *archTree {
		src := rand.NewPCG(seed, 1)
		return &archTree{src: src, rng: rand.New(src), lore: newLoreScratch(model)}
	}
	full, lazy := tree(), tree()
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
