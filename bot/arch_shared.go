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
// arch bot's "-sK" names): the nodes and their turns live in arenas of fixed chunks,
// reserved by atomic bumps and never moved while threads run; the statistics are
// updated with atomics; a thread going down a turn counts a virtual loss on it, taken
// back when its playout is backed up, so that the others try other turns meanwhile; a
// node is expanded by the first thread to reach it, and a thread that finds another
// expanding it plays its playout from there. Each thread has its own position, random
// source and scratch space (an archTree), and its own RAVE statistics (raveTable): a
// playout updates those of most turns on its way, and sharing them would make the
// threads pass the root's cache lines back and forth on every playout. The search is not
// reproducible for a seed: the threads' timing decides what each sees.
type sharedTree struct {
	nodes, nodes2 *arena[sharedNode]
	cands, cands2 *arena[sharedCand]
	root          pos.Position
	gen           uint32  // the search's number, for raveTable
	old           []int32 // compact's scratch
}

// sharedNode is a node of the shared tree. Its turns are cands[candStart:candStart+candN],
// written once by the thread that expands it before it stores state sharedExpanded.
type sharedNode struct {
	candStart, candN int32
	visits           atomic.Int64 // virtual visits included
	state            atomic.Int32 // sharedNew, sharedExpanding or sharedExpanded
	seat             int8
}

const (
	sharedNew int32 = iota
	sharedExpanding
	sharedExpanded
)

// sharedCand is a turn of a node: its statistics in whole units, so that atomic adds keep
// them exact (a result is 0, ½ or 1).
type sharedCand struct {
	move  replay.Move
	prior float64
	child atomic.Int32 // the node after the turn plus 1, 0 before it is made
	legal atomic.Int32 // candUnchecked, candLegal or candIllegal
	n     atomic.Int64 // visits, virtual ones included
	w2    atomic.Int64 // wins in half points
}

// A raveTable holds one thread's all-moves-as-first statistics of the shared tree's
// turns, at the turns' indexes; only its thread reads and writes it during a search.
type raveTable struct {
	chunks []*[arenaChunk]raveStat
}

// raveStat is a turn's all-moves-as-first visits in halves and wins in quarters (a hit
// is ½ or 1, a result 0, ½ or 1), valid when gen is the search's.
type raveStat struct {
	an2, aw4 int64
	gen      uint32
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
	o := i & (arenaChunk - 1)
	return a.chunks[i>>arenaBits].Load()[o : o+n]
}

func (a *arena[T]) reset() { a.next.Store(0) }

func newSharedTree() *sharedTree {
	return &sharedTree{nodes: new(arena[sharedNode]), nodes2: new(arena[sharedNode]),
		cands: new(arena[sharedCand]), cands2: new(arena[sharedCand])}
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
	s.nodes.reset()
	s.cands.reset()
	s.nodes.alloc(1)
	*s.nodes.at(0) = sharedNode{seat: int8(posSeat(&s.root))}
	s.expand(t, 0, &s.root, cells)
}

// expand lists node n's turns in p when no other thread has begun to, and reports whether
// the node is now expanded.
func (s *sharedTree) expand(t *archTree, n int32, p *pos.Position, cells int) bool {
	nd := s.nodes.at(n)
	if !nd.state.CompareAndSwap(sharedNew, sharedExpanding) {
		return nd.state.Load() == sharedExpanded
	}
	t.rcells = t.rcells[:0] // the shared tree keeps its RAVE statistics by turn
	list := t.listTurns(t.cands[:0], p, cells)
	t.cands = list
	list = list[:min(len(list), arenaChunk)] // the best turns, if ever a node had more
	start := s.cands.alloc(len(list))
	if start < 0 { // the arena is full: the node stays a leaf
		nd.state.Store(sharedNew)
		return false
	}
	dst := s.cands.run(start, int32(len(list)))
	for i := range list {
		c := &list[i]
		d := &dst[i]
		*d = sharedCand{move: c.move, prior: c.prior}
		switch {
		case c.n < 0:
			d.legal.Store(candIllegal)
		case !c.unchecked:
			d.legal.Store(candLegal)
		}
	}
	nd.candStart, nd.candN = start, int32(len(list))
	nd.state.Store(sharedExpanded)
	return true
}

