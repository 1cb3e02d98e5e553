package bot

import (
	"math/rand/v2"
	"slices"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// scoredCell is a cell with a quick estimate of what one tile there is worth.
type scoredCell struct {
	cell  game.Cell
	value float64
}

var orthogonal = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// cellValue is a quick, local estimate of a tile of colour c on cell: growing a sandbank
// towards an island, completing one, blocking the opponent's sandbanks, and room around it.
func cellValue(g *replay.Game, c replay.Colour, cell game.Cell) float64 {
	size, free := 1, 0
	var seen [4]int
	nseen := 0
	value := 0.0
	for _, d := range orthogonal {
		q := game.CellAt(cell.Col()+d[0], cell.Row()+d[1])
		if !q.On(g.Size()) {
			continue
		}
		col, ok := g.At(q)
		switch {
		case !ok && !g.Blocked(q):
			free++
		case ok && col == c:
			id := g.GroupID(q)
			dup := false
			for _, s := range seen[:nseen] {
				dup = dup || s == id
			}
			if !dup && nseen < 4 {
				seen[nseen] = id
				nseen++
				size += g.GroupSize(q)
			}
		case ok:
			switch g.GroupSize(q) {
			case 3:
				value += 2 // stand in the way of an island
			case 2:
				value += 0.5
			}
		}
	}
	switch size {
	case 4:
		value += 6
	case 3:
		value += 2.5
	case 2:
		value += 1.2
	case 1:
		value += 0.3 * float64(free) / 4
	}
	return value
}

// topCells returns up to n of the legal tile cells of c with the best cellValue, with a
// little noise so that equal cells are chosen fairly, best first.
func topCells(g *replay.Game, c replay.Colour, n int, noise float64, rng *rand.Rand, buf []scoredCell) []scoredCell {
	buf = buf[:0]
	for _, cell := range g.LegalTileCells(c) {
		v := cellValue(g, c, cell)
		if noise > 0 {
			v += noise * rng.Float64()
		}
		buf = append(buf, scoredCell{cell, v})
	}
	slices.SortFunc(buf, func(a, b scoredCell) int {
		switch {
		case a.value > b.value:
			return -1
		case a.value < b.value:
			return 1
		}
		return int(a.cell) - int(b.cell)
	})
	if len(buf) > n {
		buf = buf[:n]
	}
	return buf
}

// bridgeValue is a quick estimate of a bridge for its colour: the score it adds by joining
// components, or the islands it brings together later.
func bridgeValue(g *replay.Game, m replay.Move) float64 {
	a, ka := g.ComponentOf(m.A)
	b, kb := g.ComponentOf(m.B)
	if a == b {
		return -1 // joins what is already joined
	}
	switch {
	case ka > 0 && kb > 0:
		return 10 * float64(ka*kb)
	case ka > 0 || kb > 0:
		return 1.5
	}
	return 0.4
}

// quickTurns appends cheap candidate turns for the colour to move: tile pairs among the
// best cells, the best bridges, the swap at turn 2, and the pass when no pair is legal.
func quickTurns(g *replay.Game, rng *rand.Rand, cells int, dst []replay.Move, buf []scoredCell) []replay.Move {
	c := g.ToMove()
	if g.Turn() == 1 {
		dst = append(dst, replay.SwapMove)
	}
	top := topCells(g, c, cells, 0.2, rng, buf)
	pairs := 0
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			if m := replay.TilesMove(top[i].cell, top[j].cell); g.IsLegal(m) {
				dst = append(dst, m)
				pairs++
			}
		}
	}
	for _, m := range g.LegalBridges(c) {
		if bridgeValue(g, m) > 0 {
			dst = append(dst, m)
		}
	}
	if pairs == 0 {
		if g.IsLegal(replay.PassMove) {
			dst = append(dst, replay.PassMove)
		} else {
			// The best cells do not pair up, but other cells do: take every legal turn.
			dst = LegalTurns(g, dst)
		}
	}
	if len(dst) == 0 {
		dst = LegalTurns(g, dst)
	}
	return dst
}
