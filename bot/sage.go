package bot

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Sage searches with Monte Carlo tree search over whole turns, as the strong programs of
// connection games do: every node's turns are ordered by a prior (the cheap cell values
// of its tile pairs and the worth of its bridges) and opened one by one as the node is
// visited more (progressive widening), instead of a fixed cap; the statistics of a turn
// blend its own results with all-moves-as-first ones (RAVE: a tile pair is credited with
// the playouts in which its mover later put tiles on its cells); each playout plays to
// the end of the game with a policy that knows the decisive tiles and bridges (completing
// an island, blocking one, joining two components with islands). At turn 2 the swap is
// one of the root's turns, so the search decides it. The nodes and their turns live in
// two slices that are reused from turn to turn, so a node costs no allocation of its own.
// The design and the matches that chose it: docs/bot-design.md.
type Sage struct {
	// Budget is the playouts per turn, used when TimePerTurn is 0.
	Budget int
	// TimePerTurn, when above 0, is the budget: the search stops when it has run out.
	TimePerTurn time.Duration
	// Depth is how many turns a playout plays past the new node before it evaluates;
	// below 0 it plays to the end of the game.
	Depth int
	// Cells is how many of the best cells a node pairs up into its tile turns.
	Cells int
	// Widen opens 1 + Widen·√visits of a node's turns, best prior first.
	Widen float64
	// Explore is the UCB1 exploration constant.
	Explore float64
	// Rave is RAVE's equivalence: the visits at which a turn's own results and its
	// all-moves-as-first results weigh the same; 0 turns RAVE off.
	Rave float64

	name    string
	nodes   []sageNode
	cands   []sageCand
	path    []sageStep
	sim     replay.Game
	buf     []scoredCell
	moves   []replay.Move
	playedB []int32 // per cell, the ply+1 at which a tile was put there in this playout, by seat
	touched []game.Cell
	count   int64
	opener  *Greedy
	forced  int32 // 1 + the root's turn every playout follows; 0 for none (Analyse)
}

type sageNode struct {
	candStart, candN int32
	visits           float64
	seat             int8 // who moves at this node: the opener (0) or the responder (1)
	expanded         bool
}

type sageCand struct {
	move  replay.Move
	prior float64
	child int32 // the node after the turn, -1 before it is made
	// unchecked marks a tile pair not yet checked for legality: a pair is checked when the
	// widening opens it, and an illegal one is dropped (n = -1).
	unchecked bool
	n, w      float64
	an, aw    float64 // all-moves-as-first visits and wins
}

type sageStep struct {
	node, cand int32
	ply        int32
}

// NewSage returns the sage bot with the options' budget: TimePerTurn when it is set,
// otherwise Playouts (default 300).
func NewSage(o Options) *Sage {
	s := &Sage{Budget: o.Playouts, TimePerTurn: o.TimePerTurn, Depth: -1, Cells: 12, Widen: 1.5, Explore: 0.3, Rave: 300}
	if s.Budget <= 0 {
		s.Budget = 300
	}
	return s
}

// Name returns "sage-" and the budget: "sage-300" for 300 playouts a turn, "sage-100ms"
// for a tenth of a second.
func (s *Sage) Name() string {
	if s.name != "" {
		return s.name
	}
	if s.TimePerTurn > 0 {
		return "sage-" + strconv.FormatInt(s.TimePerTurn.Milliseconds(), 10) + "ms"
	}
	return "sage-" + strconv.Itoa(s.Budget)
}

// SetName names the bot in its records, for a variant of the default settings.
func (s *Sage) SetName(name string) { s.name = name }

// PlayoutsDone returns the playouts searched since the bot was made.
func (s *Sage) PlayoutsDone() int64 { return s.count }

// Turn searches and returns the most visited turn at the root. The opening turn is chosen
// as the greedy bot chooses it.
func (s *Sage) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn() == 0 {
		if s.opener == nil {
			s.opener = NewGreedy()
		}
		return s.opener.opening(g, rng)
	}
	var deadline time.Time
	if s.TimePerTurn > 0 {
		deadline = time.Now().Add(s.TimePerTurn)
	}
	s.nodes, s.cands = s.nodes[:0], s.cands[:0]
	if len(s.playedB) == 0 {
		s.playedB = make([]int32, 2*1024)
	}
	s.newNode(seatToMove(g))
	s.expand(0, g, rng)
	root := s.nodes[0]
	if root.candN == 1 {
		return s.cands[root.candStart].move
	}
	for i := 0; ; i++ {
		if s.TimePerTurn > 0 {
			if i&15 == 0 && i > 0 && time.Now().After(deadline) {
				break
			}
		} else if i >= s.Budget {
			break
		}
		s.playout(g, rng)
		s.count++
	}
	best, bestN, bestQ := s.nodes[0].candStart, -1.0, -1.0
	for k := s.nodes[0].candStart; k < s.nodes[0].candStart+s.nodes[0].candN; k++ {
		c := &s.cands[k]
		q := 0.0
		if c.n > 0 {
			q = c.w / c.n
		}
		if c.n > bestN || (c.n == bestN && q > bestQ) {
			best, bestN, bestQ = k, c.n, q
		}
	}
	return s.cands[best].move
}

