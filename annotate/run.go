package annotate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// RunOptions are an annotation run's settings: ponte annotate's flags.
type RunOptions struct {
	// DB is the database's path, whose Parquet folder is the default of Parquet.
	DB string
	// Engine is the bot that reads (NewEngine; "": DefaultEngine); Workers how many games
	// are read at once.
	Engine  string
	Workers int
	// Games bounds the games read (0: all those still to read).
	Games int
	// Shard and Shards: this run reads the games of shard Shard of Shards (1 of 1: all).
	Shard, Shards int
	// Merge are other shards' turn_evals.parquet files, added first.
	Merge []string
	// MergeOnly reads no game: the run merges (and recalibrates) alone.
	MergeOnly bool
	// Recalibrate calibrates the stored rows of the engine again with Fitted.
	Recalibrate bool
	// Filter selects the games read.
	Filter stats.Filter
	// Parquet is the folder whose turn_evals.parquet is rewritten ("": the database's,
	// when it exists); NoParquet writes none.
	Parquet   string
	NoParquet bool
	// Skipped, when not nil, is told each game skipped because its stored turns no longer
	// replay (a *GameError), in the games' order; the run goes on.
	Skipped func(err *GameError)
	// Start, when not nil, is told the positions to read once they are counted and returns
	// tick, told the positions read so far (from any worker), and end, told at the end
	// whether the run read everything.
	Start func(positions int64) (tick func(done int64), end func(ok bool))
}

// Result is the summary of an annotation run (ponte annotate --json).
type Result struct {
	Bot          string  `json:"bot"`
	Playouts     int     `json:"playouts"`
	Games        int     `json:"games"`     // games read by this run
	Positions    int64   `json:"positions"` // positions searched
	Merged       int64   `json:"merged"`    // rows added by --merge
	Stored       int64   `json:"stored"`    // rows stored by this run, merged ones included
	Rows         int64   `json:"rows"`      // rows of turn_evals now
	Seconds      float64 `json:"seconds"`   // the time spent reading games
	PositionsPS  float64 `json:"positions_per_second"`
	Recalibrated int64   `json:"recalibrated"`  // rows whose chances --recalibrate changed
	SkippedGames int     `json:"skipped_games"` // games whose stored turns no longer replay, left unread
	Parquet      string  `json:"parquet,omitempty"`
	Interrupted  bool    `json:"interrupted"`
}

// GameError is a stored game the engine cannot read: its turns no longer replay (an edit
// of the database, a change of the rules' reading). The run names it and goes on.
type GameError struct {
	Game   int64
	GameID string
	Err    error
}

func (e *GameError) Error() string {
	return fmt.Sprintf("game %d: %v: skipped, its stored turns do not replay (the database was changed outside ponte: ingest its source again)", e.Game, e.Err)
}

func (e *GameError) Unwrap() error { return e.Err }

// InShard reports whether the game of stable id gameID is in shard i of n.
func InShard(gameID string, i, n int) bool {
	if n == 1 {
		return true
	}
	v, err := strconv.ParseUint(gameID[:min(8, len(gameID))], 16, 64)
	if err != nil {
		return i == 1
	}
	return int(v%uint64(n)) == i-1
}

