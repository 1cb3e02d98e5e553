package bot

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// sharedTree is one tree that several threads search at once (tree parallelism, the
// arch bot's "-sK" names): the nodes, their turns and their RAVE cells live in arenas of
// fixed chunks, reserved by atomic bumps and never moved while threads run; the
// statistics are updated with atomics; a thread going down a turn counts a virtual loss
// on it, taken back when its playout is backed up, so that the others try other turns
// meanwhile; a node is expanded by the first thread to reach it, as the private tree
// expands it (archTree.expand: its turns placed in order only as far as the search
// reaches them), and a thread that finds another expanding it plays its playout from
// there; a node's next turn is placed by one thread at a time, the others using the
// turns placed. Each thread has its own position, random source and scratch space (an
// archTree), and its own RAVE statistics of the nodes' cells (raveTable): a playout
// updates those of most cells on its way, and sharing them would make the threads pass
// the root's cache lines back and forth on every playout. The search is not reproducible
// for a seed: the threads' timing decides what each sees.
type sharedTree struct {
	*sharedArenas
	spare *sharedArenas // compact's destination
	root  pos.Position
	gen   uint32  // the search's number, for raveTable
	old   []int32 // compact's scratch
}

// sharedArenas hold the shared tree's nodes, their turns, their RAVE cells (the best
// cells first, with their values) and the state of their pairs not yet made (archNode's
// front and pairTab).
type sharedArenas struct {
	nodes  arena[sharedNode]
	cands  arena[sharedCand]
	cells  arena[raveCell]
	fronts arena[uint8]
	tabs   arena[float64]
}

func (a *sharedArenas) reset() {
	a.nodes.reset()
	a.cands.reset()
	a.cells.reset()
	a.fronts.reset()
	a.tabs.reset()
}

// sharedNode is a node of the shared tree, laid out as archNode: its turns are
// cands[candStart:candStart+candN], the first sorted of them placed, the last others
// listed but not placed; its RAVE cells are cells[cellStart:cellStart+cellN]. The fields
// but the atomic ones are written by the thread that expands it before it stores state
// sharedExpanded; after that, others and the pairs' state change only under place.
type sharedNode struct {
	candStart, candN int32
	cellStart, cellN int32
	front, pairTab   int32
	others           int32
	top, pairBase    int16
	sorted           atomic.Int32
	place            atomic.Int32 // 1 while a thread places the node's next turn
	visits           atomic.Int64 // virtual visits included
	state            atomic.Int32 // sharedNew, sharedExpanding or sharedExpanded
	seat             int8
}

const (
	sharedNew int32 = iota
	sharedExpanding
	sharedExpanded
)

// sharedCand is a turn of a node, as archCand: its statistics in whole units, so that
// atomic adds keep them exact (a result is 0, ½ or 1).
type sharedCand struct {
	move   replay.Move
	prior  float64
	order  int32
	ia, ib int16        // the tile turn's cells among the node's RAVE cells, -1 for the others
	child  atomic.Int32 // the node after the turn plus 1, 0 before it is made
	legal  atomic.Int32 // candUnchecked, candLegal or candIllegal
	n      atomic.Int64 // visits, virtual ones included
	w2     atomic.Int64 // wins in half points
}

// set makes c the turn x of the private tree, not yet visited.
func (c *sharedCand) set(x *archCand) {
	*c = sharedCand{move: x.move, prior: x.prior, order: x.order, ia: x.ia, ib: x.ib}
	switch {
	case x.n < 0:
		c.legal.Store(candIllegal)
	case x.unchecked:
		c.legal.Store(candUnchecked)
	default:
		c.legal.Store(candLegal)
	}
}

// listed returns c as a turn of the private tree, its statistics left out.
func (c *sharedCand) listed() archCand {
	x := archCand{move: c.move, prior: c.prior, order: c.order, ia: c.ia, ib: c.ib, child: -1}
	switch c.legal.Load() {
	case candIllegal:
		x.n = -1
	case candUnchecked:
		x.unchecked = true
	}
	return x
}

// A raveTable holds one thread's all-moves-as-first statistics of the shared tree's RAVE
// cells, at the cells' indexes; only its thread reads and writes it during a search.
type raveTable struct {
	chunks []*[arenaChunk]raveStat
}

// raveStat is a cell's all-moves-as-first hits and wins in half points, valid when gen
// is the search's. A tile turn's are the sums of its two cells' (archCand).
type raveStat struct {
	n, w2 int64
	gen   uint32
}