// choose returns the index of the turn to follow from node n, whose position is p, as
// archTree.choose does on the statistics other threads may be changing; -1 when the node
// has no legal turn open.
func (s *sharedTree) choose(t *archTree, a *Arch, nd *sharedNode, p *pos.Position) int32 {
	visits := float64(nd.visits.Load())
	cs := s.cands.run(nd.candStart, nd.candN)
	rs := t.rave.run(nd.candStart, nd.candN)
	open := int32(min(float64(nd.candN), 1+a.Widen*math.Sqrt(visits)))
	logN := math.Log(visits + 1)
	best, bestU := int32(-1), math.Inf(-1)
	for k := range cs {
		if open == 0 {
			break
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
			return nd.candStart + int32(k)
		}
		n := float64(cn)
		q := float64(c.w2.Load()) / 2 / n
		if r := &rs[k]; a.Rave > 0 && r.gen == s.gen && r.an2 > 0 {
			beta := math.Sqrt(a.Rave / (3*n + a.Rave))
			q = (1-beta)*q + beta*(float64(r.aw4)/4)/(float64(r.an2)/2)
		}
		u := q + a.Explore*math.Sqrt(logN/n)
		if u > bestU {
			best, bestU = int32(k), u
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
		if nd.state.Load() != sharedExpanded && !s.expand(t, n, sim, a.Cells) {
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
	for !sim.Over() {
		m := sim.PlayoutTurn(t.rng)
		t.note(a, sim, m, ply)
		sim.Play(m)
		ply++
	}
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
		if a.Rave <= 0 {
			continue
		}
		seat := int(nd.seat)
		cs := s.cands.run(nd.candStart, nd.candN)
		rs := t.rave.run(nd.candStart, nd.candN)
		for k := range cs {
			c := &cs[k]
			if c.move.Kind != replay.Tiles {
				continue
			}
			hits := int64(0)
			if p := t.playedB[2*int(c.move.A)+seat]; p > st.ply {
				hits++
			}
			if p := t.playedB[2*int(c.move.B)+seat]; p > st.ply {
				hits++
			}
			if hits > 0 {
				r := &rs[k]
				if r.gen != s.gen {
					*r = raveStat{gen: s.gen}
				}
				r.an2 += hits
				r.aw4 += r2 * hits
			}
		}
	}
}

// rootStats returns the root turns' visits and wins, in the root's order.
func (s *sharedTree) rootStats() []rootTurn {
	r := s.nodes.at(0)
	cs := s.cands.run(r.candStart, r.candN)
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
	return true
}

// childOf returns the node after turn m of node n, -1 when there is none.
func (s *sharedTree) childOf(n int32, m replay.Move) int32 {
	nd := s.nodes.at(n)
	if nd.state.Load() != sharedExpanded {
		return -1
	}
	cs := s.cands.run(nd.candStart, nd.candN)
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
	dn, dc := s.nodes2, s.cands2
	dn.reset()
	dc.reset()
	old := append(s.old[:0], y)
	dn.alloc(1)
	for i := 0; i < len(old); i++ {
		o := s.nodes.at(old[i])
		d := dn.at(int32(i))
		*d = sharedNode{seat: o.seat}
		d.visits.Store(o.visits.Load())
		if o.state.Load() != sharedExpanded {
			continue
		}
		start := dc.alloc(int(o.candN))
		src, dst := s.cands.run(o.candStart, o.candN), dc.run(start, o.candN)
		for k := range src {
			c, e := &src[k], &dst[k]
			*e = sharedCand{move: c.move, prior: c.prior}
			e.legal.Store(c.legal.Load())
			e.n.Store(c.n.Load())
			e.w2.Store(c.w2.Load())
			for _, t := range trees {
				if r := &t.rave.run(o.candStart+int32(k), 1)[0]; r.gen == s.gen {
					t.rave2.run(start+int32(k), 1)[0] = raveStat{an2: r.an2, aw4: r.aw4, gen: gen}
				}
			}
			if ch := c.child.Load(); ch > 0 {
				x := dn.alloc(1)
				old = append(old, ch-1)
				e.child.Store(x + 1)
			}
		}
		d.candStart, d.candN = start, o.candN
		d.state.Store(sharedExpanded)
	}
	s.old, s.gen = old, gen
	for _, t := range trees {
		t.rave, t.rave2 = t.rave2, t.rave
	}
	s.nodes, s.nodes2 = dn, s.nodes
	s.cands, s.cands2 = dc, s.cands
}

// include makes sure the root lists m, checked legal, and returns its index: the root's
// turns are copied to a new run with m at its end when they do not hold it.
func (s *sharedTree) include(m replay.Move) int32 {
	r := s.nodes.at(0)
	cs := s.cands.run(r.candStart, r.candN)
	for k := range cs {
		if cs[k].move.Same(m) {
			cs[k].legal.Store(candLegal)
			return r.candStart + int32(k)
		}
	}
	start := s.cands.alloc(int(r.candN) + 1)
	dst := s.cands.run(start, r.candN+1)
	for k := range cs {
		c, e := &cs[k], &dst[k]
		*e = sharedCand{move: c.move, prior: c.prior}
		e.legal.Store(c.legal.Load())
	}
	dst[r.candN] = sharedCand{move: m}
	dst[r.candN].legal.Store(candLegal)
	r.candStart, r.candN = start, r.candN+1
	return start + r.candN - 1
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
