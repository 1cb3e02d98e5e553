package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"

	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/store"
)

// atlasOptions are the flags of `ponte atlas` and its subcommands.
type atlasOptions struct {
	db           string
	size         int
	supply       replay.Supply
	bot          string
	seed         uint64
	first, max   int
	margin       float64
	alpha, rest  float64
	candidates   int
	confirm      int
	stability    bool
	stabilityBot string
	panel        int
	panelGames   int
	shard        string
	workers      int
	parquet      string
	json         bool
	quiet        bool
	changed      func(name string) bool
}

func newAtlasCmd(s *streams) *cobra.Command {
	opts := &atlasOptions{}
	cmd := &cobra.Command{
		Use:   "atlas",
		Short: "Estimate every opening's value under strong play: the opening atlas",
		Long: `The opening atlas: for every class of openings (Light's two tiles at turn 1,
folded by the board's 8 symmetries), Light's expected score p from games a bot
plays against itself from the position after the opening, in rounds that spend
games only on the classes whose verdict (swap, keep, fair within ±m) is still
open, with intervals valid although the rounds stop on the data; V, the value
the opener secures under the pie rule, from a confirmation run on fresh seeds.

  ponte atlas run     play the rounds (resumable; --shard i/N plays a share)
  ponte atlas plan    print the next round's plan as JSON
  ponte atlas merge   add shards' games to a database (idempotent)
  ponte atlas show    print the atlas (--json), write atlas.parquet (--parquet)
  ponte atlas export  write the games as an archive ponte verify reads

The method, its planted-truth test and the distributed runs: docs/atlas.md.`,
	}
	cmd.AddCommand(newAtlasRunCmd(s, opts), newAtlasPlanCmd(s, opts), newAtlasMergeCmd(s, opts),
		newAtlasShowCmd(s, opts), newAtlasExportCmd(s, opts))
	cmd.PersistentFlags().StringVar(&opts.db, "db", "atlas.db", "the atlas's SQLite database (one atlas a file)")
	return cmd
}

func addAtlasSettings(cmd *cobra.Command, opts *atlasOptions) {
	d := atlas.DefaultConfig()
	f := cmd.Flags()
	opts.size, opts.bot = d.Size, "arch-100"
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side, %d to %d", replay.MinSize, replay.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", `"unlimited" or "40/15" (tiles per colour / bridges)`)
	f.Var(botFlag(&opts.bot), "bot", "the bot that plays both sides: "+strings.Join(bot.Names, ", ")+", mcts-N, sage-N, sage-Nms, arch-N, arch-Nms")
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
	f.BoolVar(&opts.stability, "stability", false, "re-estimate a panel of classes at 4× the budget (--stability-bot)")
	f.Var(botFlag(&opts.stabilityBot), "stability-bot", "the stability check's bot (default: --bot with 4× its budget)")
	count(&opts.panel, "panel", "classes in the stability check's panel (half nearest ½, half at random)")
	count(&opts.panelGames, "panel-games", "games per class of the panel")
}

// atlasConfig makes the config from the flags, or from the database's when it has one:
// a flag given that disagrees with it is a usage error.
func atlasConfig(ctx context.Context, opts *atlasOptions, adb *store.AtlasDB) (*atlas.Config, error) {
	stored, err := adb.AtlasMeta(ctx, "config")
	if err != nil {
		return nil, err
	}
	if stored != "" {
		var c atlas.Config
		if err := json.Unmarshal([]byte(stored), &c); err != nil {
			return nil, fmt.Errorf("%s: its settings cannot be read: %w", adb.Path(), err)
		}
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("%s: its settings are not an atlas's: %w", adb.Path(), err)
		}
		if opts.changed != nil {
			given, err := configFromFlags(opts, false)
			if err != nil {
				return nil, err
			}
			return c.Resume(given, adb.Path(), opts.changed)
		}
		return &c, nil
	}
	if opts.changed == nil {
		return nil, fmt.Errorf("%s holds no atlas: make one with ponte atlas run --db %s", adb.Path(), adb.Path())
	}
	return configFromFlags(opts, true)
}

