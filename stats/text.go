package stats

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/ponte/ponte/internal/termtext"
)

// WriteText prints the report (ponte stats), of the database db: the cards first, where the games come from, then the main
// tables of each board, aligned.
func (r *Report) WriteText(w io.Writer, db string, openings int, ratings bool) {
	fmt.Fprintf(w, "%s: %s\n", termtext.Safe(db), termtext.Safe(r.Filter.String()))
	r.WritePopulation(w)
	fmt.Fprintln(w)
	r.WriteCards(w)
	writeSources(w, r)

	v := r.Verification
	fmt.Fprintf(w, "\nVerification (every population): %d %s, %d legal, %d illegal, %d unreadable, %d %s met again\n",
		v.Games, termtext.Plural(v.Games, "game", "games"), v.Legal, v.Illegal, v.Unreadable, v.Duplicates, termtext.Plural(v.Duplicates, "copy", "copies"))
	if len(v.ByFormat) > 0 {
		parts := make([]string, len(v.ByFormat))
		for i, fc := range v.ByFormat {
			parts[i] = fmt.Sprintf("%s %d", termtext.Safe(fc.Format), fc.Games)
		}
		fmt.Fprintf(w, "  read from: %s\n", strings.Join(parts, ", "))
	}
	if len(v.ByRule) > 0 {
		parts := make([]string, len(v.ByRule))
		for i, rc := range v.ByRule {
			parts[i] = fmt.Sprintf("%s %d", termtext.Safe(rc.Rule), rc.Games)
		}
		fmt.Fprintf(w, "  first broken rule: %s\n", strings.Join(parts, ", "))
	}
	if len(r.Boards) == 0 {
		fmt.Fprintf(w, "\nNo legal games of %s.\n", r.Population)
	}
	for i := range r.Boards {
		writeBoard(w, &r.Boards[i], openings, ratings)
	}
	WriteAccuracy(w, r.Accuracy)
}

// WritePopulation says which population the statistics cover, and what is left out.
func (r *Report) WritePopulation(w io.Writer) {
	how := ""
	if r.Filter.Population == "" {
		how = " (the default)"
	}
	fmt.Fprintf(w, "Population: %s%s\n", PopulationName(r.Population), how)
	if note := r.MainNote(); note != "" {
		fmt.Fprintf(w, "  %s\n", note)
	} else if r.Population != PopulationAll {
		for _, pop := range []string{PopulationPeople, PopulationBots} {
			if n := PopulationGames(r.Populations, pop); pop != r.Population && n > 0 {
				fmt.Fprintf(w, "  left out: %d legal %s of %s\n", n, termtext.Plural(n, "game", "games"), pop)
			}
		}
	}
}

// WriteCards prints the verdict cards, the answer first: ponte stats and ponte analyze.
func (r *Report) WriteCards(w io.Writer) {
	pops := r.Population
	if r.Apart() {
		pops = "people and bots apart"
	}
	fmt.Fprintf(w, "Pie rule: the verdicts, %s (boards of fewer than %d games last)\n", pops, FewGames)
	if len(r.Cards) == 0 {
		fmt.Fprintln(w, "  no legal games")
	}
	for _, c := range r.Cards {
		fmt.Fprintf(w, "  %d×%d, %s: %s\n", c.Size, c.Size, c.Population, c.Verdict)
		if c.N == 0 {
			fmt.Fprintf(w, "    no decided game reached turn 2 (%d legal %s)\n", c.Games, termtext.Plural(c.Games, "game", "games"))
			continue
		}
		what := "the opener's expected score against an equal player, strength-adjusted"
		if c.Estimate == EstimateRaw {
			what = "the opener's raw score (no strength-adjusted estimate: " + termtext.Safe(c.Why) + ")"
		}
		fmt.Fprintf(w, "    %.1f%% [%.1f–%.1f] of %d %s: %s\n", 100*c.Value, 100*c.Lo, 100*c.Hi, c.N, termtext.Plural(c.N, "game", "games"), what)
		for _, d := range c.Disagreements {
			fmt.Fprintf(w, "    ! %s\n", d)
		}
		if len(c.Disagreements) == 0 && len(c.Readings) > 1 {
			fmt.Fprintf(w, "    no disagreement among its %d estimates (%s)\n", len(c.Readings), readingNames(c.Readings))
		}
	}
}

func readingNames(rs []Reading) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Name
	}
	return strings.Join(names, "; ")
}

