package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/store"
)

// atlasOptions are the flags of `ponte atlas` and its subcommands.
type atlasOptions struct {
	db           string
	size         int
	supply       game.Supply
	bot          string
	seed         uint64
	first, max   int
	margin       float64
	alpha, rest  float64
	candidates   int
	confirm      int
	vWidth       float64
	stability    bool
	stabilityBot string
	both         bool
	panel        int
	panelGames   int
	shard        string
	workers      int
	parquet      string
	json         bool
	quiet        bool
	cost         bool    // plan --cost
	costV        float64 // plan --cost-v: V's half-width to price
	changed      func(name string) bool
}

func newAtlasCmd(s *streams) *cobra.Command {
	opts := &atlasOptions{}
	cmd := &cobra.Command{
		Use:   "atlas",
		Short: "Estimate every opening's value under strong play: the opening atlas",
		Long:  help("atlas"),
	}
	cmd.AddCommand(newAtlasRunCmd(s, opts), newAtlasPlanCmd(s, opts), newAtlasMergeCmd(s, opts),
		newAtlasShowCmd(s, opts), newAtlasExportCmd(s, opts))
	cmd.PersistentFlags().StringVar(&opts.db, "db", "atlas.db", "the atlas's SQLite database (one atlas a file)")
	return cmd
}

func addAtlasSettings(cmd *cobra.Command, opts *atlasOptions) {
	d := atlas.DefaultConfig()
	f := cmd.Flags()
	opts.size, opts.bot = d.Size, "lore-100"
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side, %d to %d", game.MinSize, game.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", `"unlimited" or "40/15" (tiles per colour / bridges)`)
	f.Var(botFlag(&opts.bot), "bot", "the bot that plays both sides: "+strings.Join(bot.Names, ", ")+", mcts-N, sage-N, sage-Nms, arch-N, arch-Nms, lore-N, lore-Nms")
	f.Uint64Var(&opts.seed, "seed", d.Seed, "the base of every game's seed")
	opts.first, opts.max, opts.candidates, opts.confirm, opts.panel, opts.panelGames = d.First, d.Max, d.Candidates, d.ConfirmGames, d.PanelSize, d.PanelGames
	count := func(p *int, name, usage string) {
		f.Var(countFlag(p, 1, atlas.MaxCount), name, fmt.Sprintf("%s (1 to %d)", usage, atlas.MaxCount))
	}
	count(&opts.first, "first", "games per class in the first round")
	count(&opts.max, "max", "the most games per class (rounds double the open classes' games up to it)")
	f.Float64Var(&opts.margin, "margin", d.Margin, "m: the fair band is [0.5-m, 0.5+m]")
	f.Float64Var(&opts.alpha, "alpha", d.Spending.Alpha, "the intervals' error rate (0.05: 95%)")
	f.Float64Var(&opts.rest, "rest", d.Spending.Rest, "the share of --alpha spent on the looks after the first round")
	count(&opts.candidates, "candidates", "the best openings for the opener that the confirmation plays again")
	count(&opts.confirm, "confirm", "games per candidate in the confirmation, on fresh seeds")
	f.Float64Var(&opts.vWidth, "v-width", 0, "the width of V's interval asked (0.04: ±2 points): sets the confirmation's games per candidate instead of --confirm")
	f.BoolVar(&opts.stability, "stability", false, "re-estimate a panel of classes at 4× the budget (--stability-bot)")
	f.Var(botFlag(&opts.stabilityBot), "stability-bot", "the stability check's bot (default: --bot with 4× its budget)")
	f.BoolVar(&opts.both, "stability-both", false, "play the panel at --bot too, and compare panel with panel, with intervals (implies --stability)")
	count(&opts.panel, "panel", "classes in the stability check's panel (half nearest ½, half at random)")
	count(&opts.panelGames, "panel-games", "games per class of the panel")
}

// atlasSettings are the settings of the atlas in adb (atlas.Settings): for a run
// (opts.changed set), those of the flags given.
func atlasSettings(s *streams, opts *atlasOptions, adb *store.AtlasDB) (*atlas.Config, error) {
	return atlas.Settings(s.ctx, adb, func(complete bool) (*atlas.Config, error) { return configFromFlags(opts, complete) }, opts.changed)
}