// run returns the n entries from i, which lie in one chunk.
func (r *raveTable) run(i, n int32) []raveStat {
	c := int(i >> arenaBits)
	for len(r.chunks) <= c {
		r.chunks = append(r.chunks, nil)
	}
	if r.chunks[c] == nil {
		r.chunks[c] = new([arenaChunk]raveStat)
	}
	o := i & (arenaChunk - 1)
	return r.chunks[c][o : o+n]
}

const (
	candUnchecked int32 = iota
	candLegal
	candIllegal
)

// An arena hands out runs of consecutive entries, each run within one chunk, to several
// threads at once; reset (with no thread running) starts it again from the first entry,
// keeping its chunks.
type arena[T any] struct {
	chunks [arenaChunks]atomic.Pointer[[arenaChunk]T]
	next   atomic.Int64
	mu     sync.Mutex // held to make a chunk
}

const (
	arenaBits   = 16
	arenaChunk  = 1 << arenaBits
	arenaChunks = 1 << (31 - arenaBits) // int32 indexes
)

// alloc reserves n entries (1 to arenaChunk) in a row and returns the first, or -1 when
// the arena is full.
func (a *arena[T]) alloc(n int) int32 {
	for {
		at := a.next.Load()
		start := at
		if start&(arenaChunk-1)+int64(n) > arenaChunk {
			start = start | (arenaChunk - 1) + 1
		}
		end := start + int64(n)
		if end > math.MaxInt32 {
			return -1
		}
		if a.next.CompareAndSwap(at, end) {
			c := start >> arenaBits
			if a.chunks[c].Load() == nil {
				a.mu.Lock()
				if a.chunks[c].Load() == nil {
					a.chunks[c].Store(new([arenaChunk]T))
				}
				a.mu.Unlock()
			}
			return int32(start)
		}
	}
}

// at returns entry i.
func (a *arena[T]) at(i int32) *T { return &a.chunks[i>>arenaBits].Load()[i&(arenaChunk-1)] }

// run returns the n entries from i, which alloc reserved together.
func (a *arena[T]) run(i, n int32) []T {
	if n == 0 {
		return nil
	}
	o := i & (arenaChunk - 1)
	return a.chunks[i>>arenaBits].Load()[o : o+n]
}

func (a *arena[T]) reset() { a.next.Store(0) }

func newSharedTree() *sharedTree {
	return &sharedTree{sharedArenas: new(sharedArenas), spare: new(sharedArenas)}
}

// sharedTurn searches root on the shared tree, kept from the last turn when it held the
// reply, and returns the most visited turn.
func (a *Arch) sharedTurn(root pos.Position, reply replay.Move, kept bool, rng *rand.Rand, deadline time.Time) replay.Move {
	if a.shared == nil {
		a.shared = newSharedTree()
	}
	s := a.shared
	for _, t := range a.trees {
		t.src.Seed(rng.Uint64(), rng.Uint64())
	}
	s.root = root
	if !kept || !s.keep(a.trees, a.played, reply) {
		s.fresh(a.trees[0], a.Cells)
	}
	r := s.nodes.at(0)
	if r.candN == 1 {
		return s.cands.at(r.candStart).move
	}
	a.sharedSearch(deadline)
	return s.best()
}

// sharedSearch runs the playouts of every thread on the shared tree: the budget split
// among them, or until the deadline. The first thread is the caller's goroutine, so that
// one thread starts no other.
func (a *Arch) sharedSearch(deadline time.Time) {
	var wg sync.WaitGroup
	per := a.Budget / len(a.trees)
	for i, t := range a.trees[1:] {
		n := per
		if i+1 < a.Budget%len(a.trees) {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.shared.run(t, a, max(n, 1), deadline)
		}()
	}
	n := per
	if 0 < a.Budget%len(a.trees) {
		n++
	}
	a.shared.run(a.trees[0], a, max(n, 1), deadline)
	wg.Wait()
}

// run plays budget playouts on thread t, or until the deadline when it is set.
func (s *sharedTree) run(t *archTree, a *Arch, budget int, deadline time.Time) {
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
		s.playout(t, a)
		done++
	}
	a.count.Add(done)
}

// fresh starts a new tree at the root position, expanded by thread t.
func (s *sharedTree) fresh(t *archTree, cells int) {
	s.gen++
	s.reset()
	s.nodes.alloc(1)
	*s.nodes.at(0) = sharedNode{seat: int8(posSeat(&s.root))}
	s.expand(t, 0, &s.root, cells, true)
}

