package bot

import (
	"math"
	"math/rand/v2"

	"github.com/ponte/ponte/replay"
)

// Greedy looks one turn ahead: it tries the promising turns (tile pairs among its best
// cells, every bridge that joins something, the swap, the pass), evaluates the position
// after each with Evaluate, and plays the best, choosing at random among turns within
// Noise of the best.
type Greedy struct {
	// Cells is how many of the best cells are paired up into candidate tile turns.
	Cells int
	// Noise is the evaluation margin within which turns count as equal.
	Noise float64

	scratch replay.Game
	buf     []scoredCell
	moves   []replay.Move
}

// NewGreedy returns the greedy bot with its default settings.
func NewGreedy() *Greedy { return &Greedy{Cells: 10, Noise: 0.3} }

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

// Turn returns the greedy choice for the colour to move.
func (b *Greedy) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	switch g.Turn() {
	case 0:
		return b.opening(g, rng)
	case 1:
		if b.swapValue(g)+b.Noise*(rng.Float64()-0.5) > b.bestValue(g, rng) {
			return replay.SwapMove
		}
	}
	m, _ := b.best(g, rng, false)
	return m
}

// best returns the best turn other than the swap and its value for the mover.
func (b *Greedy) best(g *replay.Game, rng *rand.Rand, noSwapOnly bool) (replay.Move, float64) {
	c := g.ToMove()
	b.moves = quickTurns(g, rng, b.Cells, b.moves[:0], b.buf)
	bestV := math.Inf(-1)
	var choice replay.Move
	seen := 0
	for _, m := range b.moves {
		if m.Kind == replay.Swap {
			continue
		}
		b.scratch.CopyFrom(g)
		if !b.scratch.IsLegal(m) {
			continue
		}
		_ = b.scratch.Play(m)
		v := Evaluate(&b.scratch, c)
		switch {
		case v > bestV+b.Noise:
			bestV, choice, seen = v, m, 1
		case v >= bestV-b.Noise:
			// near-equal: reservoir sampling keeps each with equal chance
			seen++
			if rng.IntN(seen) == 0 {
				choice = m
			}
			bestV = math.Max(bestV, v)
		}
	}
	return choice, bestV
}

// bestValue is the value of the best normal reply at turn 2, for the swap decision.
func (b *Greedy) bestValue(g *replay.Game, rng *rand.Rand) float64 {
	_, v := b.best(g, rng, true)
	return v
}

// swapValue is what the current position is worth to the responder after a swap: the
// responder becomes Light and the opponent is to move, as after a normal reply.
func (b *Greedy) swapValue(g *replay.Game) float64 {
	return Evaluate(g, replay.Light)
}

// opening chooses the first turn. Knowing that the responder may swap, the opener looks
// for an opening the responder is nearly indifferent to: among a few candidate openings it
// plays the one whose swap value is closest to the value of the best normal reply.
func (b *Greedy) opening(g *replay.Game, rng *rand.Rand) replay.Move {
	cells := g.LegalTileCells(replay.Light)
	var choice replay.Move
	bestGap := math.Inf(1)
	var after replay.Game
	for range 12 {
		x, y := cells[rng.IntN(len(cells))], cells[rng.IntN(len(cells))]
		m := replay.TilesMove(x, y)
		if x == y || !g.IsLegal(m) {
			continue
		}
		after.CopyFrom(g)
		_ = after.Play(m)
		gap := math.Abs(b.swapValue(&after)-b.bestValue(&after, rng)) + 0.2*rng.Float64()
		if gap < bestGap {
			bestGap, choice = gap, m
		}
	}
	if bestGap == math.Inf(1) {
		moves := LegalTurns(g, nil)
		return moves[rng.IntN(len(moves))]
	}
	return choice
}
