package bot

import (
	"math/rand/v2"

	"github.com/ponte/ponte/replay"
)

// Analysis is what a search makes of a position.
type Analysis struct {
	// Light is the search's value of the position for Light: the mean result of its
	// playouts, 1 a win, ½ a draw. A finished game's value is its result.
	Light float64
	// Best is the most visited turn at the root; the zero Move when the game is over.
	Best replay.Move
	// Playouts is how many playouts the search ran.
	Playouts int
}

// Analyse searches g with the bot's budget, as Turn does (the opening turn too, which Turn
// leaves to the greedy bot), and returns the root's value and its best turn. It does not
// change g.
func (s *Sage) Analyse(g *replay.Game, rng *rand.Rand) Analysis {
	if g.Over() {
		return Analysis{Light: lightValue(g)}
	}
	s.nodes, s.cands = s.nodes[:0], s.cands[:0]
	if len(s.playedB) == 0 {
		s.playedB = make([]int32, 2*1024)
	}
	s.newNode(seatToMove(g))
	s.expand(0, g, rng)
	budget := s.Budget
	if budget < 1 {
		budget = 1
	}
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
	if g.ToMove() != replay.Light {
		v = 1 - v
	}
	return Analysis{Light: v, Best: s.cands[best].move, Playouts: budget}
}
