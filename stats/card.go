package stats

import (
	"fmt"
	"math"
)

// The verdict on the pie rule says only what its interval supports.

// BalanceMargin is the margin around ½ within which the opener's expected score counts as
// balanced: a designer's tolerance, ±3 percentage points.
const BalanceMargin = 0.03

// The verdicts of [Judge].
const (
	OpenerFavoured    = "opener favoured"
	ResponderFavoured = "responder favoured"
	NotEnoughGames    = "not enough games to tell"
	NoGames           = "no games"
)

// Judge words what an estimate of the opener's expected score, with its 95% interval
// [lo, hi] over n games, supports: "opener favoured" or "responder favoured" when the
// interval excludes ½, "balanced within ±3%" when it lies inside ½ ± margin, else "not
// enough games to tell".
func Judge(lo, hi float64, n int, margin float64) string {
	switch {
	case n == 0 || math.IsNaN(lo) || math.IsNaN(hi):
		return NoGames
	case lo > 0.5:
		return OpenerFavoured
	case hi < 0.5:
		return ResponderFavoured
	case lo >= 0.5-margin && hi <= 0.5+margin:
		return fmt.Sprintf("balanced within ±%g%%", math.Round(margin*1000)/10)
	}
	return NotEnoughGames
}

// Reading is one estimate of the opener's expected score, named, with its interval.
type Reading struct {
	Name          string  `json:"name"`
	N             int     `json:"n"`
	Value, Lo, Hi float64 `json:"-"`
}

// Disagreements lists, in words, the pairs of estimates that say different things: their
// intervals do not overlap, or one favours a side that the other's interval excludes.
func Disagreements(es []Reading) []string {
	var out []string
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			a, b := es[i], es[j]
			if a.N == 0 || b.N == 0 {
				continue
			}
			ja, jb := Judge(a.Lo, a.Hi, a.N, BalanceMargin), Judge(b.Lo, b.Hi, b.N, BalanceMargin)
			switch {
			case a.Hi < b.Lo || b.Hi < a.Lo:
				out = append(out, fmt.Sprintf("%s (%.1f%% [%.1f–%.1f]) and %s (%.1f%% [%.1f–%.1f]) disagree: their intervals do not overlap",
					a.Name, 100*a.Value, 100*a.Lo, 100*a.Hi, b.Name, 100*b.Value, 100*b.Lo, 100*b.Hi))
			case ja != jb && (isSide(ja) || isSide(jb)):
				out = append(out, fmt.Sprintf("%s says %s, %s says %s", a.Name, ja, b.Name, jb))
			}
		}
	}
	return out
}

func isSide(j string) bool { return j == OpenerFavoured || j == ResponderFavoured }
