package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
)

// botsOptions are the flags of `ponte bots`.
type botsOptions struct {
	ladder     string
	size       int
	supply     string
	anchor     string
	bootstraps int
	json       bool
	quiet      bool

	time      bool
	botsSet   bool
	positions int
	rounds    int

	play    bool
	bots    string
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
		Use:   "bots [flags]",
		Short: "List the bots with their budget and rating from the ladder",
		Long: `List the bots with their cost per turn and their rating: Elo over greedy (0),
with a 95% interval, fitted with the project's rating model (Bradley–Terry with
the opener's advantage in each branch of the pie rule, as ponte stats fits
players) to the ladder's games. The ladder is a file of JSON lines, one per
block of games between two bots played with ponte match; the one ponte holds is
the repository's match/ladder.jsonl, and --ladder reads another. The intervals
come from fits of resampled ladders (--bootstraps). A bot that never scored has
no lower end (null in --json) and the rule of three's bound as its upper end;
the same, mirrored, for one that never conceded (docs/bots.md).

The ladder's ms/turn of a bot is the mean over the blocks it played, each timed
when it was played, so bots timed under different loads are not comparable.
--time measures every bot of the table (or of --bots, when given) now, in one
pass: each bot is asked for a turn on the same --positions positions (from
seeded games of greedy against itself, at turns 1 to 40), the bots taking turns
position by position, --rounds times; the table then shows the median ms per
turn with its quartiles, the playouts per turn, and the machine and its load.

--play plays the ladder: each bot of --bots against the next --reach ones, in
blocks of --block games (pairs of games on random openings, as ponte match plays
them), until each pairing has --games games, and appends a line to --ladder
after each block. It is resumable: blocks already in the file are not played
again, and block k of a pairing has the seed --seed + k. Ctrl-C stops it; the
block in play is lost, the others kept.

Exit status: 0 done, 2 a usage error or a ladder that cannot be read or
written, 130 interrupted, 3 an internal error (a bug).`,
		Example: `  ponte bots
  ponte bots --json
  ponte bots --time --positions 20 --rounds 3
  ponte bots --play --ladder match/ladder.jsonl --games 200`,
		Args: cobra.NoArgs,
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
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("the board side of the games rated, %d to %d", replay.MinSize, replay.MaxSize))
	f.StringVar(&opts.supply, "supply", "unlimited", "the supply of the games rated")
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
	f.StringVar(&opts.bots, "bots", defaultLadderBots, "--play: the bots, weakest first, comma-separated")
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

