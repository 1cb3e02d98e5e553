package atlas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/store"
)

// An atlas is kept in a database of its own (store.AtlasDB): its settings (the meta key
// "config"), a row per game as it ends, and the table of estimates with a summary. These
// functions hold the rules between the two: what a run again of an atlas may change, a
// shard's merge, the Parquet files and the archive of its games.

// Settings returns the settings of the atlas in adb. Run again (changed not nil: the
// flags given), the rules of the rounds of the settings given change them
// (Config.Resume), and a database that holds no atlas takes the settings given, whole and
// checked; given(complete) makes them. Shown or merged (changed nil), a database that
// holds no atlas is an error.
func Settings(ctx context.Context, adb *store.AtlasDB, given func(complete bool) (*Config, error), changed func(string) bool) (*Config, error) {
	stored, err := adb.AtlasMeta(ctx, "config")
	if err != nil {
		return nil, err
	}
	if stored == "" && changed == nil {
		return nil, fmt.Errorf("%s holds no atlas: make one with ponte atlas run --db %s", adb.Path(), adb.Path())
	}
	if stored == "" {
		return given(true)
	}
	var c Config
	if err := json.Unmarshal([]byte(stored), &c); err != nil {
		return nil, fmt.Errorf("%s: its settings cannot be read: %w", adb.Path(), err)
	}
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("%s: its settings are not an atlas's: %w", adb.Path(), err)
	}
	if changed == nil {
		return &c, nil
	}
	g, err := given(false)
	if err != nil {
		return nil, err
	}
	return c.Resume(g, adb.Path(), changed)
}

// SaveSettings stores the settings c in adb.
func SaveSettings(ctx context.Context, adb *store.AtlasDB, c *Config) error {
	text, err := json.Marshal(c)
	if err == nil {
		err = adb.SetAtlasMeta(ctx, "config", string(text))
	}
	return err
}

// Load reads the games of adb into the atlas's data.
func Load(ctx context.Context, adb *store.AtlasDB) (*Data, error) {
	d := NewData()
	err := adb.AtlasGames(ctx, func(g store.AtlasGame) error {
		ag, err := fromStored(g)
		if err == nil {
			d.Add(ag)
		}
		return err
	})
	return d, err
}

// Save stores a game as it ends.
func Save(ctx context.Context, adb *store.AtlasDB, g Game) error {
	return adb.AddAtlasGame(ctx, store.AtlasGame{Stage: g.Stage.String(), Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
		Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves})
}

func fromStored(g store.AtlasGame) (Game, error) {
	st := slices.IndexFunc(stages, func(s Stage) bool { return s.String() == g.Stage })
	if st < 0 || g.Points < 0 || g.Points > 2 || g.Index < 0 || g.Index >= MaxCount {
		return Game{}, fmt.Errorf("atlas_games: %s game %d of class %d: not an atlas game (stage %q, points %d)", g.Stage, g.Index, g.Class, g.Stage, g.Points)
	}
	return Game{Stage: Stage(st), Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
		Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves}, nil
}

// SaveEstimates stores the table of estimates of a (atlas_classes) and its summary.
func SaveEstimates(ctx context.Context, adb *store.AtlasDB, a *Atlas) error {
	rows := make([]store.AtlasClass, len(a.Estimates))
	for i, e := range a.Estimates {
		rows[i] = store.AtlasClass{Class: e.ID, A: e.A.String(), B: e.B.String(), Edge: e.Edge, Apart: e.Apart, Size: e.Size,
			Games: e.Games(), Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, P: e.P, Lo: e.Lo, Hi: e.Hi,
			Verdict: e.Verdict.String(), Elo: e.Elo, Rounds: e.Rounds}
	}
	if err := adb.SetAtlasClasses(ctx, rows); err != nil {
		return err
	}
	text, err := json.Marshal(a.JSON(false))
	if err != nil {
		return err
	}
	return adb.SetAtlasMeta(ctx, "summary", string(text))
}

