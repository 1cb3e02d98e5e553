package bot

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/bot/learn"
	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Arch is sage's search on a position of the bot's own (package pos), made for playouts:
// the same tree (turns ordered by their prior and opened by progressive widening, RAVE,
// playouts to the end of the game with the same policy), with the tree kept from one turn
// to the next when the opponent's reply is in it, and a root-parallel search on several
// threads whose root statistics are summed, or a tree-parallel search of one tree shared
// by the threads (Shared). The design and the matches that chose it: docs/bot-design.md.
type Arch struct {
	// Budget is the playouts per turn, over all threads, used when TimePerTurn is 0.
	Budget int
	// TimePerTurn, when above 0, is the budget: every thread searches until it has run out.
	TimePerTurn time.Duration
	// Threads is how many threads search the position at once: each on a tree of its own
	// (root parallelism), or all on one tree when Shared is set.
	Threads int
	// Shared makes the threads search one tree (tree parallelism with a virtual loss).
	Shared bool
	// VirtualLoss is the visits, counted as lost, that a thread puts on each turn of its
	// way down the shared tree until its playout is backed up.
	VirtualLoss int
	// Cells is how many of the best cells a node pairs up into its tile turns.
	Cells int
	// Widen opens 1 + Widen·√visits of a node's turns, best prior first.
	Widen float64
	// Explore is the UCB1 exploration constant.
	Explore float64
	// Rave is RAVE's equivalence (see Sage.Rave); 0 turns RAVE off.
	Rave float64
	// Reuse keeps the subtree of the turn played and of the reply from turn to turn.
	Reuse bool
	// Priors, when set, orders a node's turns by the learned priors (bot/lore.go).
	Priors *learn.Model

	name   string
	trees  []*archTree
	shared *sharedTree
	opener *Greedy
	count  atomic.Int64

	// after is the game after the bot's last turn, so that the next turn can find the
	// reply and keep its subtree; afterOK says it is set.
	after   replay.Game
	afterOK bool
	played  replay.Move
}

// archTree is one thread's tree and scratch space.
type archTree struct {
	nodes   []archNode
	cands   []archCand
	rcells  []raveCell // the nodes' RAVE cells
	front   []uint8    // the nodes' next pairs, by row (archNode.front)
	pairTab []float64  // the nodes' pairs' priors (archNode.pairTab)
	others  []archCand // expandPairs' scratch
	path    []sageStep
	root    pos.Position
	sim     pos.Position
	draw    pos.Draw // the playout turn's working space
	rng     *rand.Rand
	src     *rand.PCG
	buf     []scoredCell
	cells   []game.Cell
	bridges []replay.Move
	moves   []replay.Move
	playedB []int32
	touched []game.Cell
	forced  int32
	// sortByPrior's scratch
	keys, keys2 []priorKey
	sorted      []archCand
	runs        []int32
	// compaction buffers, swapped with nodes and cands when a subtree is kept
	nodes2   []archNode
	cands2   []archCand
	rcells2  []raveCell
	front2   []uint8
	pairTab2 []float64
	old      []int32
	lore     *loreScratch // set with Arch.Priors
	tables   choiceTables
	// the thread's RAVE statistics of the shared tree, and the spare for compaction
	rave, rave2 *raveTable
}

// archNode is a node of an archTree: its turns are cands[candStart:candStart+candN], and
// its RAVE cells rcells[cellStart:cellStart+cellN]. The first sorted turns are in their
// order (prior, highest first, then the order listed); the last others turns are listed
// but not placed, in any order; the places between are those of the tile pairs not yet
// made, when the node makes its pairs as they are placed (front or pairTab ≥ 0). choose
// places the next turn when the widening reaches it (placeNext).
type archNode struct {
	candStart, candN int32
	sorted, others   int32
	cellStart, cellN int32
	// The node's pairs are those of its first top RAVE cells, best value first, in rows
	// (a cell with each of the cells after it), the first listed pairBase-th. With front
	// ≥ 0 (the hand-made priors, a row's priors do not rise), front[i] is the second cell
	// of the next pair of row i (top when the row is done); with pairTab ≥ 0 (the learned
	// ones), pairTab[k] is the k-th pair's prior, -∞ once it is made.
	front, pairTab int32
	top, pairBase  int16
	visits         float64
	seat           int8 // who moves at this node: the opener (0) or the responder (1)
	expanded       bool
}

// archCand is a turn of a node. A tile turn's all-moves-as-first statistics are those of
// its two cells (ia, ib in the node's RAVE cells): a pair's visits are the halves of its
// cells' hits, its wins the halves of theirs, the same values, exactly, as counting a
// pair's hits by halves (every term is a multiple of ¼).
type archCand struct {
	move  replay.Move
	prior float64
	child int32 // the node after the turn, -1 before it is made
	order int32 // the turn's place in its node's listing, for equal priors
	// ia and ib are the indexes of a tile turn's cells in its node's RAVE cells, -1 for
	// the other turns.
	ia, ib int16
	// unchecked marks a tile pair not yet checked for legality: a pair is checked when the
	// widening opens it, and an illegal one is dropped (n = -1).
	unchecked bool
	n, w      float64
}

