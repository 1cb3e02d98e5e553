package main

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/match"
)

// selfplayOptions are the flags of `ponte selfplay`.
type selfplayOptions struct {
	games       int
	light, dark string
	size        int
	supply      game.Supply
	seed        uint64
	out         string
	format      ingest.Format // ingest.FormatUnknown: the name of --out chooses
	playouts    int
	threads     int
	workers     int
	quiet       bool
}

func newSelfplayCmd(s *streams) *cobra.Command {
	opts := &selfplayOptions{}
	cmd := &cobra.Command{
		Use:     "selfplay [flags]",
		Short:   "Play games between two bots and write them as an archive",
		Long:    help("selfplay"),
		Example: `  ponte selfplay --games 5 --light random --dark random --seed 7`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSelfplay(s, opts)
		},
	}
	f := cmd.Flags()
	opts.games = 100
	f.VarP(countFlag(&opts.games, 1, maxCount), "games", "n", "number of games to play")
	f.StringVar(&opts.light, "light", "greedy", "the opener's bot: "+strings.Join(bot.Names, ", "))
	f.StringVar(&opts.dark, "dark", "greedy", "the responder's bot (it may swap): "+strings.Join(bot.Names, ", "))
	opts.size = 10
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side, %d to %d", game.MinSize, game.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", `"unlimited" or "40/15" (tiles per colour / bridges)`)
	f.Uint64Var(&opts.seed, "seed", 1, "random seed: the same seed gives the same archive")
	f.StringVarP(&opts.out, "out", "o", "-", `output file ("-" for standard output); .gz or .zst compresses`)
	f.Var(formatFlag(&opts.format), "format", `"ponte" or "jsonl" (default: jsonl when --out ends in .jsonl[.gz|.zst], else ponte)`)
	opts.playouts = 400
	f.Var(countFlag(&opts.playouts, 1, bot.MaxPlayouts), "playouts", "the mcts bot's simulated games per turn")
	opts.threads = 1
	f.Var(countFlag(&opts.threads, 1, bot.MaxThreads), "threads", fmt.Sprintf("the threads an arch bot searches one position with, 1 to %d (its name gets -tK)", bot.MaxThreads))
	opts.workers = defaultWorkers()
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games played in parallel (1 to %d)", maxWorkers))
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing on standard error but errors")
	return cmd
}

// newBot makes the bots; tests replace it.
var newBot = bot.New

// checkSelfplay checks the options and makes the run and the archive's format; an error
// is a usage error.
func checkSelfplay(opts *selfplayOptions) (*match.SelfPlay, ingest.Format, error) {
	o := bot.Options{Playouts: opts.playouts, Workers: 1, Threads: opts.threads}
	sp := &match.SelfPlay{Light: opts.light, Dark: opts.dark, Size: opts.size, Supply: opts.supply, Seed: opts.seed,
		Games: opts.games, Workers: opts.workers, NewBot: func(name string) (bot.Bot, error) { return newBot(name, o) }}
	if err := sp.Check(); err != nil {
		return nil, 0, err
	}
	if err := archive.CheckName(opts.out); err != nil {
		return nil, 0, err
	}
	return sp, cmp.Or(opts.format, archive.FormatOf(opts.out)), nil
}

func runSelfplay(s *streams, opts *selfplayOptions) error {
	sp, format, err := checkSelfplay(opts)
	if err != nil {
		return err
	}
	out, err := archive.Create(s.ctx, opts.out, s.out)
	if s.stopped("selfplay", "; no game played") {
		return interrupted
	}
	if err != nil {
		return usage(err)
	}
	defer out.Abort() // removes the temporary file unless committed
	if !opts.quiet {
		notes(s, out, "selfplay")
	}
	show := bars(s.err, opts.quiet || out.Stdout() && isTerminal(s.out))
	bar := progress.CountStage(s.err, show, "selfplay", int64(opts.games), "games", nil)
	start := time.Now()
	w := ingest.NewWriter(out.W, format)
	var tally match.Tally
	var played int64
	var botErr, writeErr error
	err = sp.Run(s.ctx, func(match.SelfPlayGame) { played++; bar.Set(played) }, func(g match.SelfPlayGame) bool {
		if g.Err != nil {
			botErr = fmt.Errorf("game %d: %w", g.Index, g.Err)
			return false
		}
		tally.Add(g.Game)
		writeErr = w.Write(g.Record)
		return writeErr == nil
	})
	switch {
	case writeErr != nil:
	case botErr == nil:
		// Every game played, or interrupted: the games finished so far are whole records
		// in game order, 1 … n, and are kept.
		if writeErr = w.Flush(); writeErr == nil {
			writeErr = out.Commit()
		}
	case !out.Atomic():
		// Stopped by a bot's bug on standard output, a FIFO or a device: end the stream
		// after the last whole record.
		writeErr = w.Flush()
	}
	elapsed := time.Since(start)
	bar.End(tally.Games == opts.games && writeErr == nil)
	switch {
	case botErr != nil:
		return botBug(botErr)
	case writeErr != nil:
		return usage(writeErr)
	case err != nil: // interrupted
		fmt.Fprintf(s.err, "ponte selfplay: interrupted after %d of %d games; the %d finished %s written to %s\n",
			tally.Games, opts.games, tally.Games, plural(tally.Games, "game", "games"), safe(out.Name()))
		return interrupted
	}
	if !opts.quiet {
		fmt.Fprintln(s.err, tally.Summary(sp, elapsed, safe(out.Name())))
	}
	return nil
}
