package atlas

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ponte/ponte/match"
)

// Result is an atlas as ponte atlas run, merge and show print it with --json.
type Result struct {
	Size      int            `json:"size"`
	Supply    string         `json:"supply"`
	Bot       string         `json:"bot"`
	Seed      uint64         `json:"seed"`
	Margin    float64        `json:"margin"`
	Alpha     float64        `json:"alpha"`
	Classes   int            `json:"classes"`
	Games     int            `json:"games"`
	MainGames int            `json:"main_games"`
	Done      bool           `json:"done"`
	Strength  string         `json:"strength"`
	Verdicts  map[string]int `json:"verdicts"`
	V         *float64       `json:"v"`
	VLo       *float64       `json:"v_lo"`
	VHi       *float64       `json:"v_hi"`
	VClass    int            `json:"v_class,omitempty"`
	// The answer's fields, in the atlases run with --v-width (absent in those before it,
	// whose JSON stays as it was): the width asked, the games a candidate has after each
	// look of the confirmation, whether V's interval is that narrow, the bot's ladder
	// rating (null off the ladder) and the answer as a sentence.
	VWidth    *float64       `json:"v_width,omitempty"`
	VLooks    []int          `json:"v_looks,omitempty"`
	VKnown    *bool          `json:"v_known,omitempty"`
	Rating    *rating        `json:"rating,omitempty"`
	Answer    string         `json:"answer,omitempty"`
	Fair      []int          `json:"fair"`
	Even      []int          `json:"even"`
	Confirmed []ClassJSON    `json:"confirmed"`
	Stability *StabilityJSON `json:"stability"`
	Estimates []ClassJSON    `json:"estimates,omitempty"`
}

// ClassJSON is a class's estimate in a Result.
type ClassJSON struct {
	Class   int      `json:"class"`
	A       string   `json:"a"`
	B       string   `json:"b"`
	Edge    int      `json:"edge"`
	Apart   int      `json:"apart"`
	Members int      `json:"members"`
	Games   int      `json:"games"`
	Wins    int      `json:"wins"`
	Draws   int      `json:"draws"`
	Losses  int      `json:"losses"`
	P       float64  `json:"p"`
	Lo      float64  `json:"lo"`
	Hi      float64  `json:"hi"`
	FixedLo float64  `json:"fixed_lo"`
	FixedHi float64  `json:"fixed_hi"`
	Verdict string   `json:"verdict"`
	Elo     *float64 `json:"elo"`
	Rounds  int      `json:"rounds"`
}

// StabilityJSON is the stability check in a Result.
type StabilityJSON struct {
	Bot       string      `json:"bot"`
	Spearman  *float64    `json:"spearman"` // null while undefined (under two panel classes, or p̂ all equal)
	MeanShift float64     `json:"mean_shift"`
	Flips     []int       `json:"flips"`
	Panel     []ClassJSON `json:"panel"`
	// The comparison of panel with panel, in the atlases run with --stability-both (absent
	// in the others, whose JSON stays as it was): the main bot's panel, the bootstrap
	// intervals at 95 % (absent while undefined), their replicates, and the sentence.
	BaseBot     string      `json:"base_bot,omitempty"`
	SpearmanLo  *float64    `json:"spearman_lo,omitempty"`
	SpearmanHi  *float64    `json:"spearman_hi,omitempty"`
	MeanShiftLo *float64    `json:"mean_shift_lo,omitempty"`
	MeanShiftHi *float64    `json:"mean_shift_hi,omitempty"`
	Replicates  int         `json:"replicates,omitempty"`
	Sentence    string      `json:"sentence,omitempty"`
	Base        []ClassJSON `json:"base,omitempty"`
}

// rating is a rating that --json writes as a number, or null when it is not known
// (omitempty leaves out only the field without one).
type rating struct{ elo *float64 }

func (r *rating) MarshalJSON() ([]byte, error) { return json.Marshal(r.elo) }