// raveCell is a cell of a node's tile turns and its all-moves-as-first hits and wins: the
// playouts through the node in which the node's mover later played it, and their results.
type raveCell struct {
	cell game.Cell
	n, w float64
	// value is a best cell's value with its noise (topCells), of which its pairs' priors
	// are made.
	value float64
}

// DefaultArchPlayouts is the arch bot's budget when none is named.
const DefaultArchPlayouts = 500

// NewArch returns the arch bot with the options' budget: TimePerTurn when it is set,
// otherwise Playouts (default DefaultArchPlayouts), on Threads threads (default 1).
func NewArch(o Options) *Arch {
	a := &Arch{Budget: o.Playouts, TimePerTurn: o.TimePerTurn, Threads: o.Threads, Shared: o.Shared,
		VirtualLoss: 1, Cells: 12, Widen: 1.5, Explore: 0.3, Rave: 300, Reuse: true}
	if a.Budget <= 0 {
		a.Budget = DefaultArchPlayouts
	}
	if a.Threads <= 0 {
		a.Threads = 1
	}
	return a
}

// Name returns "arch-" and the budget, with "-tN" for N threads with a tree each or "-sN"
// for N threads on one shared tree: "arch-1000", "arch-100ms", "arch-100ms-t2",
// "arch-100ms-s2".
func (a *Arch) Name() string {
	if a.name != "" {
		return a.name
	}
	n := "arch-" + strconv.Itoa(a.Budget)
	if a.TimePerTurn > 0 {
		n = "arch-" + strconv.FormatInt(a.TimePerTurn.Milliseconds(), 10) + "ms"
	}
	if a.Shared {
		n += "-s" + strconv.Itoa(max(a.Threads, 1))
	} else if a.Threads > 1 {
		n += "-t" + strconv.Itoa(a.Threads)
	}
	return n
}

// SetName names the bot in its records, for a variant of the default settings.
func (a *Arch) SetName(name string) { a.name = name }

// PlayoutsDone returns the playouts searched since the bot was made, over all threads.
func (a *Arch) PlayoutsDone() int64 { return a.count.Load() }

// Turn searches and returns the turn most visited over the threads' roots. The opening
// turn is chosen as the greedy bot chooses it.
func (a *Arch) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn() == 0 {
		if a.opener == nil {
			a.opener = NewGreedy()
		}
		a.afterOK = false
		return a.opener.opening(g, rng)
	}
	var deadline time.Time
	if a.TimePerTurn > 0 {
		deadline = time.Now().Add(a.TimePerTurn)
	}
	root, err := pos.FromGame(g)
	if err != nil {
		panic("arch: " + err.Error()) // a replay.Game is always a position
	}
	a.grow()
	reply, kept := a.reply(g)
	if a.Shared {
		m := a.sharedTurn(root, reply, kept, rng, deadline)
		a.remember(g, m)
		return m
	}
	only := false
	for i, t := range a.trees {
		t.src.Seed(rng.Uint64(), rng.Uint64())
		t.root = root
		if !kept || !t.keep(a.played, reply) {
			t.fresh(a.Cells)
		}
		if i == 0 && t.nodes[0].candN == 1 {
			only = true
		}
	}
	if only {
		m := a.trees[0].cands[a.trees[0].nodes[0].candStart].move
		a.remember(g, m)
		return m
	}
	a.search(deadline)
	m := a.best()
	a.remember(g, m)
	return m
}

// grow makes the threads' trees.
func (a *Arch) grow() {
	for len(a.trees) < max(a.Threads, 1) {
		src := rand.NewPCG(0, 0)
		a.trees = append(a.trees, &archTree{src: src, rng: rand.New(src), playedB: make([]int32, 2*1024),
			lore: newLoreScratch(a.Priors), rave: new(raveTable), rave2: new(raveTable)})
	}
}

// search runs the playouts of every thread.
func (a *Arch) search(deadline time.Time) {
	if len(a.trees) == 1 {
		a.trees[0].run(a, a.Budget, deadline)
		return
	}
	var wg sync.WaitGroup
	per := a.Budget / len(a.trees)
	for i, t := range a.trees {
		n := per
		if i < a.Budget%len(a.trees) {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.run(a, max(n, 1), deadline)
		}()
	}
	wg.Wait()
}

// run plays budget playouts, or until the deadline when it is set.
func (t *archTree) run(a *Arch, budget int, deadline time.Time) {
	t.tables.reset(a)
	timed := !deadline.IsZero()
	done := int64(0)
	for i := 0; ; i++ {
		if timed {
			if i&15 == 0 && i > 0 && time.Now().After(deadline) {
				break
			}
		} else if i >= budget {
			break
		}
		t.playout(a)
		done++
	}
	a.count.Add(done)
}

// best returns the root turn with the most visits summed over the trees, then the best
// mean result.
func (a *Arch) best() replay.Move {
	stats := a.rootStats()
	best, _, _ := mostVisited(stats)
	return stats[best].move
}

