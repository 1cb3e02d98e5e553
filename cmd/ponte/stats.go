package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// statsOptions are the flags of `ponte stats`.
type statsOptions struct {
	db       string
	json     bool
	openings int
	filter   stats.Filter
}

func newStatsCmd(s *streams) *cobra.Command {
	opts := &statsOptions{}
	cmd := &cobra.Command{
		Use:   "stats [flags]",
		Short: "Swap balance, openings, scoring and by-turn statistics of the stored games",
		Long: `Compute the statistics of the games in the database --db (made by ponte
ingest), for each board size: the balance of the pie rule (how often the second
player swaps; the opener's score with and without the swap; an estimate of the
opener's result when the second player chooses well), the openings folded by
the board's symmetries, the cells of the opening turn, how finished games were
scored (scores, margin, islands, bridges, components, tie-breaks, length), how
games ended, and islands, bridges, burned land and mobility by turn.

Every rate comes with its count and a 95% Wilson interval: "52.3% [48.1–56.4]
of 560". A score counts a win 1 and a draw ½.

The flags --size, --site, --event, --player (a player or bot, on either side),
--source (part of a file name), --from and --to (dates) select the games.
--json prints everything, including the full tables, as JSON.`,
		Example: `  ponte stats
  ponte stats --size 12 --player mcts
  ponte stats --from 2025-01-01 --to 2025-12-31 --json | jq .boards[0].swap`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStats(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "ponte.db", "the database made by ponte ingest")
	f.BoolVar(&opts.json, "json", false, "print the statistics as JSON")
	f.IntVar(&opts.openings, "openings", 10, "the most played openings listed per board size")
	addFilterFlags(cmd, &opts.filter)
	return cmd
}

// addFilterFlags adds the flags that select games (stats, report, analyze).
func addFilterFlags(cmd *cobra.Command, f *stats.Filter) {
	fl := cmd.Flags()
	fl.IntVar(&f.Size, "size", 0, "only games on this board size")
	fl.StringVar(&f.Site, "site", "", "only games with this Site tag")
	fl.StringVar(&f.Event, "event", "", "only games with this Event tag")
	fl.StringVar(&f.Player, "player", "", "only games of this player or bot (either side)")
	fl.StringVar(&f.Source, "source", "", "only games read from a file whose name contains this")
	fl.StringVar(&f.From, "from", "", "only games dated on or after this day (YYYY-MM-DD)")
	fl.StringVar(&f.To, "to", "", "only games dated on or before this day (YYYY-MM-DD)")
}

func runStats(s *streams, opts *statsOptions) error {
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	db, err := store.OpenReader(opts.db)
	if err != nil {
		fmt.Fprintln(s.err, "ponte stats:", safeErr(err))
		return &exitError{exitUsage}
	}
	defer db.Close()
	r, err := stats.Compute(context.Background(), db, opts.filter, stats.Options{})
	if err != nil {
		fmt.Fprintf(s.err, "ponte stats: %s: %s\n", safe(opts.db), safeErr(err))
		return &exitError{exitUsage}
	}
	if opts.json {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	writeStats(s.out, opts.db, r, opts.openings)
	return nil
}

// writeStats prints the main tables of the report, aligned.
func writeStats(w io.Writer, db string, r *stats.Report, openings int) {
	v := r.Verification
	fmt.Fprintf(w, "%s: %s\n\n", safe(db), safe(r.Filter.String()))
	fmt.Fprintf(w, "Verification: %d %s, %d legal, %d illegal, %d unreadable, %d %s met again\n",
		v.Games, plural(v.Games, "game", "games"), v.Legal, v.Illegal, v.Unreadable, v.Duplicates, plural(v.Duplicates, "copy", "copies"))
	if len(v.ByFormat) > 0 {
		parts := make([]string, len(v.ByFormat))
		for i, fc := range v.ByFormat {
			parts[i] = fmt.Sprintf("%s %d", safe(fc.Format), fc.Games)
		}
		fmt.Fprintf(w, "  read from: %s\n", strings.Join(parts, ", "))
	}
	if len(v.ByRule) > 0 {
		parts := make([]string, len(v.ByRule))
		for i, rc := range v.ByRule {
			parts[i] = fmt.Sprintf("%s %d", safe(rc.Rule), rc.Games)
		}
		fmt.Fprintf(w, "  first broken rule: %s\n", strings.Join(parts, ", "))
	}
	if len(r.Boards) == 0 {
		fmt.Fprintln(w, "\nNo legal games.")
	}
	for i := range r.Boards {
		writeBoard(w, &r.Boards[i], openings)
	}
}

func writeBoard(w io.Writer, b *stats.Board, openings int) {
	fmt.Fprintf(w, "\n== %d×%d: %d legal %s, %d decided, %d finished\n", b.Size, b.Size, b.Games, plural(b.Games, "game", "games"), b.Decided, b.Finished)

	sw := b.Swap
	fmt.Fprintf(w, "\nSwap balance (%d decided %s that reached turn 2)\n", sw.Games, plural(sw.Games, "game", "games"))
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
			e.Openings, plural(e.Openings, "opening", "openings"), e.Games)
	} else {
		fmt.Fprintf(tw, "  opener vs a good reply\t– (no opening seen %d times both swapped and not)\n", stats.MinBranch)
	}
	tw.Flush()
	fmt.Fprintf(w, "  verdict: %s\n", sw.Verdict)

	if len(b.Openings) > 0 {
		n := min(openings, len(b.Openings))
		fmt.Fprintf(w, "\nOpenings, folded by symmetry (%d most played of %d)\n", n, len(b.Openings))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  opening\tgames\tshare\tswapped\topener's score\tafter swap\twithout\t")
		for _, o := range b.Openings[:n] {
			fmt.Fprintf(tw, "  %s %s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", o.A, o.B, o.Games, fmt.Sprintf("%.1f%%", 100*o.Share.P), pct(o.Swapped), pct(o.Opener),
				pct(o.OpenerSwapped), pct(o.OpenerKept))
		}
		tw.Flush()
		writeHeat(w, b)
	}

	sc := b.Scoring
	fmt.Fprintf(w, "\nScoring (%d finished %s)\n", sc.Games, plural(sc.Games, "game", "games"))
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
	fmt.Fprintf(w, "  how the %d legal %s ended: %s\n", b.Games, plural(b.Games, "game", "games"), countList(sc.Endings))

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

// writeHeat draws the opening heat map of frequency as a board, row 1 at the bottom.
func writeHeat(w io.Writer, b *stats.Board) {
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

func pct(r stats.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%d)", 100*r.P, r.N)
}

// spread summarises a distribution: its least, median and greatest values.
func spread(bins []stats.Bin) string {
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

func binList(bins []stats.Bin) string {
	if len(bins) == 0 {
		return "–"
	}
	parts := make([]string, len(bins))
	for i, b := range bins {
		parts[i] = fmt.Sprintf("%d: %d", b.Value, b.Count)
	}
	return strings.Join(parts, ", ")
}

func countList(cs []stats.Count) string {
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
func turnStep(ts []stats.TurnStat) int {
	last := ts[len(ts)-1].Turn
	for _, step := range []int{1, 5, 10, 20, 50} {
		if last/step <= 12 {
			return step
		}
	}
	return 100
}

// pctShort writes a rate as "52.3% [48.1–56.4]".
func pctShort(r stats.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% [%.1f–%.1f]", 100*r.P, 100*r.Lo, 100*r.Hi)
}