func classOf(e Estimate) ClassJSON {
	return ClassJSON{Class: e.ID, A: e.A.String(), B: e.B.String(), Edge: e.Edge, Apart: e.Apart, Members: e.Size,
		Games: e.Games(), Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, P: e.P, Lo: e.Lo, Hi: e.Hi,
		FixedLo: e.FixedLo, FixedHi: e.FixedHi, Verdict: e.Verdict.String(), Elo: match.Finite(e.Elo), Rounds: e.Rounds}
}

// JSON is the atlas as --json prints it; all adds every class's estimate.
func (a *Atlas) JSON(all bool) *Result {
	r := &Result{Size: a.Config.Size, Supply: a.Config.Supply.String(), Bot: a.Config.Bot, Seed: a.Config.Seed,
		Margin: a.Config.Margin, Alpha: a.Config.Spending.Alpha, Classes: len(a.Estimates), Games: a.Games,
		MainGames: a.MainGames, Done: a.Done, Strength: a.Strength, Verdicts: map[string]int{}, V: match.Finite(a.V), VLo: match.Finite(a.VLo),
		VHi: match.Finite(a.VHi), VClass: a.VClass, Fair: []int{}, Even: []int{}, Confirmed: []ClassJSON{}}
	for _, v := range []Verdict{Swap, Keep, Fair, Open} {
		r.Verdicts[v.String()] = a.Counts()[v]
	}
	if a.Config.VWidth > 0 {
		known := a.VKnown()
		r.VWidth, r.VLooks, r.VKnown = &a.Config.VWidth, a.Config.ConfirmLooks(), &known
		r.Rating, r.Answer = &rating{match.Finite(a.Rating)}, a.Answer()
	}
	fair, even := a.Fair()
	for _, e := range fair {
		r.Fair = append(r.Fair, e.ID)
	}
	for _, e := range even {
		r.Even = append(r.Even, e.ID)
	}
	for _, e := range a.Confirmed {
		r.Confirmed = append(r.Confirmed, classOf(e))
	}
	if st := a.Stable; st != nil {
		r.Stability = &StabilityJSON{Bot: st.Bot, Spearman: match.Finite(st.Spearman), MeanShift: st.MeanShift, Flips: append([]int{}, st.Flips...), Panel: []ClassJSON{}}
		for _, e := range st.Panel {
			r.Stability.Panel = append(r.Stability.Panel, classOf(e))
		}
		if a.Config.StabilityBoth {
			r.Stability.BaseBot = a.Config.Bot
			for _, e := range st.Base {
				r.Stability.Base = append(r.Stability.Base, classOf(e))
			}
		}
		if pc := st.Compared; pc != nil {
			r.Stability.SpearmanLo, r.Stability.SpearmanHi = match.Finite(pc.Lo), match.Finite(pc.Hi)
			r.Stability.MeanShiftLo, r.Stability.MeanShiftHi = match.Finite(pc.ShiftLo), match.Finite(pc.ShiftHi)
			r.Stability.Replicates, r.Stability.Sentence = pc.Replicates, a.StabilitySentence()
		}
	}
	if all {
		for _, e := range a.Estimates {
			r.Estimates = append(r.Estimates, classOf(e))
		}
	}
	return r
}

