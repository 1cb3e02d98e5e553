package bot

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/replay"
)

// Analyse searches g with the bot's budget on all its threads, as Turn does but with a
// tree of its own (nothing is kept from an earlier turn or for a later one), and returns
// the root's value and its best turn, the threads' root statistics summed. When played is
// not nil (a legal turn in g), the search also weighs it as Sage.Analyse does: playouts are
// run through it until it has at least a quarter of the budget's visits. It does not
// change g.
func (a *Arch) Analyse(g *replay.Game, played *replay.Move, rng *rand.Rand) Analysis {
	if g.Over() {
		return Analysis{Light: lightValue(g)}
	}
	root, err := pos.FromGame(g)
	if err != nil {
		panic("arch: " + err.Error())
	}
	a.grow()
	a.afterOK = false
	if a.Shared {
		return a.sharedAnalyse(g, root, played, rng)
	}
	pks := make([]int32, len(a.trees))
	for i, t := range a.trees {
		t.src.Seed(rng.Uint64(), rng.Uint64())
		t.root = root
		t.fresh(a.Cells)
		pks[i] = -1
		if played != nil {
			pks[i] = t.include(*played)
		}
	}
	budget := max(a.Budget, 1)
	var deadline time.Time
	if a.TimePerTurn > 0 {
		deadline = time.Now().Add(a.TimePerTurn)
	}
	before := a.count.Load()
	a.search(deadline)
	done := int(a.count.Load() - before)
	out := analysisOf(a.rootStats(), done, g.ToMove())
	if played == nil {
		return out
	}
	// The playouts through the turn played, on every thread, until it has a quarter of the
	// budget's visits in all (or of what the time allowed).
	want := float64(max(1, budget/4))
	if a.TimePerTurn > 0 {
		want = float64(max(1, done/4))
	}
	per := want / float64(len(a.trees))
	var wg sync.WaitGroup
	for i, t := range a.trees {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.forced = pks[i] + 1
			k := int64(0)
			for t.cands[pks[i]].n < per {
				t.playout(a)
				k++
			}
			t.forced = 0
			a.count.Add(k)
		}()
	}
	wg.Wait()
	var pw, pn float64
	for i, t := range a.trees {
		pw += t.cands[pks[i]].w
		pn += t.cands[pks[i]].n
	}
	out.PlayedQ, out.PlayedN = pw/pn, int(pn)
	out.Playouts = int(a.count.Load() - before)
	if out.BestN > 0 && out.Best.Same(*played) {
		out.BestQ, out.BestN = out.PlayedQ, out.PlayedN
	}
	return out
}

// include makes sure the root lists m, checked legal, and returns its index.
func (t *archTree) include(m replay.Move) int32 {
	if k := t.rootCand(m); k >= 0 {
		t.cands[k].unchecked = false
		if t.cands[k].n < 0 {
			t.cands[k].n = 0
		}
		return k
	}
	// The root's turns are the last ones listed: m joins them, its cells the root's RAVE
	// cells (moved to the end of rcells when they are not there).
	root := &t.nodes[0]
	if int(root.cellStart+root.cellN) != len(t.rcells) {
		start := int32(len(t.rcells))
		t.rcells = append(t.rcells, t.rcells[root.cellStart:root.cellStart+root.cellN]...)
		root.cellStart = start
	}
	t.cands = append(t.cands, t.tilesCand(m, 0, int(root.candN), int(root.cellStart)))
	root.cellN = int32(len(t.rcells)) - root.cellStart
	k := root.candStart + root.candN
	root.candN++
	root.sorted++ // after the others, as listed
	return k
}

// rootTurn is a root turn's statistics summed over the threads.
type rootTurn struct {
	move replay.Move
	n, w float64
}

// rootStats sums the root turns' visits and wins over the threads, in the first tree's
// order.
func (a *Arch) rootStats() []rootTurn {
	t0 := a.trees[0]
	r0 := t0.nodes[0]
	out := make([]rootTurn, 0, r0.candN)
	for k := r0.candStart; k < r0.candStart+r0.candN; k++ {
		c := t0.cands[k]
		s := rootTurn{move: c.move, n: max(c.n, 0), w: c.w}
		for _, t := range a.trees[1:] {
			if j := t.rootCand(c.move); j >= 0 && t.cands[j].n > 0 {
				s.n += t.cands[j].n
				s.w += t.cands[j].w
			}
		}
		out = append(out, s)
	}
	return out
}

// analysisOf is the analysis of a root's turns (rootStats) after done playouts, with toMove
// to play: the mean result over the visited turns, for Light, and the most visited turn.
func analysisOf(stats []rootTurn, done int, toMove replay.Colour) Analysis {
	var w, n float64
	for _, s := range stats {
		if s.n > 0 {
			w, n = w+s.w, n+s.n
		}
	}
	v := 0.5
	if n > 0 {
		v = w / n
	}
	out := Analysis{Light: v, BestQ: -1, Playouts: done}
	if best, bestN, bestQ := mostVisited(stats); bestN > 0 {
		out.Best, out.BestN, out.BestQ = stats[best].move, int(bestN), bestQ
	}
	if toMove != replay.Light {
		out.Light = 1 - v
	}
	return out
}

// mostVisited returns the index of the root turn with the most visits, then the best mean
// result (the first on a tie), with its visits and mean: the first turn, with no visit,
// when none was visited.
func mostVisited(stats []rootTurn) (best int, n, q float64) {
	best, n, q = -1, -1, -1
	for i, s := range stats {
		sq := 0.0
		if s.n > 0 {
			sq = s.w / s.n
		}
		if s.n > n || (s.n == n && sq > q) {
			best, n, q = i, s.n, sq
		}
	}
	return best, n, q
}