// rootCand returns the index of the root's turn m, -1 when the root does not list it.
func (t *archTree) rootCand(m replay.Move) int32 {
	r := t.nodes[0]
	for k := r.candStart; k < r.candStart+r.candN; k++ {
		if t.cands[k].move.Same(m) {
			return k
		}
	}
	return -1
}

// remember keeps the game after the bot's turn m, to find the reply next turn.
func (a *Arch) remember(g *replay.Game, m replay.Move) {
	a.afterOK = false
	if !a.Reuse {
		return
	}
	a.after.CopyFrom(g)
	if a.after.Play(m) == nil {
		a.afterOK, a.played = true, m
	}
}

// reply returns the opponent's turn between the game after the bot's last turn and g,
// when g follows from it by exactly one turn.
func (a *Arch) reply(g *replay.Game) (replay.Move, bool) {
	if !a.afterOK || a.after.Over() || g.Turn() != a.after.Turn()+1 || g.Size() != a.after.Size() || g.Supply() != a.after.Supply() {
		return replay.Move{}, false
	}
	m, ok := turnBetween(&a.after, g)
	if !ok {
		return replay.Move{}, false
	}
	var x replay.Game
	x.CopyFrom(&a.after)
	if x.Play(m) != nil || !samePosition(&x, g) {
		return replay.Move{}, false
	}
	return m, true
}

// turnBetween finds the turn that leads from before to after, which is one turn later.
func turnBetween(before, after *replay.Game) (replay.Move, bool) {
	if after.Swapped() && !before.Swapped() {
		return replay.SwapMove, true
	}
	c := before.ToMove()
	if nb := after.BuiltBridges(c); len(nb) == len(before.BuiltBridges(c))+1 {
		return nb[len(nb)-1], true
	}
	var tiles [2]game.Cell
	n := 0
	size := before.Size()
	for row := range size {
		for col := range size {
			cell := game.CellAt(col, row)
			_, was := before.At(cell)
			if k, is := after.At(cell); is && !was {
				if k != c || n == 2 {
					return replay.Move{}, false
				}
				tiles[n] = cell
				n++
			}
		}
	}
	switch n {
	case 2:
		return replay.TilesMove(tiles[0], tiles[1]), true
	case 0:
		return replay.PassMove, true
	}
	return replay.Move{}, false
}

// samePosition reports whether two games show the same position: tiles, blocked cells,
// bridges, turn, swap, supply left and the end.
func samePosition(x, y *replay.Game) bool {
	if x.Turn() != y.Turn() || x.Swapped() != y.Swapped() || x.Over() != y.Over() || x.Size() != y.Size() ||
		x.BridgesLeft() != y.BridgesLeft() || x.TilesLeft(replay.Light) != y.TilesLeft(replay.Light) ||
		x.TilesLeft(replay.Dark) != y.TilesLeft(replay.Dark) {
		return false
	}
	for _, c := range [2]replay.Colour{replay.Light, replay.Dark} {
		if !slices.Equal(x.BuiltBridges(c), y.BuiltBridges(c)) {
			return false
		}
	}
	for row := range x.Size() {
		for col := range x.Size() {
			cell := game.CellAt(col, row)
			cx, ox := x.At(cell)
			cy, oy := y.At(cell)
			if ox != oy || (ox && cx != cy) || x.Blocked(cell) != y.Blocked(cell) {
				return false
			}
		}
	}
	return true
}

// fresh starts a new tree at the root position.
func (t *archTree) fresh(cells int) {
	t.nodes, t.cands, t.rcells, t.front, t.pairTab = t.nodes[:0], t.cands[:0], t.rcells[:0], t.front[:0], t.pairTab[:0]
	t.newNode(posSeat(&t.root))
	t.expand(0, &t.root, cells, true)
}

// keep makes the node after the bot's turn played and the reply the new root, keeping its
// subtree, and reports whether the tree held it (expanded).
func (t *archTree) keep(played, reply replay.Move) bool {
	if len(t.nodes) == 0 {
		return false
	}
	k := t.rootCand(played)
	if k < 0 || t.cands[k].child < 0 {
		return false
	}
	x := t.cands[k].child
	nx := t.nodes[x]
	y := int32(-1)
	for j := nx.candStart; j < nx.candStart+nx.sorted; j++ { // the turns placed: the others were never played
		if t.cands[j].move.Same(reply) {
			y = t.cands[j].child
			break
		}
	}
	if y < 0 || !t.nodes[y].expanded {
		return false
	}
	t.compact(y)
	t.order(0)
	return true
}

// order puts all of node n's turns in their order.
func (t *archTree) order(n int32) {
	for t.nodes[n].sorted < t.nodes[n].candN {
		t.placeNext(n)
	}
}