// configFromFlags makes the config of the flags; check says whether it must be complete
// (a new atlas), else only the flags given are used.
func configFromFlags(opts *atlasOptions, check bool) (*atlas.Config, error) {
	c := &atlas.Config{Size: opts.size, Supply: opts.supply, Bot: opts.bot, Seed: opts.seed, First: opts.first, Max: opts.max,
		Margin: opts.margin, Spending: atlas.Spending{Alpha: opts.alpha, Rest: opts.rest}, Candidates: opts.candidates,
		ConfirmGames: opts.confirm, PanelSize: opts.panel, PanelGames: opts.panelGames}
	if opts.stability {
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
	if err := c.Check(); err != nil {
		return nil, err
	}
	for _, name := range []string{c.Bot, c.StabilityBot} {
		if name == "" {
			continue
		}
		if err := bot.ParseName(name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// loadAtlas reads the games of the database into the atlas's data.
func loadAtlas(ctx context.Context, adb *store.AtlasDB) (*atlas.Data, error) {
	d := atlas.NewData()
	err := adb.AtlasGames(ctx, func(g store.AtlasGame) error {
		ag, err := fromStored(g)
		if err == nil {
			d.Add(ag)
		}
		return err
	})
	return d, err
}

func fromStored(g store.AtlasGame) (atlas.Game, error) {
	st := slices.IndexFunc([]atlas.Stage{atlas.Main, atlas.Confirm, atlas.Stability}, func(s atlas.Stage) bool { return s.String() == g.Stage })
	if st < 0 || g.Points < 0 || g.Points > 2 || g.Index < 0 || g.Index >= atlas.MaxCount {
		return atlas.Game{}, fmt.Errorf("atlas_games: %s game %d of class %d: not an atlas game (stage %q, points %d)", g.Stage, g.Index, g.Class, g.Stage, g.Points)
	}
	return atlas.Game{Stage: atlas.Stage(st), Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
		Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves}, nil
}

func toStored(g atlas.Game) store.AtlasGame {
	return store.AtlasGame{Stage: g.Stage.String(), Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
		Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves}
}

// openAtlasDB opens the database of the atlas; an error is said and is a usage error.
func openAtlasDB(s *streams, command, path string, create bool) (*store.AtlasDB, error) {
	adb, err := store.OpenAtlas(path, create)
	if err != nil {
		return nil, usage(err)
	}
	return adb, nil
}

func newAtlasRunCmd(s *streams, opts *atlasOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run [flags]",
		Short: "Play the atlas's rounds, or a shard's share of the next one",
		Long: `Play the atlas's games, storing each in --db as it ends (one row per game:
stage, class, index, seed, Light's points, turns, bot), then write the table of
estimates (atlas_classes) and print the atlas. The settings are kept in the
database: run the same command again after Ctrl-C and it continues where it
stopped, playing only the games not stored.

A round is a plan (ponte atlas plan): the first gives every class --first
games; each later one doubles the games of the classes whose verdict is open,
up to --max; then the confirmation of V's candidates on fresh seeds, then,
with --stability, a panel of classes at 4× the budget. With --shard i/N the
command plays only its share of the next round (game k of class c belongs to
shard (c + k) mod N + 1) and stops: merge the shards (ponte atlas merge) and
run again. A game depends only on the settings, its class and its index, so 1
shard and N shards give the same games.

Exit status: 0 the atlas is done, or the shard's share played; 2 a usage error
or a database that cannot be used; 130 interrupted by Ctrl-C (SIGINT) and 143
by SIGTERM (the games finished are stored); 3 an internal error (a bug).`,
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
	if err := checkWorkers(opts.workers); err != nil {
		return err
	}
	adb, err := openAtlasDB(s, "run", opts.db, true)
	if err != nil {
		return err
	}
	defer adb.CloseDiscard() // a file this run made and put no atlas in is removed
	cfg, err := atlasConfig(s.ctx, opts, adb)
	if err != nil {
		return err
	}
	text, _ := json.Marshal(cfg)
	if err := adb.SetAtlasMeta(s.ctx, "config", string(text)); err != nil {
		return usagef("%s: %s", opts.db, safeErr(err))
	}
	classes, err := atlas.Classes(cfg.Size)
	if err != nil {
		return err
	}
	d, err := loadAtlas(s.ctx, adb)
	if err != nil {
		return usagef("%s: %s", opts.db, safeErr(err))
	}
	var played, stored atomic.Int64 // in the round, in the run
	var bar *stage
	start := time.Now()
	r := &atlas.Runner{Config: cfg, Classes: classes, Workers: opts.workers, Shard: shard, Shards: shards,
		NewBot: func(name string) (bot.Bot, error) { return newBot(name, bot.Options{Workers: 1}) },
		Save: func(g atlas.Game) error {
			err := adb.AddAtlasGame(context.WithoutCancel(s.ctx), toStored(g))
			if err == nil {
				stored.Add(1)
			}
			if err == nil && bar != nil {
				bar.set(played.Add(1))
			}
			return err
		},
		Round: func(p *atlas.Plan, units int) {
			if bar != nil {
				bar.end(true)
			}
			played.Store(0)
			name := fmt.Sprintf("%s round %d", p.Stage, p.Round)
			bar = startStage(s.err, opts.quiet || opts.json, func(pr *mpb.Progress) *phase {
				return newCountBar(pr, name, int64(units), "games", func(elapsed time.Duration) string {
					return ", " + perSecond(float64(played.Load()), elapsed) + " games/s"
				})
			})
		}}
	runErr := r.Run(s.ctx, d)
	if bar != nil {
		bar.end(runErr == nil || errors.Is(runErr, atlas.ErrWaiting))
	}
	interruptedRun := runErr != nil && s.ctx.Err() != nil
	if runErr != nil && !interruptedRun && !errors.Is(runErr, atlas.ErrWaiting) {
		if strings.Contains(runErr.Error(), "illegal turn") {
			return internalError(runErr)
		}
		return usage(runErr)
	}
	a := cfg.Estimate(classes, d)
	if err := saveClasses(context.WithoutCancel(s.ctx), adb, a); err != nil {
		return usagef("%s: %s", opts.db, safeErr(err))
	}
	if err := printAtlas(s.out, a, opts.json); err != nil {
		return err
	}
	if !opts.json {
		held, err := adb.CountAtlasGames(context.WithoutCancel(s.ctx))
		if err != nil {
			return usagef("%s: %s", safe(opts.db), safeErr(err))
		}
		n := int(stored.Load())
		fmt.Fprintf(s.err, "%s: %d %s stored by this run, %d in the database, %s this run\n", safe(opts.db), n, plural(n, "game", "games"),
			held, seconds(time.Since(start).Seconds()))
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

func saveClasses(ctx context.Context, adb *store.AtlasDB, a *atlas.Atlas) error {
	rows := make([]store.AtlasClass, len(a.Estimates))
	for i, e := range a.Estimates {
		rows[i] = store.AtlasClass{Class: e.ID, A: e.A.String(), B: e.B.String(), Edge: e.Edge, Apart: e.Apart, Size: e.Size,
			Games: e.Games(), Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, P: e.P, Lo: e.Lo, Hi: e.Hi,
			Verdict: e.Verdict.String(), Elo: e.Elo, Rounds: e.Rounds}
	}
	if err := adb.SetAtlasClasses(ctx, rows); err != nil {
		return err
	}
	text, err := json.Marshal(atlasJSON(a, false))
	if err != nil {
		return err
	}
	return adb.SetAtlasMeta(ctx, "summary", string(text))
}

func newAtlasPlanCmd(s *streams, opts *atlasOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "plan",
		Short: "Print the next round's plan as JSON: the games each class still needs",
		Long: `Print the plan of the next round of the atlas in --db as one JSON object:
its stage (main, confirm, stability), its round, and per class the game indices
from and to (to excluded) that it plays; done is true when nothing is left. A
scheduler gives every machine the same database and --shard i/N.

Exit status: 0 printed, 2 a usage error or a database that cannot be used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			adb, err := openAtlasDB(s, "plan", opts.db, false)
			if err != nil {
				return err
			}
			defer adb.Close()
			cfg, err := atlasConfig(s.ctx, opts, adb)
			if err != nil {
				return err
			}
			classes, err := atlas.Classes(cfg.Size)
			if err != nil {
				return err
			}
			d, err := loadAtlas(s.ctx, adb)
			if err != nil {
				return err
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
}

func newAtlasMergeCmd(s *streams, opts *atlasOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "merge SHARD.db...",
		Short: "Add the games of shards' databases to --db (a game counted once)",
		Long: `Add to --db every game of the shards' atlas databases that it lacks (a game
is keyed by stage, class and index, so merging twice adds nothing), then write
its table of estimates and print the atlas. --db is made from the first
shard's settings when it does not exist.

Each shard goes in whole or not at all: every row is checked first (its
types, its class and index, the seed and bot its settings give, turn 1 the
class's opening, the turns replayed to the stored outcome, the same as a copy
--db holds) and its games go in with the new estimates in one transaction. A
shard of other games (--size, --supply, --bot, --seed, --stability-bot) is
refused before any is merged, naming the setting; one that differs only in the
rules of the rounds (--first, --max, --confirm, ...) is merged, and --db keeps
its own rules. The first shard refused stops the command: the shards before it
are merged, it and those after it are not.

Exit status: 0 merged, 2 a usage error, a database that cannot be used or a
shard refused, 130 interrupted (the shard being merged is not).`,
		Example: `  ponte atlas merge --db atlas.db shard-*.db`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return mergeAtlas(s, opts, args)
		},
	}
}

// atlasShard is a shard to merge: its database, read only, and its settings.
type atlasShard struct {
	path string
	db   *store.AtlasDB
	cfg  *atlas.Config
}

func mergeAtlas(s *streams, opts *atlasOptions, paths []string) error {
	opts.changed = nil
	var shards []atlasShard
	defer func() {
		for _, sh := range shards {
			sh.db.Close()
		}
	}()
	for _, path := range paths {
		sdb, err := store.OpenAtlas(path, false)
		if err != nil {
			return usagef("%s refused, nothing of it merged: %s", safe(path), safeErr(err))
		}
		cfg, err := atlasConfig(s.ctx, opts, sdb)
		if err == nil && atlasSameFile(path, opts.db) {
			err = fmt.Errorf("it is --db itself")
		}
		shards = append(shards, atlasShard{path, sdb, cfg})
		if err != nil {
			return usagef("%s refused, nothing of it merged: %s", safe(path), safeErr(err))
		}
	}
	adb, err := openAtlasDB(s, "merge", opts.db, true)
	if err != nil {
		return err
	}
	defer adb.CloseDiscard() // made here, and no shard merged: removed
	cfg := shards[0].cfg
	stored, err := adb.AtlasMeta(s.ctx, "config")
	if err != nil {
		return usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if stored != "" {
		if cfg, err = atlasConfig(s.ctx, opts, adb); err != nil {
			return usage(err)
		}
	}
	// Every shard's settings before any is merged: a shard of other games stops the merge
	// before it begins. The rules of the rounds may differ: each shard merged brings its own
	// (the rules its run was given), as a run does.
	next := cfg
	for _, sh := range shards {
		if games := differences(next, sh.cfg, opts.db, true); games != "" {
			return usagef("%s refused, nothing of it merged: an atlas of other games than %s's: %s", safe(sh.path), safe(opts.db), safe(games))
		}
		next = next.WithRules(sh.cfg)
	}
	classes, err := atlas.Classes(cfg.Size)
	if err != nil {
		return err
	}
	for _, sh := range shards {
		check := func(g store.AtlasGame) error {
			st, err := atlas.ParseStage(g.Stage)
			if err == nil {
				err = sh.cfg.CheckGame(classes, atlas.Game{Stage: st, Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
					Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves})
			}
			if ge, ok := errors.AsType[*atlas.GameError](err); ok {
				return &store.AtlasColumnError{Column: ge.Column, Value: ge.Value, Err: ge.Err}
			}
			return err
		}
		merged := cfg.WithRules(sh.cfg)
		rules := differences(cfg, merged, opts.db, false)
		finish := func(tx *store.AtlasDB) error {
			if stored == "" || rules != "" {
				text, _ := json.Marshal(merged)
				if err := tx.SetAtlasMeta(s.ctx, "config", string(text)); err != nil {
					return err
				}
			}
			d, err := loadAtlas(s.ctx, tx)
			if err != nil {
				return err
			}
			a := merged.Estimate(classes, d)
			a.Strength = ladderStrength(merged)
			return saveClasses(s.ctx, tx, a)
		}
		n, err := adb.MergeAtlas(s.ctx, sh.db, check, finish)
		switch {
		case err != nil && s.ctx.Err() != nil:
			fmt.Fprintf(s.err, "ponte atlas merge: interrupted: nothing of %s merged\n", safe(sh.path))
			return interrupted
		case err != nil:
			return usagef("%s refused, nothing of it merged: %s", safe(sh.path), safeErr(err))
		}
		if !opts.json {
			if rules != "" {
				fmt.Fprintf(s.err, "%s: the rules of the rounds of the shard taken: %s\n", safe(sh.path), safe(rules))
			}
			fmt.Fprintf(s.err, "%s: %d %s added\n", safe(sh.path), n, plural(n, "game", "games"))
		}
		cfg, stored = merged, "stored"
	}
	return showAtlas(s, opts, adb, false)
}

// differences writes the settings in which the shard's settings differ from db's (c):
// those of the games when games is true, else the rules of the rounds; "" when none.
func differences(c, shard *atlas.Config, db string, games bool) string {
	var out []string
	for _, d := range c.Differences(shard) {
		if d.Games == games {
			out = append(out, fmt.Sprintf("--%s %s in %s, %s in the shard", d.Flag, d.A, db, d.B))
		}
	}
	return strings.Join(out, "; ")
}

// atlasSameFile says whether the paths name one file.
func atlasSameFile(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

func newAtlasShowCmd(s *streams, opts *atlasOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the atlas in --db; --parquet writes atlas.parquet and atlas_games.parquet",
		Long: `Print the atlas in --db: its bot, board and games, V with its interval and
the fair openings, the counts of verdicts, and every class by p̂ with its
interval, verdict and Elo equivalent (--json: one object). --parquet DIR
writes DIR/atlas.parquet (a row per class) and DIR/atlas_games.parquet (a row
per game), which DuckDB and pandas read.

Exit status: 0 printed, 2 a usage error or a database that cannot be used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			adb, err := openAtlasDB(s, "show", opts.db, false)
			if err != nil {
				return err
			}
			defer adb.Close()
			return showAtlas(s, opts, adb, false)
		},
	}
	cmd.Flags().StringVar(&opts.parquet, "parquet", "", "write atlas.parquet and atlas_games.parquet into this directory")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the atlas as one JSON object")
	return cmd
}

func showAtlas(s *streams, opts *atlasOptions, adb *store.AtlasDB, save bool) error {
	opts.changed = nil
	cfg, err := atlasConfig(s.ctx, opts, adb)
	if err != nil {
		return usage(err)
	}
	classes, err := atlas.Classes(cfg.Size)
	if err != nil {
		return err
	}
	d, err := loadAtlas(s.ctx, adb)
	if err != nil {
		return usagef("%s: %s", safe(adb.Path()), safeErr(err))
	}
	a := cfg.Estimate(classes, d)
	a.Strength = ladderStrength(cfg)
	if save {
		if err := saveClasses(s.ctx, adb, a); err != nil {
			return err
		}
	}
	if opts.parquet != "" {
		if err := writeAtlasParquet(s.ctx, adb, a, opts.parquet); err != nil {
			return usage(err)
		}
	}
	return printAtlas(s.out, a, opts.json)
}

func writeAtlasParquet(ctx context.Context, adb *store.AtlasDB, a *atlas.Atlas, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var rows []store.AtlasClassRow
	for _, e := range a.Estimates {
		r := store.AtlasClassRow{Size: int32(a.Config.Size), Supply: a.Config.Supply.String(), Bot: a.Config.Bot,
			Class: int32(e.ID), A: e.A.String(), B: e.B.String(), Edge: int32(e.Edge), Apart: int32(e.Apart), Members: int32(e.Size),
			Games: int32(e.Games()), Wins: int32(e.Wins), Draws: int32(e.Draws), Losses: int32(e.Losses),
			P: e.P, Lo: e.Lo, Hi: e.Hi, Verdict: e.Verdict.String(), Elo: finite(e.Elo), Rounds: int32(e.Rounds)}
		rows = append(rows, r)
	}
	if err := store.WriteAtlasParquet(filepath.Join(dir, "atlas.parquet"), rows); err != nil {
		return err
	}
	var games []store.AtlasGameRow
	err := adb.AtlasGames(ctx, func(g store.AtlasGame) error {
		games = append(games, store.AtlasGameRow{Stage: g.Stage, Class: int32(g.Class), Index: int32(g.Index), Seed: g.Seed,
			Points: int32(g.Points), Turns: int32(g.Turns), Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves})
		return nil
	})
	if err != nil {
		return err
	}
	return store.WriteAtlasParquet(filepath.Join(dir, "atlas_games.parquet"), games)
}

func newAtlasExportCmd(s *streams, opts *atlasOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "export OUT",
		Short: "Write the atlas's games as an archive (.ponte or .jsonl, .gz or .zst)",
		Long: `Write every game of the atlas in --db as a record of an archive that ponte
verify and ponte ingest read, in the order stage, class, index. Each game is
played again through the rules engine first; its tags say Event "atlas", the
Atlas (board, bot, seed), its Class (number and representative), Stage and Bot.

Exit status: 0 written, 2 a usage error or an output that cannot be written,
130 interrupted, 3 a stored game the rules refuse (a bug).`,
		Example: `  ponte atlas export --db atlas8.db atlas8.ponte.gz && ponte verify atlas8.ponte.gz`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			adb, err := openAtlasDB(s, "export", opts.db, false)
			if err != nil {
				return err
			}
			defer adb.Close()
			opts.changed = nil
			cfg, err := atlasConfig(s.ctx, opts, adb)
			if err != nil {
				return err
			}
			classes, err := atlas.Classes(cfg.Size)
			if err != nil {
				return err
			}
			byID := map[int]atlas.Class{}
			for _, c := range classes {
				byID[c.ID] = c
			}
			out, err := createOutput(s.ctx, args[0], s.out)
			if err != nil {
				return usage(err)
			}
			defer out.abort()
			w := ingest.NewWriter(out.w, formatFromName(args[0]))
			n := 0
			err = adb.AtlasGames(s.ctx, func(g store.AtlasGame) error {
				ag, err := fromStored(g)
				if err != nil {
					return err
				}
				rec, err := cfg.Record(byID[g.Class], ag)
				if err != nil {
					return internalError(errors.New("a stored game the rules refuse"))
				}
				n++
				return w.Write(rec)
			})
			if err == nil {
				err = w.Flush()
			}
			if err == nil {
				err = out.commit()
			}
			switch {
			case s.ctx.Err() != nil:
				fmt.Fprintln(s.err, "ponte atlas export: interrupted: nothing written")
				return interrupted
			case err != nil:
				if _, ok := errors.AsType[*failure](err); ok {
					return err
				}
				return usage(err)
			}
			fmt.Fprintf(s.err, "%d %s written to %s\n", n, plural(n, "game", "games"), safe(out.name()))
			return nil
		},
	}
}

// atlasResult is the --json output of ponte atlas run, merge and show.
type atlasResult struct {
	Size      int            `json:"size"`
	Supply    string         `json:"supply"`
	Bot       string         `json:"bot"`
	Seed      uint64         `json:"seed"`
	Margin    float64        `json:"margin"`
	Alpha     float64        `json:"alpha"`
	Classes   int            `json:"classes"`
	Games     int            `json:"games"`
	MainGames int            `json:"main_games"`
	Done      bool           `json:"done"`
	Strength  string         `json:"strength"`
	Verdicts  map[string]int `json:"verdicts"`
	V         *float64       `json:"v"`
	VLo       *float64       `json:"v_lo"`
	VHi       *float64       `json:"v_hi"`
	VClass    int            `json:"v_class,omitempty"`
	Fair      []int          `json:"fair"`
	Even      []int          `json:"even"`
	Confirmed []classJSON    `json:"confirmed"`
	Stability *stabilityJSON `json:"stability"`
	Estimates []classJSON    `json:"estimates,omitempty"`
}

type classJSON struct {
	Class   int      `json:"class"`
	A       string   `json:"a"`
	B       string   `json:"b"`
	Edge    int      `json:"edge"`
	Apart   int      `json:"apart"`
	Members int      `json:"members"`
	Games   int      `json:"games"`
	Wins    int      `json:"wins"`
	Draws   int      `json:"draws"`
	Losses  int      `json:"losses"`
	P       float64  `json:"p"`
	Lo      float64  `json:"lo"`
	Hi      float64  `json:"hi"`
	FixedLo float64  `json:"fixed_lo"`
	FixedHi float64  `json:"fixed_hi"`
	Verdict string   `json:"verdict"`
	Elo     *float64 `json:"elo"`
	Rounds  int      `json:"rounds"`
}

type stabilityJSON struct {
	Bot       string      `json:"bot"`
	Spearman  *float64    `json:"spearman"` // null while undefined (under two panel classes, or p̂ all equal)
	MeanShift float64     `json:"mean_shift"`
	Flips     []int       `json:"flips"`
	Panel     []classJSON `json:"panel"`
}

func classOf(e atlas.Estimate) classJSON {
	return classJSON{Class: e.ID, A: e.A.String(), B: e.B.String(), Edge: e.Edge, Apart: e.Apart, Members: e.Size,
		Games: e.Games(), Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, P: e.P, Lo: e.Lo, Hi: e.Hi,
		FixedLo: e.FixedLo, FixedHi: e.FixedHi, Verdict: e.Verdict.String(), Elo: finite(e.Elo), Rounds: e.Rounds}
}

func atlasJSON(a *atlas.Atlas, all bool) *atlasResult {
	r := &atlasResult{Size: a.Config.Size, Supply: a.Config.Supply.String(), Bot: a.Config.Bot, Seed: a.Config.Seed,
		Margin: a.Config.Margin, Alpha: a.Config.Spending.Alpha, Classes: len(a.Estimates), Games: a.Games,
		MainGames: a.MainGames, Done: a.Done, Strength: a.Strength, Verdicts: map[string]int{}, V: finite(a.V), VLo: finite(a.VLo),
		VHi: finite(a.VHi), VClass: a.VClass, Fair: []int{}, Even: []int{}, Confirmed: []classJSON{}}
	for _, v := range []atlas.Verdict{atlas.Swap, atlas.Keep, atlas.Fair, atlas.Open} {
		r.Verdicts[v.String()] = a.Counts()[v]
	}
	fair, even := a.Fair()
	for _, e := range fair {
		r.Fair = append(r.Fair, e.ID)
	}
	for _, e := range even {
		r.Even = append(r.Even, e.ID)
	}
	for _, e := range a.Confirmed {
		r.Confirmed = append(r.Confirmed, classOf(e))
	}
	if st := a.Stable; st != nil {
		r.Stability = &stabilityJSON{Bot: st.Bot, Spearman: finite(st.Spearman), MeanShift: st.MeanShift, Flips: append([]int{}, st.Flips...), Panel: []classJSON{}}
		for _, e := range st.Panel {
			r.Stability.Panel = append(r.Stability.Panel, classOf(e))
		}
	}
	if all {
		for _, e := range a.Estimates {
			r.Estimates = append(r.Estimates, classOf(e))
		}
	}
	return r
}

// printAtlas prints the atlas: --json as one object, else its summary and every class by p̂.
func printAtlas(w io.Writer, a *atlas.Atlas, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(atlasJSON(a, true))
	}
	c := a.Config
	state := "complete"
	if !a.Done {
		state = "not complete"
	}
	fmt.Fprintf(w, "opening atlas %d×%d, supply %s, bot %s, seed %d: %d classes, %d games (%d in the main rounds), %s\n",
		c.Size, c.Size, c.Supply, c.Bot, c.Seed, len(a.Estimates), a.Games, a.MainGames, state)
	if a.Strength != "" {
		fmt.Fprintf(w, "strength: %s\n", a.Strength)
	}
	n := a.Counts()
	fmt.Fprintf(w, "verdicts (intervals %g%%, fair band ½ ± %g%%): swap %d, keep %d, fair %d, open %d\n",
		100*(1-c.Spending.Alpha), 100*c.Margin, n[atlas.Swap], n[atlas.Keep], n[atlas.Fair], n[atlas.Open])
	if math.IsNaN(a.V) {
		fmt.Fprintln(w, "V: not yet (the confirmation run is not complete)")
	} else {
		e := a.Estimates[slices.IndexFunc(a.Estimates, func(e atlas.Estimate) bool { return e.ID == a.VClass })]
		fmt.Fprintf(w, "V = %.3f [%.3f, %.3f]: the opener's value under the pie rule, from class %d (%s,%s) on %d fresh games\n",
			a.V, a.VLo, a.VHi, a.VClass, e.A, e.B, c.ConfirmGames)
	}
	fair, even := a.Fair()
	fmt.Fprintf(w, "fair within ±%g%%: %s\n", 100*c.Margin, classList(fair))
	fmt.Fprintf(w, "interval holds ½: %s\n", classList(even))
	if st := a.Stable; st != nil && len(st.Panel) < a.Config.PanelSize {
		fmt.Fprintf(w, "stability at %s: not yet (%d of %d classes re-estimated)\n", st.Bot, len(st.Panel), a.Config.PanelSize)
	} else if st != nil {
		fmt.Fprintf(w, "stability at %s: %d classes, rank correlation %s, mean shift %+.3f, verdicts flipped: %d %v\n",
			st.Bot, len(st.Panel), atlas.RankText(st.Spearman), st.MeanShift, len(st.Flips), st.Flips)
	}
	sorted := slices.Clone(a.Estimates)
	slices.SortStableFunc(sorted, func(x, y atlas.Estimate) int {
		switch {
		case x.P > y.P:
			return -1
		case x.P < y.P:
			return 1
		}
		return x.ID - y.ID
	})
	fmt.Fprintf(w, "%5s  %-8s %5s %5s %5s  %6s  %-15s  %-7s %7s %6s\n", "class", "opening", "edge", "apart", "games", "p", "interval", "verdict", "elo", "rounds")
	for _, e := range sorted {
		fmt.Fprintf(w, "%5d  %-8s %5d %5d %5d  %6.3f  [%.3f, %.3f]  %-7s %7s %6d\n", e.ID, e.A.String()+","+e.B.String(),
			e.Edge, e.Apart, e.Games(), e.P, e.Lo, e.Hi, e.Verdict, signedElo(e.Elo), e.Rounds)
	}
	return nil
}

