package bot

import (
	"math"
	"strings"

	"github.com/ponte/ponte/bot/learn"
	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/replay"
)

// NewLore returns the lore bot: arch's search with its turns ordered by the priors learned
// from arch's own games (package learn) instead of the hand-made ones, and the same
// budgets: Playouts, TimePerTurn, Threads. docs/bot-design.md, "Learned priors", has the
// matches that judge it.
func NewLore(o Options) *Arch {
	a := NewArch(o)
	a.Priors = learn.Trained()
	a.SetName("lore" + strings.TrimPrefix(a.Name(), "arch")) // arch's name and suffixes
	return a
}

// loreScratch is a tree's model and the position read for its features.
type loreScratch struct {
	model *learn.Model
	board learn.Board
}

// newLoreScratch returns a tree's scratch for the model m, nil without one.
func newLoreScratch(m *learn.Model) *loreScratch {
	if m == nil {
		return nil
	}
	return &loreScratch{model: m}
}

// listLore is listTurns with the learned priors: the cells with the best learned prior
// (plus a little noise) paired up, a pair valued by its cells and their relation, the
// useful bridges by theirs.
func (t *archTree) listLore(cands []sageCand, p *pos.Position, cells int) []sageCand {
	start := len(cands)
	c := p.ToMove()
	m := t.lore.model
	if p.Turn() == 1 {
		cands = append(cands, sageCand{move: replay.SwapMove, prior: math.Inf(1), child: -1})
	}
	t.lore.board.Read(p, c)
	t.cells = p.LegalTileCells(c, t.cells[:0])
	top := t.buf[:0]
	for _, cell := range t.cells {
		sc := scoredCell{cell, m.Cell(&t.lore.board, cell, p.CellValue(c, cell)) + 0.05*t.rng.Float64()}
		if len(top) == cells && !better(sc, top[cells-1]) {
			continue
		}
		if len(top) < cells {
			top = append(top, sc)
		}
		k := len(top) - 1
		for ; k > 0 && better(sc, top[k-1]); k-- {
			top[k] = top[k-1]
		}
		top[k] = sc
	}
	t.buf = top
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			a, b := top[i].cell, top[j].cell
			cands = append(cands, sageCand{move: replay.TilesMove(a, b), prior: top[i].value + top[j].value + m.Pair(a, b), child: -1, unchecked: true})
		}
	}
	byPrior := cands[start:]
	t.sortByPrior(byPrior)
	pairs := 0
	for k := range byPrior {
		if byPrior[k].move.Kind != replay.Tiles || !byPrior[k].unchecked {
			continue
		}
		byPrior[k].unchecked = false
		if p.IsLegal(byPrior[k].move) {
			pairs++
			break
		}
		byPrior[k].n = -1
	}
	t.bridges = p.LegalBridges(c, t.bridges[:0])
	for _, mv := range t.bridges {
		if v := p.BridgeValue(mv); v > 0 {
			cands = append(cands, sageCand{move: mv, prior: m.Bridge(mv, v), child: -1})
		}
	}
	if pairs == 0 {
		if p.CanPass() {
			cands = append(cands, sageCand{move: replay.PassMove, prior: math.Inf(-1), child: -1})
		} else {
			t.moves = p.LegalTurns(t.moves[:0])
			for _, mv := range t.moves {
				if mv.Kind != replay.Swap {
					cands = append(cands, sageCand{move: mv, prior: math.Inf(-1), child: -1})
				}
			}
		}
	}
	if len(cands) == start {
		t.moves = p.LegalTurns(t.moves[:0])
		for _, mv := range t.moves {
			cands = append(cands, sageCand{move: mv, child: -1})
		}
	}
	t.sortByPrior(cands[start:])
	return cands
}