// placeNext places node n's next turn in the order: the best of its listed turns not
// placed and of its pairs not yet made.
func (t *archTree) placeNext(n int32) {
	nd := &t.nodes[n]
	end := nd.candStart + nd.candN
	at, lo := nd.candStart+nd.sorted, end-nd.others
	best := int32(-1)
	for q := lo; q < end; q++ {
		if c := &t.cands[q]; best < 0 || ahead(c.prior, c.order, t.cands[best].prior, t.cands[best].order) {
			best = q
		}
	}
	if lo > at && (nd.front >= 0 || nd.pairTab >= 0) { // a pair is still to be made
		k := int32(nd.top)
		left := pairsLeft{top: t.rcells[nd.cellStart : nd.cellStart+k], pairBase: nd.pairBase}
		if nd.front >= 0 {
			left.front = t.front[nd.front : nd.front+k-1]
		} else {
			left.tab = t.pairTab[nd.pairTab : nd.pairTab+k*(k-1)/2]
		}
		if c, bx := left.next(); best < 0 || ahead(c.prior, c.order, t.cands[best].prior, t.cands[best].order) {
			t.cands[at] = c
			left.made(c, bx)
			nd.sorted++
			return
		}
	}
	c := t.cands[best]
	t.cands[best] = t.cands[lo]
	t.cands[at] = c
	nd.sorted++
	nd.others--
}

// ahead reports whether a turn of prior p listed order-th comes before one of prior q
// listed r-th: the higher prior first, then the first listed.
func ahead(p float64, order int32, q float64, r int32) bool {
	return p > q || (p == q && order < r)
}

// pairsLeft is the state of a node's pairs not yet made: its best cells, top, and either
// front (with the hand-made priors) or tab (with the learned ones), as archNode has them;
// its pairs are listed from the pairBase-th.
type pairsLeft struct {
	top      []raveCell
	front    []uint8
	tab      []float64
	pairBase int16
}

// next returns the best pair not yet made, as a turn to place, and its index in tab. A
// pair must be left to make.
func (l pairsLeft) next() (archCand, int) {
	var bx, bi, bj int
	var prior float64
	var order int32
	if l.front != nil {
		bi, bj, prior, order = frontPair(l.top, l.front, l.pairBase)
	} else {
		bx, bi, bj, prior, order = tabPair(l.tab, len(l.top), l.pairBase)
	}
	return archCand{move: replay.TilesMove(l.top[bi].cell, l.top[bj].cell), prior: prior, child: -1,
		order: order, ia: int16(bi), ib: int16(bj), unchecked: true}, bx
}

// made marks the pair c, which next returned with bx, as made.
func (l pairsLeft) made(c archCand, bx int) {
	if l.front != nil {
		l.front[c.ia]++
	} else {
		l.tab[bx] = math.Inf(-1)
	}
}

// frontPair returns the best of the rows' next pairs (front[i] is the second cell of row
// i's next pair, len(top) when the row is done; a row's priors do not rise): its cells'
// indexes in top, its prior and its place in the node's listing, whose pairs start at
// pairBase. A pair must be left to make.
func frontPair(top []raveCell, front []uint8, pairBase int16) (bi, bj int, prior float64, order int32) {
	k := len(top)
	bi = -1
	for i, j := range front {
		if int(j) < k {
			if p := top[i].value + top[j].value; bi < 0 || p > prior {
				bi, bj, prior = i, int(j), p
			}
		}
	}
	return bi, bj, prior, int32(pairBase) + int32(bi*(2*k-bi-1)/2+bj-bi-1)
}

// tabPair returns the first of the pairs of highest prior in tab, the priors of the
// pairs of k cells in rows (-∞ for a pair made): its index in tab, its cells' indexes,
// its prior and its place in the node's listing, whose pairs start at pairBase. A pair
// must be left to make.
func tabPair(tab []float64, k int, pairBase int16) (bx, bi, bj int, prior float64, order int32) {
	prior = math.Inf(-1)
	for x, p := range tab {
		if p > prior {
			bx, prior = x, p
		}
	}
	bi, bj = 0, bx+1 // the row and column of pair bx
	for bj >= k {
		bj -= k - 1 - bi - 1
		bi++
	}
	return bx, bi, bj, prior, int32(pairBase) + int32(bx)
}

// cmpOrder orders turns by prior, highest first, then as they were listed.
func cmpOrder(x, y archCand) int {
	switch {
	case x.prior > y.prior:
		return -1
	case x.prior < y.prior:
		return 1
	}
	return int(x.order - y.order)
}

