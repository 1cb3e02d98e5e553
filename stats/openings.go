package stats

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ponte/ponte/game"
)

// OpeningPriors are the beta priors of one board and population that the openings' rates
// are shrunk towards, one per quantity: the swap rate and the opener's score in each
// branch. Each is the most likely prior of ShrinkAll, whose intervals integrate over all
// the priors the openings allow; a quantity without games anywhere on the board has the
// uniform prior Beta(1, 1): nothing is known.
type OpeningPriors struct {
	Swapped       BetaPrior `json:"swapped"`
	OpenerKept    BetaPrior `json:"opener_kept"`
	OpenerSwapped BetaPrior `json:"opener_swapped"`
}

// Secure estimates what the opener can secure on a board: against a second player who
// takes the branch worse for the opener, the opener's best opening is the one whose worse
// branch scores best. Branches are compared by their shrunk scores, over the openings seen
// in both branches. Being the greatest of many estimates it leans high (shrinkage pulls
// it back only in part): read its interval as that of the opening chosen, not as a bound
// on every opening.
type Secure struct {
	A      string `json:"a"` // the opening's cells, as in Opening
	B      string `json:"b"`
	Branch string `json:"branch"` // its worse branch: "kept" or "swapped"
	Score  Shrunk `json:"score"`  // the opener's shrunk score in that branch, with its 95% interval
	// Openings counts the openings seen in both branches, over which the best is taken.
	Openings int `json:"openings"`
}

// DistanceBin is the swap rate and the opener's score of the games whose opening is at
// one distance (Opening.Edge or Opening.Apart), with Wilson intervals.
type DistanceBin struct {
	Distance int  `json:"distance"`
	Games    int  `json:"games"`
	Swapped  Rate `json:"swapped"`
	Opener   Rate `json:"opener"`
}

// OverTime is the swap rate and the opener's score by period, over the decided games that
// reached turn 2 and whose Date has its year and month.
type OverTime struct {
	// By is "month", or "quarter" when months are thin: fewer than MinMonthGames games a
	// month on average from the first month to the last.
	By      string   `json:"by"`
	Dated   int      `json:"dated"`   // games with a year and month
	Undated int      `json:"undated"` // games without (no Date, or "??" for its year or month)
	Periods []Period `json:"periods"` // the periods with games, oldest first
}

// MinMonthGames is the fewest games a month, on average, for OverTime to go by month.
const MinMonthGames = 30

// Period is one month ("2025-03") or quarter ("2025-Q1") of OverTime.
type Period struct {
	Period  string `json:"period"`
	Games   int    `json:"games"`
	Swapped Rate   `json:"swapped"`
	Opener  Rate   `json:"opener"`
}

// distances returns an opening's distance from the edge (the least over its two tiles of
// the cells to the nearest edge) and the Chebyshev distance between its tiles. Both are
// unchanged by the board's symmetries.
func distances(a, b game.Cell, size int) (edge, apart int) {
	toEdge := func(c game.Cell) int {
		return min(c.Col(), c.Row(), size-1-c.Col(), size-1-c.Row())
	}
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	return min(toEdge(a), toEdge(b)), max(abs(a.Col()-b.Col()), abs(a.Row()-b.Row()))
}

