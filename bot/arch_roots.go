package bot

import (
	"cmp"
	"slices"

	"github.com/ponte/ponte/replay"
)

// RootTurn is a turn of a search's root: its playouts and their mean result for the side
// to move.
type RootTurn struct {
	Move   replay.Move
	Visits int
	Mean   float64
}

// RootTurns returns the root's turns of the bot's last search (Turn or Analyse), summed
// over its threads, most visited first (then the best mean, then the order of the root):
// the engine's ranking of the turns, which the truth set of annotate draws from. It is nil
// before a search, and for a bot whose threads share one tree.
func (a *Arch) RootTurns() []RootTurn {
	if a.Shared || len(a.trees) == 0 || len(a.trees[0].nodes) == 0 {
		return nil
	}
	stats := a.rootStats()
	out := make([]RootTurn, 0, len(stats))
	for _, s := range stats {
		if s.n <= 0 {
			continue
		}
		out = append(out, RootTurn{Move: s.move, Visits: int(s.n), Mean: s.w / s.n})
	}
	slices.SortStableFunc(out, func(x, y RootTurn) int {
		if c := cmp.Compare(y.Visits, x.Visits); c != 0 {
			return c
		}
		return cmp.Compare(y.Mean, x.Mean)
	})
	return out
}
