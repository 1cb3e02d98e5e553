package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/pipeline"
)

// botsOptions are the flags of `ponte bots`.
type botsOptions struct {
	ladder     string
	size       int
	supply     game.Supply
	anchor     string
	bootstraps int
	json       bool
	quiet      bool

	time      bool
	botsSet   bool
	positions int
	rounds    int

	play    bool
	bots    []string
	games   int
	block   int
	reach   int
	seed    uint64
	workers int
}

// maxBootstraps bounds --bootstraps: each fit of a resampled ladder takes about 10 ms on
// the repository's ladder, so 100,000 of them are a quarter of an hour.
const maxBootstraps = 100_000

// defaultLadderBots are the bots of the repository's ladder, weakest first.
const defaultLadderBots = "random,greedy,mcts-30,mcts-100,mcts-400"

func newBotsCmd(s *streams) *cobra.Command {
	opts := &botsOptions{}
	cmd := &cobra.Command{
		Use:     "bots [flags]",
		Short:   "List the bots with their budget and rating from the ladder",
		Long:    help("bots"),
		Example: `  ponte bots`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.botsSet = cmd.Flags().Changed("bots")
			if opts.play {
				return runLadder(s, opts)
			}
			return runBots(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.ladder, "ladder", "", "the ladder file (default: the repository's, built into ponte; --play needs one)")
	opts.size = 10
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("the board side of the games rated, %d to %d", game.MinSize, game.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", "the supply of the games rated")
	f.StringVar(&opts.anchor, "anchor", "greedy", "the bot rated 0")
	opts.bootstraps = 400
	f.Var(countFlag(&opts.bootstraps, 1, maxBootstraps), "bootstraps", fmt.Sprintf("fits of resampled ladders for the intervals (1 to %d)", maxBootstraps))
	f.BoolVar(&opts.json, "json", false, "print the ratings as a JSON array")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar")
	f.BoolVar(&opts.time, "time", false, "measure every bot's time per turn now, in one interleaved pass")
	opts.positions = 20
	f.Var(countFlag(&opts.positions, 1, maxCount), "positions", "--time: the positions each bot is timed on")
	opts.rounds = 3
	f.Var(countFlag(&opts.rounds, 1, maxCount), "rounds", "--time: how many times each bot is asked on each position")
	f.BoolVar(&opts.play, "play", false, "play the ladder's missing games and append them to --ladder")
	opts.bots = strings.Split(defaultLadderBots, ",")
	f.Var(botsFlag(&opts.bots), "bots", "--play: the bots, weakest first, comma-separated")
	opts.games = 200
	f.VarP(countFlag(&opts.games, 1, maxCount), "games", "n", "--play: the games of each pairing")
	opts.block = 50
	f.Var(countFlag(&opts.block, 2, maxCount), "block", "--play: the games of a block (even)")
	opts.reach = 2
	f.Var(countFlag(&opts.reach, 1, maxCount), "reach", "--play: each bot meets the next this many bots of the list")
	f.Uint64Var(&opts.seed, "seed", 1, "--play: the seed of a pairing's first block")
	opts.workers = defaultWorkers()
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("--play: games played in parallel (1 to %d)", maxWorkers))
	return cmd
}

// fitLadder is match.FitLadder (a seam for the tests).
var fitLadder = match.FitLadder

func runBots(s *streams, opts *botsOptions) error {
	blocks, err := match.ReadLadderFile(opts.ladder)
	if err != nil {
		return usage(err)
	}
	// The fit (400 bootstraps take seconds, 100,000 a quarter of an hour) has no pause at
	// which to stop: Ctrl-C stops waiting for it, and an abandoned fit ends with the process.
	var fit *match.LadderFit
	var d pipeline.Detached
	err = d.Run(s.ctx, func() error {
		f, err := fitLadder(blocks, opts.anchor, opts.size, opts.supply.String(), opts.bootstraps, 1)
		return d.Step(func() error { fit = f; return err })
	})
	if s.stopped("bots", "; nothing fitted") {
		return interrupted
	}
	if err != nil {
		return usage(err)
	}
	if opts.time {
		return runBotTiming(s, opts, fit)
	}
	if opts.json {
		return json.NewEncoder(s.out).Encode(fit.Ratings)
	}
	fit.WriteText(s.out)
	return nil
}

// runBotTiming times the table's bots (or --bots) in one pass and prints them.
func runBotTiming(s *streams, opts *botsOptions, fit *match.LadderFit) error {
	names := opts.bots
	if !opts.botsSet {
		names = nil
		for _, r := range fit.Ratings {
			names = append(names, r.Name)
		}
	}
	o := bot.Options{Workers: 1}
	t := &match.Timing{Bots: names, Size: opts.size, Supply: opts.supply, Positions: opts.positions, Rounds: opts.rounds, Seed: opts.seed,
		NewBot: func(name string) (bot.Bot, error) { return newBot(name, o) }}
	if err := t.Check(); err != nil {
		return fmt.Errorf("--time: %w", err)
	}
	m := match.ThisMachine()
	var done int64
	bar := progress.CountStage(s.err, bars(s.err, opts.quiet), "timing", int64(t.Turns()), "turns", nil)
	timings, err := t.Run(s.ctx, func() { done++; bar.Set(done) })
	bar.End(err == nil)
	m.LoadEnd = match.LoadAverage()
	if err != nil && s.ctx.Err() == nil {
		return botBug(err)
	}
	rep := match.NewTimingReport(t, m, timings, fit)
	if opts.json {
		if err := json.NewEncoder(s.out).Encode(rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(s.out, fit)
	}
	if s.ctx.Err() != nil {
		fmt.Fprintf(s.err, "ponte bots: interrupted after %d of %d turns; the table shows what was timed\n", done, t.Turns())
		return interrupted
	}
	return nil
}

func runLadder(s *streams, opts *botsOptions) error {
	if opts.ladder == "" {
		return errors.New("--play needs --ladder FILE, the ladder to append to (the repository's is match/ladder.jsonl)")
	}
	o := bot.Options{Workers: 1}
	l := &match.LadderPlay{Bots: opts.bots, Size: opts.size, Supply: opts.supply, Seed: opts.seed, Games: opts.games,
		Block: opts.block, Reach: opts.reach, Workers: opts.workers, NewBot: func(name string) (bot.Bot, error) { return newBot(name, o) }}
	if err := l.Check(); err != nil {
		return err
	}
	f, blocks, err := match.OpenLadder(opts.ladder)
	if err != nil {
		return usage(err)
	}
	defer f.Close()
	var games int64
	bar := progress.CountStage(s.err, bars(s.err, opts.quiet), "ladder", int64(l.GamesLeft(blocks)), "games", nil)
	played, err := l.Play(s.ctx, blocks, func() { games++; bar.Set(games) }, func(b match.Block, cfg *match.Config) error {
		err := match.AppendBlock(f, b)
		if err == nil && !opts.quiet && !isTerminal(s.err) {
			fmt.Fprintln(s.err, b.Line(cfg, time.Now()))
		}
		return err
	})
	bar.End(err == nil)
	be, isBlock := errors.AsType[*match.BlockError](err)
	switch {
	case isBlock && s.ctx.Err() != nil:
		fmt.Fprintf(s.err, "ponte bots: interrupted; %d %s appended to %s, the block of %s vs %s in play is lost\n",
			played, plural(played, "block", "blocks"), safe(opts.ladder), safe(be.A), safe(be.B))
		return interrupted
	case isBlock:
		return botBug(err)
	case err != nil:
		return usage(err)
	}
	fmt.Fprintf(s.err, "%d %s appended to %s\n", played, plural(played, "block", "blocks"), safe(opts.ladder))
	return nil
}