// expand lists node n's turns in p, as archTree.expand does (all of them in order when
// full is set), when no other thread has begun to, and reports whether the node is now
// expanded. Thread t lists them in its own tree, which the shared tree does not use
// otherwise, and copies them.
func (s *sharedTree) expand(t *archTree, n int32, p *pos.Position, cells int, full bool) bool {
	nd := s.nodes.at(n)
	if !nd.state.CompareAndSwap(sharedNew, sharedExpanding) {
		return nd.state.Load() == sharedExpanded
	}
	t.nodes, t.cands, t.rcells, t.front, t.pairTab = t.nodes[:0], t.cands[:0], t.rcells[:0], t.front[:0], t.pairTab[:0]
	t.newNode(int(nd.seat))
	t.expand(0, p, cells, full)
	x := &t.nodes[0]
	if x.candN > arenaChunk || x.cellN > arenaChunk || (x.pairTab >= 0 && len(t.pairTab) > arenaChunk) {
		t.order(0) // the best turns, if ever a node had more than a run holds
		x.candN, x.front, x.pairTab = min(x.candN, arenaChunk), -1, -1
		x.sorted, x.others = x.candN, 0
	}
	start, cellStart, front, tab := s.cands.alloc(int(x.candN)), s.cells.alloc(int(x.cellN)), int32(-1), int32(-1)
	if x.front >= 0 {
		front = s.fronts.alloc(len(t.front))
	}
	if x.pairTab >= 0 {
		tab = s.tabs.alloc(len(t.pairTab))
	}
	if start < 0 || cellStart < 0 || (x.front >= 0 && front < 0) || (x.pairTab >= 0 && tab < 0) {
		nd.state.Store(sharedNew) // an arena is full: the node stays a leaf
		return false
	}
	dst := s.cands.run(start, x.candN)
	for i := range x.candN {
		if i < x.sorted || i >= x.candN-x.others { // the places between are the pairs' not yet made
			dst[i].set(&t.cands[i])
		}
	}
	copy(s.cells.run(cellStart, x.cellN), t.rcells)
	if front >= 0 {
		copy(s.fronts.run(front, int32(len(t.front))), t.front)
	}
	if tab >= 0 {
		copy(s.tabs.run(tab, int32(len(t.pairTab))), t.pairTab)
	}
	nd.candStart, nd.candN, nd.cellStart, nd.cellN = start, x.candN, cellStart, x.cellN
	nd.front, nd.pairTab, nd.others, nd.top, nd.pairBase = front, tab, x.others, x.top, x.pairBase
	nd.sorted.Store(x.sorted)
	nd.state.Store(sharedExpanded)
	return true
}

// placeNext places node nd's next turn, the k-th, as archTree.placeNext does, unless
// another thread is placing one, and returns how many turns are placed.
func (s *sharedTree) placeNext(nd *sharedNode, k int32) int32 {
	if !nd.place.CompareAndSwap(0, 1) {
		return nd.sorted.Load()
	}
	at := nd.sorted.Load()
	if at == k {
		s.place(nd, at)
		at++
		nd.sorted.Store(at)
	}
	nd.place.Store(0)
	return at
}

// place places the turn of node nd at index at (its sorted turns), with place held or
// no thread running.
func (s *sharedTree) place(nd *sharedNode, at int32) {
	cs := s.cands.run(nd.candStart, nd.candN)
	end := nd.candN
	lo := end - nd.others
	best := int32(-1)
	for q := lo; q < end; q++ {
		if c := &cs[q]; best < 0 || ahead(c.prior, c.order, cs[best].prior, cs[best].order) {
			best = q
		}
	}
	if lo > at && (nd.front >= 0 || nd.pairTab >= 0) { // a pair is still to be made
		k := int32(nd.top)
		left := pairsLeft{top: s.cells.run(nd.cellStart, k), pairBase: nd.pairBase}
		if nd.front >= 0 {
			left.front = s.fronts.run(nd.front, k-1)
		} else {
			left.tab = s.tabs.run(nd.pairTab, k*(k-1)/2)
		}
		if c, bx := left.next(); best < 0 || ahead(c.prior, c.order, cs[best].prior, cs[best].order) {
			cs[at].set(&c)
			left.made(c, bx)
			return
		}
	}
	c, l := cs[best].listed(), cs[lo].listed()
	cs[best].set(&l)
	cs[at].set(&c)
	nd.others--
}

