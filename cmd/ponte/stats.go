package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/stats"
)

// statsOptions are the flags of `ponte stats`.
type statsOptions struct {
	db       string
	json     bool
	openings int
	ratings  bool
	filter   stats.Filter
}

func newStatsCmd(s *streams) *cobra.Command {
	opts := &statsOptions{}
	cmd := &cobra.Command{
		Use:     "stats [flags]",
		Short:   "Swap balance, openings, scoring and by-turn statistics of the stored games",
		Long:    help("stats"),
		Example: `  ponte stats`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStats(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "ponte.db", "the database made by ponte ingest")
	f.BoolVar(&opts.json, "json", false, "print the statistics as JSON")
	opts.openings = 10
	f.Var(countFlag(&opts.openings, 0, maxCount), "openings", fmt.Sprintf("the most played openings listed per board size (0 to %d)", maxCount))
	f.BoolVar(&opts.ratings, "ratings", false, "list the players' ratings (Elo, with 95% intervals) per board size")
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
	fl.StringVar(&f.Population, "population", "", `"people" (games without a bot player), "bots" or "all" (default: stats and report people when there are any, else bots; export all)`)
	fl.StringVar(&f.Bots, "bots", "", "players that are bots, besides those the records mark: NAME,NAME,…")
}

func runStats(s *streams, opts *statsOptions) error {
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	db, err := openStored(s, "stats", opts.db)
	if err != nil {
		return err
	}
	defer db.Close()
	r, err := stats.Compute(s.ctx, db, opts.filter, stats.Options{})
	if s.stopped("stats", "") {
		return interrupted
	}
	if err != nil {
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if r.Accuracy, err = annotate.Accuracy(s.ctx, db, opts.filter, r.Population); err != nil {
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if r.SkippedReadings, err = annotate.WarnBadReadings(s.ctx, s.err, "ponte stats", opts.db, db, annotate.AccuracyFilter(opts.filter, r.Population)); err != nil {
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if opts.json {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	r.WriteText(s.out, opts.db, opts.openings, opts.ratings)
	return nil
}
