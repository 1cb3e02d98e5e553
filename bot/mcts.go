package bot

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/replay"
)

// MCTS searches with Monte Carlo tree search (UCT) over whole turns. Each playout walks the
// tree by the UCB1 rule, adds one node, then plays a few turns with a cheap heuristic policy
// and scores the position it reaches with Evaluate (or the true result when the game is
// over). The turns tried at the root are the greedy bot's candidates; deeper in the tree
// the cheap candidates. At turn 2 the swap is one of the root's turns, so the swap is
// decided by the search. The opening turn is chosen as the greedy bot chooses it.
type MCTS struct {
	// Playouts is the budget of playouts per turn.
	Playouts int
	// Workers searches independent trees in parallel (root parallelisation) and adds
	// their visit counts; each worker gets its own random stream drawn from the turn's rng.
	Workers int
	// Depth is how many turns a playout plays past the new node before it evaluates.
	Depth int
	// Explore is the UCB1 exploration constant.
	Explore float64

	opener *Greedy
	done   int64 // playouts searched since the bot was made
}

// PlayoutsDone returns the playouts the bot has searched since it was made.
func (b *MCTS) PlayoutsDone() int64 { return b.done }

// NewMCTS returns the mcts bot with the options' budget (defaults: 400 playouts, 1 worker).
func NewMCTS(o Options) *MCTS {
	m := &MCTS{Playouts: o.Playouts, Workers: o.Workers, Depth: 6, Explore: 0.5}
	if m.Playouts <= 0 {
		m.Playouts = 400
	}
	if m.Workers <= 0 {
		m.Workers = 1
	}
	return m
}

// Name returns "mcts-" and the budget, "mcts-400": searches of different budgets are
// players of different strength, and their records keep them apart.
func (m *MCTS) Name() string { return "mcts-" + strconv.Itoa(m.Playouts) }

type node struct {
	move     replay.Move
	seat     int // who played move: the opener (0) or the responder (1), whose colours a swap exchanges
	parent   *node
	children []*node
	untried  []replay.Move
	expanded bool
	visits   float64
	wins     float64 // from the mover's point of view
}

// Turn searches and returns the most visited turn at the root. The opening turn is the
// exception: the search's candidates are all strong openings, which the responder would
// swap, so the opener chooses like the greedy bot, an opening the responder should be
// nearly indifferent to.
func (b *MCTS) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn() == 0 {
		if b.opener == nil {
			b.opener = NewGreedy()
		}
		return b.opener.opening(g, rng)
	}
	root := b.rootMoves(g, rng)
	if len(root) == 1 {
		return root[0]
	}
	workers := min(b.Workers, b.Playouts)
	seeds := make([][2]uint64, workers)
	for i := range seeds {
		seeds[i] = [2]uint64{rng.Uint64(), rng.Uint64()}
	}
	visits := make([][]float64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		budget := b.Playouts / workers
		if w < b.Playouts%workers {
			budget++
		}
		wg.Add(1)
		go func() {
			defer bug.Recover()
			defer wg.Done()
			visits[w] = b.search(g, root, budget, rand.New(rand.NewPCG(seeds[w][0], seeds[w][1])))
		}()
	}
	wg.Wait()
	b.done += int64(b.Playouts)
	best, bestVisits := 0, -1.0
	for i := range root {
		v := 0.0
		for w := range visits {
			v += visits[w][i]
		}
		if v > bestVisits {
			best, bestVisits = i, v
		}
	}
	return root[best]
}

// rootMoves are the greedy candidates, best first, at most 12, and the swap at turn 2.
func (b *MCTS) rootMoves(g *replay.Game, rng *rand.Rand) []replay.Move {
	c := g.ToMove()
	cands := quickTurns(g, rng, 10, nil, nil)
	type scored struct {
		m replay.Move
		v float64
	}
	var list []scored
	var scratch replay.Game
	for _, m := range cands {
		if !g.IsLegal(m) {
			continue
		}
		scratch.CopyFrom(g)
		_ = scratch.Play(m)
		v := Evaluate(&scratch, c)
		if m.Kind == replay.Swap {
			v = Evaluate(g, replay.Light) + 1e-9 // after a swap the responder is Light
		}
		list = append(list, scored{m, v})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].v > list[j].v })
	var out []replay.Move
	for i, s := range list {
		if i < 12 || s.m.Kind == replay.Swap {
			out = append(out, s.m)
		}
	}
	if len(out) == 0 {
		out = LegalTurns(g, nil)
	}
	return out
}

