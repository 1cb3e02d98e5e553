package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/gtp"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/match"
)

// matchOptions are the flags of `ponte match`.
type matchOptions struct {
	games       int
	size        int
	supply      game.Supply
	seed        uint64
	workers     int
	playouts    int
	threads     int
	sprt        string
	alpha, beta float64
	out         string
	json        bool
	quiet       bool
}

func newMatchCmd(s *streams) *cobra.Command {
	opts := &matchOptions{}
	cmd := &cobra.Command{
		Use:     "match A B [flags]",
		Short:   "Play bot A against bot B in game pairs and say which is stronger",
		Long:    help("match"),
		Example: `  ponte match mcts-400 greedy --games 200`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMatch(s, opts, args[0], args[1])
		},
	}
	f := cmd.Flags()
	opts.games = 200
	f.VarP(countFlag(&opts.games, 2, maxCount), "games", "n", "the most games to play, an even number (pairs of games)")
	opts.size = 10
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side, %d to %d", game.MinSize, game.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", `"unlimited" or "40/15" (tiles per colour / bridges)`)
	f.Uint64Var(&opts.seed, "seed", 1, "random seed of the openings and the games")
	opts.workers = defaultWorkers()
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games played in parallel (1 to %d)", maxWorkers))
	opts.playouts = 400
	f.Var(countFlag(&opts.playouts, 1, bot.MaxPlayouts), "playouts", `the budget of a bot named "mcts"`)
	opts.threads = 1
	f.Var(countFlag(&opts.threads, 1, bot.MaxThreads), "threads", fmt.Sprintf("the threads an arch bot searches one position with, 1 to %d (its name gets -tK)", bot.MaxThreads))
	f.StringVar(&opts.sprt, "sprt", "", `run an SPRT of H0 "A is stronger by ELO0" against H1 "by ELO1": "ELO0,ELO1"`)
	f.Float64Var(&opts.alpha, "alpha", 0.05, "the SPRT's chance of accepting H1 when H0 holds")
	f.Float64Var(&opts.beta, "beta", 0.05, "the SPRT's chance of accepting H0 when H1 holds")
	f.StringVarP(&opts.out, "out", "o", "", "write the games to this archive (.ponte or .jsonl, .gz or .zst compresses)")
	f.BoolVar(&opts.json, "json", false, "print the result as one JSON object")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

// checkMatch checks the options and makes the match's configuration; an error is a usage
// error.
func checkMatch(opts *matchOptions, a, b string) (*match.Config, error) {
	o := bot.Options{Playouts: opts.playouts, Workers: 1, Threads: opts.threads}
	cfg := &match.Config{A: a, B: b, Size: opts.size, Supply: opts.supply, Seed: opts.seed, Workers: opts.workers,
		NewBot: gtp.Players(func(name string) (bot.Bot, error) { return newBot(name, o) })}
	if err := cfg.NamePlayers(); err != nil {
		return nil, err
	}
	if opts.games%2 != 0 {
		return nil, fmt.Errorf("--games must be an even number from 2, the games of whole pairs, not %d", opts.games)
	}
	cfg.Pairs = opts.games / 2
	var err error
	cfg.SPRT, err = match.ParseSPRT(opts.sprt, opts.alpha, opts.beta)
	return cfg, err
}

func runMatch(s *streams, opts *matchOptions, a, b string) error {
	cfg, err := checkMatch(opts, a, b)
	if err != nil {
		return err
	}
	var out *archive.Output
	var w *ingest.Writer
	if opts.out != "" {
		if opts.out == "-" {
			return errors.New(`--out must name a file: standard output has the result`)
		}
		if out, err = archive.Create(s.ctx, opts.out, s.out); err != nil {
			return usage(err)
		}
		defer out.Abort()
		w = ingest.NewWriter(out.W, archive.FormatOf(opts.out))
	}

	// Read by the bar's goroutine.
	var games atomic.Int64
	var lastLLR atomic.Uint64 // math.Float64bits
	bar := progress.CountStage(s.err, bars(s.err, opts.quiet), "match", int64(opts.games), "games", func(elapsed time.Duration) string {
		t := ", " + progress.PerSecond(float64(games.Load()), elapsed) + " games/s"
		if cfg.SPRT != nil {
			t += fmt.Sprintf(", LLR %.2f", math.Float64frombits(lastLLR.Load()))
		}
		return t
	})
	start := time.Now()
	var writeErr error
	res, runErr := match.Run(s.ctx, cfg, func() {
		bar.Set(games.Add(1))
	}, func(p *match.Pair, r *match.Result) bool {
		lastLLR.Store(math.Float64bits(r.LLR))
		if w == nil {
			return true
		}
		for k := range 2 {
			if writeErr = w.Write(p.Record(cfg, k)); writeErr != nil {
				return false
			}
		}
		return true
	})
	elapsed := time.Since(start)
	bar.End(runErr == nil)
	if writeErr == nil && w != nil {
		if writeErr = w.Flush(); writeErr == nil && !errors.Is(runErr, match.ErrStopped) {
			writeErr = out.Commit()
		}
	}
	interruptedRun := runErr != nil && s.ctx.Err() != nil && errors.Is(runErr, s.ctx.Err())
	switch {
	case writeErr != nil:
		return usage(writeErr)
	case runErr != nil && !interruptedRun && errors.As(runErr, new(*gtp.EngineError)):
		return internalError(runErr)
	case runErr != nil && !interruptedRun:
		return botBug(runErr)
	}
	if opts.json {
		if err := json.NewEncoder(s.out).Encode(res.JSON(cfg)); err != nil {
			return err
		}
	} else {
		res.WriteText(s.out, cfg, elapsed)
	}
	if out != nil && !opts.json {
		fmt.Fprintf(s.err, "%d %s written to %s\n", res.Games(), plural(res.Games(), "game", "games"), safe(out.Name()))
	}
	if interruptedRun {
		fmt.Fprintf(s.err, "ponte match: interrupted after %d of %d games\n", res.Games(), opts.games)
		return interrupted
	}
	return nil
}