// Read is the atlas of adb, stored with settings c, with the bot's strength in the
// ladder ponte holds.
func Read(ctx context.Context, adb *store.AtlasDB, c *Config) (*Atlas, error) {
	classes, err := Classes(c.Size)
	if err != nil {
		return nil, err
	}
	d, err := Load(ctx, adb)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", adb.Path(), err)
	}
	a := c.Estimate(classes, d)
	a.Strength = match.Strength(c.Bot, c.Size, c.Supply.String())
	a.Rating = LadderRating(c.Bot, c.Size, c.Supply.String())
	return a, nil
}

// ReadAll reads the atlases of the databases at paths, smallest board first (the report's
// --atlas).
func ReadAll(ctx context.Context, paths []string) ([]*Atlas, error) {
	var out []*Atlas
	for _, path := range paths {
		adb, err := store.OpenAtlas(path, false)
		if err != nil {
			return nil, err
		}
		c, err := Settings(ctx, adb, nil, nil)
		var a *Atlas
		if err == nil {
			a, err = Read(ctx, adb, c)
		}
		adb.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b *Atlas) int { return a.Config.Size - b.Config.Size })
	return out, nil
}

// WriteParquet writes dir/atlas.parquet (a row per class) and dir/atlas_games.parquet (a
// row per game of adb).
func (a *Atlas) WriteParquet(ctx context.Context, adb *store.AtlasDB, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var rows []store.AtlasClassRow
	for _, e := range a.Estimates {
		elo := match.Finite(e.Elo)
		rows = append(rows, store.AtlasClassRow{Size: int32(a.Config.Size), Supply: a.Config.Supply.String(), Bot: a.Config.Bot,
			Class: int32(e.ID), A: e.A.String(), B: e.B.String(), Edge: int32(e.Edge), Apart: int32(e.Apart), Members: int32(e.Size),
			Games: int32(e.Games()), Wins: int32(e.Wins), Draws: int32(e.Draws), Losses: int32(e.Losses),
			P: e.P, Lo: e.Lo, Hi: e.Hi, Verdict: e.Verdict.String(), Elo: elo, Rounds: int32(e.Rounds)})
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

// ErrRefused is Export's error for a stored game that the rules refuse: a bug.
var ErrRefused = errors.New("a stored game the rules refuse")

// Export writes every game of adb, stored with settings c, to w as a record, in the order
// stage, class, index, and returns how many; each is played again through the rules
// engine first (ErrRefused).
func Export(ctx context.Context, adb *store.AtlasDB, c *Config, w *ingest.Writer) (int, error) {
	classes, err := Classes(c.Size)
	if err != nil {
		return 0, err
	}
	byID := map[int]Class{}
	for _, cl := range classes {
		byID[cl.ID] = cl
	}
	n := 0
	err = adb.AtlasGames(ctx, func(g store.AtlasGame) error {
		ag, err := fromStored(g)
		if err != nil {
			return err
		}
		rec, err := c.Record(byID[g.Class], ag)
		if err != nil {
			return ErrRefused
		}
		n++
		return w.Write(rec)
	})
	return n, err
}

// Shard is an atlas's database to merge: its path, the database read only, its settings.
type Shard struct {
	Path   string
	DB     *store.AtlasDB
	Config *Config
}

// ShardError is a shard refused: nothing of it is merged.
type ShardError struct {
	Path string
	Err  error
}

func (e *ShardError) Error() string {
	return fmt.Sprintf("%s refused, nothing of it merged: %v", e.Path, e.Err)
}
func (e *ShardError) Unwrap() error { return e.Err }

// OpenShards opens the shards at paths, read only, with their settings; a shard that
// cannot be used, or that is db itself, is a *ShardError. The shards opened are returned
// with the error, to be closed.
func OpenShards(ctx context.Context, paths []string, db string) ([]Shard, error) {
	var shards []Shard
	for _, path := range paths {
		sdb, err := store.OpenAtlas(path, false)
		if err != nil {
			return shards, &ShardError{path, err}
		}
		c, err := Settings(ctx, sdb, nil, nil)
		if err == nil && sameFile(path, db) {
			err = errors.New("it is --db itself")
		}
		shards = append(shards, Shard{path, sdb, c})
		if err != nil {
			return shards, &ShardError{path, err}
		}
	}
	return shards, nil
}

// sameFile says whether the paths name one file.
func sameFile(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// Merge adds to adb (the database db) every game of the shards that it lacks (a game is
// keyed by stage, class and index), a shard at a time, each whole or not at all, in one
// transaction with the new estimates: every row is checked first (Config.CheckGame). A
// shard of other games than adb's (or, for a new adb, the first shard's) is refused
// before any is merged (*ShardError); one that differs only in the rules of the rounds is
// merged, and adb keeps its own. merged is told of each shard merged, with the rules of
// the rounds taken from it ("" for none) and the games added. The first shard refused
// stops the merge: the shards before it are merged.
func Merge(ctx context.Context, adb *store.AtlasDB, db string, shards []Shard, merged func(sh Shard, rules string, n int)) error {
	stored, err := adb.AtlasMeta(ctx, "config")
	if err != nil {
		return err
	}
	c := shards[0].Config
	if stored != "" {
		if c, err = Settings(ctx, adb, nil, nil); err != nil {
			return err
		}
	}
	// Every shard's settings before any is merged: a shard of other games stops the merge
	// before it begins. The rules of the rounds may differ: each shard merged brings its own
	// (the rules its run was given), as a run does.
	next := c
	for _, sh := range shards {
		if games := differences(next, sh.Config, db, true); games != "" {
			return &ShardError{sh.Path, fmt.Errorf("an atlas of other games than %s's: %s", db, games)}
		}
		next = next.WithRules(sh.Config)
	}
	classes, err := Classes(c.Size)
	if err != nil {
		return err
	}
	for _, sh := range shards {
		check := func(g store.AtlasGame) error {
			st, err := ParseStage(g.Stage)
			if err == nil {
				err = sh.Config.CheckGame(classes, Game{Stage: st, Class: g.Class, Index: g.Index, Seed: g.Seed, Points: g.Points,
					Turns: g.Turns, Swapped: g.Swapped, Bot: g.Bot, Moves: g.Moves})
			}
			if ge, ok := errors.AsType[*GameError](err); ok {
				return &store.AtlasColumnError{Column: ge.Column, Value: ge.Value, Err: ge.Err}
			}
			return err
		}
		withRules := c.WithRules(sh.Config)
		rules := differences(c, withRules, db, false)
		finish := func(tx *store.AtlasDB) error {
			if stored == "" || rules != "" {
				if err := SaveSettings(ctx, tx, withRules); err != nil {
					return err
				}
			}
			a, err := Read(ctx, tx, withRules)
			if err != nil {
				return err
			}
			return SaveEstimates(ctx, tx, a)
		}
		n, err := adb.MergeAtlas(ctx, sh.DB, check, finish)
		if err != nil {
			return &ShardError{sh.Path, err}
		}
		merged(sh, rules, n)
		c, stored = withRules, "stored"
	}
	return nil
}

// differences writes the settings in which the shard's settings differ from db's (c):
// those of the games when games is true, else the rules of the rounds; "" when none.
func differences(c, shard *Config, db string, games bool) string {
	var out []string
	for _, d := range c.Differences(shard) {
		if d.Games == games {
			out = append(out, fmt.Sprintf("--%s %s in %s, %s in the shard", d.Flag, d.A, db, d.B))
		}
	}
	return strings.Join(out, "; ")
}

// Play runs r on the atlas of adb with settings c: it stores c, plays the games of the
// plans not stored (Runner.Run), each stored as it ends and then told to saved, and
// stores the table of estimates; the games finished are kept whatever stops the run. It
// returns the atlas estimated, the run's error (nil, ErrWaiting, ctx's, a bot's) and the
// database's.
func Play(ctx context.Context, adb *store.AtlasDB, c *Config, r Runner, saved func()) (a *Atlas, runErr, err error) {
	if err := SaveSettings(ctx, adb, c); err != nil {
		return nil, nil, err
	}
	if r.Classes, err = Classes(c.Size); err != nil {
		return nil, nil, err
	}
	d, err := Load(ctx, adb)
	if err != nil {
		return nil, nil, err
	}
	r.Config = c
	r.Save = func(g Game) error {
		err := Save(context.WithoutCancel(ctx), adb, g)
		if err == nil {
			saved()
		}
		return err
	}
	runErr = r.Run(ctx, d)
	a = c.Estimate(r.Classes, d)
	return a, runErr, SaveEstimates(context.WithoutCancel(ctx), adb, a)
}
