package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/replay"
)

// selfplayOptions are the flags of `ponte selfplay`.
type selfplayOptions struct {
	games       int
	light, dark string
	size        int
	supply      string
	seed        uint64
	out         string
	format      string
	formatSet   bool // --format was given; else the format comes from the name of --out
	playouts    int
	threads     int
	workers     int
	quiet       bool
}

func newSelfplayCmd(s *streams) *cobra.Command {
	opts := &selfplayOptions{}
	cmd := &cobra.Command{
		Use:   "selfplay [flags]",
		Short: "Play games between two bots and write them as an archive",
		Long: `Play --games games between two bots and write their records, in game order, as
a .ponte or JSON Lines archive (plain, or compressed when --out ends in .gz or
.zst).

--light is the opener's bot (Light at turn 1), --dark the responder's, who may
swap at turn 2; the records' Light and Dark tags name the bots by the colour
they played at the end, the Opener tag the bot that played turn 1. Game i is
played with its own random source made from --seed and i, so an archive is the
same for a seed whatever --workers is. Games are played in parallel, one per
worker; the mcts bot searches on one goroutine within a game.

A file is written to a temporary file next to it and renamed when every game is
written. A progress bar is shown on standard error when it is a terminal; a
summary follows unless --quiet.

Ctrl-C stops the run: the games finished so far are written (whole records,
games 1 to n), and the exit status is 130.

Exit status: 0 every game played and written, 2 a usage error or an output
that cannot be written, 130 interrupted by Ctrl-C (SIGINT) and 143 by SIGTERM
(the finished games written), 3 an internal error (a bug, such as a bot that
played an illegal turn).`,
		Example: `  ponte selfplay --games 5 --light random --dark random --seed 7
  ponte selfplay --games 1000 --light mcts --dark greedy --out mcts-greedy.jsonl.zst
  ponte selfplay --games 200 --size 12 --supply 40/15 --out games.ponte.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.formatSet = cmd.Flags().Changed("format")
			return runSelfplay(s, opts)
		},
	}
	f := cmd.Flags()
	opts.games = 100
	f.VarP(countFlag(&opts.games, 1, maxCount), "games", "n", "number of games to play")
	f.StringVar(&opts.light, "light", "greedy", "the opener's bot: "+strings.Join(bot.Names, ", "))
	f.StringVar(&opts.dark, "dark", "greedy", "the responder's bot (it may swap): "+strings.Join(bot.Names, ", "))
	opts.size = 10
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side, %d to %d", replay.MinSize, replay.MaxSize))
	f.StringVar(&opts.supply, "supply", "unlimited", `"unlimited" or "40/15" (tiles per colour / bridges)`)
	f.Uint64Var(&opts.seed, "seed", 1, "random seed: the same seed gives the same archive")
	f.StringVarP(&opts.out, "out", "o", "-", `output file ("-" for standard output); .gz or .zst compresses`)
	f.StringVar(&opts.format, "format", "", `"ponte" or "jsonl" (default: jsonl when --out ends in .jsonl[.gz|.zst], else ponte)`)
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

// selfplaySetup is what the options say, checked.
type selfplaySetup struct {
	supply replay.Supply
	format ingest.Format
	bots   bot.Options
}

// checkSelfplay checks the options; an error is a usage error.
func checkSelfplay(opts *selfplayOptions) (*selfplaySetup, error) {
	if opts.threads < 1 || opts.threads > bot.MaxThreads {
		return nil, fmt.Errorf("--threads must be from 1 to %d, not %d", bot.MaxThreads, opts.threads)
	}
	su := &selfplaySetup{bots: bot.Options{Playouts: opts.playouts, Workers: 1, Threads: opts.threads}}
	if opts.games < 1 {
		return nil, fmt.Errorf("--games must be at least 1, not %d", opts.games)
	}
	for _, seat := range []struct{ flag, name string }{{"--light", opts.light}, {"--dark", opts.dark}} {
		if _, err := newBot(seat.name, su.bots); err != nil {
			return nil, fmt.Errorf("%s: %w", seat.flag, err)
		}
	}
	if opts.size < replay.MinSize || opts.size > replay.MaxSize {
		return nil, fmt.Errorf("--size must be from %d to %d, not %d", replay.MinSize, replay.MaxSize, opts.size)
	}
	var ok bool
	if su.supply, ok = replay.ParseSupply(opts.supply); !ok || opts.supply == "" {
		return nil, fmt.Errorf("--supply %q: must be \"unlimited\" or \"40/15\"", opts.supply)
	}
	if opts.playouts < 1 {
		return nil, fmt.Errorf("--playouts must be at least 1, not %d", opts.playouts)
	}
	if err := checkWorkers(opts.workers); err != nil {
		return nil, err
	}
	if err := checkOutputName(opts.out); err != nil {
		return nil, err
	}
	if !opts.formatSet {
		su.format = formatFromName(opts.out)
	} else {
		f, err := ingest.ParseFormat(opts.format)
		if err != nil || !f.Writable() {
			return nil, fmt.Errorf("--format %q: must be \"ponte\" or \"jsonl\"", opts.format)
		}
		su.format = f
	}
	return su, nil
}

// formatFromName is the format an output file's name asks for: JSON Lines for .jsonl,
// .jsonl.gz and .jsonl.zst, else .ponte.
func formatFromName(name string) ingest.Format {
	name = strings.ToLower(name)
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	if strings.HasSuffix(name, ".jsonl") {
		return ingest.FormatJSONL
	}
	return ingest.FormatPonte
}

// selfplayResult is one game played, or the error that stopped it.
type selfplayResult struct {
	index int
	game  *bot.Game
	rec   *ingest.Record
	err   error
}

// selfplayTally is the run's summary.
type selfplayTally struct {
	games, openerWon, responderWon, draws, swaps int
}

func (t *selfplayTally) add(g *bot.Game) {
	t.games++
	if g.Swapped {
		t.swaps++
	}
	switch {
	case g.Result == replay.Draw:
		t.draws++
	case (g.Result == replay.LightWins) != g.Swapped: // the opener is Light unless swapped
		t.openerWon++
	default:
		t.responderWon++
	}
}

func runSelfplay(s *streams, opts *selfplayOptions) error {
	su, err := checkSelfplay(opts)
	if err != nil {
		return err
	}
	out, err := createOutput(s.ctx, opts.out, s.out)
	if s.stopped("selfplay", "; no game played") {
		return interrupted
	}
	if err != nil {
		fmt.Fprintln(s.err, "ponte selfplay:", safeErr(err))
		return &exitError{exitUsage}
	}
	defer out.abort() // removes the temporary file unless committed
	if !opts.quiet {
		out.notes(s.err, "selfplay")
	}

	ctx := s.ctx

	var bar *mpb.Bar
	var progress *mpb.Progress
	if !opts.quiet && isTerminal(s.err) && !(out.stdout() && isTerminal(s.out)) {
		progress = mpb.New(mpb.WithOutput(s.err), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
		bar = progress.AddBar(int64(opts.games),
			mpb.PrependDecorators(decor.Name("selfplay "), decor.CountersNoUnit("%d/%d games")),
			mpb.AppendDecorators(decor.AverageSpeed(0, "%.1f games/s"), decor.Name("  "),
				decor.OnComplete(decor.AverageETA(decor.ET_STYLE_GO), "done")))
	}

	start := time.Now()
	w := ingest.NewWriter(out.w, su.format)
	var tally selfplayTally
	var botErr, writeErr error
	err = playGames(ctx, opts, su, func(selfplayResult) {
		if bar != nil {
			bar.Increment()
		}
	}, func(r selfplayResult) bool {
		if r.err != nil {
			botErr = fmt.Errorf("game %d: %w", r.index, r.err)
			return false
		}
		tally.add(r.game)
		if err := w.Write(r.rec); err != nil {
			writeErr = err
			return false
		}
		return true
	})
	switch {
	case writeErr != nil:
	case botErr == nil:
		// Every game played, or interrupted: the games finished so far are whole records
		// in game order, 1 … n, and are kept.
		if writeErr = w.Flush(); writeErr == nil {
			writeErr = out.commit()
		}
	case !out.atomic():
		// Stopped by a bot's bug on standard output, a FIFO or a device: end the stream
		// after the last whole record.
		writeErr = w.Flush()
	}
	elapsed := time.Since(start)
	if progress != nil {
		if tally.games < opts.games || writeErr != nil {
			bar.Abort(false)
		}
		progress.Wait()
	}

	switch {
	case botErr != nil:
		fmt.Fprintf(s.err, "ponte selfplay: %s (a bug in the bot: please report it)\n", safeErr(botErr))
		return &exitError{exitInternal}
	case writeErr != nil:
		fmt.Fprintln(s.err, "ponte selfplay:", safeErr(writeErr))
		return &exitError{exitUsage}
	case err != nil: // interrupted
		fmt.Fprintf(s.err, "ponte selfplay: interrupted after %d of %d games; the %d finished %s written to %s\n",
			tally.games, opts.games, tally.games, plural(tally.games, "game", "games"), safe(out.name()))
		return interrupted
	}
	if !opts.quiet {
		fmt.Fprintln(s.err, summary(opts, &tally, elapsed, safe(out.name())))
	}
	return nil
}

// playGames plays games 1 … opts.games on opts.workers goroutines. It calls played for
// each game as it ends, in any order, and emit for each in game order, both from the
// calling goroutine; once emit returns false, playGames starts no more games and emits
// nothing more. At most a window of 4 games per worker is played ahead of the next one to
// emit, so memory stays flat whatever the number of games. The error is ctx's when ctx
// ended the run before every game was emitted: the games in play then stop at their next
// turn (bot.PlayContext), and neither they nor the games after them are emitted.
func playGames(ctx context.Context, opts *selfplayOptions, su *selfplaySetup, played func(selfplayResult), emit func(selfplayResult) bool) error {
	workers := min(opts.workers, opts.games)
	p := pipeline.Pipeline[int, selfplayResult]{
		Workers:  workers,
		MaxItems: 4 * workers,
		NewWorker: func() func(int) selfplayResult {
			return func(i int) selfplayResult { return playGame(ctx, opts, su, i) }
		},
		Arrived: played,
	}
	games := func(yield func(int) bool) {
		for i := 1; i <= opts.games && yield(i); i++ {
		}
	}
	return p.Run(ctx, games, func(r selfplayResult) error {
		if errors.Is(r.err, bot.ErrStopped) {
			return ctx.Err() // and the games after it: the archive ends at the last whole game
		}
		if !emit(r) {
			return pipeline.Stop
		}
		return nil
	})
}

// playGame plays game i with bots of its own and a random source made from the seed and i.
// At ctx's end the game stops at its next turn, with an error wrapping bot.ErrStopped.
func playGame(ctx context.Context, opts *selfplayOptions, su *selfplaySetup, i int) selfplayResult {
	opener, err := newBot(opts.light, su.bots)
	if err != nil {
		return selfplayResult{index: i, err: err}
	}
	responder, err := newBot(opts.dark, su.bots)
	if err != nil {
		return selfplayResult{index: i, err: err}
	}
	g, err := bot.PlayContext(ctx, opener, responder, opts.size, su.supply, rand.New(rand.NewPCG(opts.seed, uint64(i))))
	if err != nil {
		return selfplayResult{index: i, err: err}
	}
	return selfplayResult{index: i, game: g, rec: g.Record(i, opts.seed)}
}

// summary is the line printed at the end of a run.
func summary(opts *selfplayOptions, t *selfplayTally, elapsed time.Duration, where string) string {
	secs := elapsed.Seconds()
	took := fmt.Sprintf("%.1f s", secs)
	if secs < 1 {
		took = fmt.Sprintf("%.2f s", secs)
	}
	rate := float64(t.games) / max(secs, 1e-9)
	return fmt.Sprintf("%d %s (%d×%d, %s): opener %s won %d, responder %s won %d, %d %s; %d %s; %s (%s games/s); written to %s",
		t.games, plural(t.games, "game", "games"), opts.size, opts.size, opts.supply,
		opts.light, t.openerWon, opts.dark, t.responderWon, t.draws, plural(t.draws, "draw", "draws"),
		t.swaps, plural(t.swaps, "swap", "swaps"), took, formatRate(rate), where)
}

func formatRate(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// isTerminal reports whether w is a terminal (a progress bar would be seen, not stored).
func isTerminal(w io.Writer) bool {
	w = unwrapWriter(w)
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
