package atlas

import (
	"fmt"
	"math"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/match"
)

// DefaultVWidth is the width of V's interval that the answer is measured against when the
// atlas asked for none (--v-width 0): ±2 points.
const DefaultVWidth = 0.04

// VTarget is the width of V's interval the atlas asks for: VWidth, else DefaultVWidth.
func (c *Config) VTarget() float64 {
	if c.VWidth > 0 {
		return c.VWidth
	}
	return DefaultVWidth
}

// VKnown says whether V's interval is known and at most the width asked.
func (a *Atlas) VKnown() bool {
	return !math.IsNaN(a.V) && a.VHi-a.VLo <= a.Config.VTarget()
}

// Answer is the designer's answer in one sentence: what the opener secures under the pie
// rule, with its interval, the bot's strength and the opening that gives it, and, while
// the interval is wider than the width asked, that it is not yet the answer.
func (a *Atlas) Answer() string {
	c := a.Config
	who := fmt.Sprintf("with %s on both sides (not on the %d×%d ladder)", c.Bot, c.Size, c.Size)
	if !math.IsNaN(a.Rating) {
		who = fmt.Sprintf("at %+.0f Elo over greedy (%s on both sides, %d×%d ladder)", a.Rating, c.Bot, c.Size, c.Size)
	}
	if math.IsNaN(a.V) {
		return fmt.Sprintf("Under the pie rule the opener secures: not yet known %s; the confirmation of V's candidates is not complete.", who)
	}
	s := fmt.Sprintf("Under the pie rule the opener secures %.3f [%.3f, %.3f] %s, by opening %s (class %d, %s fresh games)",
		a.V, a.VLo, a.VHi, who, a.vOpening(), a.VClass, numtext.Thousands(int64(a.VGames())))
	width := 100 * (a.VHi - a.VLo)
	if a.VKnown() {
		return s + fmt.Sprintf(": V is known to within %.1f points.", width)
	}
	return s + fmt.Sprintf(". Not yet: V is known to within %.1f points, not the %.3g points asked.", width, 100*c.VTarget())
}

// vOpening is the opening of V's class as a turn is written ("a1 g1").
func (a *Atlas) vOpening() string {
	for _, e := range a.Estimates {
		if e.ID == a.VClass {
			return e.A.String() + " " + e.B.String()
		}
	}
	return "?"
}

// VGames is the games on fresh seeds that V's candidate was confirmed on (0 before V).
func (a *Atlas) VGames() int {
	for _, e := range a.Confirmed {
		if e.ID == a.VClass && !math.IsNaN(a.V) {
			return min(e.Games(), a.Config.ConfirmLooks()[max(e.Rounds, 1)-1])
		}
	}
	return 0
}

// LadderRating is bot's rating in Elo over greedy on the ladder ponte holds for the board
// of side size and the supply (match.Ladder), NaN when it is not on it.
func LadderRating(bot string, size int, supply string) float64 {
	blocks, err := match.Ladder()
	if err != nil {
		return math.NaN()
	}
	fit, err := match.FitLadder(blocks, "greedy", size, supply, 0, 1)
	if err != nil {
		return math.NaN()
	}
	for _, r := range fit.Ratings {
		if r.Name == bot {
			return r.Rating
		}
	}
	return math.NaN()
}