// readLadder reads --ladder, or the ladder ponte holds.
func readLadder(path string) ([]match.Block, error) {
	if path == "" {
		return match.Ladder()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return match.ReadLadder(f, path)
}

func runBots(s *streams, opts *botsOptions) error {
	blocks, err := readLadder(opts.ladder)
	if err != nil {
		fmt.Fprintln(s.err, "ponte bots:", safeErr(err))
		return &exitError{exitUsage}
	}
	fit, err := fitLadderContext(s.ctx, blocks, opts.anchor, opts.size, opts.supply, opts.bootstraps)
	if s.stopped("bots", "; nothing fitted") {
		return interrupted
	}
	if err != nil {
		fmt.Fprintln(s.err, "ponte bots:", safeErr(err))
		return &exitError{exitUsage}
	}
	if opts.time {
		return runBotTiming(s, opts, fit)
	}
	if opts.json {
		return json.NewEncoder(s.out).Encode(fit.Ratings)
	}
	writeBots(s.out, fit)
	return nil
}

// writeBots prints the ladder as a table.
func writeBots(w io.Writer, fit *match.LadderFit) {
	fmt.Fprintf(w, "%d×%d, supply %s: %s ladder games; Elo over %s, 95%% intervals from %d bootstraps\n",
		fit.Size, fit.Size, fit.Supply, thousands(int64(fit.Games)), safe(fit.Anchor), fit.Bootstraps)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tgames\trating\t95% interval\tms/turn\tplayouts/turn\t")
	for _, r := range fit.Ratings {
		lo, hi := "-inf", "+inf"
		if r.RatingLo != nil {
			lo = fmt.Sprintf("%+.0f", *r.RatingLo)
		}
		if r.RatingHi != nil {
			hi = fmt.Sprintf("%+.0f", *r.RatingHi)
		}
		p := "-"
		if r.PlayoutsPerTurn != nil {
			p = fmt.Sprintf("%.0f", *r.PlayoutsPerTurn)
		}
		fmt.Fprintf(tw, "%s\t%d\t%+.0f\t[%s, %s]\t%.2f\t%s\t\n", safe(r.Name), r.Games, r.Rating, lo, hi, r.MsPerTurn, p)
	}
	tw.Flush()
}

// pairing is two bots of a ladder to play, the stronger (later in --bots) first.
type pairing struct{ a, b string }

func runLadder(s *streams, opts *botsOptions) error {
	if opts.ladder == "" {
		return errors.New("--play needs --ladder FILE, the ladder to append to (the repository's is match/ladder.jsonl)")
	}
	names := strings.Split(opts.bots, ",")
	o := bot.Options{Workers: 1}
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if _, err := newBot(names[i], o); err != nil {
			return fmt.Errorf("--bots: %w", err)
		}
	}
	if len(names) < 2 {
		return errors.New("--bots must name at least two bots")
	}
	if opts.block < 2 || opts.block%2 != 0 {
		return fmt.Errorf("--block must be an even number from 2, not %d", opts.block)
	}
	if opts.games < 1 || opts.reach < 1 {
		return errors.New("--games and --reach must be at least 1")
	}
	if err := checkWorkers(opts.workers); err != nil {
		return err
	}
	if opts.size < replay.MinSize || opts.size > replay.MaxSize {
		return fmt.Errorf("--size must be from %d to %d, not %d", replay.MinSize, replay.MaxSize, opts.size)
	}
	supply, ok := replay.ParseSupply(opts.supply)
	if !ok || opts.supply == "" {
		return fmt.Errorf("--supply %q: must be \"unlimited\" or \"40/15\"", opts.supply)
	}
	var blocks []match.Block
	if _, err := os.Stat(opts.ladder); err == nil {
		if blocks, err = readLadder(opts.ladder); err != nil {
			fmt.Fprintln(s.err, "ponte bots:", safeErr(err))
			return &exitError{exitUsage}
		}
	}
	// The games each pairing has, either way round.
	have := map[pairing]int{}
	for _, b := range blocks {
		if b.Size == opts.size && b.Supply == supply.String() {
			have[pairing{b.A, b.B}] += b.Games
			have[pairing{b.B, b.A}] += b.Games
		}
	}
	var todo []pairing
	blocksLeft := 0
	for i := range names {
		for j := i + 1; j <= i+opts.reach && j < len(names); j++ {
			p := pairing{names[j], names[i]}
			if left := opts.games - have[p]; left > 0 {
				todo = append(todo, p)
				blocksLeft += (left + opts.block - 1) / opts.block
			}
		}
	}
	f, err := os.OpenFile(opts.ladder, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		fmt.Fprintln(s.err, "ponte bots:", safeErr(err))
		return &exitError{exitUsage}
	}
	defer f.Close()

	var games int64
	bar := startStage(s.err, opts.quiet, func(p *mpb.Progress) *phase {
		return newCountBar(p, "ladder", int64(blocksLeft*opts.block), "games", nil)
	})
	played := 0
	for _, p := range todo {
		for have[p] < opts.games {
			nblocks := countBlocks(blocks, p, opts.size, supply.String())
			cfg := &match.Config{A: p.a, B: p.b, Size: opts.size, Supply: supply, Seed: opts.seed + uint64(nblocks),
				Pairs: opts.block / 2, Workers: opts.workers,
				NewBot: func(name string) (bot.Bot, error) { return newBot(name, o) }}
			b, res, err := playBlock(s.ctx, cfg, func() { games++; bar.set(games) })
			if err != nil || res.Pairs < cfg.Pairs {
				bar.end(false)
				if s.ctx.Err() != nil {
					fmt.Fprintf(s.err, "ponte bots: interrupted; %d %s appended to %s, the block of %s vs %s in play is lost\n",
						played, plural(played, "block", "blocks"), safe(opts.ladder), safe(p.a), safe(p.b))
					return interrupted
				}
				fmt.Fprintf(s.err, "ponte bots: %s vs %s: %s (a bug in the bot: please report it)\n", safe(p.a), safe(p.b), safeErr(err))
				return &exitError{exitInternal}
			}
			line, err := json.Marshal(b)
			if err == nil {
				_, err = f.Write(append(line, '\n'))
			}
			if err == nil {
				err = f.Sync()
			}
			if err != nil {
				bar.end(false)
				fmt.Fprintln(s.err, "ponte bots:", safeErr(err))
				return &exitError{exitUsage}
			}
			blocks = append(blocks, b)
			have[p] += b.Games
			have[pairing{p.b, p.a}] += b.Games
			played++
			if !opts.quiet && !showProgress(s.err, false) {
				e := b.Pentanomial.Elo()
				fmt.Fprintf(s.err, "%s %s vs %s seed %d: %d games, score %.3f, Elo %s [%s, %s]\n",
					time.Now().UTC().Format("15:04:05"), p.a, p.b, cfg.Seed, b.Games, b.Pentanomial.Score(),
					signedElo(e.Value), signedElo(e.Lo), signedElo(e.Hi))
			}
		}
	}
	bar.end(true)
	fmt.Fprintf(s.err, "%d %s appended to %s\n", played, plural(played, "block", "blocks"), safe(opts.ladder))
	return nil
}

// countBlocks counts the blocks of pairing p, either way round, at a size and supply.
func countBlocks(blocks []match.Block, p pairing, size int, supply string) int {
	n := 0
	for _, b := range blocks {
		if b.Size == size && b.Supply == supply && (b.A == p.a && b.B == p.b || b.A == p.b && b.B == p.a) {
			n++
		}
	}
	return n
}

// playBlock plays a block of the ladder and returns it with the match's result. The
// block's outcomes are counted as each pair ends, and the pair let go: a block keeps
// counts, not games, so its memory does not grow with --block.
func playBlock(ctx context.Context, cfg *match.Config, played func()) (match.Block, *match.Result, error) {
	counts := map[match.Outcome]int{} // by opener, swap and score; Games 0
	res, err := match.Run(ctx, cfg, played, func(q *match.Pair, r *match.Result) bool {
		for _, o := range match.NewBlock(cfg, r, []*match.Pair{q}).Outcomes {
			n := o.Games
			o.Games = 0
			counts[o] += n
		}
		return true
	})
	if err != nil {
		return match.Block{}, res, err
	}
	b := match.NewBlock(cfg, res, nil)
	for o, n := range counts {
		o.Games = n
		b.Outcomes = append(b.Outcomes, o)
	}
	// In match.NewBlock's order: by opener, not swapped first, by score.
	slices.SortFunc(b.Outcomes, func(x, y match.Outcome) int {
		if c := strings.Compare(x.Opener, y.Opener); c != 0 {
			return c
		}
		if x.Swapped != y.Swapped {
			if x.Swapped {
				return 1
			}
			return -1
		}
		return cmp.Compare(x.Score, y.Score)
	})
	return b, res, nil
}