func classList(es []atlas.Estimate) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i, e := range es {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-12))
			break
		}
		parts = append(parts, fmt.Sprintf("%d (%s,%s %.3f)", e.ID, e.A, e.B, e.P))
	}
	return strings.Join(parts, ", ")
}

// addAtlasFlag adds --atlas to report and analyze.
func addAtlasFlag(cmd *cobra.Command, paths *[]string) {
	cmd.Flags().StringArrayVar(paths, "atlas", nil, "an opening atlas's database (ponte atlas run) to show in the report; may be repeated")
}

// loadAtlases reads the atlases of the databases at paths, smallest board first.
func loadAtlases(ctx context.Context, paths []string) ([]*atlas.Atlas, error) {
	var out []*atlas.Atlas
	for _, path := range paths {
		adb, err := store.OpenAtlas(path, false)
		if err != nil {
			return nil, err
		}
		a, err := func() (*atlas.Atlas, error) {
			defer adb.Close()
			cfg, err := atlasConfig(ctx, &atlasOptions{}, adb)
			if err != nil {
				return nil, err
			}
			classes, err := atlas.Classes(cfg.Size)
			if err != nil {
				return nil, err
			}
			d, err := loadAtlas(ctx, adb)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			a := cfg.Estimate(classes, d)
			a.Strength = ladderStrength(cfg)
			return a, nil
		}()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b *atlas.Atlas) int { return a.Config.Size - b.Config.Size })
	return out, nil
}