// order places all of node nd's turns, with no thread running.
func (s *sharedTree) order(nd *sharedNode) {
	for at := nd.sorted.Load(); at < nd.candN; at++ {
		s.place(nd, at)
		nd.sorted.Store(at + 1)
	}
}

// choose returns the index of the turn to follow from node n, whose position is p, as
// archTree.choose does on the statistics other threads may be changing; -1 when the node
// has no legal turn open.
func (s *sharedTree) choose(t *archTree, a *Arch, nd *sharedNode, p *pos.Position) int32 {
	visits := float64(nd.visits.Load())
	tb := &t.tables
	open := int32(min(float64(nd.candN), term(&tb.open, visits, func(v float64) float64 { return openOf(a.Widen, v) })))
	logN := term(&tb.logN, visits, logOf)
	cs := s.cands.run(nd.candStart, nd.candN)
	rs := t.rave.run(nd.cellStart, nd.cellN)
	sorted := nd.sorted.Load()
	best, bestU := int32(-1), math.Inf(-1)
	for k := int32(0); k < nd.candN && open > 0; k++ {
		if k == sorted {
			if sorted = s.placeNext(nd, k); k == sorted {
				break // another thread is placing it: the turns placed will do
			}
		}
		c := &cs[k]
		l := c.legal.Load()
		if l == candUnchecked {
			l = candIllegal
			if p.IsLegal(c.move) {
				l = candLegal
			}
			c.legal.Store(l)
		}
		if l == candIllegal {
			continue
		}
		open--
		cn := c.n.Load()
		if cn == 0 {
			return nd.candStart + k
		}
		n := float64(cn)
		q := float64(c.w2.Load()) / 2 / n
		if a.Rave > 0 && c.ia >= 0 {
			an2, aw4 := int64(0), int64(0)
			if r := &rs[c.ia]; r.gen == s.gen {
				an2, aw4 = r.n, r.w2
			}
			if r := &rs[c.ib]; r.gen == s.gen {
				an2, aw4 = an2+r.n, aw4+r.w2
			}
			if an2 > 0 {
				beta := term(&tb.beta, n, func(n float64) float64 { return betaOf(a.Rave, n) })
				q = (1-beta)*q + beta*(float64(aw4)/4)/(float64(an2)/2)
			}
		}
		u := q + a.Explore*math.Sqrt(logN/n)
		if u > bestU {
			best, bestU = k, u
		}
	}
	if best < 0 {
		return -1
	}
	return nd.candStart + best
}

// playout runs one descent (a virtual loss on each turn taken), expansion, simulation to
// the end and backup, on thread t.
func (s *sharedTree) playout(t *archTree, a *Arch) {
	sim := &t.sim
	sim.CopyFrom(&s.root)
	t.path = t.path[:0]
	for _, c := range t.touched {
		t.playedB[2*int(c)], t.playedB[2*int(c)+1] = 0, 0
	}
	t.touched = t.touched[:0]
	vl := int64(a.VirtualLoss)
	ply := int32(0)
	n := int32(0)
	for !sim.Over() {
		nd := s.nodes.at(n)
		if nd.state.Load() != sharedExpanded && !s.expand(t, n, sim, a.Cells, false) {
			break // another thread is expanding it: a leaf for this playout
		}
		var k int32
		if n == 0 && t.forced > 0 {
			k = t.forced - 1
		} else if k = s.choose(t, a, nd, sim); k < 0 {
			break
		}
		c := s.cands.at(k)
		if vl > 0 {
			c.n.Add(vl)
			nd.visits.Add(vl)
		}
		t.path = append(t.path, sageStep{node: n, cand: k, ply: ply})
		m := c.move
		t.note(a, sim, m, ply)
		sim.Play(m)
		ply++
		child := c.child.Load()
		if child == 0 {
			if x := s.nodes.alloc(1); x >= 0 {
				*s.nodes.at(x) = sharedNode{seat: int8(posSeat(sim))}
				c.child.CompareAndSwap(0, x+1)
			}
			break
		}
		n = child - 1
	}
	t.simulate(a, sim, ply)
	rave := a.Rave > 0
	light2 := int64(1) // in half points
	switch sim.Result() {
	case game.LightWins:
		light2 = 2
	case game.DarkWins:
		light2 = 0
	}
	lightSeat := int8(0)
	if sim.Swapped() {
		lightSeat = 1
	}
	for _, st := range t.path {
		nd := s.nodes.at(st.node)
		r2 := 2 - light2
		if nd.seat == lightSeat {
			r2 = light2
		}
		c := s.cands.at(st.cand)
		if vl != 1 {
			nd.visits.Add(1 - vl)
			c.n.Add(1 - vl)
		}
		if r2 != 0 {
			c.w2.Add(r2)
		}
		if !rave {
			continue
		}
		seat := int(nd.seat)
		cells := s.cells.run(nd.cellStart, nd.cellN)
		rs := t.rave.run(nd.cellStart, nd.cellN)
		for i := range cells {
			if t.playedB[2*int(cells[i].cell)+seat] > st.ply {
				r := &rs[i]
				if r.gen != s.gen {
					*r = raveStat{gen: s.gen}
				}
				r.n++
				r.w2 += r2
			}
		}
	}
}

