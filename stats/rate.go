package stats

import (
	"fmt"
	"github.com/ponte/ponte/internal/score"
)

// z is the normal quantile of the 95% intervals.
const z = score.Z95

// Rate is a proportion with its 95% Wilson score interval. Hits may be fractional where a
// draw counts half (a player's score).
type Rate struct {
	Hits float64 `json:"hits"` // games counted (a draw is ½ in a score)
	N    int     `json:"n"`    // games
	P    float64 `json:"p"`    // Hits/N, 0 when N is 0
	Lo   float64 `json:"lo"`   // lower end of the 95% Wilson interval
	Hi   float64 `json:"hi"`   // upper end
}

// NewRate returns hits out of n with its Wilson interval. With n = 0 the rate is 0 and
// the interval [0, 1]: nothing is known.
func NewRate(hits float64, n int) Rate {
	if n <= 0 {
		return Rate{Hi: 1}
	}
	lo, hi := score.Wilson(hits, float64(n), score.Z95)
	return Rate{Hits: hits, N: n, P: hits / float64(n), Lo: lo, Hi: hi}
}

// String writes the rate as a percentage with its interval and counts:
// "52.3% [48.1–56.4] of 560".
func (r Rate) String() string {
	if r.N == 0 {
		return "– of 0"
	}
	return fmt.Sprintf("%.1f%% [%.1f–%.1f] of %d", 100*r.P, 100*r.Lo, 100*r.Hi, r.N)
}

// tally counts hits (fractional for scores) and games on the way to a Rate.
type tally struct {
	hits float64
	n    int
}

func (t *tally) add(hit float64) { t.hits += hit; t.n++ }

// merge adds the games of u.
func (t *tally) merge(u tally) { t.hits += u.hits; t.n += u.n }
func (t tally) rate() Rate     { return NewRate(t.hits, t.n) }
