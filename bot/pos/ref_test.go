package pos

import (
	"math/rand/v2"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// The references: the sage bot's cellValue, bridgeValue and playout policy, and
// bot.LegalTurns, copied from package bot (bot/candidates.go, bot/sage.go, bot/random.go)
// onto replay.Game, so that the position and its policy are checked against them without
// importing bot.

var refOrthogonal = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

func refCellValue(g *replay.Game, c replay.Colour, cell game.Cell) float64 {
	size, free := 1, 0
	var seen [4]int
	nseen := 0
	value := 0.0
	for _, d := range refOrthogonal {
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
				value += 2
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

func refBridgeValue(g *replay.Game, m replay.Move) float64 {
	a, ka := g.ComponentOf(m.A)
	b, kb := g.ComponentOf(m.B)
	if a == b {
		return -1
	}
	switch {
	case ka > 0 && kb > 0:
		return 10 * float64(ka*kb)
	case ka > 0 || kb > 0:
		return 1.5
	}
	return 0.4
}

func refLegalTurns(g *replay.Game, dst []replay.Move) []replay.Move {
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
	if pairs == 0 {
		dst = append(dst, replay.PassMove)
	}
	return dst
}

type refScored struct {
	cell  game.Cell
	value float64
}

func refBestBridge(g *replay.Game, c replay.Colour) (replay.Move, float64) {
	best, bestV := replay.Move{}, 0.0
	for _, m := range g.LegalBridges(c) {
		if v := refBridgeValue(g, m); v > bestV {
			best, bestV = m, v
		}
	}
	return best, bestV
}

// refPolicy is sage's policy (bot/sage.go), line for line.
func refPolicy(g *replay.Game, rng *rand.Rand) replay.Move {
	c := g.ToMove()
	tryBridges := rng.IntN(4) == 0
	if tryBridges || g.Islands()[c] >= 2 {
		best, bestV := refBestBridge(g, c)
		if bestV >= 10 || (tryBridges && bestV >= 1.5) {
			return best
		}
	}
	cells := g.LegalTileCells(c)
	var top [5]refScored
	n := 0
	for _, cell := range cells {
		v := refCellValue(g, c, cell) + rng.Float64()
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
		top[k] = refScored{cell, v}
	}
	for try := 0; try < 6 && n >= 2; try++ {
		i, j := 0, 1+rng.IntN(n-1)
		if top[0].value < 6 {
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
	if m, v := refBestBridge(g, c); v > 0 {
		return m
	}
	if g.IsLegal(replay.PassMove) {
		return replay.PassMove
	}
	moves := refLegalTurns(g, nil)
	return moves[rng.IntN(len(moves))]
}