// rootStats returns the root turns' visits and wins, in the root's order.
func (s *sharedTree) rootStats() []rootTurn {
	r := s.nodes.at(0)
	cs := s.cands.run(r.candStart, r.sorted.Load())
	out := make([]rootTurn, 0, len(cs))
	for k := range cs {
		c := &cs[k]
		st := rootTurn{move: c.move}
		if c.legal.Load() != candIllegal {
			st.n, st.w = float64(c.n.Load()), float64(c.w2.Load())/2
		}
		out = append(out, st)
	}
	return out
}

// best returns the root turn with the most visits, then the best mean result.
func (s *sharedTree) best() replay.Move {
	stats := s.rootStats()
	best, _, _ := mostVisited(stats)
	return stats[best].move
}

// keep makes the node after the bot's turn played and the reply the new root, keeping its
// subtree, and reports whether the tree held it (expanded). No thread may be searching.
func (s *sharedTree) keep(trees []*archTree, played, reply replay.Move) bool {
	if s.nodes.next.Load() == 0 {
		return false
	}
	x := s.childOf(0, played)
	if x < 0 {
		return false
	}
	y := s.childOf(x, reply)
	if y < 0 || s.nodes.at(y).state.Load() != sharedExpanded {
		return false
	}
	s.compact(trees, y)
	s.order(s.nodes.at(0))
	return true
}

// childOf returns the node after turn m of node n, -1 when there is none.
func (s *sharedTree) childOf(n int32, m replay.Move) int32 {
	nd := s.nodes.at(n)
	if nd.state.Load() != sharedExpanded {
		return -1
	}
	cs := s.cands.run(nd.candStart, nd.sorted.Load()) // the turns placed: the others were never played
	for k := range cs {
		if cs[k].move.Same(m) {
			return cs[k].child.Load() - 1
		}
	}
	return -1
}

// compact copies the subtree of node y into the spare arenas, y first, with the threads'
// RAVE statistics, and swaps them in.
func (s *sharedTree) compact(trees []*archTree, y int32) {
	gen := s.gen + 1
	d := s.spare
	d.reset()
	old := append(s.old[:0], y)
	d.nodes.alloc(1)
	for i := 0; i < len(old); i++ {
		o := s.nodes.at(old[i])
		e := d.nodes.at(int32(i))
		*e = sharedNode{seat: o.seat, front: -1, pairTab: -1}
		e.visits.Store(o.visits.Load())
		if o.state.Load() != sharedExpanded {
			continue
		}
		start, cellStart := d.cands.alloc(int(o.candN)), d.cells.alloc(int(o.cellN))
		sorted := o.sorted.Load()
		src, dst := s.cands.run(o.candStart, o.candN), d.cands.run(start, o.candN)
		for k := range o.candN {
			if k >= sorted && k < o.candN-o.others {
				continue // the place of a pair not yet made
			}
			c := &src[k]
			x := c.listed()
			dst[k].set(&x)
			if k >= sorted {
				continue
			}
			dst[k].n.Store(c.n.Load())
			dst[k].w2.Store(c.w2.Load())
			if ch := c.child.Load(); ch > 0 {
				x := d.nodes.alloc(1)
				old = append(old, ch-1)
				dst[k].child.Store(x + 1)
			}
		}
		copy(d.cells.run(cellStart, o.cellN), s.cells.run(o.cellStart, o.cellN))
		for _, t := range trees {
			from, to := t.rave.run(o.cellStart, o.cellN), t.rave2.run(cellStart, o.cellN)
			for j := range from {
				to[j] = raveStat{}
				if from[j].gen == s.gen {
					to[j] = raveStat{n: from[j].n, w2: from[j].w2, gen: gen}
				}
			}
		}
		if o.front >= 0 {
			k := int32(o.top) - 1
			e.front = d.fronts.alloc(int(k))
			copy(d.fronts.run(e.front, k), s.fronts.run(o.front, k))
		}
		if o.pairTab >= 0 {
			k := int32(o.top) * int32(o.top-1) / 2
			e.pairTab = d.tabs.alloc(int(k))
			copy(d.tabs.run(e.pairTab, k), s.tabs.run(o.pairTab, k))
		}
		e.candStart, e.candN, e.cellStart, e.cellN = start, o.candN, cellStart, o.cellN
		e.others, e.top, e.pairBase = o.others, o.top, o.pairBase
		e.sorted.Store(sorted)
		e.state.Store(sharedExpanded)
	}
	s.old, s.gen = old, gen
	for _, t := range trees {
		t.rave, t.rave2 = t.rave2, t.rave
	}
	s.sharedArenas, s.spare = d, s.sharedArenas
}