func (s *Sage) newNode(seat int) int32 {
	s.nodes = append(s.nodes, sageNode{seat: int8(seat)})
	return int32(len(s.nodes) - 1)
}

// expand lists the node's turns in g, best prior first.
func (s *Sage) expand(n int32, g *replay.Game, rng *rand.Rand) {
	start := len(s.cands)
	c := g.ToMove()
	if g.Turn() == 1 {
		s.cands = append(s.cands, sageCand{move: replay.SwapMove, prior: math.Inf(1), child: -1})
	}
	top := topCells(g, c, s.Cells, 0.05, rng, s.buf)
	s.buf = top
	pairs := 0
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			s.cands = append(s.cands, sageCand{move: replay.TilesMove(top[i].cell, top[j].cell), prior: top[i].value + top[j].value, child: -1, unchecked: true})
		}
	}
	// Check the pairs best first until one is legal; the others wait until they are opened.
	// (Pairs are sorted below by the same prior, stably, so the checked one leads its equals.)
	byPrior := s.cands[start:]
	slices.SortStableFunc(byPrior, func(a, b sageCand) int { return cmpPrior(a, b) })
	for k := range byPrior {
		if byPrior[k].move.Kind != replay.Tiles || !byPrior[k].unchecked {
			continue
		}
		byPrior[k].unchecked = false
		if g.IsLegal(byPrior[k].move) {
			pairs++
			break
		}
		byPrior[k].n = -1
	}
	for _, m := range g.LegalBridges(c) {
		if v := bridgeValue(g, m); v > 0 {
			s.cands = append(s.cands, sageCand{move: m, prior: v, child: -1})
		}
	}
	if pairs == 0 {
		if g.IsLegal(replay.PassMove) {
			s.cands = append(s.cands, sageCand{move: replay.PassMove, child: -1})
		} else {
			s.moves = LegalTurns(g, s.moves[:0])
			for _, m := range s.moves {
				if m.Kind != replay.Swap {
					s.cands = append(s.cands, sageCand{move: m, child: -1})
				}
			}
		}
	}
	if len(s.cands) == start {
		s.moves = LegalTurns(g, s.moves[:0])
		for _, m := range s.moves {
			s.cands = append(s.cands, sageCand{move: m, child: -1})
		}
	}
	slices.SortStableFunc(s.cands[start:], cmpPrior)
	s.nodes[n].candStart, s.nodes[n].candN, s.nodes[n].expanded = int32(start), int32(len(s.cands)-start), true
}

// cmpPrior orders turns by their prior, best first.
func cmpPrior(a, b sageCand) int {
	switch {
	case a.prior > b.prior:
		return -1
	case a.prior < b.prior:
		return 1
	}
	return 0
}

// choose returns the index of the turn to follow from node n, whose position is g.
func (s *Sage) choose(n int32, g *replay.Game) int32 {
	nd := &s.nodes[n]
	open := int32(min(float64(nd.candN), 1+s.Widen*math.Sqrt(nd.visits)))
	logN := math.Log(nd.visits + 1)
	best, bestU := int32(-1), math.Inf(-1)
	for k := nd.candStart; k < nd.candStart+nd.candN && open > 0; k++ {
		c := &s.cands[k]
		if c.unchecked {
			c.unchecked = false
			if !g.IsLegal(c.move) {
				c.n = -1
			}
		}
		if c.n < 0 {
			continue // illegal: it does not count among the open turns
		}
		open--
		if c.n == 0 {
			return k // the best-prior turn not yet tried
		}
		q := c.w / c.n
		if s.Rave > 0 && c.an > 0 {
			beta := math.Sqrt(s.Rave / (3*c.n + s.Rave))
			q = (1-beta)*q + beta*c.aw/c.an
		}
		u := q + s.Explore*math.Sqrt(logN/c.n)
		if u > bestU {
			best, bestU = k, u
		}
	}
	return best
}