// monthOf reads the year and month of a Date "YYYY.MM.DD" as year·12 + month − 1; false
// when either is unknown ("??") or not a date.
func monthOf(date string) (int, bool) {
	if len(date) != 10 || date[4] != '.' || date[7] != '.' {
		return 0, false
	}
	num := func(s string) (int, bool) {
		n := 0
		for _, c := range []byte(s) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = 10*n + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(date[:4])
	month, ok2 := num(date[5:7])
	if !ok1 || !ok2 || month < 1 || month > 12 {
		return 0, false
	}
	return year*12 + month - 1, true
}

func distanceBins(m map[int]*cellTally) []DistanceBin {
	out := []DistanceBin{}
	for _, d := range slices.Sorted(maps.Keys(m)) {
		t := m[d]
		out = append(out, DistanceBin{Distance: d, Games: t.opener.n, Swapped: t.swapped.rate(), Opener: t.opener.rate()})
	}
	return out
}

// overTime groups the monthly tallies by month, or by quarter when months are thin; nil
// when no game has a month.
func overTime(months map[int]*cellTally, undated int) *OverTime {
	if len(months) == 0 {
		return nil
	}
	keys := slices.Sorted(maps.Keys(months))
	ot := &OverTime{By: "month", Undated: undated}
	for _, t := range months {
		ot.Dated += t.opener.n
	}
	span := keys[len(keys)-1] - keys[0] + 1
	if ot.Dated < MinMonthGames*span {
		ot.By = "quarter"
	}
	var cur *Period
	var sw, op tally
	flush := func() {
		if cur != nil {
			cur.Games, cur.Swapped, cur.Opener = op.n, sw.rate(), op.rate()
			ot.Periods = append(ot.Periods, *cur)
		}
	}
	for _, k := range keys {
		year, month := k/12, k%12+1
		name := fmt.Sprintf("%04d-%02d", year, month)
		if ot.By == "quarter" {
			name = fmt.Sprintf("%04d-Q%d", year, (month-1)/3+1)
		}
		if cur == nil || cur.Period != name {
			flush()
			cur, sw, op = &Period{Period: name}, tally{}, tally{}
		}
		t := months[k]
		sw.hits, sw.n = sw.hits+t.swapped.hits, sw.n+t.swapped.n
		op.hits, op.n = op.hits+t.opener.hits, op.n+t.opener.n
	}
	flush()
	return ot
}

// shrinkOpenings shrinks each opening's swap rate and its opener's score in each branch
// towards the board's average (ShrinkAll, one prior per quantity), and finds what the
// opener can secure. The openings come sorted, so that nothing depends on a map's order.
func shrinkOpenings(ops []Opening) (OpeningPriors, *Secure) {
	shrink := func(rate func(*Opening) Rate, set func(*Opening, Shrunk)) BetaPrior {
		ts := make([]Tally, len(ops))
		for i := range ops {
			r := rate(&ops[i])
			ts[i] = Tally{K: r.Hits, N: r.N}
		}
		prior, shrunk, err := ShrinkAll(ts)
		if err != nil { // no games in this branch anywhere: nothing is known
			prior = BetaPrior{A: 1, B: 1}
			for i := range ops {
				set(&ops[i], prior.Shrink(ts[i]))
			}
			return prior
		}
		for i := range ops {
			set(&ops[i], shrunk[i])
		}
		return prior
	}
	var pr OpeningPriors
	pr.Swapped = shrink(func(o *Opening) Rate { return o.Swapped }, func(o *Opening, s Shrunk) { o.SwappedShrunk = s })
	pr.OpenerKept = shrink(func(o *Opening) Rate { return o.OpenerKept }, func(o *Opening, s Shrunk) { o.OpenerKeptShrunk = s })
	pr.OpenerSwapped = shrink(func(o *Opening) Rate { return o.OpenerSwapped }, func(o *Opening, s Shrunk) { o.OpenerSwappedShrunk = s })
	var sec *Secure
	seen := 0
	for i := range ops {
		o := &ops[i]
		if o.OpenerKept.N == 0 || o.OpenerSwapped.N == 0 {
			continue
		}
		seen++
		worse, branch := o.OpenerKeptShrunk, "kept"
		if o.OpenerSwappedShrunk.Rate < worse.Rate {
			worse, branch = o.OpenerSwappedShrunk, "swapped"
		}
		if sec == nil || worse.Rate > sec.Score.Rate {
			sec = &Secure{A: o.A, B: o.B, Branch: branch, Score: worse}
		}
	}
	if sec != nil {
		sec.Openings = seen
	}
	return pr, sec
}
