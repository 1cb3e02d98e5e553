package bot

import (
	"math/rand/v2"

	"github.com/ponte/ponte/replay"
)

// Analysis is what a search makes of a position and of the turn played there.
type Analysis struct {
	// Light is the search's value of the position for Light: the mean result of its
	// playouts, 1 a win, ½ a draw. A finished game's value is its result.
	Light float64
	// Best is the most visited turn at the root; the zero Move when the game is over.
	Best replay.Move
	// BestQ and PlayedQ are the mean results, for the side to move, of the playouts
	// through the best turn and through the turn played: their difference is what the turn
	// played gives away, measured in one tree on the same footing.
	BestQ, PlayedQ float64
	// BestN and PlayedN are the playouts through the best turn and through the turn played
	// (the same when they are one turn): how far their values can be trusted.
	BestN, PlayedN int
	// Playouts is how many playouts the search ran.
	Playouts int
}

// Analyse searches g with the bot's budget, as Turn does (the opening turn too, which Turn
// leaves to the greedy bot), and returns the root's value and its best turn. When played
// is not nil (a legal turn in g), the search also weighs it: it is among the root's turns,
// and playouts are run through it until it has at least a quarter of the budget's visits
// (these do not count in Light). It does not change g.
func (s *Sage) Analyse(g *replay.Game, played *replay.Move, rng *rand.Rand) Analysis {
	if g.Over() {
		v := lightValue(g)
		return Analysis{Light: v}
	}
	s.nodes, s.cands = s.nodes[:0], s.cands[:0]
	if len(s.playedB) == 0 {
		s.playedB = make([]int32, 2*1024)
	}
	s.newNode(seatToMove(g))
	s.expand(0, g, rng)
	pk := int32(-1)
	if played != nil {
		root := &s.nodes[0]
		for k := root.candStart; k < root.candStart+root.candN; k++ {
			if s.cands[k].move == *played {
				pk = k
				s.cands[k].unchecked = false
				if s.cands[k].n < 0 {
					s.cands[k].n = 0
				}
			}
		}
		if pk < 0 { // the root's turns are the last ones listed: the turn played joins them
			s.cands = append(s.cands, sageCand{move: *played, child: -1})
			pk = root.candStart + root.candN
			root.candN++
		}
	}
	budget := max(s.Budget, 1)
	for range budget {
		s.playout(g, rng)
		s.count++
	}
	root := s.nodes[0]
	best, bestN, bestQ := root.candStart, -1.0, -1.0
	var w, n float64
	for k := root.candStart; k < root.candStart+root.candN; k++ {
		c := &s.cands[k]
		if c.n <= 0 {
			continue
		}
		w, n = w+c.w, n+c.n
		q := c.w / c.n
		if c.n > bestN || (c.n == bestN && q > bestQ) {
			best, bestN, bestQ = k, c.n, q
		}
	}
	v := 0.5
	if n > 0 {
		v = w / n // for the seat to move
	}
	a := Analysis{Light: v, Best: s.cands[best].move, BestQ: bestQ, BestN: int(max(bestN, 0)), Playouts: budget}
	if g.ToMove() != replay.Light {
		a.Light = 1 - v
	}
	if pk >= 0 {
		s.forced = pk + 1
		for s.cands[pk].n < float64(max(1, budget/4)) {
			s.playout(g, rng)
			s.count++
			a.Playouts++
		}
		s.forced = 0
		a.PlayedQ = s.cands[pk].w / s.cands[pk].n
		a.PlayedN = int(s.cands[pk].n)
		// The best turn's value after the playouts through the turn played (which may be
		// it) is unchanged unless they are the same turn.
		if pk == best {
			a.BestQ, a.BestN = a.PlayedQ, a.PlayedN
		}
	}
	return a
}