// playout runs one descent, expansion, simulation and backup from g.
func (s *Sage) playout(g *replay.Game, rng *rand.Rand) {
	sim := &s.sim
	sim.CopyFrom(g)
	s.path = s.path[:0]
	for _, c := range s.touched {
		s.playedB[2*int(c)], s.playedB[2*int(c)+1] = 0, 0
	}
	s.touched = s.touched[:0]
	ply := int32(0)
	n := int32(0)
	for !sim.Over() {
		if !s.nodes[n].expanded {
			s.expand(n, sim, rng)
		}
		var k int32
		if n == 0 && s.forced > 0 {
			k = s.forced - 1 // Analyse weighs the turn played
		} else {
			k = s.choose(n, sim)
		}
		s.path = append(s.path, sageStep{node: n, cand: k, ply: ply})
		m := s.cands[k].move
		s.note(sim, m, ply)
		_ = sim.Play(m)
		ply++
		child := s.cands[k].child
		if child < 0 {
			child = s.newNode(seatToMove(sim))
			s.cands[k].child = child
			break
		}
		n = child
	}
	for d := 0; (s.Depth < 0 || d < s.Depth) && !sim.Over(); d++ {
		m := s.policy(sim, rng)
		s.note(sim, m, ply)
		_ = sim.Play(m)
		ply++
	}
	light := lightValue(sim)
	lightSeat := int8(0)
	if sim.Swapped() {
		lightSeat = 1
	}
	for _, st := range s.path {
		nd := &s.nodes[st.node]
		r := 1 - light
		if nd.seat == lightSeat {
			r = light
		}
		nd.visits++
		c := &s.cands[st.cand]
		c.n++
		c.w += r
		if s.Rave <= 0 {
			continue
		}
		seat := int(nd.seat)
		for k := nd.candStart; k < nd.candStart+nd.candN; k++ {
			c := &s.cands[k]
			if c.move.Kind != replay.Tiles {
				continue
			}
			hits := 0
			if p := s.playedB[2*int(c.move.A)+seat]; p > st.ply {
				hits++
			}
			if p := s.playedB[2*int(c.move.B)+seat]; p > st.ply {
				hits++
			}
			if hits > 0 {
				c.an += float64(hits) / 2
				c.aw += r * float64(hits) / 2
			}
		}
	}
}

// note records the cells of a tile turn for RAVE: the ply+1 at which the seat to move
// first put a tile there.
func (s *Sage) note(g *replay.Game, m replay.Move, ply int32) {
	if s.Rave <= 0 || m.Kind != replay.Tiles {
		return
	}
	seat := seatToMove(g)
	for _, c := range [2]game.Cell{m.A, m.B} {
		i := 2*int(c) + seat
		if s.playedB[2*int(c)] == 0 && s.playedB[2*int(c)+1] == 0 {
			s.touched = append(s.touched, c)
		}
		if s.playedB[i] == 0 {
			s.playedB[i] = ply + 1
		}
	}
}

// policy is the playout policy: a bridge that joins two components with islands (it
// scores at once), now and then another useful bridge, otherwise a pair of two of the
// five best cells by cellValue (with noise), where completing an island or standing in
// the way of one ranks first and an island's completion is always played. When those
// cells do not pair up it tries random pairs of all the legal cells, then takes the first
// legal pair from a random start, and when there is none the best useful bridge or the
// pass.
func (s *Sage) policy(g *replay.Game, rng *rand.Rand) replay.Move {
	c := g.ToMove()
	tryBridges := rng.IntN(4) == 0
	if tryBridges || g.Islands()[c] >= 2 {
		best, bestV := s.bestBridge(g, c)
		if bestV >= 10 || (tryBridges && bestV >= 1.5) {
			return best
		}
	}
	cells := g.LegalTileCells(c)
	var top [5]scoredCell
	n := 0
	for _, cell := range cells {
		v := cellValue(g, c, cell) + rng.Float64()
		if n == len(top) && v <= top[n-1].value {
			continue
		}
		if n < len(top) {
			n++
		}
		k := n - 1
		for ; k > 0 && top[k-1].value < v; k-- {
			top[k] = top[k-1]
		}
		top[k] = scoredCell{cell, v}
	}
	for try := 0; try < 6 && n >= 2; try++ {
		i, j := 0, 1+rng.IntN(n-1)
		if top[0].value < 6 { // no island to complete: any two of the best
			i = rng.IntN(n)
			if i == j {
				continue
			}
		}
		if m := replay.TilesMove(top[i].cell, top[j].cell); g.IsLegal(m) {
			return m
		}
	}
	for try := 0; try < 12 && len(cells) >= 2; try++ {
		i, j := rng.IntN(len(cells)), rng.IntN(len(cells))
		if m := replay.TilesMove(cells[i], cells[j]); i != j && g.IsLegal(m) {
			return m
		}
	}
	if len(cells) >= 2 {
		off := rng.IntN(len(cells))
		for a := range cells {
			x := cells[(a+off)%len(cells)]
			for b := a + 1; b < len(cells); b++ {
				if m := replay.TilesMove(x, cells[(b+off)%len(cells)]); g.IsLegal(m) {
					return m
				}
			}
		}
	}
	if m, v := s.bestBridge(g, c); v > 0 {
		return m
	}
	if g.IsLegal(replay.PassMove) {
		return replay.PassMove
	}
	s.moves = LegalTurns(g, s.moves[:0]) // not reached: no pair is legal, so the pass is
	return s.moves[rng.IntN(len(s.moves))]
}

// bestBridge returns colour c's bridge of the highest bridgeValue and its value, 0 when
// there is none.
func (s *Sage) bestBridge(g *replay.Game, c replay.Colour) (replay.Move, float64) {
	best, bestV := replay.Move{}, 0.0
	for _, m := range g.LegalBridges(c) {
		if v := bridgeValue(g, m); v > bestV {
			best, bestV = m, v
		}
	}
	return best, bestV
}
