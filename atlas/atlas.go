package atlas

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ponte/ponte/game"
)

// Stage is a part of an atlas: the main rounds, the confirmation of V's candidates on
// fresh seeds, the stability check at a larger budget, and (StabilityBoth) its panel again
// at the main bot. Base comes last so that no earlier stage's seeds change (GameSeed).
type Stage int

const (
	Main Stage = iota
	Confirm
	Stability
	Base
)

// stages are the stages in their order.
var stages = []Stage{Main, Confirm, Stability, Base}

func (s Stage) String() string {
	switch s {
	case Confirm:
		return "confirm"
	case Stability:
		return "stability"
	case Base:
		return "base"
	}
	return "main"
}

// Config is an atlas: the board, the bot, the seed and the rules of the rounds. Two runs
// of the same Config play the same games.
type Config struct {
	Size   int
	Supply game.Supply
	// Bot plays both sides of every game (bot.New's names: "sage-100").
	Bot string
	// Seed is the base of every game's seed (GameSeed).
	Seed uint64
	// First is the games per class of the first round; every later round doubles the
	// games of the classes still open, up to Max.
	First, Max int
	// Margin is m, the half-width of the fair band around ½.
	Margin   float64
	Spending Spending
	// Candidates is how many of the best openings for the opener the confirmation run
	// plays again on fresh seeds, ConfirmGames games each (CandidateGames).
	Candidates, ConfirmGames int
	// VWidth, when above 0, is the width of V's interval asked: the confirmation plays up
	// to VGames games a candidate in three looks (ConfirmLooks) instead of ConfirmGames
	// in one, and stops at the first look whose V interval is that narrow. 0 in the
	// atlases made before it.
	VWidth float64 `json:",omitempty"`
	// StabilityBot, when not "", re-estimates a panel of PanelSize classes (half the
	// nearest ½, half drawn from the seed) with PanelGames games each.
	StabilityBot          string
	PanelSize, PanelGames int
	// StabilityBoth plays the panel at the main bot too (the stage Base, PanelGames games
	// a class on seeds of its own), and the stability check compares panel with panel,
	// with the rank correlation's bootstrap interval. Off in the atlases made before it.
	StabilityBoth bool `json:",omitempty"`
}

// DefaultConfig is the atlas of the 10×10 board without stability check, before the bot is
// chosen.
func DefaultConfig() Config {
	return Config{Size: 10, Supply: game.Unlimited, Seed: 1, First: 16, Max: 1024, Margin: 0.03,
		Spending: DefaultSpending, Candidates: 3, ConfirmGames: 256, PanelSize: 40, PanelGames: 64}
}

// MaxCount is the most games, classes or candidates a setting asks for (2^20): a count is
// a promise of time, and a larger one is a mistake, refused before any work (also when it
// is read back from a database).
const MaxCount = 1 << 20

// Check says what is wrong with c.
func (c *Config) Check() error {
	for _, s := range []struct {
		flag string
		n    int
	}{{"first", c.First}, {"max", c.Max}, {"candidates", c.Candidates}, {"confirm", c.ConfirmGames},
		{"panel", c.PanelSize}, {"panel-games", c.PanelGames}} {
		if s.n > MaxCount {
			return fmt.Errorf("--%s %d: must be at most %d", s.flag, s.n, MaxCount)
		}
	}
	switch {
	case c.Supply != game.Unlimited && c.Supply != game.Supply40x15:
		return fmt.Errorf("supply %d: not a supply (unlimited or 40/15)", c.Supply)
	case c.Size < game.MinSize || c.Size > game.MaxSize:
		return fmt.Errorf("board side %d: must be from %d to %d", c.Size, game.MinSize, game.MaxSize)
	case c.Bot == "":
		return fmt.Errorf("no bot")
	case c.First < 1:
		return fmt.Errorf("first round of %d games: must be at least 1", c.First)
	case c.Max < c.First:
		return fmt.Errorf("at most %d games a class is fewer than the first round's %d", c.Max, c.First)
	case !(c.Margin >= 0 && c.Margin < 0.5):
		return fmt.Errorf("margin %g: must be from 0 to below 0.5", c.Margin)
	case !(c.Spending.Alpha > 0 && c.Spending.Alpha < 1 && c.Spending.Rest >= 0 && c.Spending.Rest < 1):
		return fmt.Errorf("error rate %g with share %g after the first look: must be in (0, 1) and [0, 1)", c.Spending.Alpha, c.Spending.Rest)
	case c.Candidates < 1 || c.ConfirmGames < 1:
		return fmt.Errorf("the confirmation needs at least 1 candidate and 1 game")
	case !(c.VWidth >= 0 && c.VWidth <= 1):
		return fmt.Errorf("--v-width %g: must be from 0 (none: --confirm games a candidate) to 1", c.VWidth)
	case c.VWidth > 0 && VGames(c.VWidth, c.Spending, c.Candidates) > MaxCount:
		return fmt.Errorf("--v-width %g: asks for more than %d games a candidate", c.VWidth, MaxCount)
	case c.StabilityBot != "" && (c.PanelSize < 1 || c.PanelGames < 1):
		return fmt.Errorf("the stability check needs at least 1 class and 1 game")
	case c.StabilityBoth && c.StabilityBot == "":
		return fmt.Errorf("--stability-both: there is no stability check to play at both strengths")
	}
	return nil
}

