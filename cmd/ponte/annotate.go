package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// annotateOptions are the flags of `ponte annotate`.
type annotateOptions struct {
	db        string
	parquet   string
	noParquet bool
	budget    int
	workers   int
	games     int
	shard     string
	merge     []string
	json      bool
	quiet     bool
	filter    stats.Filter
	mergeOnly bool // read no game: only --merge (ponte analyze --evals)
	recal     bool // --recalibrate
}

func newAnnotateCmd(s *streams) *cobra.Command {
	opts := &annotateOptions{}
	cmd := &cobra.Command{
		Use:   "annotate [flags]",
		Short: "Read every turn of the stored games with the engine: win chances, best turns, mistakes",
		Long: `Read every turn of the legal games in the database --db with the engine (the
sage bot searching each position with --budget playouts): the calibrated chance
that Light wins before and after the turn, the engine's best turn there, the
loss of the turn played (the drop in the mover's chance of winning) and its
mark: inaccuracy, mistake or blunder. The swap is judged as a turn like any
other. The rows are stored in the table turn_evals of the database and written
to turn_evals.parquet in its Parquet folder (docs/annotate.md).

The flags --size, --site, --event, --player, --source, --from, --to,
--population and --bots select the games as in ponte stats; --games stops after
that many. Games the same bot and budget have read are left alone, so the
command goes on where an interrupted one stopped, and a second run stores
nothing new. Each position is searched with a random source made from the
game's stable id and the turn: the rows are the same whatever --workers is.

--recalibrate calibrates the rows stored before again with this ponte's
calibration, from the search values they keep, without searching again.

--shard i/N reads only the games whose stable id falls in shard i of N, so that
N machines can share an archive; --merge FILE adds the rows of another
database's turn_evals.parquet (a shard's) to this one, leaving out those it
already holds: merging is idempotent, and N shards merged give the rows of one
run.

A progress bar is shown on standard error when it is a terminal. Ctrl-C keeps
every game whose turns are all read.

Exit status: 0 done, 2 a usage error or a database that cannot be used, 130
interrupted by Ctrl-C (SIGINT) and 143 by SIGTERM (the finished games kept), 3
an internal error (a bug).`,
		Example: `  ponte annotate --population people
  ponte annotate --budget 400 --player Anna
  ponte annotate --shard 1/2 --db copy1.db; ponte annotate --merge copy2.parquet/turn_evals.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotate(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", defaultDB, "the database made by ponte ingest")
	f.StringVar(&opts.parquet, "parquet", "", "the Parquet folder to write turn_evals.parquet into (default: the database's, when it exists)")
	f.BoolVar(&opts.noParquet, "no-parquet", false, "do not write turn_evals.parquet")
	f.IntVar(&opts.budget, "budget", annotate.DefaultPlayouts, "the engine's playouts per position")
	f.IntVar(&opts.workers, "workers", defaultWorkers(), fmt.Sprintf("games read in parallel (1 to %d)", maxWorkers))
	f.IntVar(&opts.games, "games", 0, "read at most this many games (0: all selected)")
	f.StringVar(&opts.shard, "shard", "1/1", "read only shard i of N of the games (by stable id): i/N")
	f.StringArrayVar(&opts.merge, "merge", nil, "add the rows of this turn_evals.parquet (another shard's), then read the games still to read")
	f.BoolVar(&opts.recal, "recalibrate", false, "calibrate the stored rows of the engine again with this ponte's calibration (no search), then go on")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar, no summary")
	addFilterFlags(cmd, &opts.filter)
	return cmd
}

// annotateResult is the summary of ponte annotate (--json).
type annotateResult struct {
	Bot          string  `json:"bot"`
	Playouts     int     `json:"playouts"`
	Games        int     `json:"games"`     // games read by this run
	Positions    int64   `json:"positions"` // positions searched
	Merged       int64   `json:"merged"`    // rows added by --merge
	Stored       int64   `json:"stored"`    // rows stored by this run, merged ones included
	Rows         int64   `json:"rows"`      // rows of turn_evals now
	Seconds      float64 `json:"seconds"`   // the time spent reading games
	PositionsPS  float64 `json:"positions_per_second"`
	Recalibrated int64   `json:"recalibrated"` // rows whose chances --recalibrate changed
	Parquet      string  `json:"parquet,omitempty"`
	Interrupted  bool    `json:"interrupted"`
}

// inShard reports whether the game of stable id gameID is in shard i of n.
func inShard(gameID string, i, n int) bool {
	if n == 1 {
		return true
	}
	v, err := strconv.ParseUint(gameID[:min(8, len(gameID))], 16, 64)
	if err != nil {
		return i == 1
	}
	return int(v%uint64(n)) == i-1
}

func runAnnotate(s *streams, opts *annotateOptions) error {
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	shard, shards, err := parseShard(opts.shard)
	if err != nil {
		return err
	}
	switch {
	case opts.budget < 1 || opts.budget > 1_000_000:
		return fmt.Errorf("--budget %d: want 1 to 1000000 playouts", opts.budget)
	case opts.workers < 1 || opts.workers > maxWorkers:
		return fmt.Errorf("--workers %d: want 1 to %d", opts.workers, maxWorkers)
	case opts.games < 0:
		return fmt.Errorf("--games %d: want 0 or more", opts.games)
	}
	if _, err := os.Stat(opts.db); err != nil {
		return usagef("no database %s: store games first with ponte ingest --db %s FILES", safe(opts.db), safe(opts.db))
	}
	db, err := store.Open(opts.db)
	if err != nil {
		return usage(err)
	}
	defer db.Close()
	res, err := annotateGames(s, db, opts, shard, shards)
	if err != nil {
		if _, ok := errors.AsType[*bugError](err); ok {
			return internalError(err)
		}
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
		fmt.Fprintln(s.out, annotateSummary(res))
	}
	return nil
}

// bugError is a turn the engine could not replay: a stored legal game that is not.
type bugError struct{ err error }

func (b *bugError) Error() string { return b.err.Error() }

func annotateSummary(r *annotateResult) string {
	var b strings.Builder
	if r.Games > 0 || r.Merged == 0 {
		fmt.Fprintf(&b, "%s: %d %s read, %s positions in %.1f s (%.1f positions/s); ",
			r.Bot, r.Games, plural(r.Games, "game", "games"), thousands(r.Positions), r.Seconds, r.PositionsPS)
	}
	fmt.Fprintf(&b, "%s rows of the engine's readings stored", thousands(r.Stored))
	if r.Merged > 0 {
		fmt.Fprintf(&b, " (%s merged)", thousands(r.Merged))
	}
	fmt.Fprintf(&b, ", %s in all", thousands(r.Rows))
	if r.Recalibrated > 0 {
		fmt.Fprintf(&b, "; %s recalibrated", thousands(r.Recalibrated))
	}
	if r.Parquet != "" {
		fmt.Fprintf(&b, "\nparquet: %s", r.Parquet)
	}
	return b.String()
}

// annotateGames merges, reads the games still to read, stores their rows a game at a time
// and writes turn_evals.parquet.
func annotateGames(s *streams, db *store.DB, opts *annotateOptions, shard, shards int) (*annotateResult, error) {
	ctx := s.ctx
	probe := annotate.NewEngine(opts.budget, annotate.Fitted)
	res := &annotateResult{Bot: probe.Bot(), Playouts: opts.budget}
	for _, path := range opts.merge {
		err := store.ReadEvalsParquet(path, func(rows []store.TurnEval) error {
			n, err := db.SaveEvals(ctx, rows)
			res.Merged += n
			res.Stored += n
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("--merge %s: %w", path, err)
		}
	}
	if opts.recal {
		n, err := db.RecalibrateEvals(ctx, res.Bot, func(r *store.TurnEval, size int) {
			t := annotate.Turn{Turn: int(r.Turn), Colour: replay.Light, RawBefore: r.RawBefore, RawAfter: r.RawAfter,
				OverAfter: r.OverAfter, BestQ: r.BestQ, PlayedQ: r.PlayedQ, BestN: int(r.BestN), PlayedN: int(r.PlayedN)}
			if r.Colour == "dark" {
				t.Colour = replay.Dark
			}
			annotate.Fitted.Apply(&t, size)
			r.Before, r.After, r.Loss, r.Mark = t.Before, t.After, t.Loss, nil
			if m := t.Mark.String(); m != "" {
				r.Mark = &m
			}
		})
		if err != nil {
			return nil, err
		}
		res.Recalibrated = n
	}
	var all []store.EvalGame
	var err error
	if !opts.mergeOnly {
		if all, err = db.GamesToAnnotate(ctx, opts.filter, res.Bot); err != nil {
			return nil, err
		}
	}
	var todo []store.EvalGame
	var positions int64
	for _, g := range all {
		if opts.games > 0 && len(todo) == opts.games {
			break
		}
		if inShard(g.GameID, shard, shards) {
			todo = append(todo, g)
			positions += int64(g.Turns) + 1
		}
	}
	bar := startStage(s.err, opts.quiet || opts.json, func(p *mpb.Progress) *phase {
		return newCountBar(p, "annotate", positions, "positions", nil)
	})
	start := time.Now()
	var done atomic.Int64
	type result struct {
		g    store.EvalGame
		rows []store.TurnEval
		err  error
	}
	jobs := make(chan store.EvalGame)
	results := make(chan result)
	var wg sync.WaitGroup
	for range min(opts.workers, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer bug.Recover()
			defer wg.Done()
			e := annotate.NewEngine(opts.budget, annotate.Fitted)
			for g := range jobs {
				rows, err := annotateOne(ctx, e, g, func(int) { bar.set(done.Add(1)) })
				results <- result{g, rows, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, g := range todo {
			select {
			case jobs <- g:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var firstErr error
	for r := range results {
		switch {
		case r.err != nil && ctx.Err() != nil:
			// Interrupted in the middle of the game: nothing of it is kept.
		case r.err != nil:
			if firstErr == nil {
				firstErr = r.err
			}
		case firstErr == nil:
			n, err := db.SaveEvals(context.WithoutCancel(ctx), r.rows)
			if err != nil {
				firstErr = err
				continue
			}
			res.Stored += n
			res.Games++
		}
	}
	bar.end(firstErr == nil && ctx.Err() == nil)
	res.Seconds = time.Since(start).Seconds()
	res.Positions = done.Load()
	if res.Seconds > 0 {
		res.PositionsPS = float64(res.Positions) / res.Seconds
	}
	if firstErr != nil {
		return nil, firstErr
	}
	res.Interrupted = ctx.Err() != nil
	if res.Rows, err = db.CountEvals(context.WithoutCancel(ctx)); err != nil {
		return nil, err
	}
	if !opts.noParquet {
		dir := opts.parquet
		if dir == "" {
			dir = store.ParquetDirFor(opts.db)
		}
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			path := store.EvalsParquetPath(dir)
			if _, err := db.WriteEvalsParquet(context.WithoutCancel(ctx), path); err != nil {
				return nil, err
			}
			res.Parquet = path
		} else if opts.parquet != "" {
			return nil, fmt.Errorf("--parquet %s: not a folder", opts.parquet)
		}
	}
	return res, nil
}

// annotateOne reads one game and returns its rows.
func annotateOne(ctx context.Context, e *annotate.Engine, g store.EvalGame, progress annotate.Progress) ([]store.TurnEval, error) {
	supply, ok := replay.ParseSupply(g.Supply)
	if !ok {
		return nil, fmt.Errorf("game %d: supply %q", g.ID, g.Supply)
	}
	moves := strings.Fields(g.Moves)
	if len(moves) < g.Turns {
		return nil, &bugError{fmt.Errorf("game %d: %d moves stored for %d legal turns", g.ID, len(moves), g.Turns)}
	}
	turns, err := e.Analyse(annotate.Game{GameID: g.GameID, Size: g.Size, Supply: supply, Moves: moves[:g.Turns]},
		ctx.Err, progress)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &bugError{err}
	}
	return evalRows(e, g.GameID, turns), nil
}

// evalRows are the rows of a game's turns.
func evalRows(e *annotate.Engine, gameID string, turns []annotate.Turn) []store.TurnEval {
	rows := make([]store.TurnEval, len(turns))
	for i, t := range turns {
		r := store.TurnEval{GameID: gameID, Turn: int32(t.Turn), Bot: e.Bot(), Playouts: int32(e.Playouts()),
			Colour: strings.ToLower(t.Colour.String()), Played: t.Played,
			RawBefore: t.RawBefore, RawAfter: t.RawAfter, OverAfter: t.OverAfter, BestQ: t.BestQ, PlayedQ: t.PlayedQ,
			BestN: int32(t.BestN), PlayedN: int32(t.PlayedN), Before: t.Before, After: t.After, Loss: t.Loss}
		if t.Best != "" {
			best := t.Best
			r.Best = &best
		}
		if m := t.Mark.String(); m != "" {
			r.Mark = &m
		}
		rows[i] = r
	}
	return rows
}

// playerAccuracy is the accuracy of the players of the games f selects in population,
// by the engine's reading of their turns; nil when none is annotated.
func playerAccuracy(ctx context.Context, db *store.Reader, f stats.Filter, population string) ([]stats.Accuracy, error) {
	if population == stats.PopulationPeople || population == stats.PopulationBots {
		f.Population = population
	}
	var rows []stats.TurnLoss
	err := db.EachEval(ctx, f, func(e store.TurnEval) error {
		mark := ""
		if e.Mark != nil {
			mark = *e.Mark
		}
		rows = append(rows, stats.TurnLoss{Game: e.Game, Player: e.Player, Bot: e.Bot, Loss: e.Loss, Mark: mark})
		return nil
	})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return stats.Accuracies(rows), nil
}

// writeAccuracy prints the players' accuracy, when there is any.
func writeAccuracy(w io.Writer, acc []stats.Accuracy) {
	if len(acc) == 0 {
		return
	}
	fmt.Fprintf(w, "\nAccuracy by the engine (ponte annotate): mean loss of the mover's chance per turn, 95%% interval over games\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tengine\tgames\tturns\tmean loss\t95% interval\tinaccuracies\tmistakes\tblunders\t")
	for _, a := range acc {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t[%.1f–%.1f]\t%d\t%d\t%d\t\n", safe(a.Player), a.Bot, a.Games, a.Turns,
			100*a.MeanLoss, 100*a.Lo, 100*a.Hi, a.Inaccuracies, a.Mistakes, a.Blunders)
	}
	tw.Flush()
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
	db, err := store.Open(in.db)
	if err != nil {
		return usage(err)
	}
	defer db.Close()
	ao := &annotateOptions{db: in.db, parquet: in.parquet, noParquet: in.noParquet, budget: annotate.DefaultPlayouts,
		workers: in.workers, games: max(games, 0), quiet: in.quiet || opts.report.json, json: opts.report.json, filter: opts.report.filter}
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
		fmt.Fprintln(s.out, annotateSummary(res))
	}
	return nil
}
