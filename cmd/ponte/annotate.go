package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// annotateOptions are the flags of `ponte annotate`.
type annotateOptions struct {
	db        string
	parquet   string
	noParquet bool
	engine    string
	budget    int // 0: the engine's own
	workers   int
	games     int
	shard     string
	merge     []string
	json      bool
	quiet     bool
	filter    stats.Filter
	mergeOnly bool   // read no game: only --merge (ponte analyze --evals)
	recal     bool   // --recalibrate
	command   string // the command's name in warnings: "ponte annotate" when ""
}

func newAnnotateCmd(s *streams) *cobra.Command {
	opts := &annotateOptions{}
	cmd := &cobra.Command{
		Use:     "annotate [flags]",
		Short:   "Read every turn of the stored games with the engine: win chances, best turns, mistakes",
		Long:    help("annotate"),
		Example: `  ponte annotate --population people`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotate(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", defaultDB, "the database made by ponte ingest")
	f.StringVar(&opts.parquet, "parquet", "", "the Parquet folder to write turn_evals.parquet into (default: the database's, when it exists)")
	f.BoolVar(&opts.noParquet, "no-parquet", false, "do not write turn_evals.parquet")
	opts.workers, opts.games = defaultWorkers(), 0
	f.StringVar(&opts.engine, "engine", annotate.DefaultEngine, "the engine that reads: lore-N, arch-N or sage-N, N playouts a position; play-N, N games played out after each turn (about 500 times slower, for a game at a time)")
	f.Var(countFlag(&opts.budget, 1, maxCount), "budget", fmt.Sprintf("the engine's playouts per position, or games per turn for play-N (1 to %d; default the engine's N)", maxCount))
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games read in parallel (1 to %d)", maxWorkers))
	f.Var(countFlag(&opts.games, 0, maxCount), "games", fmt.Sprintf("read at most this many games (0: all selected; to %d)", maxCount))
	f.StringVar(&opts.shard, "shard", "1/1", "read only shard i of N of the games (by stable id): i/N")
	f.StringArrayVar(&opts.merge, "merge", nil, "add the rows of this turn_evals.parquet (another shard's), then read the games still to read")
	f.BoolVar(&opts.recal, "recalibrate", false, "calibrate the stored rows of the engine again with this ponte's calibration (no search), then go on")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar, no summary")
	addFilterFlags(cmd, &opts.filter)
	return cmd
}

func runAnnotate(s *streams, opts *annotateOptions) error {
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	shard, shards, err := parseShard(opts.shard)
	if err != nil {
		return err
	}
	if _, err := os.Stat(opts.db); err != nil {
		return usagef("no database %s: store games first with ponte ingest --db %s FILES", safe(opts.db), safe(opts.db))
	}
	db, err := intake.Open(opts.db)
	if err != nil {
		return usage(err)
	}
	defer db.Close()
	res, err := annotateGames(s, db, opts, shard, shards)
	if err != nil {
		return usage(err)
	}
	if res.Interrupted {
		fmt.Fprintf(s.err, "ponte annotate: interrupted: %d %s read and kept; run the same command again to go on\n", res.Games, plural(res.Games, "game", "games"))
		return interrupted
	}
	switch {
	case opts.json:
		return json.NewEncoder(s.out).Encode(res)
	case !opts.quiet:
		fmt.Fprintln(s.out, res.Summary())
	}
	return nil
}

// annotateGames runs annotate.Run with the options' settings and a progress bar.
func annotateGames(s *streams, db *store.DB, opts *annotateOptions, shard, shards int) (*annotate.Result, error) {
	engine, err := engineName(opts.engine, opts.budget)
	if err != nil {
		return nil, err
	}
	return annotate.Run(s.ctx, db, annotate.RunOptions{DB: opts.db, Engine: engine, Workers: opts.workers,
		Games: opts.games, Shard: shard, Shards: shards, Merge: opts.merge, MergeOnly: opts.mergeOnly,
		Recalibrate: opts.recal, Filter: opts.filter, Parquet: opts.parquet, NoParquet: opts.noParquet,
		Skipped: func(err *annotate.GameError) {
			name := opts.command
			if name == "" {
				name = "ponte annotate"
			}
			fmt.Fprintf(s.err, "%s: warning: %s\n", name, safeErr(err))
		},
		Start: func(positions int64) (func(int64), func(bool)) {
			bar := progress.CountStage(s.err, bars(s.err, opts.quiet || opts.json), "annotate", positions, "positions", nil)
			return bar.Set, bar.End
		}})
}

// engineName is the engine of --engine with the budget of --budget (0: the engine's own).
func engineName(engine string, budget int) (string, error) {
	if budget > 0 {
		family, _, _ := strings.Cut(engine, "-")
		engine = family + "-" + strconv.Itoa(budget)
	}
	if err := annotate.CheckEngine(engine); err != nil {
		return "", fmt.Errorf("--engine: %w", err)
	}
	return engine, nil
}

// sampleEvals is the engine's reading of the sample data's games, which ponte analyze
// merges when it reads sample_data (docs/annotate.md says how it was made).
const sampleEvals = "annotate/sample/turn_evals.parquet"

// analyzeGames reads --annotate of ponte analyze: the games to read, -1 for all, 0 none.
func analyzeGames(flag string) (int, error) {
	switch flag {
	case "":
		return 0, nil
	case "all":
		return -1, nil
	}
	n, err := strconv.Atoi(flag)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("--annotate=%s: want a number of games (1 or more), or --annotate alone for all", flag)
	}
	return n, nil
}

// analyzeEvals merges --evals and reads the games --annotate asks for, between ponte
// analyze's ingest and its report. The sample's readings are merged only when the file is
// there (a checkout without it makes a report without them).
func analyzeEvals(s *streams, opts *analyzeOptions) error {
	games, _ := analyzeGames(opts.annotate)
	evals := opts.evals
	if evals == sampleEvals {
		if _, err := os.Stat(evals); err != nil {
			evals = ""
		}
	}
	if games == 0 && evals == "" {
		return nil
	}
	in := &opts.ingest
	if in.parquetOnly {
		return fmt.Errorf("--annotate and --evals need a database: give --db")
	}
	db, err := intake.Open(in.db)
	if err != nil {
		return usage(err)
	}
	defer db.Close()
	ao := &annotateOptions{db: in.db, parquet: in.parquet, noParquet: in.noParquet, engine: annotate.DefaultEngine,
		workers: in.workers, games: max(games, 0), quiet: in.quiet || opts.report.json, json: opts.report.json, filter: opts.report.filter,
		command: "ponte analyze"}
	if evals != "" {
		ao.merge = []string{evals}
	}
	ao.mergeOnly = games == 0
	res, err := annotateGames(s, db, ao, 1, 1)
	if err != nil {
		return usage(err)
	}
	if res.Interrupted {
		fmt.Fprintf(s.err, "ponte analyze: interrupted: %d %s read by the engine and kept; run the same command again to go on\n", res.Games, plural(res.Games, "game", "games"))
		return interrupted
	}
	if !ao.quiet {
		fmt.Fprintln(s.out, res.Summary())
	}
	return nil
}