// configFromFlags makes the config of the flags; check says whether it must be complete
// (a new atlas), else only the flags given are used.
func configFromFlags(opts *atlasOptions, check bool) (*atlas.Config, error) {
	c := &atlas.Config{Size: opts.size, Supply: opts.supply, Bot: opts.bot, Seed: opts.seed, First: opts.first, Max: opts.max,
		Margin: opts.margin, Spending: atlas.Spending{Alpha: opts.alpha, Rest: opts.rest}, Candidates: opts.candidates,
		ConfirmGames: opts.confirm, VWidth: opts.vWidth, PanelSize: opts.panel, PanelGames: opts.panelGames, StabilityBoth: opts.both}
	if opts.stability || opts.both {
		c.StabilityBot = opts.stabilityBot
		if c.StabilityBot == "" {
			if c.StabilityBot = atlas.FourTimes(opts.bot); c.StabilityBot == "" {
				return nil, fmt.Errorf("--stability: --bot %q has no budget to multiply: name --stability-bot", opts.bot)
			}
		}
	}
	if !check {
		return c, nil
	}
	if c.StabilityBot != "" {
		if err := bot.ParseName(c.StabilityBot); err != nil {
			return nil, err
		}
	}
	return c, c.Check()
}

// openAtlas opens the atlas's database at path (an error is a usage error), and its
// settings.
func openAtlas(s *streams, opts *atlasOptions, path string, create bool) (*store.AtlasDB, *atlas.Config, error) {
	adb, err := store.OpenAtlas(path, create)
	if err != nil {
		return nil, nil, usage(err)
	}
	cfg, err := atlasSettings(s, opts, adb)
	if err != nil {
		adb.Close()
		return nil, nil, err
	}
	return adb, cfg, nil
}