// CandidateGames is the most games a candidate for V gets in the confirmation: the last
// of ConfirmLooks.
func (c *Config) CandidateGames() int {
	n := c.ConfirmLooks()
	return n[len(n)-1]
}

// ConfirmLooks are the games a candidate has after each look of the confirmation: with
// VWidth, n/4, n/2 and n for n = VGames; else ConfirmGames in one look.
func (c *Config) ConfirmLooks() []int {
	if c.VWidth <= 0 {
		return []int{c.ConfirmGames}
	}
	n := VGames(c.VWidth, c.Spending, c.Candidates)
	return []int{n / 4, n / 2, n}
}

// confirmZ is the critical value of the interval of each of k candidates at look j (from
// 1) of the confirmation: each spends α/k over ConfirmLooks as a class of the main rounds
// spends α over its looks (Spending.Bounds), so that its intervals at every look hold its
// p together; in one look, the fixed-n value Φ⁻¹(1 − α/(2k)).
func (c *Config) confirmZ(j, k int) float64 {
	s := c.Spending
	s.Alpha /= float64(max(k, 1))
	if c.VWidth <= 0 {
		return zOf(s.Alpha)
	}
	looks := c.ConfirmLooks()
	return s.Bounds(looks)[min(max(j, 1), len(looks))-1]
}

// VGames is the most games a candidate gets when V's interval is asked to be width wide:
// at the last of the looks at n/4, n/2 and n, Wilson's interval is at most width wide
// whatever the score. It is widest at p̂ = ½, z/√(n + z²), so n = ⌈z²·(1/width² − 1)⌉
// rounded up to a multiple of 4, with z the critical value of the third look when each
// candidate spends α/candidates over the three looks as s spends α (Spending.Bounds):
// z = 3.04 and n = 5,760 for ±2 points (width 0.04) with 3 candidates at 95 %. More
// than MaxCount when it would ask for that many (Check refuses it).
func VGames(width float64, s Spending, candidates int) int {
	s.Alpha /= float64(max(candidates, 1))
	z := s.Bounds([]int{1, 2, 4})[2]
	n := 4 * math.Ceil(z*z*(1/(width*width)-1)/4)
	if !(n < MaxCount+1) {
		return MaxCount + 1
	}
	return max(int(n), 4)
}

// Target is the games a class has after look j (from 1): First·2^(j−1), at most Max.
func (c *Config) Target(j int) int {
	t := c.First
	for range j - 1 {
		if t >= c.Max || t > c.Max/2 {
			return c.Max // doubled past Max (and never past the int's range)
		}
		t *= 2
	}
	return min(t, c.Max)
}

// Z is the critical value of the interval at look j (from 1): Spending.Bounds of the
// rounds' schedule.
func (c *Config) Z(j int) float64 {
	n := make([]int, c.Looks())
	for i := range n {
		n[i] = c.Target(i + 1)
	}
	return c.Spending.Bounds(n)[min(max(j, 1), len(n))-1]
}

// Looks is the most looks at a class: at most 64, as Target doubles First until Max.
func (c *Config) Looks() int {
	j := 1
	for c.Target(j) < c.Max && c.First > 0 && j < 64 {
		j++
	}
	return j
}

// BotOf is the bot that plays a stage's games.
func (c *Config) BotOf(s Stage) string {
	if s == Stability {
		return c.StabilityBot
	}
	return c.Bot
}

// FourTimes is the bot name with four times the budget: "sage-400" for "sage-100",
// "sage-200ms" for "sage-50ms"; "" when the name has no budget.
func FourTimes(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return ""
	}
	budget, unit := name[i+1:], ""
	if b, ok := strings.CutSuffix(budget, "ms"); ok {
		budget, unit = b, "ms"
	}
	n, err := strconv.Atoi(budget)
	if err != nil || n < 1 {
		return ""
	}
	return name[:i+1] + strconv.Itoa(4*n) + unit
}

// Game is one game of an atlas as it is stored: its place (stage, class, index), its seed,
// and its outcome from Light's side.
type Game struct {
	Stage Stage
	Class int
	Index int // from 0
	Seed  uint64
	// Points is Light's score in halves: 2 a win, 1 a draw, 0 a loss.
	Points  int
	Turns   int
	Swapped bool
	Bot     string
	Moves   string // the game's turns as the records write them, separated by spaces
}

// GameSeed is the seed of game index of class in a stage: a mix of the atlas's seed, the
// stage, the class and the index alone, so that a game is the same wherever it is played.
func GameSeed(base uint64, s Stage, class, index int) uint64 {
	x := base
	for _, v := range []uint64{uint64(s) + 1, uint64(class), uint64(index)} {
		x = splitmix(x ^ splitmix(v+0x9e3779b97f4a7c15))
	}
	return x
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