// search runs playouts on one tree and returns the visits of the root's moves.
func (b *MCTS) search(g *replay.Game, rootMoves []replay.Move, playouts int, rng *rand.Rand) []float64 {
	root := &node{expanded: true}
	for i := len(rootMoves) - 1; i >= 0; i-- { // untried is a stack: best candidate first
		root.untried = append(root.untried, rootMoves[i])
	}
	var sim replay.Game
	var moves []replay.Move
	var buf []scoredCell
	for range playouts {
		sim.CopyFrom(g)
		n := root
		// Selection.
		for len(n.untried) == 0 && len(n.children) > 0 {
			n = b.select1(n)
			_ = sim.Play(n.move)
		}
		// Expansion.
		if !sim.Over() {
			if !n.expanded {
				moves = quickTurns(&sim, rng, 6, moves[:0], buf)
				for i := len(moves) - 1; i >= 0; i-- {
					if sim.IsLegal(moves[i]) {
						n.untried = append(n.untried, moves[i])
					}
				}
				n.expanded = true
			}
			if k := len(n.untried); k > 0 {
				m := n.untried[k-1]
				n.untried = n.untried[:k-1]
				child := &node{move: m, seat: seatToMove(&sim), parent: n}
				n.children = append(n.children, child)
				_ = sim.Play(m)
				n = child
			}
		}
		// Simulation.
		for d := 0; d < b.Depth && !sim.Over(); d++ {
			_ = sim.Play(b.policy(&sim, rng, &moves, &buf))
		}
		light := lightValue(&sim)
		// Backpropagation, by seat: after a swap the responder is Light.
		lightSeat := 0
		if sim.Swapped() {
			lightSeat = 1
		}
		for ; n != nil; n = n.parent {
			n.visits++
			if n.seat == lightSeat {
				n.wins += light
			} else {
				n.wins += 1 - light
			}
		}
	}
	visits := make([]float64, len(rootMoves))
	for _, ch := range root.children {
		for i, m := range rootMoves {
			if m == ch.move {
				visits[i] = ch.visits
			}
		}
	}
	return visits
}

// seatToMove returns who plays the next turn of g: the opener (0) or the responder (1).
func seatToMove(g *replay.Game) int {
	if (g.ToMove() == replay.Light) == g.Swapped() {
		return 1
	}
	return 0
}

// select1 picks the child with the best UCB1 value.
func (b *MCTS) select1(n *node) *node {
	logN := math.Log(n.visits + 1)
	var best *node
	bestU := math.Inf(-1)
	for _, ch := range n.children {
		u := ch.wins/ch.visits + b.Explore*math.Sqrt(logN/ch.visits)
		if u > bestU {
			best, bestU = ch, u
		}
	}
	return best
}

// policy is the cheap playout policy: usually a pair of two of the few best cells, a good
// bridge when there is one, otherwise any legal turn.
func (b *MCTS) policy(g *replay.Game, rng *rand.Rand, moves *[]replay.Move, buf *[]scoredCell) replay.Move {
	c := g.ToMove()
	if rng.IntN(4) == 0 {
		for _, m := range g.LegalBridges(c) {
			if bridgeValue(g, m) >= 1.5 {
				return m
			}
		}
	}
	top := topCells(g, c, 5, 1.0, rng, *buf)
	*buf = top
	for try := 0; try < 6 && len(top) >= 2; try++ {
		i, j := rng.IntN(len(top)), rng.IntN(len(top))
		if i == j {
			continue
		}
		if m := replay.TilesMove(top[i].cell, top[j].cell); g.IsLegal(m) {
			return m
		}
	}
	*moves = LegalTurns(g, (*moves)[:0])
	return (*moves)[rng.IntN(len(*moves))]
}