// compact copies the subtree of node y into the spare arrays, y first, and swaps them in.
func (t *archTree) compact(y int32) {
	nodes, cands, rcells, front, tab, old := t.nodes2[:0], t.cands2[:0], t.rcells2[:0], t.front2[:0], t.pairTab2[:0], t.old[:0]
	nodes = append(nodes, t.nodes[y])
	old = append(old, y)
	for i := 0; i < len(nodes); i++ {
		o := t.nodes[old[i]]
		nodes[i].cellStart = int32(len(rcells))
		rcells = append(rcells, t.rcells[o.cellStart:o.cellStart+o.cellN]...)
		if o.front >= 0 {
			nodes[i].front = int32(len(front))
			front = append(front, t.front[o.front:o.front+int32(o.top)-1]...)
		}
		if o.pairTab >= 0 {
			nodes[i].pairTab = int32(len(tab))
			tab = append(tab, t.pairTab[o.pairTab:o.pairTab+int32(o.top)*int32(o.top-1)/2]...)
		}
		start := int32(len(cands))
		for k := o.candStart; k < o.candStart+o.candN; k++ {
			c := t.cands[k]
			if k >= o.candStart+o.sorted {
				c.child = -1 // not placed, or the place of a pair not yet made
			} else if c.child >= 0 {
				nodes = append(nodes, t.nodes[c.child])
				old = append(old, c.child)
				c.child = int32(len(nodes) - 1)
			}
			cands = append(cands, c)
		}
		nodes[i].candStart = start
	}
	t.nodes2, t.cands2, t.rcells2, t.front2, t.pairTab2, t.old = t.nodes, t.cands, t.rcells, t.front, t.pairTab, old
	t.nodes, t.cands, t.rcells, t.front, t.pairTab = nodes, cands, rcells, front, tab
}

func (t *archTree) newNode(seat int) int32 {
	t.nodes = append(t.nodes, archNode{seat: int8(seat), front: -1, pairTab: -1})
	return int32(len(t.nodes) - 1)
}

// posSeat returns who moves in p: the opener (0) or the responder (1). The opener plays
// the even turns and the responder the odd ones, the swap changing colours, not seats
// (TestPosSeat).
func posSeat(p *pos.Position) int { return p.Turn() & 1 }

// expand lists the node's turns in p, best prior first as Sage.expand does: all of them
// in order when full is set (listTurns), otherwise as expandPairs places them.
func (t *archTree) expand(n int32, p *pos.Position, cells int, full bool) {
	if !full {
		t.expandPairs(n, p, cells)
		return
	}
	start, cellStart := len(t.cands), len(t.rcells)
	t.cands = t.listTurns(t.cands, p, cells)
	nd := &t.nodes[n]
	nd.candStart, nd.candN, nd.expanded = int32(start), int32(len(t.cands)-start), true
	nd.sorted, nd.others, nd.front, nd.pairTab = nd.candN, 0, -1, -1
	nd.cellStart, nd.cellN = int32(cellStart), int32(len(t.rcells)-cellStart)
}

// expandPairs lists node n's turns in p as listTurns does, but makes the pairs only as
// they are placed: the best cells' pairs come in rows (a cell with each of the cells
// after it); with the hand-made priors each row is in its order, so that the next pair is
// the best of the rows' next ones, and with the learned ones (or more than 255 cells) the
// next pair is the best of a table of their priors. The turns are placed up to the best
// legal pair.
func (t *archTree) expandPairs(n int32, p *pos.Position, cells int) {
	start, base := len(t.cands), len(t.rcells)
	c := p.ToMove()
	m, last := t.priors(p, c)
	others := t.others[:0]
	if p.Turn() == 1 {
		others = append(others, archCand{move: replay.SwapMove, prior: math.Inf(1), child: -1, ia: -1, ib: -1})
	}
	top := t.topCells(p, c, cells, 0.05, m)
	for _, sc := range top {
		t.rcells = append(t.rcells, raveCell{cell: sc.cell, value: sc.value})
	}
	k := len(top)
	pairBase, pairs := len(others), k*(k-1)/2
	front, tab := int32(-1), int32(-1)
	switch {
	case k < 2:
	case m == nil && k <= 255:
		front = int32(len(t.front))
		for i := 1; i < k; i++ {
			t.front = append(t.front, uint8(i))
		}
	default:
		tab = int32(len(t.pairTab))
		for i := range top {
			for j := i + 1; j < k; j++ {
				prior := top[i].value + top[j].value
				if m != nil {
					prior += m.Pair(top[i].cell, top[j].cell)
				}
				t.pairTab = append(t.pairTab, prior)
			}
		}
	}
	others = t.appendBridges(others, p, c, m, pairs)
	t.cands = slices.Grow(t.cands, pairs+len(others))
	t.cands = append(t.cands[:start+pairs], others...) // the pairs' places left as they are
	t.others = others
	nd := &t.nodes[n]
	*nd = archNode{candStart: int32(start), candN: int32(pairs + len(others)), others: int32(len(others)),
		cellStart: int32(base), cellN: int32(k), front: front, pairTab: tab, top: int16(k), pairBase: int16(pairBase),
		visits: nd.visits, seat: nd.seat, expanded: true}
	for nd.sorted < nd.candN {
		t.placeNext(n)
		if checkPair(&t.cands[nd.candStart+nd.sorted-1], p) {
			return
		}
	}
	// No pair is legal, and all the turns are placed: the pass or every legal turn join
	// them, as listTurns has it.
	t.cands = t.appendFallback(t.cands, p, true, last, start, base)
	slices.SortFunc(t.cands[start:], cmpOrder)
	nd = &t.nodes[n]
	nd.candN, nd.sorted, nd.others, nd.front, nd.pairTab = int32(len(t.cands)-start), int32(len(t.cands)-start), 0, -1, -1
	nd.cellN = int32(len(t.rcells) - base)
}