// writeSources prints the legal games per population, format and site.
func writeSources(w io.Writer, r *Report) {
	if len(r.Populations) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWhere the legal games come from (format, site)\n")
	for _, pop := range []string{PopulationPeople, PopulationBots} {
		var parts []string
		for _, c := range r.Populations {
			if c.Population == pop {
				site := c.Site
				if site == "" {
					site = "no site"
				}
				parts = append(parts, fmt.Sprintf("%s/%s %d", termtext.Safe(c.Format), termtext.Safe(site), c.Games))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  %s %d: %s\n", pop, PopulationGames(r.Populations, pop), strings.Join(parts, ", "))
		}
	}
}

func writeBoard(w io.Writer, b *Board, openings int, ratings bool) {
	fmt.Fprintf(w, "\n== %d×%d, %s: %d legal %s, %d decided, %d finished\n", b.Size, b.Size, b.Population, b.Games, termtext.Plural(b.Games, "game", "games"), b.Decided, b.Finished)

	sw := b.Swap
	fmt.Fprintf(w, "\nSwap balance (%d decided %s that reached turn 2)\n", sw.Games, termtext.Plural(sw.Games, "game", "games"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  second player swapped\t%s\n", sw.Swapped)
	fmt.Fprintf(tw, "  opener's score\t%s\n", sw.Opener)
	fmt.Fprintf(tw, "    after a swap\t%s\n", sw.OpenerSwapped)
	fmt.Fprintf(tw, "    without a swap\t%s\n", sw.OpenerKept)
	fmt.Fprintf(tw, "  Light wins\t%s\n", sw.LightWins)
	fmt.Fprintf(tw, "  Dark wins\t%s\n", sw.DarkWins)
	fmt.Fprintf(tw, "  draws\t%s\n", sw.Draws)
	if e := sw.BestReply; e.Openings > 0 {
		fmt.Fprintf(tw, "  opener vs a good reply\t%.1f%% [%.1f–%.1f] over %d %s, %d games\n", 100*e.Value, 100*e.Lo, 100*e.Hi,
			e.Openings, termtext.Plural(e.Openings, "opening", "openings"), e.Games)
	} else {
		fmt.Fprintf(tw, "  opener vs a good reply\t– (no opening seen %d times both swapped and not)\n", MinBranch)
	}
	if st := sw.Strength; st != nil {
		fmt.Fprintf(tw, "  strength-adjusted\tBradley–Terry over %d %s of %d %s; against an equal player:\n", st.Games, termtext.Plural(st.Games, "game", "games"),
			st.Players, termtext.Plural(st.Players, "player", "players"))
		fmt.Fprintf(tw, "    without a swap\t%s\n", advantage(st.Kept))
		fmt.Fprintf(tw, "    after a swap\t%s\n", advantage(st.Swapped))
		fmt.Fprintf(tw, "    overall, %.1f%% swapped\t%.1f%% [%.1f–%.1f] of %d\n", 100*st.SwapRate.P, 100*st.Overall.Value, 100*st.Overall.Lo, 100*st.Overall.Hi, st.Overall.N)
	} else {
		fmt.Fprintf(tw, "  strength-adjusted\t– (%s)\n", termtext.Safe(sw.StrengthError))
	}
	tw.Flush()
	fmt.Fprintf(w, "  verdict: %s\n", sw.Verdict)
	if st := sw.Strength; ratings && st != nil {
		writeRatings(w, st)
	}

	if len(b.Openings) > 0 {
		writeOpenings(w, b, openings)
		writeDistances(w, b)
		writeHeat(w, b)
	}
	writeOverTime(w, b)

	sc := b.Scoring
	fmt.Fprintf(w, "\nScoring (%d finished %s)\n", sc.Games, termtext.Plural(sc.Games, "game", "games"))
	if sc.Games > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  mean score\tLight %.2f, Dark %.2f; margin %.2f; %.1f turns\n", sc.MeanScore[0], sc.MeanScore[1], sc.MeanMargin, sc.MeanLength)
		fmt.Fprintf(tw, "  score (Light)\t%s\n", spread(sc.ScoreLight))
		fmt.Fprintf(tw, "  score (Dark)\t%s\n", spread(sc.ScoreDark))
		fmt.Fprintf(tw, "  margin\t%s\n", spread(sc.Margin))
		fmt.Fprintf(tw, "  islands per player\t%s\n", spread(sc.Islands))
		fmt.Fprintf(tw, "  bridges per player\t%s\n", spread(sc.Bridges))
		fmt.Fprintf(tw, "  turns\t%s\n", spread(sc.Length))
		fmt.Fprintf(tw, "  components by islands\t%s\n", binList(sc.Components))
		fmt.Fprintf(tw, "  decided by\t%s\n", countList(sc.TieBreaks))
		tw.Flush()
	}
	fmt.Fprintf(w, "  how the %d legal %s ended: %s\n", b.Games, termtext.Plural(b.Games, "game", "games"), countList(sc.Endings))

	if len(b.ByTurn) > 0 {
		step := turnStep(b.ByTurn)
		every := ""
		if step > 1 {
			every = fmt.Sprintf("; turn 1 and every %dth turn", step)
		}
		fmt.Fprintf(w, "\nBy turn (means over the games that reached the turn%s)\n", every)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  turn\tgames\tislands formed\tbridges\tburned land\tmobility Light\tmobility Dark\t")
		for _, t := range b.ByTurn {
			if t.Turn != 1 && t.Turn%step != 0 {
				continue
			}
			fmt.Fprintf(tw, "  %d\t%d\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t\n", t.Turn, t.Games, t.IslandsFormed, t.Bridges, t.DeadCreated, t.Mobility[0], t.Mobility[1])
		}
		tw.Flush()
	}
}

// advantage writes a branch's advantage: "+65 Elo [+40, +90]; 59.3% [55.7–62.8] of 654".
func advantage(a Advantage) string {
	if a.Games == 0 {
		return "– of 0"
	}
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]; %.1f%% [%.1f–%.1f] of %d", a.Elo, a.EloLo, a.EloHi, 100*a.Score, 100*a.ScoreLo, 100*a.ScoreHi, a.Games)
}

// MaxNameColumn is the most characters of a player's name in a text table: a longer one
// is cut, with "…" to show it, so that one long name does not widen every line (--json
// keeps names whole).
const MaxNameColumn = 40

// clipName cuts name to at most n characters, the last of them "…" when it was cut.
func clipName(name string, n int) string {
	if utf8.RuneCountInString(name) <= n {
		return name
	}
	runes := 0
	for i := range name {
		if runes == n-1 {
			return name[:i] + "…"
		}
		runes++
	}
	return name
}

// writeRatings prints the players' ratings, best first.
func writeRatings(w io.Writer, st *Strength) {
	fmt.Fprintf(w, "\nRatings (Bradley–Terry, Elo, the players' mean 0; 95%% intervals; %d %s)\n", st.Players, termtext.Plural(st.Players, "player", "players"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  player\tgames\trating\t95% interval\t")
	for _, p := range st.Ratings {
		mark := ""
		if p.Group > 0 {
			mark = " †" + strconv.Itoa(p.Group)
		}
		if p.Alone {
			fmt.Fprintf(tw, "  %s%s\t%d\t–\t(met no one else)\t\n", termtext.Safe(clipName(p.Player, MaxNameColumn)), mark, p.Games)
			continue
		}
		fmt.Fprintf(tw, "  %s%s\t%d\t%+.0f\t[%+.0f, %+.0f]\t\n", termtext.Safe(clipName(p.Player, MaxNameColumn)), mark, p.Games, p.Rating, p.Lo, p.Hi)
	}
	tw.Flush()
	if st.Groups > 1 {
		fmt.Fprintf(w, "  † never met the unmarked players, nor anyone who did: rated only within its own group (†1, †2 …), whose mean is 0\n")
	}
}

// writeOpenings prints the most played openings with their shrunk rates, and what the
// opener can secure.
func writeOpenings(w io.Writer, b *Board, openings int) {
	n := min(openings, len(b.Openings))
	fmt.Fprintf(w, "\nOpenings, folded by symmetry (%d most played of %d); rates shrunk towards the board's average, 95%% intervals\n", n, len(b.Openings))
	if n > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  opening\tgames\tshare\tedge\tapart\tswapped\topener without a swap\topener after a swap\t")
		for _, o := range b.Openings[:n] {
			fmt.Fprintf(tw, "  %s %s\t%d\t%.1f%%\t%d\t%d\t%s\t%s\t%s\t\n", o.A, o.B, o.Games, 100*o.Share.P, o.Edge, o.Apart,
				shrunk(o.SwappedShrunk, false), shrunk(o.OpenerKeptShrunk, true), shrunk(o.OpenerSwappedShrunk, true))
		}
		tw.Flush()
	}
	if sec := b.Secure; sec != nil {
		fmt.Fprintf(w, "  the opener can secure %s with %s %s, whose worse branch is %s; the best of %d %s seen in both branches, so it leans high\n",
			shrunk(sec.Score, true), sec.A, sec.B, map[string]string{"kept": "without a swap", "swapped": "after a swap"}[sec.Branch],
			sec.Openings, termtext.Plural(sec.Openings, "opening", "openings"))
	} else {
		fmt.Fprintln(w, "  the opener can secure: – (no opening seen both swapped and not)")
	}
}

// shrunk writes a shrunk rate with its interval, and its games when games is set:
// "55.0% [40.0–70.0] of 9".
func shrunk(s Shrunk, games bool) string {
	out := fmt.Sprintf("%.1f%% [%.1f–%.1f]", 100*s.Rate, 100*s.Lo, 100*s.Hi)
	if games {
		out += fmt.Sprintf(" of %d", s.N)
	}
	return out
}

// writeDistances prints the swap rate and the opener's score by the opening's distances.
func writeDistances(w io.Writer, b *Board) {
	for _, t := range []struct {
		title string
		bins  []DistanceBin
	}{
		{"By the opening's distance from the edge (the nearer of its two tiles; 0 on the edge)", b.ByEdge},
		{"By the distance between the opening's two tiles (Chebyshev: the greater of the column and row differences)", b.ByApart},
	} {
		fmt.Fprintf(w, "\n%s\n", t.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  distance\tgames\tswapped\topener's score\t")
		for _, d := range t.bins {
			fmt.Fprintf(tw, "  %d\t%d\t%s\t%s\t\n", d.Distance, d.Games, pctShort(d.Swapped), pctShort(d.Opener))
		}
		tw.Flush()
	}
}

// writeOverTime prints the swap rate and the opener's score by month or quarter.
func writeOverTime(w io.Writer, b *Board) {
	ot := b.OverTime
	if ot == nil {
		return
	}
	why := ""
	if ot.By == "quarter" {
		why = fmt.Sprintf("; months held fewer than %d games on average", MinMonthGames)
	}
	fmt.Fprintf(w, "\nOver time, by %s (%d dated %s, %d without a month%s)\n", ot.By, ot.Dated, termtext.Plural(ot.Dated, "game", "games"), ot.Undated, why)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  period\tgames\tswapped\topener's score\t")
	for _, p := range ot.Periods {
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t\n", p.Period, p.Games, pctShort(p.Swapped), pctShort(p.Opener))
	}
	tw.Flush()
}

// writeHeat draws the opening heat map of frequency as a board, row 1 at the bottom.
func writeHeat(w io.Writer, b *Board) {
	fmt.Fprintf(w, "\nOpening cells: openings with a tile on each cell\n")
	width := 2
	for _, c := range b.Cells {
		width = max(width, len(fmt.Sprint(c.Games)))
	}
	for row := b.Size - 1; row >= 0; row-- {
		fmt.Fprintf(w, "  %2d ", row+1)
		for col := 0; col < b.Size; col++ {
			c := b.Cells[row*b.Size+col]
			if c.Games == 0 {
				fmt.Fprintf(w, " %*s", width, ".")
			} else {
				fmt.Fprintf(w, " %*d", width, c.Games)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "     ")
	for col := 0; col < b.Size; col++ {
		fmt.Fprintf(w, " %*c", width, 'a'+col)
	}
	fmt.Fprintln(w)
}

// spread summarises a distribution: its least, median and greatest values.
func spread(bins []Bin) string {
	total := 0
	for _, b := range bins {
		total += b.Count
	}
	if total == 0 {
		return "–"
	}
	median, seen := 0, 0
	for _, b := range bins {
		seen += b.Count
		if 2*seen >= total {
			median = b.Value
			break
		}
	}
	return fmt.Sprintf("%d … %d, median %d", bins[0].Value, bins[len(bins)-1].Value, median)
}

func binList(bins []Bin) string {
	if len(bins) == 0 {
		return "–"
	}
	parts := make([]string, len(bins))
	for i, b := range bins {
		parts[i] = fmt.Sprintf("%d: %d", b.Value, b.Count)
	}
	return strings.Join(parts, ", ")
}

func countList(cs []Count) string {
	var parts []string
	for _, c := range cs {
		if c.Rate.Hits > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%% (%d)", c.Name, 100*c.Rate.P, int(c.Rate.Hits)))
		}
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, ", ")
}

// turnStep thins the by-turn table to about 12 rows.
func turnStep(ts []TurnStat) int {
	last := ts[len(ts)-1].Turn
	for _, step := range []int{1, 5, 10, 20, 50} {
		if last/step <= 12 {
			return step
		}
	}
	return 100
}

// pctShort writes a rate as "52.3% [48.1–56.4]".
func pctShort(r Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% [%.1f–%.1f]", 100*r.P, 100*r.Lo, 100*r.Hi)
}

// WriteAccuracy prints the players' accuracy, when there is any.
func WriteAccuracy(w io.Writer, acc []Accuracy) {
	if len(acc) == 0 {
		return
	}
	fmt.Fprintf(w, "\nAccuracy by the engine (ponte annotate): mean loss of the mover's chance per turn, 95%% interval over games\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tengine\tgames\tturns\tmean loss\t95% interval\tinaccuracies\tmistakes\tblunders\t")
	for _, a := range acc {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t[%.1f–%.1f]\t%d\t%d\t%d\t\n", termtext.Safe(a.Player), a.Bot, a.Games, a.Turns,
			100*a.MeanLoss, 100*a.Lo, 100*a.Hi, a.Inaccuracies, a.Mistakes, a.Blunders)
	}
	tw.Flush()
}