func newAtlasRunCmd(s *streams, opts *atlasOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run [flags]",
		Short: "Play the atlas's rounds, or a shard's share of the next one",
		Long:  help("atlas-run"),
		Example: `  ponte atlas run --db atlas8.db --size 8 --bot sage-50
  ponte atlas run --db shard-3.db --size 10 --bot sage-50 --shard 3/8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = func(name string) bool { return cmd.Flags().Changed(name) }
			return runAtlas(s, opts)
		},
	}
	addAtlasSettings(cmd, opts)
	f := cmd.Flags()
	f.StringVar(&opts.shard, "shard", "1/1", "play only shard i of N of each round: i/N")
	opts.workers = defaultWorkers()
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games played in parallel (1 to %d)", maxWorkers))
	f.BoolVar(&opts.json, "json", false, "print the atlas as one JSON object")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

func runAtlas(s *streams, opts *atlasOptions) error {
	shard, shards, err := parseShard(opts.shard)
	if err != nil {
		return err
	}
	adb, err := store.OpenAtlas(opts.db, true)
	if err != nil {
		return usage(err)
	}
	defer adb.CloseDiscard() // a file this run made and put no atlas in is removed
	cfg, err := atlasSettings(s, opts, adb)
	if err != nil {
		return err
	}
	var played, stored atomic.Int64 // in the round, in the run
	var bar *progress.Stage
	start, cpu := time.Now(), cputime.Process()
	r := atlas.Runner{Workers: opts.workers, Shard: shard, Shards: shards,
		NewBot: func(name string) (bot.Bot, error) { return newBot(name, bot.Options{Workers: 1}) },
		Round: func(p *atlas.Plan, units int) {
			bar.End(true)
			played.Store(0)
			bar = progress.CountStage(s.err, bars(s.err, opts.quiet || opts.json), fmt.Sprintf("%s round %d", p.Stage, p.Round), int64(units), "games",
				func(elapsed time.Duration) string {
					return ", " + progress.PerSecond(float64(played.Load()), elapsed) + " games/s"
				})
		}}
	a, runErr, err := atlas.Play(s.ctx, adb, cfg, r, func() { stored.Add(1); bar.Set(played.Add(1)) })
	bar.End(runErr == nil || errors.Is(runErr, atlas.ErrWaiting))
	interruptedRun := runErr != nil && s.ctx.Err() != nil
	switch {
	case err != nil:
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	case runErr != nil && !interruptedRun && !errors.Is(runErr, atlas.ErrWaiting):
		if strings.Contains(runErr.Error(), "illegal turn") {
			return internalError(runErr)
		}
		return usage(runErr)
	}
	if err := a.Print(s.out, opts.json); err != nil {
		return err
	}
	if !opts.json {
		held, err := adb.CountAtlasGames(context.WithoutCancel(s.ctx))
		if err != nil {
			return usagef("%s: %s", safe(opts.db), safeErr(err))
		}
		n := int(stored.Load())
		rate := atlas.Rate{Games: n, CPUSeconds: (cputime.Process() - cpu).Seconds()}
		fmt.Fprintf(s.err, "%s: %d %s stored by this run, %d in the database, %s this run, %.1f CPU-s: %.4g games per core-second\n", safe(opts.db), n, plural(n, "game", "games"),
			held, seconds(time.Since(start).Seconds()), rate.CPUSeconds, rate.PerCoreSecond())
	}
	switch {
	case interruptedRun:
		fmt.Fprintf(s.err, "ponte atlas run: interrupted: the games finished are stored in %s; run the same command to continue\n", safe(opts.db))
		return interrupted
	case errors.Is(runErr, atlas.ErrWaiting):
		fmt.Fprintf(s.err, "ponte atlas run: shard %d/%d: %s\n", shard, shards, atlas.ErrWaiting)
	}
	return nil
}

func newAtlasPlanCmd(s *streams, opts *atlasOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Print the next round's plan as JSON: the games each class still needs",
		Long:  help("atlas-plan"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = func(name string) bool { return cmd.Flags().Changed(name) }
			_, statErr := os.Stat(opts.db) // --cost prices a new atlas too, and writes to no other
			adb, cfg, err := openAtlas(s, opts, opts.db, opts.cost && errors.Is(statErr, fs.ErrNotExist))
			if err != nil {
				return err
			}
			defer adb.CloseDiscard()
			classes, err := atlas.Classes(cfg.Size)
			if err != nil {
				return err
			}
			d, err := atlas.Load(s.ctx, adb)
			if err != nil {
				return err
			}
			if opts.cost {
				newBot := func(name string) (bot.Bot, error) { return newBot(name, bot.Options{Workers: 1}) }
				rate, err := cfg.MeasureRate(s.ctx, classes, d, newBot, opts.workers, 5*time.Second)
				if err != nil {
					return usage(err)
				}
				return atlas.PrintCosts(s.out, cfg, rate, cfg.Costs(classes, d, opts.costV, 20), opts.workers)
			}
			p := cfg.NextPlan(classes, d)
			if p.Tasks == nil {
				p.Tasks = []atlas.Task{}
			}
			return json.NewEncoder(s.out).Encode(struct {
				*atlas.Plan
				Stage string `json:"stage"`
				Games int    `json:"games"`
			}{p, p.Stage.String(), p.Games()})
		},
	}
	addAtlasSettings(cmd, opts)
	opts.workers = defaultWorkers()
	cmd.Flags().Var(countFlag(&opts.workers, 1, maxWorkers), "workers", "--cost: games timed in parallel, and the cores its hours are divided by")
	cmd.Flags().BoolVar(&opts.cost, "cost", false, "print the core-hours the next round, the atlas, V and every class's verdict need (games timed now)")
	cmd.Flags().Float64Var(&opts.costV, "cost-v", 0.02, "--cost: the half-width of V's interval to price")
	return cmd
}

func newAtlasMergeCmd(s *streams, opts *atlasOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "merge SHARD.db...",
		Short:   "Add the games of shards' databases to --db (a game counted once)",
		Long:    help("atlas-merge"),
		Example: `  ponte atlas merge --db atlas.db shard-*.db`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return mergeAtlas(s, opts, args)
		},
	}
}

func mergeAtlas(s *streams, opts *atlasOptions, paths []string) error {
	opts.changed = nil
	shards, err := atlas.OpenShards(s.ctx, paths, opts.db)
	defer func() {
		for _, sh := range shards {
			sh.DB.Close()
		}
	}()
	if err != nil {
		return usage(err)
	}
	adb, err := store.OpenAtlas(opts.db, true)
	if err != nil {
		return usage(err)
	}
	defer adb.CloseDiscard() // made here, and no shard merged: removed
	err = atlas.Merge(s.ctx, adb, opts.db, shards, func(sh atlas.Shard, rules string, n int) {
		if !opts.json {
			if rules != "" {
				fmt.Fprintf(s.err, "%s: the rules of the rounds of the shard taken: %s\n", safe(sh.Path), safe(rules))
			}
			fmt.Fprintf(s.err, "%s: %d %s added\n", safe(sh.Path), n, plural(n, "game", "games"))
		}
	})
	if se, ok := errors.AsType[*atlas.ShardError](err); ok && s.ctx.Err() != nil {
		fmt.Fprintf(s.err, "ponte atlas merge: interrupted: nothing of %s merged\n", safe(se.Path))
		return interrupted
	} else if err != nil {
		return usage(err)
	}
	return showAtlas(s, opts, adb)
}

func newAtlasShowCmd(s *streams, opts *atlasOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the atlas in --db; --parquet writes atlas.parquet and atlas_games.parquet",
		Long:  help("atlas-show"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			adb, err := store.OpenAtlas(opts.db, false)
			if err != nil {
				return usage(err)
			}
			defer adb.Close()
			return showAtlas(s, opts, adb)
		},
	}
	cmd.Flags().StringVar(&opts.parquet, "parquet", "", "write atlas.parquet and atlas_games.parquet into this directory")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the atlas as one JSON object")
	return cmd
}

func showAtlas(s *streams, opts *atlasOptions, adb *store.AtlasDB) error {
	opts.changed = nil
	cfg, err := atlasSettings(s, opts, adb)
	if err != nil {
		return usage(err)
	}
	a, err := atlas.Read(s.ctx, adb, cfg)
	if err != nil {
		return usage(err)
	}
	if opts.parquet != "" {
		if err := a.WriteParquet(s.ctx, adb, opts.parquet); err != nil {
			return usage(err)
		}
	}
	return a.Print(s.out, opts.json)
}

func newAtlasExportCmd(s *streams, opts *atlasOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "export OUT",
		Short:   "Write the atlas's games as an archive (.ponte or .jsonl, .gz or .zst)",
		Long:    help("atlas-export"),
		Example: `  ponte atlas export --db atlas8.db atlas8.ponte.gz && ponte verify atlas8.ponte.gz`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = nil
			adb, cfg, err := openAtlas(s, opts, opts.db, false)
			if err != nil {
				return err
			}
			defer adb.Close()
			out, err := archive.Create(s.ctx, args[0], s.out)
			if err != nil {
				return usage(err)
			}
			defer out.Abort()
			w := ingest.NewWriter(out.W, archive.FormatOf(args[0]))
			n, err := atlas.Export(s.ctx, adb, cfg, w)
			if err == nil {
				err = w.Flush()
			}
			if err == nil {
				err = out.Commit()
			}
			switch {
			case s.ctx.Err() != nil:
				fmt.Fprintln(s.err, "ponte atlas export: interrupted: nothing written")
				return interrupted
			case errors.Is(err, atlas.ErrRefused):
				return internalError(err)
			case err != nil:
				return usage(err)
			}
			fmt.Fprintf(s.err, "%d %s written to %s\n", n, plural(n, "game", "games"), safe(out.Name()))
			return nil
		},
	}
}

// addAtlasFlag adds --atlas to report and analyze.
func addAtlasFlag(cmd *cobra.Command, paths *[]string) {
	cmd.Flags().StringArrayVar(paths, "atlas", nil, "an opening atlas's database (ponte atlas run) to show in the report; may be repeated")
}