// Run merges, reads the games still to read on o.Workers workers (the project's
// pipeline), stores their rows a game at a time in the games' order and writes
// turn_evals.parquet. When ctx ends, the games finished are kept and Result.Interrupted
// says so.
func Run(ctx context.Context, db *store.DB, o RunOptions) (*Result, error) {
	if o.Engine == "" {
		o.Engine = DefaultEngine
	}
	probe, err := NewEngine(o.Engine, CalibrationOf(o.Engine))
	if err != nil {
		return nil, err
	}
	res := &Result{Bot: probe.Bot(), Playouts: probe.Playouts()}
	for _, path := range o.Merge {
		n, err := db.MergeEvals(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("--merge %s refused, nothing of it merged: %w", path, err)
		}
		res.Merged += n
		res.Stored += n
	}
	if o.Recalibrate {
		n, err := db.RecalibrateEvals(ctx, res.Bot, recalibrate)
		if err != nil {
			return nil, err
		}
		res.Recalibrated = n
	}
	var all []store.EvalGame
	if !o.MergeOnly {
		if all, err = db.GamesToAnnotate(ctx, o.Filter, res.Bot); err != nil {
			return nil, err
		}
	}
	var todo []store.EvalGame
	var positions int64
	for _, g := range all {
		if o.Games > 0 && len(todo) == o.Games {
			break
		}
		if InShard(g.GameID, o.Shard, o.Shards) {
			todo = append(todo, g)
			positions += int64(g.Turns) + 1
		}
	}
	tick, end := func(int64) {}, func(bool) {}
	if o.Start != nil {
		tick, end = o.Start(positions)
	}
	start := time.Now()
	var done atomic.Int64
	type result struct {
		rows []store.TurnEval
		err  error
	}
	p := pipeline.Pipeline[store.EvalGame, result]{
		Workers: min(o.Workers, max(len(todo), 1)),
		NewWorker: func() func(store.EvalGame) result {
			e, _ := NewEngine(o.Engine, CalibrationOf(o.Engine)) // the name is checked above
			return func(g store.EvalGame) result {
				if ctx.Err() != nil {
					return result{err: ctx.Err()}
				}
				rows, err := readGame(ctx, e, g, func(int) { tick(done.Add(1)) })
				return result{rows, err}
			}
		},
	}
	source := func(yield func(store.EvalGame) bool) {
		for _, g := range todo {
			if !yield(g) {
				return
			}
		}
	}
	runErr := p.Run(ctx, source, func(r result) error {
		switch {
		case r.err != nil && ctx.Err() != nil:
			return nil // interrupted in the middle of the game: nothing of it is kept
		case r.err != nil:
			if ge, ok := errors.AsType[*GameError](r.err); ok {
				res.SkippedGames++
				if o.Skipped != nil {
					o.Skipped(ge)
				}
				return nil
			}
			return r.err
		}
		n, err := db.SaveEvals(context.WithoutCancel(ctx), r.rows)
		if err != nil {
			return err
		}
		res.Stored += n
		res.Games++
		return nil
	})
	if runErr != nil && errors.Is(runErr, ctx.Err()) {
		runErr = nil // the end of ctx: Interrupted
	}
	end(runErr == nil && ctx.Err() == nil)
	res.Seconds = time.Since(start).Seconds()
	res.Positions = done.Load()
	if res.Seconds > 0 {
		res.PositionsPS = float64(res.Positions) / res.Seconds
	}
	if runErr != nil {
		return nil, runErr
	}
	res.Interrupted = ctx.Err() != nil
	if res.Rows, err = db.CountEvals(context.WithoutCancel(ctx)); err != nil {
		return nil, err
	}
	if !o.NoParquet {
		dir := o.Parquet
		if dir == "" {
			dir = store.ParquetDirFor(o.DB)
		}
		store.SweepParquetDir(dir) // a folder a killed run left aside is back
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			path := store.EvalsParquetPath(dir)
			if _, err := db.WriteEvalsParquet(context.WithoutCancel(ctx), path); err != nil {
				return nil, err
			}
			res.Parquet = path
		} else if o.Parquet != "" {
			return nil, fmt.Errorf("--parquet %s: not a folder", o.Parquet)
		}
	}
	return res, nil
}

// recalibrate sets a stored row's chances, loss and mark again from its raw values with
// the calibration of its engine (CalibrationOf).
func recalibrate(r *store.TurnEval, size int) {
	t := Turn{Turn: int(r.Turn), Colour: replay.Light, RawBefore: r.RawBefore, RawAfter: r.RawAfter,
		OverAfter: r.OverAfter, BestQ: r.BestQ, PlayedQ: r.PlayedQ, BestN: int(r.BestN), PlayedN: int(r.PlayedN)}
	if r.Colour == "dark" {
		t.Colour = replay.Dark
	}
	CalibrationOf(r.Bot).Apply(&t, size)
	r.Before, r.After, r.Loss, r.Mark = t.Before, t.After, t.Loss, nil
	if m := t.Mark.String(); m != "" {
		r.Mark = &m
	}
}

// readGame reads one stored game and returns its rows; a game whose stored turns do not
// replay is a *GameError.
func readGame(ctx context.Context, e *Engine, g store.EvalGame, progress Progress) ([]store.TurnEval, error) {
	bad := func(err error) error { return &GameError{Game: g.ID, GameID: g.GameID, Err: err} }
	supply, ok := game.ParseSupply(g.Supply)
	if !ok {
		return nil, bad(fmt.Errorf("game %s: supply %q", g.GameID, g.Supply))
	}
	moves := strings.Fields(g.Moves)
	if len(moves) < g.Turns {
		return nil, bad(fmt.Errorf("game %s: %d moves stored for %d legal turns", g.GameID, len(moves), g.Turns))
	}
	turns, err := e.Analyse(Game{GameID: g.GameID, Size: g.Size, Supply: supply, Moves: moves[:g.Turns]},
		ctx.Err, progress)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, bad(err)
	}
	return Rows(e, g.GameID, turns), nil
}

// Rows are the stored rows of a game's turns read by e.
func Rows(e *Engine, gameID string, turns []Turn) []store.TurnEval {
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