// include makes sure the root lists m, checked legal, and returns its index, before a
// search: the root's turns, all placed, are copied to a new run with m at its end when
// they do not hold it, and its cells join the root's RAVE cells.
func (s *sharedTree) include(m replay.Move) int32 {
	r := s.nodes.at(0)
	s.order(r)
	cs := s.cands.run(r.candStart, r.candN)
	for k := range cs {
		if cs[k].move.Same(m) {
			cs[k].legal.Store(candLegal)
			return r.candStart + int32(k)
		}
	}
	x := archCand{move: m, ia: -1, ib: -1, order: r.candN}
	if m.Kind == replay.Tiles {
		cells := append([]raveCell(nil), s.cells.run(r.cellStart, r.cellN)...)
		x.ia, cells = cellOf(cells, m.A)
		x.ib, cells = cellOf(cells, m.B)
		if len(cells) > int(r.cellN) {
			r.cellStart, r.cellN = s.cells.alloc(len(cells)), int32(len(cells))
			copy(s.cells.run(r.cellStart, r.cellN), cells)
		}
	}
	start := s.cands.alloc(int(r.candN) + 1)
	dst := s.cands.run(start, r.candN+1)
	for k := range cs {
		l := cs[k].listed()
		dst[k].set(&l)
	}
	dst[r.candN].set(&x)
	r.candStart, r.candN = start, r.candN+1
	r.sorted.Store(r.candN)
	return start + r.candN - 1
}

// cellOf returns the index of cell in cells, appended when they do not hold it.
func cellOf(cells []raveCell, cell game.Cell) (int16, []raveCell) {
	for i := range cells {
		if cells[i].cell == cell {
			return int16(i), cells
		}
	}
	return int16(len(cells)), append(cells, raveCell{cell: cell})
}

// sharedAnalyse is Analyse on the shared tree.
func (a *Arch) sharedAnalyse(g *replay.Game, root pos.Position, played *replay.Move, rng *rand.Rand) Analysis {
	if a.shared == nil {
		a.shared = newSharedTree()
	}
	s := a.shared
	for _, t := range a.trees {
		t.src.Seed(rng.Uint64(), rng.Uint64())
	}
	s.root = root
	s.fresh(a.trees[0], a.Cells)
	pk := int32(-1)
	if played != nil {
		pk = s.include(*played)
	}
	var deadline time.Time
	if a.TimePerTurn > 0 {
		deadline = time.Now().Add(a.TimePerTurn)
	}
	before := a.count.Load()
	a.sharedSearch(deadline)
	done := int(a.count.Load() - before)
	out := analysisOf(s.rootStats(), done, g.ToMove())
	if played == nil {
		return out
	}
	// The playouts through the turn played, on every thread, until it has a quarter of the
	// budget's visits (or of what the time allowed).
	want := int64(max(1, a.Budget/4))
	if a.TimePerTurn > 0 {
		want = int64(max(1, done/4))
	}
	c := s.cands.at(pk)
	var wg sync.WaitGroup
	for _, t := range a.trees {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.forced = pk + 1
			k := int64(0)
			for c.n.Load() < want {
				s.playout(t, a)
				k++
			}
			t.forced = 0
			a.count.Add(k)
		}()
	}
	wg.Wait()
	out.PlayedQ, out.PlayedN = float64(c.w2.Load())/2/float64(c.n.Load()), int(c.n.Load())
	out.Playouts = int(a.count.Load() - before)
	if out.BestN > 0 && out.Best.Same(*played) {
		out.BestQ, out.BestN = out.PlayedQ, out.PlayedN
	}
	return out
}