// writeAtlasSummary prints an atlas in three lines: what it is, V, the fair openings.
func writeAtlasSummary(w io.Writer, a *atlas.Atlas) {
	c := a.Config
	state := "complete"
	if !a.Done {
		state = "not complete"
	}
	n := a.Counts()
	fmt.Fprintf(w, "Opening atlas %d×%d (%s against itself, %d games, %s): swap %d, keep %d, fair %d, open %d of %d classes\n",
		c.Size, c.Size, c.Bot, a.Games, state, n[atlas.Swap], n[atlas.Keep], n[atlas.Fair], n[atlas.Open], len(a.Estimates))
	if math.IsNaN(a.V) {
		fmt.Fprintln(w, "  V: not yet (the confirmation run is not complete)")
	} else {
		fmt.Fprintf(w, "  V = %.3f [%.3f, %.3f] (class %d)\n", a.V, a.VLo, a.VHi, a.VClass)
	}
	fair, even := a.Fair()
	fmt.Fprintf(w, "  fair within ±%g%%: %s\n  interval holds ½: %s\n", 100*c.Margin, classList(fair), classList(even))
}

// ladderStrength is the atlas bot's rating in the ladder ponte holds (match/ladder.jsonl) on
// the atlas's board, or says that the ladder does not rate it.
func ladderStrength(c *atlas.Config) string {
	blocks, err := match.Ladder()
	if err != nil {
		return "ladder rating: the ladder cannot be read: " + err.Error()
	}
	fit, err := match.FitLadder(blocks, "greedy", c.Size, c.Supply.String(), 100, 1)
	if err == nil {
		for _, r := range fit.Ratings {
			if r.Name != c.Bot {
				continue
			}
			iv := func(x *float64) string {
				if x == nil {
					return "open"
				}
				return fmt.Sprintf("%+.0f", *x)
			}
			return fmt.Sprintf("ladder rating %+.0f [%s, %s] Elo over greedy (%d×%d ladder, %d games)", r.Rating, iv(r.RatingLo), iv(r.RatingHi), c.Size, c.Size, r.Games)
		}
	}
	return fmt.Sprintf("ladder rating: %s is not in the %d×%d ladder ponte holds (match/ladder.jsonl; ponte bots --play adds it)", c.Bot, c.Size, c.Size)
}