// cellIndex returns the index of cell among the RAVE cells from base, the last ones of
// rcells, appending it when they do not hold it.
func (t *archTree) cellIndex(base int, cell game.Cell) int16 {
	for i, rc := range t.rcells[base:] {
		if rc.cell == cell {
			return int16(i)
		}
	}
	t.rcells = append(t.rcells, raveCell{cell: cell})
	return int16(len(t.rcells) - 1 - base)
}

// tilesCand returns the candidate turn m, listed order-th, with its cells among the RAVE
// cells from base when it is a tile turn.
func (t *archTree) tilesCand(m replay.Move, prior float64, order int, base int) archCand {
	c := archCand{move: m, prior: prior, child: -1, order: int32(order), ia: -1, ib: -1}
	if m.Kind == replay.Tiles {
		c.ia, c.ib = t.cellIndex(base, m.A), t.cellIndex(base, m.B)
	}
	return c
}

// listTurns appends to cands the turns of a node whose position is p, best prior first:
// the pairs of the best cells (the best legal one checked, the others unchecked), the
// useful bridges, the pass or every legal turn when no pair is legal. It appends the
// node's RAVE cells to rcells. The order is a stable sort's by prior, of the turns in the
// order listed (expandPairs places the turns in the same order, as far as needed).
func (t *archTree) listTurns(cands []archCand, p *pos.Position, cells int) []archCand {
	start, base := len(cands), len(t.rcells)
	c := p.ToMove()
	m, last := t.priors(p, c)
	if p.Turn() == 1 {
		cands = append(cands, archCand{move: replay.SwapMove, prior: math.Inf(1), child: -1, ia: -1, ib: -1})
	}
	top := t.topCells(p, c, cells, 0.05, m)
	pairs := 0
	for _, sc := range top {
		t.rcells = append(t.rcells, raveCell{cell: sc.cell, value: sc.value})
	}
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			a, b := top[i].cell, top[j].cell
			prior := top[i].value + top[j].value
			if m != nil {
				prior += m.Pair(a, b)
			}
			cands = append(cands, archCand{move: replay.TilesMove(a, b), prior: prior, child: -1,
				order: int32(len(cands) - start), ia: int16(i), ib: int16(j), unchecked: true})
		}
	}
	byPrior := cands[start:]
	t.sortByPrior(byPrior)
	pairs = firstLegalPair(byPrior, p)
	cands = t.appendBridges(cands, p, c, m, -start)
	cands = t.appendFallback(cands, p, pairs == 0, last, start, base)
	t.sortByPrior(cands[start:])
	return cands
}

// priors returns the model that values a node's turns in p for the mover c (nil for the
// hand-made priors) and the prior of the turns listed for want of a legal pair: with
// learned priors (lore) a cell, a pair and a bridge are valued by the model, and those
// turns come last.
func (t *archTree) priors(p *pos.Position, c replay.Colour) (*learn.Model, float64) {
	if t.lore == nil {
		return nil, 0
	}
	t.lore.board.Read(p, c)
	return t.lore.model, math.Inf(-1)
}

// appendBridges appends to cands the legal bridges of c in p that join something, valued
// by bridgeValue (and m), each listed at its index in cands plus offset.
func (t *archTree) appendBridges(cands []archCand, p *pos.Position, c replay.Colour, m *learn.Model, offset int) []archCand {
	t.bridges = p.LegalBridges(c, t.bridges[:0])
	for _, mv := range t.bridges {
		if v := p.BridgeValue(mv); v > 0 {
			if m != nil {
				v = m.Bridge(mv, v)
			}
			cands = append(cands, archCand{move: mv, prior: v, child: -1, order: int32(offset + len(cands)), ia: -1, ib: -1})
		}
	}
	return cands
}

// appendFallback appends to cands, whose node's turns start at start (its RAVE cells at
// base), the turns listed for want of a legal pair when noPair (the pass, or every legal
// turn but the swap, at prior last), and every legal turn when the node has none.
func (t *archTree) appendFallback(cands []archCand, p *pos.Position, noPair bool, last float64, start, base int) []archCand {
	if noPair {
		if p.CanPass() {
			cands = append(cands, archCand{move: replay.PassMove, prior: last, child: -1, order: int32(len(cands) - start), ia: -1, ib: -1})
		} else {
			t.moves = p.LegalTurns(t.moves[:0])
			for _, mv := range t.moves {
				if mv.Kind != replay.Swap {
					cands = append(cands, t.tilesCand(mv, last, len(cands)-start, base))
				}
			}
		}
	}
	if len(cands) == start {
		t.moves = p.LegalTurns(t.moves[:0])
		for _, mv := range t.moves {
			cands = append(cands, t.tilesCand(mv, 0, len(cands)-start, base))
		}
	}
	return cands
}

// firstLegalPair checks the unchecked tile pairs of cands, in order, until one is legal,
// dropping the illegal ones (n = -1), and returns 1 when it found a legal pair, 0
// otherwise.
func firstLegalPair(cands []archCand, p *pos.Position) int {
	for k := range cands {
		if checkPair(&cands[k], p) {
			return 1
		}
	}
	return 0
}

