package bot

import (
	"math/rand/v2"

	"github.com/ponte/ponte/replay"
)

// Random plays a uniformly random legal turn: every legal tile pair, bridge, swap and pass
// has the same chance.
type Random struct{}

// Name returns "random".
func (Random) Name() string { return "random" }

// Turn draws one of the legal turns of g with equal probability.
func (Random) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	moves := LegalTurns(g, nil)
	return moves[rng.IntN(len(moves))]
}

// LegalTurns appends every legal turn of g to dst: the tile pairs, the bridges, the swap
// at turn 2, and the pass when it is legal. A game that is not over has at least one.
func LegalTurns(g *replay.Game, dst []replay.Move) []replay.Move {
	c := g.ToMove()
	if g.Turn() == 1 {
		dst = append(dst, replay.SwapMove)
	}
	cells := g.LegalTileCells(c)
	pairs := 0
	for i := range cells {
		for j := i + 1; j < len(cells); j++ {
			if m := replay.TilesMove(cells[i], cells[j]); g.IsLegal(m) {
				dst = append(dst, m)
				pairs++
			}
		}
	}
	dst = append(dst, g.LegalBridges(c)...)
	if pairs == 0 { // R5.1: a pass is legal exactly when no two tiles can be placed
		dst = append(dst, replay.PassMove)
	}
	return dst
}
