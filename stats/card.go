package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	Name  string  `json:"name"`
	N     int     `json:"n"`
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Disagreements lists, in words, the estimates that say something other than the first
// (the primary estimate), and the two branches of the pie rule when they say different
// things from each other: their intervals do not overlap, or one favours a side that the
// other's interval does not. Each other pair would repeat these: at most one line per
// estimate, and one for the branches.
func Disagreements(es []Reading) []string {
	var out []string
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			a, b := es[i], es[j]
			if a.N == 0 || b.N == 0 || i > 0 && !(isBranch(a.Name) && isBranch(b.Name)) {
				continue
			}
			ja, jb := Judge(a.Lo, a.Hi, a.N, BalanceMargin), Judge(b.Lo, b.Hi, b.N, BalanceMargin)
			note := ""
			if isBranch(a.Name) && isBranch(b.Name) {
				note = ": the second player's choice matters"
			}
			switch {
			case a.Hi < b.Lo || b.Hi < a.Lo:
				out = append(out, fmt.Sprintf("%s (%.1f%% [%.1f–%.1f]) and %s (%.1f%% [%.1f–%.1f]) disagree: their intervals do not overlap%s",
					a.Name, 100*a.Value, 100*a.Lo, 100*a.Hi, b.Name, 100*b.Value, 100*b.Lo, 100*b.Hi, note))
			case ja != jb && (isSide(ja) || isSide(jb)):
				out = append(out, fmt.Sprintf("%s says %s, %s says %s%s", a.Name, ja, b.Name, jb, note))
			}
		}
	}
	return out
}

func isSide(j string) bool { return j == OpenerFavoured || j == ResponderFavoured }

// isBranch tells the readings of one branch of the pie rule by their names.
func isBranch(name string) bool {
	switch name {
	case ReadingKept, ReadingSwapped, ReadingKeptAdjusted, ReadingSwappedAdjusted:
		return true
	}
	return false
}

// FewGames is the fewest games behind a card's estimate for it to be listed among the
// boards with enough games: cards under it come last.
const FewGames = 30

// The estimates a Card can rest on.
const (
	// EstimateAdjusted is the strength-adjusted opener's expected score between equal
	// players (Strength.Overall).
	EstimateAdjusted = "strength-adjusted"
	// EstimateRaw is the opener's raw score with its Wilson interval (Swap.Opener).
	EstimateRaw = "raw"
)

// The names of a Card's Readings.
const (
	ReadingAdjusted        = "strength-adjusted opener's score"
	ReadingRaw             = "raw opener's score"
	ReadingKeptAdjusted    = "strength-adjusted, without a swap"
	ReadingSwappedAdjusted = "strength-adjusted, after a swap"
	ReadingKept            = "raw, without a swap"
	ReadingSwapped         = "raw, after a swap"
	ReadingBestReply       = "against a good reply"
)

// Card is the verdict on the pie rule for one board size and population, and what it
// rests on: the answer first.
type Card struct {
	Size       int    `json:"size"`
	Population string `json:"population"` // people, bots or all
	// Games counts the legal games of the board in the population; Sources splits them by
	// format.
	Games   int           `json:"games"`
	Sources []SourceCount `json:"sources"`
	// Estimate names the primary estimate: EstimateAdjusted when the rating model could be
	// fitted, else EstimateRaw, and then Why says why not.
	Estimate string `json:"estimate"`
	Why      string `json:"why,omitempty"`
	// N is the games the primary estimate rests on; Value, Lo and Hi the estimate of the
	// opener's expected score and its 95% interval.
	N     int     `json:"n"`
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// Verdict is Judge's reading of that interval.
	Verdict string `json:"verdict"`
	// Few is true when N is under FewGames: such cards are listed last.
	Few bool `json:"few"`
	// Readings are every estimate of the opener's score compared: the primary one first,
	// then the raw score (when the primary is strength-adjusted), the two branches
	// (strength-adjusted when fitted, else raw) and the opener against a good reply
	// (Swap.BestReply, when there is one).
	Readings []Reading `json:"readings"`
	// Disagreements names, in words, the pairs of readings that say different things
	// (Disagreements). The branches are estimates given the second player's choice: their
	// differing from the whole is what a swap chooses between, and the words say so.
	Disagreements []string `json:"disagreements"`
}

// newCard makes the card of a board.
func newCard(b *Board) Card {
	sw := &b.Swap
	c := Card{Size: b.Size, Population: b.Population, Games: b.Games, Sources: b.Sources, Disagreements: []string{}}
	raw := Reading{Name: ReadingRaw, N: sw.Opener.N, Value: sw.Opener.P, Lo: sw.Opener.Lo, Hi: sw.Opener.Hi}
	if st := sw.Strength; st != nil {
		o := st.Overall
		c.Estimate = EstimateAdjusted
		c.Readings = append(c.Readings, Reading{Name: ReadingAdjusted, N: o.N, Value: o.Value, Lo: o.Lo, Hi: o.Hi}, raw)
		for _, br := range []struct {
			name string
			a    Advantage
		}{{ReadingKeptAdjusted, st.Kept}, {ReadingSwappedAdjusted, st.Swapped}} {
			if br.a.Games > 0 {
				c.Readings = append(c.Readings, Reading{Name: br.name, N: br.a.Games, Value: br.a.Score, Lo: br.a.ScoreLo, Hi: br.a.ScoreHi})
			}
		}
	} else {
		c.Estimate, c.Why = EstimateRaw, sw.StrengthError
		c.Readings = append(c.Readings, raw)
		for _, br := range []struct {
			name string
			r    Rate
		}{{ReadingKept, sw.OpenerKept}, {ReadingSwapped, sw.OpenerSwapped}} {
			if br.r.N > 0 {
				c.Readings = append(c.Readings, Reading{Name: br.name, N: br.r.N, Value: br.r.P, Lo: br.r.Lo, Hi: br.r.Hi})
			}
		}
	}
	if e := sw.BestReply; e.Openings > 0 {
		c.Readings = append(c.Readings, Reading{Name: ReadingBestReply, N: e.Games, Value: e.Value, Lo: e.Lo, Hi: e.Hi})
	}
	p := c.Readings[0]
	c.N, c.Value, c.Lo, c.Hi = p.N, p.Value, p.Lo, p.Hi
	c.Verdict = Judge(p.Lo, p.Hi, p.N, BalanceMargin)
	c.Few = c.N < FewGames
	if d := Disagreements(c.Readings); d != nil {
		c.Disagreements = d
	}
	return c
}

// SortCards orders cards as a reader wants them: boards with few games (Card.Few) last,
// then the most games first, then by board size and population.
func SortCards(cs []Card) {
	slices.SortStableFunc(cs, func(a, b Card) int {
		if a.Few != b.Few {
			return cmp.Compare(boolInt(a.Few), boolInt(b.Few))
		}
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Size, b.Size); c != 0 {
			return c
		}
		return cmp.Compare(popOrder(a.Population), popOrder(b.Population))
	})
}