// checkPair checks c when it is an unchecked tile pair, dropping it when illegal (n =
// -1), and reports whether it is a legal pair just checked.
func checkPair(c *archCand, p *pos.Position) bool {
	if c.move.Kind != replay.Tiles || !c.unchecked {
		return false
	}
	c.unchecked = false
	if p.IsLegal(c.move) {
		return true
	}
	c.n = -1
	return false
}

// sortByPrior sorts cands by prior, highest first, keeping the order of equal priors: the
// order slices.SortStableFunc(cands, cmpPrior) gives (a stable sort's order is unique).
// It merges the runs the turns already come in (the pairs of one cell with the cells
// after it, the bridges after the sorted pairs), on (prior, index) keys, and moves each
// turn once.
func (t *archTree) sortByPrior(cands []archCand) {
	n := len(cands)
	if n < 2 {
		return
	}
	keys, tmp, runs := t.keys[:0], t.keys2[:0], t.runs[:0]
	for i := range cands {
		keys = append(keys, priorKey{cands[i].prior, int32(i)})
		if i == 0 || cands[i].prior > cands[i-1].prior {
			runs = append(runs, int32(i)) // a run of priors that do not rise starts
		}
	}
	if len(runs) == 1 {
		t.keys, t.runs = keys, runs
		return
	}
	runs = append(runs, int32(n))
	tmp = append(tmp, keys...)
	for len(runs) > 2 {
		out := runs[:0]
		for r := 0; r+1 < len(runs); r += 2 {
			lo, mid := int(runs[r]), int(runs[r+1])
			out = append(out, int32(lo))
			if r+2 >= len(runs) { // an odd run out: copied
				copy(tmp[lo:mid], keys[lo:mid])
				continue
			}
			hi := int(runs[r+2])
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if keys[j].prior > keys[i].prior { // strictly higher: the right one first
					tmp[k] = keys[j]
					j++
				} else {
					tmp[k] = keys[i]
					i++
				}
				k++
			}
			k += copy(tmp[k:], keys[i:mid])
			copy(tmp[k:], keys[j:hi])
		}
		runs = append(out, int32(n))
		keys, tmp = tmp, keys
	}
	sorted := t.sorted[:0]
	for _, key := range keys {
		sorted = append(sorted, cands[key.i])
	}
	copy(cands, sorted)
	t.keys, t.keys2, t.sorted, t.runs = keys, tmp, sorted, runs
}

// priorKey is a turn's prior and its index, for sortByPrior.
type priorKey struct {
	prior float64
	i     int32
}

// topCells returns up to n of the legal tile cells of c with the best CellValue (as the
// model m values it, when set) plus a
// little noise, best first (ties by cell), as a sort of them all would: one insertion
// into the n best so far per cell.
func (t *archTree) topCells(p *pos.Position, c replay.Colour, n int, noise float64, m *learn.Model) []scoredCell {
	t.cells = p.LegalTileCells(c, t.cells[:0])
	top := t.buf[:0]
	for _, cell := range t.cells {
		v := p.CellValue(c, cell)
		if m != nil {
			v = m.Cell(&t.lore.board, cell, v)
		}
		sc := scoredCell{cell, v + noise*t.rng.Float64()}
		if len(top) == n && !better(sc, top[n-1]) {
			continue
		}
		if len(top) < n {
			top = append(top, sc)
		}
		k := len(top) - 1
		for ; k > 0 && better(sc, top[k-1]); k-- {
			top[k] = top[k-1]
		}
		top[k] = sc
	}
	t.buf = top
	return top
}

// better orders cells by value, best first, then by cell.
func better(a, b scoredCell) bool {
	return a.value > b.value || (a.value == b.value && a.cell < b.cell)
}

// choiceTables are choose's terms that depend on a count of visits alone, by the count,
// computed as choose would compute them (so the same values, bit for bit) for the
// settings they were made with.
type choiceTables struct {
	widen, rave float64
	open        []float64 // 1 + Widen·√visits
	logN        []float64 // log(visits + 1)
	beta        []float64 // RAVE's weight after n visits of a turn
}

// maxTabled is the count up to which choiceTables hold their terms.
const maxTabled = 1 << 16

// reset empties the tables when the settings are not those they were made with.
func (c *choiceTables) reset(a *Arch) {
	if c.widen != a.Widen || c.rave != a.Rave {
		*c = choiceTables{widen: a.Widen, rave: a.Rave}
	}
}

func openOf(widen, visits float64) float64 { return 1 + widen*math.Sqrt(visits) }
func logOf(visits float64) float64         { return math.Log(visits + 1) }
func betaOf(rave, n float64) float64       { return math.Sqrt(rave / (3*n + rave)) }

// term returns f(x) for a whole x ≥ 0, from tab when x is below maxTabled (grown to
// hold it).
func term(tab *[]float64, x float64, f func(float64) float64) float64 {
	if x >= maxTabled {
		return f(x)
	}
	i := int(x)
	for len(*tab) <= i {
		*tab = append(*tab, f(float64(len(*tab))))
	}
	return (*tab)[i]
}

