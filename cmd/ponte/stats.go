package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/game"
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
		Use:   "stats [flags]",
		Short: "Swap balance, openings, scoring and by-turn statistics of the stored games",
		Long: `Compute the statistics of the games in the database --db (made by ponte
ingest), for each board size, and print first the verdict on the pie rule of
each board: whether the opener is favoured, the responder, whether the game is
balanced within ±3%, or whether there are not enough games to tell, with the
estimate it rests on, its 95% interval and number of games, and the estimates
that disagree with each other. Boards of fewer than 30 games come last.

The estimate is the opener's expected score against an equal player, the
players' strength taken out: a Bradley–Terry (Elo) model with a rating per
player (by name) and an opener's advantage for each branch of the pie rule,
weighted by how often the second player swapped. Where it cannot be fitted,
the opener's raw score stands in, and the card says so.

Then, per board: the balance of the pie rule (how often the second player
swaps; the opener's score with and without the swap, raw and strength-
adjusted; the opener against a good reply), the openings folded by the board's
symmetries with their rates shrunk towards the board's average (and what the
opener can secure: the best opening's worse branch), the swap rate and the
opener's score by the opening's distance from the edge and between its tiles,
and over time, the cells of the opening turn, how finished games were scored,
how games ended, and islands, bridges, burned land and mobility by turn.
--ratings lists the players' ratings.

People's games and bots' games are never mixed silently. A game is a bots'
game when its Site is "` + game.SelfPlaySite + `", when its record marks a player as a bot
(Abstract Play's is_ai), or when a player is named in --bots. --population
people (the default when there are people's games), bots, or all (each, and
both together) chooses which the statistics cover; the output says which.

Every rate comes with its count and a 95% interval: "52.3% [48.1–56.4]
of 560". A score counts a win 1 and a draw ½.

The flags --size, --site, --event, --player (a player or bot, on either side),
--source (part of a file name), --from and --to (dates) select the games.
--json prints everything, including the full tables and the ratings, as JSON.

Exit status: 0 done, 2 a usage error, a database that cannot be read, or
standard output that cannot be written (a full disk), 130 interrupted by
Ctrl-C (SIGINT) and 143 by SIGTERM, 3 an internal error (a bug).`,
		Example: `  ponte stats
  ponte stats --population bots --ratings
  ponte stats --bots "Deep Ponte,ponte-bot" --population all
  ponte stats --size 12 --player mcts
  ponte stats --from 2025-01-01 --to 2025-12-31 --json | jq .cards`,
		Args: cobra.NoArgs,
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
	if r.Accuracy, err = playerAccuracy(s.ctx, db, opts.filter, r.Population); err != nil {
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if r.SkippedReadings, err = warnBadReadings(s, "stats", opts.db, db, annotate.AccuracyFilter(opts.filter, r.Population)); err != nil {
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

// maxNameColumn is the most characters of a player's name in a text table
// (stats.MaxNameColumn).
const maxNameColumn = stats.MaxNameColumn
