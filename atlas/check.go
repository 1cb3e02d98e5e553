package atlas

import (
	"errors"
	"fmt"
	"github.com/ponte/ponte/bot"
	"strconv"
	"strings"
)

// ErrNotAtlasGame is what every *GameError is: a stored game this atlas cannot have played.
var ErrNotAtlasGame = errors.New("not a game of this atlas")

// GameError is a stored game that is not one of the atlas's: the column at fault (those of
// the table atlas_games: stage, class, idx, seed, points, turns, swapped, bot, moves), the
// value found, and why it cannot be.
type GameError struct {
	Column string
	Value  string
	Err    error
}

func (e *GameError) Error() string {
	if e.Value == "" {
		return e.Column + ": " + e.Err.Error()
	}
	return e.Column + ": " + e.Value + ": " + e.Err.Error()
}

func (e *GameError) Unwrap() error { return e.Err }

// Is makes every GameError an ErrNotAtlasGame.
func (e *GameError) Is(target error) bool { return target == ErrNotAtlasGame }

// ParseStage reads a stage's name ("main", "confirm", "stability", "base"); another is a
// *GameError.
func ParseStage(s string) (Stage, error) {
	for _, st := range stages {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, &GameError{Column: "stage", Value: strconv.Quote(s), Err: errors.New(`must be "main", "confirm", "stability" or "base"`)}
}

// CheckGame says whether g is a game the atlas c plays, and if not, which column is wrong
// (a *GameError): its stage, a class of classes (Classes(c.Size)), an index below the
// stage's games, the seed GameSeed gives it, the stage's bot, Light's points 0, 1 or 2,
// turns as many as its moves, turn 1 the class's opening, and the moves replayed through
// the rules engine to a game over with the stored outcome. It does not play the game: a
// game the bot would not have played but the rules allow passes.
func (c *Config) CheckGame(classes []Class, g Game) error {
	fail := func(column string, value any, format string, a ...any) error {
		return &GameError{Column: column, Value: fmt.Sprint(value), Err: fmt.Errorf(format, a...)}
	}
	var games int
	switch g.Stage {
	case Main:
		games = c.Max
	case Confirm:
		games = c.CandidateGames()
	case Stability:
		if c.StabilityBot == "" {
			return fail("stage", strconv.Quote(g.Stage.String()), "this atlas has no stability check")
		}
		games = c.PanelGames
	case Base:
		if !c.StabilityBoth {
			return fail("stage", strconv.Quote(g.Stage.String()), "this atlas plays its panel at one strength only")
		}
		games = c.PanelGames
	default:
		return fail("stage", int(g.Stage), "not a stage")
	}
	switch {
	case g.Class < 1 || g.Class > len(classes) || classes[g.Class-1].ID != g.Class:
		return fail("class", g.Class, "must be from 1 to %d (the classes of the %d×%d board)", len(classes), c.Size, c.Size)
	case g.Index < 0 || g.Index >= games:
		return fail("idx", g.Index, "must be from 0 to %d (the %s stage's %d games a class)", games-1, g.Stage, games)
	case g.Seed != GameSeed(c.Seed, g.Stage, g.Class, g.Index):
		return fail("seed", g.Seed, "not this game's seed (%d)", GameSeed(c.Seed, g.Stage, g.Class, g.Index))
	case g.Bot != c.BotOf(g.Stage):
		return fail("bot", strconv.Quote(g.Bot), "the %s stage's bot is %s", g.Stage, c.BotOf(g.Stage))
	case g.Points < 0 || g.Points > 2:
		return fail("points", g.Points, "must be 0, 1 or 2")
	case g.Turns < 1 || g.Turns > bot.MaxTurns(c.Size):
		return fail("turns", g.Turns, "must be from 1 to %d", bot.MaxTurns(c.Size))
	}
	moves := strings.Fields(g.Moves)
	switch {
	case len(moves) != g.Turns:
		return fail("turns", g.Turns, "the moves have %d turns", len(moves))
	case moves[0] != classes[g.Class-1].Opening().String():
		return fail("moves", "turn 1 "+strconv.Quote(moves[0]), "must be class %d's opening %s", g.Class, classes[g.Class-1].Opening())
	}
	if _, err := c.replay(g); err != nil {
		return err
	}
	return nil
}

// Difference is a setting in which two atlases differ: its flag and both values.
type Difference struct {
	Flag string
	// Games says whether the games depend on it (size, supply, bot, seed, the stability
	// check's bot): atlases that differ in one are not the same atlas. The rules of the
	// rounds (first, max, margin, …) may change between runs.
	Games bool
	A, B  string
}

// Differences are the settings in which c and o differ, the games' first, in the order of
// the flags of ponte atlas run. A stability bot set in one only is a rule of the rounds
// (the check added, or not yet), one set in both and different is a setting of the games.
func (c *Config) Differences(o *Config) []Difference {
	var out []Difference
	add := func(flag string, games bool, a, b any) {
		if as, bs := fmt.Sprint(a), fmt.Sprint(b); as != bs {
			out = append(out, Difference{flag, games, as, bs})
		}
	}
	add("size", true, c.Size, o.Size)
	add("supply", true, c.Supply, o.Supply)
	add("bot", true, c.Bot, o.Bot)
	add("seed", true, c.Seed, o.Seed)
	add("stability-bot", c.StabilityBot != "" && o.StabilityBot != "", c.StabilityBot, o.StabilityBot)
	add("first", false, c.First, o.First)
	add("max", false, c.Max, o.Max)
	add("margin", false, c.Margin, o.Margin)
	add("alpha", false, c.Spending.Alpha, o.Spending.Alpha)
	add("rest", false, c.Spending.Rest, o.Spending.Rest)
	add("candidates", false, c.Candidates, o.Candidates)
	add("confirm", false, c.ConfirmGames, o.ConfirmGames)
	add("v-width", false, c.VWidth, o.VWidth)
	add("panel", false, c.PanelSize, o.PanelSize)
	add("panel-games", false, c.PanelGames, o.PanelGames)
	add("stability-both", false, c.StabilityBoth, o.StabilityBoth)
	return out
}

// WithRules is c with the rules of the rounds of o (first, max, margin, the error rate,
// the confirmation's and the panel's counts), and o's stability bot when it has one: the
// settings of an atlas whose games c and o share, run again with o's rules.
func (c *Config) WithRules(o *Config) *Config {
	n := *o
	n.Size, n.Supply, n.Bot, n.Seed = c.Size, c.Supply, c.Bot, c.Seed
	if o.StabilityBot == "" {
		n.StabilityBot, n.PanelSize, n.PanelGames = c.StabilityBot, c.PanelSize, c.PanelGames
	}
	n.StabilityBoth = n.StabilityBoth || c.StabilityBoth // never taken away either
	return &n
}