// Print prints the atlas: asJSON as one object, else its summary and every class by p̂.
func (a *Atlas) Print(w io.Writer, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(a.JSON(true))
	}
	c := a.Config
	fmt.Fprintln(w, a.Answer())
	if s := a.StabilitySentence(); s != "" {
		fmt.Fprintln(w, s)
	}
	fmt.Fprintf(w, "opening atlas %d×%d, supply %s, bot %s, seed %d: %d classes, %d games (%d in the main rounds), %s\n",
		c.Size, c.Size, c.Supply, c.Bot, c.Seed, len(a.Estimates), a.Games, a.MainGames, a.state())
	if a.Strength != "" {
		fmt.Fprintf(w, "strength: %s\n", a.Strength)
	}
	n := a.Counts()
	fmt.Fprintf(w, "verdicts (intervals %g%%, fair band ½ ± %g%%): swap %d, keep %d, fair %d, open %d\n",
		100*(1-c.Spending.Alpha), 100*c.Margin, n[Swap], n[Keep], n[Fair], n[Open])
	if math.IsNaN(a.V) {
		fmt.Fprintln(w, "V: not yet (the confirmation run is not complete)")
	} else {
		e := a.Estimates[slices.IndexFunc(a.Estimates, func(e Estimate) bool { return e.ID == a.VClass })]
		fmt.Fprintf(w, "V = %.3f [%.3f, %.3f]: the opener's value under the pie rule, from class %d (%s,%s) on %d fresh games\n",
			a.V, a.VLo, a.VHi, a.VClass, e.A, e.B, a.VGames())
	}
	fair, even := a.Fair()
	fmt.Fprintf(w, "fair within ±%g%%: %s\n", 100*c.Margin, classList(fair))
	fmt.Fprintf(w, "interval holds ½: %s\n", classList(even))
	if st := a.Stable; st != nil && len(st.Panel) < a.Config.PanelSize {
		fmt.Fprintf(w, "stability at %s: not yet (%d of %d classes re-estimated)\n", st.Bot, len(st.Panel), a.Config.PanelSize)
	} else if st != nil && st.Compared != nil {
		pc := st.Compared
		fmt.Fprintf(w, "stability, %s against %s, %d games a class each: %d classes, rank correlation %s [%s, %s], mean shift %+.3f [%+.3f, %+.3f] (%d bootstrap replicates), verdicts flipped: %d %v\n",
			st.Bot, c.Bot, c.PanelGames, len(st.Panel), RankText(pc.Spearman), RankText(pc.Lo), RankText(pc.Hi),
			pc.MeanShift, pc.ShiftLo, pc.ShiftHi, pc.Replicates, len(st.Flips), st.Flips)
	} else if st != nil {
		fmt.Fprintf(w, "stability at %s: %d classes, rank correlation %s, mean shift %+.3f, verdicts flipped: %d %v\n",
			st.Bot, len(st.Panel), RankText(st.Spearman), st.MeanShift, len(st.Flips), st.Flips)
	}
	sorted := slices.Clone(a.Estimates)
	slices.SortStableFunc(sorted, func(x, y Estimate) int {
		switch {
		case x.P > y.P:
			return -1
		case x.P < y.P:
			return 1
		}
		return x.ID - y.ID
	})
	fmt.Fprintf(w, "%5s  %-8s %5s %5s %5s  %6s  %-15s  %-7s %7s %6s\n", "class", "opening", "edge", "apart", "games", "p", "interval", "verdict", "elo", "rounds")
	for _, e := range sorted {
		fmt.Fprintf(w, "%5d  %-8s %5d %5d %5d  %6.3f  [%.3f, %.3f]  %-7s %7s %6d\n", e.ID, e.A.String()+","+e.B.String(),
			e.Edge, e.Apart, e.Games(), e.P, e.Lo, e.Hi, e.Verdict, match.SignedElo(e.Elo), e.Rounds)
	}
	return nil
}

func (a *Atlas) state() string {
	if !a.Done {
		return "not complete"
	}
	return "complete"
}

func classList(es []Estimate) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i, e := range es {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-12))
			break
		}
		parts = append(parts, fmt.Sprintf("%d (%s,%s %.3f)", e.ID, e.A, e.B, e.P))
	}
	return strings.Join(parts, ", ")
}

// PrintSummary prints the atlas in three lines: what it is, V, the fair openings.
func (a *Atlas) PrintSummary(w io.Writer) {
	c := a.Config
	n := a.Counts()
	fmt.Fprintf(w, "Opening atlas %d×%d (%s against itself, %d games, %s): swap %d, keep %d, fair %d, open %d of %d classes\n",
		c.Size, c.Size, c.Bot, a.Games, a.state(), n[Swap], n[Keep], n[Fair], n[Open], len(a.Estimates))
	if math.IsNaN(a.V) {
		fmt.Fprintln(w, "  V: not yet (the confirmation run is not complete)")
	} else {
		fmt.Fprintf(w, "  V = %.3f [%.3f, %.3f] (class %d)\n", a.V, a.VLo, a.VHi, a.VClass)
	}
	fair, even := a.Fair()
	fmt.Fprintf(w, "  fair within ±%g%%: %s\n  interval holds ½: %s\n", 100*c.Margin, classList(fair), classList(even))
}