// choose returns the index of the turn to follow from node n, whose position is p.
func (t *archTree) choose(a *Arch, n int32, p *pos.Position) int32 {
	nd := &t.nodes[n]
	tb := &t.tables
	open := int32(min(float64(nd.candN), term(&tb.open, nd.visits, func(v float64) float64 { return openOf(a.Widen, v) })))
	logN := term(&tb.logN, nd.visits, logOf)
	best, bestU := int32(-1), math.Inf(-1)
	end := nd.candStart + nd.candN
	for k := nd.candStart; k < end && open > 0; k++ {
		if k-nd.candStart == nd.sorted {
			t.placeNext(n)
		}
		c := &t.cands[k]
		if c.unchecked {
			c.unchecked = false
			if !p.IsLegal(c.move) {
				c.n = -1
			}
		}
		if c.n < 0 {
			continue
		}
		open--
		if c.n == 0 {
			return k
		}
		q := c.w / c.n
		if a.Rave > 0 && c.ia >= 0 {
			ca, cb := &t.rcells[nd.cellStart+int32(c.ia)], &t.rcells[nd.cellStart+int32(c.ib)]
			if an := (ca.n + cb.n) / 2; an > 0 {
				aw := (ca.w + cb.w) / 2
				beta := term(&tb.beta, c.n, func(n float64) float64 { return betaOf(a.Rave, n) })
				q = (1-beta)*q + beta*aw/an
			}
		}
		u := q + a.Explore*math.Sqrt(logN/c.n)
		if u > bestU {
			best, bestU = k, u
		}
	}
	return best
}

// playout runs one descent, expansion, simulation to the end and backup from the root.
func (t *archTree) playout(a *Arch) {
	sim := &t.sim
	sim.CopyFrom(&t.root)
	t.path = t.path[:0]
	for _, c := range t.touched {
		t.playedB[2*int(c)], t.playedB[2*int(c)+1] = 0, 0
	}
	t.touched = t.touched[:0]
	ply := int32(0)
	n := int32(0)
	for !sim.Over() {
		if !t.nodes[n].expanded {
			t.expand(n, sim, a.Cells, false)
		}
		var k int32
		if n == 0 && t.forced > 0 {
			k = t.forced - 1
		} else {
			k = t.choose(a, n, sim)
		}
		t.path = append(t.path, sageStep{node: n, cand: k, ply: ply})
		m := t.cands[k].move
		t.note(a, sim, m, ply)
		sim.Play(m)
		ply++
		child := t.cands[k].child
		if child < 0 {
			child = t.newNode(posSeat(sim))
			t.cands[k].child = child
			break
		}
		n = child
	}
	t.simulate(a, sim, ply)
	light := 0.5
	switch sim.Result() {
	case game.LightWins:
		light = 1
	case game.DarkWins:
		light = 0
	}
	lightSeat := int8(0)
	if sim.Swapped() {
		lightSeat = 1
	}
	for _, st := range t.path {
		nd := &t.nodes[st.node]
		r := 1 - light
		if nd.seat == lightSeat {
			r = light
		}
		nd.visits++
		c := &t.cands[st.cand]
		c.n++
		c.w += r
		if a.Rave <= 0 {
			continue
		}
		seat := int(nd.seat)
		rcells := t.rcells[nd.cellStart : nd.cellStart+nd.cellN]
		for i := range rcells {
			rc := &rcells[i]
			if t.playedB[2*int(rc.cell)+seat] > st.ply {
				rc.n++
				rc.w += r
			}
		}
	}
}

// simulate plays sim to the end of the game by the playout policy, its next turn the
// ply-th of the playout, noting the tile turns' cells for RAVE.
func (t *archTree) simulate(a *Arch, sim *pos.Position, ply int32) {
	rave := a.Rave > 0
	for !sim.Over() {
		m := sim.DrawTurn(t.rng, &t.draw)
		if rave && m.Kind == replay.Tiles { // note, inlined
			seat := posSeat(sim)
			t.noteCell(m.A, seat, ply+1)
			t.noteCell(m.B, seat, ply+1)
		}
		sim.PlayDraw(&t.draw)
		ply++
	}
}

// note records the cells of a tile turn for RAVE, as Sage.note does.
func (t *archTree) note(a *Arch, p *pos.Position, m replay.Move, ply int32) {
	if a.Rave > 0 && m.Kind == replay.Tiles {
		seat := posSeat(p)
		t.noteCell(m.A, seat, ply+1)
		t.noteCell(m.B, seat, ply+1)
	}
}

// noteCell records that seat played cell c at ply at-1, unless it had played it before.
func (t *archTree) noteCell(c game.Cell, seat int, at int32) {
	i := 2 * int(c)
	pb := t.playedB[i : i+2 : i+2]
	if pb[0]|pb[1] == 0 {
		t.touched = append(t.touched, c)
	}
	if pb[seat&1] == 0 {
		pb[seat&1] = at
	}
}
