package atlas

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

func newTestBot(name string) (bot.Bot, error) { return bot.New(name, bot.Options{Workers: 1}) }

// smallConfig is a 5×5 atlas of sage-4, quick to play.
func smallConfig() *Config {
	c := DefaultConfig()
	c.Size, c.Bot, c.First, c.Max, c.ConfirmGames, c.Candidates = 5, "sage-4", 4, 8, 4, 2
	return &c
}

// TestCheckGame: issue 31 finding 4: a shard's rows are checked before they are merged;
// every way a stored game can be impossible is named by its column.
func TestCheckGame(t *testing.T) {
	c := smallConfig()
	classes, err := Classes(c.Size)
	if err != nil {
		t.Fatal(err)
	}
	good, _, err := c.Play(context.Background(), Unit{Main, 3, 3}, classes[2], newTestBot)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckGame(classes, good); err != nil {
		t.Fatalf("a game the atlas played: %v", err)
	}
	moves := strings.Fields(good.Moves)
	for _, tc := range []struct {
		name   string
		change func(g *Game)
		column string
		says   string
	}{
		{"points 7", func(g *Game) { g.Points = 7 }, "points", "7: must be 0, 1 or 2"},
		{"game index -3", func(g *Game) { g.Index = -3 }, "idx", "-3: must be from 0 to 7"},
		{"an index past --max", func(g *Game) { g.Index = 8 }, "idx", "must be from 0 to 7"},
		{"class 99", func(g *Game) { g.Class = 99 }, "class", "must be from 1 to 49"},
		{"another game's seed", func(g *Game) { g.Seed++ }, "seed", "not this game's seed"},
		{"another bot", func(g *Game) { g.Bot = "sage-5" }, "bot", "the main stage's bot is sage-4"},
		{"a stage with no games", func(g *Game) { g.Stage = Stability }, "stage", "no stability check"},
		{"not a stage", func(g *Game) { g.Stage = 7 }, "stage", "not a stage"},
		{"turns not the moves'", func(g *Game) { g.Turns++ }, "turns", "the moves have"},
		{"no turns", func(g *Game) { g.Turns, g.Moves = 0, "" }, "turns", "must be from 1"},
		{"turn 1 not the opening", func(g *Game) {
			m := append([]string{"a1,e5"}, moves[1:]...)
			g.Moves = strings.Join(m, " ")
		}, "moves", "must be class 3's opening"},
		{"a turn the rules refuse", func(g *Game) {
			m := append([]string{moves[0], moves[0]}, moves[2:]...)
			g.Moves = strings.Join(m, " ")
		}, "moves", "turn 2"},
		{"a game not over", func(g *Game) {
			g.Moves, g.Turns = strings.Join(moves[:len(moves)-1], " "), len(moves)-1
		}, "moves", "the game is not over"},
		{"another outcome", func(g *Game) { g.Points = (g.Points + 1) % 3 }, "points", "the turns give"},
		{"swapped changed", func(g *Game) { g.Swapped = !g.Swapped }, "swapped", "the turns give"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := good
			tc.change(&g)
			err := c.CheckGame(classes, g)
			ge, ok := errors.AsType[*GameError](err)
			if !ok || ge.Column != tc.column || !strings.Contains(err.Error(), tc.says) || !errors.Is(err, ErrNotAtlasGame) {
				t.Errorf("%+v: %v; want column %s saying %q", g, err, tc.column, tc.says)
			}
		})
	}
	if _, err := ParseStage("nope"); err == nil || !strings.Contains(err.Error(), `stage: "nope"`) {
		t.Errorf("ParseStage(nope): %v", err)
	}
}

// TestPlayAsBotPlays: the atlas's own game loop (which looks at ctx between turns) plays
// the games bot.Play plays.
func TestPlayAsBotPlays(t *testing.T) {
	c := smallConfig()
	classes, _ := Classes(c.Size)
	for _, u := range []Unit{{Main, 1, 0}, {Main, 17, 5}, {Confirm, 40, 2}} {
		g, _, err := c.Play(context.Background(), u, classes[u.Class-1], newTestBot)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := newTestBot(c.Bot)
		b, _ := newTestBot(c.Bot)
		seed := GameSeed(c.Seed, u.Stage, u.Class, u.Index)
		want, err := bot.Play(&opener{a, classes[u.Class-1].Opening()}, b, c.Size, c.Supply, rand.New(rand.NewPCG(seed, 0x61746c6173)))
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Moves) != g.Turns || points(want.Result) != g.Points || want.Swapped != g.Swapped {
			t.Errorf("%+v: %d turns, points %d; bot.Play: %d turns, %s", u, g.Turns, g.Points, len(want.Moves), want.Result)
		}
	}
}

// cancelling is a bot that ends the context at its nth turn.
type cancelling struct {
	bot.Bot
	n      *int
	cancel func()
}

func (b cancelling) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if *b.n++; *b.n == 3 {
		b.cancel()
	}
	return b.Bot.Turn(g, rng)
}

// TestPlayStops: issue 31 finding 10: Ctrl-C is honoured within a game: when the context
// ends, the game stops before its next turn instead of being played to its end.
func TestPlayStops(t *testing.T) {
	c := smallConfig()
	classes, _ := Classes(c.Size)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	turns := 0
	newBot := func(name string) (bot.Bot, error) {
		b, err := newTestBot(name)
		return cancelling{b, &turns, cancel}, err
	}
	_, _, err := c.Play(ctx, Unit{Main, 1, 0}, classes[0], newBot)
	if !errors.Is(err, context.Canceled) || turns != 3 {
		t.Errorf("after a cancel at turn 3: %v, %d turns asked", err, turns)
	}
}

// TestLooksBounded: issue 31 finding 10: --max 9223372036854775807 made the look plan
// double past the int's range and loop for ever; such settings are refused, and the plan
// of looks ends whatever the numbers.
func TestLooksBounded(t *testing.T) {
	done := make(chan [2]int, 1)
	go func() {
		c := Config{First: 16, Max: math.MaxInt}
		done <- [2]int{c.Looks(), c.Target(100)}
	}()
	select {
	case got := <-done:
		if got[0] > 64 || got[1] != math.MaxInt {
			t.Errorf("Looks %d, Target(100) %d", got[0], got[1])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Looks has not returned in 10 s")
	}
	for _, tc := range []struct {
		set  func(c *Config)
		says string
	}{
		{func(c *Config) { c.Max = math.MaxInt }, "--max 9223372036854775807: must be at most 1048576"},
		{func(c *Config) { c.First, c.Max = 1_000_000_000, 1_000_000_000 }, "--first 1000000000"},
		{func(c *Config) { c.ConfirmGames = 1_000_000_000_000 }, "--confirm 1000000000000"},
		{func(c *Config) { c.PanelGames = 1_000_000_000_000 }, "--panel-games 1000000000000"},
		{func(c *Config) { c.Supply = 9 }, "supply 9"},
	} {
		c := smallConfig()
		tc.set(c)
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Check: %v, want %q", err, tc.says)
		}
	}
}

// TestShardStreams: issue 31 finding 11: a round's units are made as they are read, so a
// plan of a billion games costs no memory before they are played, and the count is the
// units' number.
func TestShardStreams(t *testing.T) {
	d := NewData()
	for k := range 9 {
		if k != 4 {
			d.Add(Game{Stage: Main, Class: 2, Index: k, Points: 2})
		}
	}
	p := &Plan{Stage: Main, Round: 1, Tasks: []Task{{1, 0, 10}, {2, 3, 12}, {5, 7, 8}}}
	for _, n := range []int{1, 2, 3, 7, math.MaxInt} {
		for _, i := range []int{1, 2, 3, 5, 7, n - 1, n} {
			if i < 1 || i > n {
				continue
			}
			units, count := p.Shard(d, i, n)
			var want []Unit
			for _, task := range p.Tasks {
				for k := task.From; k < task.To; k++ {
					if (task.Class+k)%n == i-1 && !d.Has(Main, task.Class, k) {
						want = append(want, Unit{Main, task.Class, k})
					}
				}
			}
			var got []Unit
			for u := range units {
				got = append(got, u)
				d.Add(Game{Stage: Main, Class: u.Class, Index: u.Index}) // d changes as they are read
			}
			d = NewData()
			for k := range 9 {
				if k != 4 {
					d.Add(Game{Stage: Main, Class: 2, Index: k, Points: 2})
				}
			}
			if count != len(want) || len(got) != len(want) || (len(want) > 0 && got[len(got)-1] != want[len(want)-1]) {
				t.Errorf("shard %d/%d: %d units (said %d), want %d", i, n, len(got), count, len(want))
			}
		}
	}
	big := &Plan{Stage: Confirm, Round: 1}
	for class := 1; class <= 1000; class++ {
		big.Tasks = append(big.Tasks, Task{class, 0, MaxCount})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	units, count := big.Shard(NewData(), 1, 1)
	seen := 0
	for range units {
		if seen++; seen == 1000 {
			break
		}
	}
	runtime.ReadMemStats(&after)
	if count != 1000*MaxCount || seen != 1000 || after.TotalAlloc-before.TotalAlloc > 1<<20 {
		t.Errorf("%d units said, %d read, %d bytes allocated", count, seen, after.TotalAlloc-before.TotalAlloc)
	}
}

// blocking is a bot whose turns wait for release, telling entered of the first.
type blocking struct {
	bot.Bot
	entered chan struct{}
	release chan struct{}
}

func (b blocking) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.release
	return b.Bot.Turn(g, rng)
}

// TestRunDropsGamesInPlay: issue 31 finding 10: Ctrl-C is honoured within a second however
// long a turn takes: the run ends at once, dropping the games in play (a turn of a large
// budget took 27 s to let go before).
func TestRunDropsGamesInPlay(t *testing.T) {
	c := smallConfig()
	classes, _ := Classes(c.Size)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	r := &Runner{Config: c, Classes: classes, Workers: 2, Shard: 1, Shards: 1,
		NewBot: func(name string) (bot.Bot, error) {
			b, err := newTestBot(name)
			return blocking{b, entered, release}, err
		},
		Save: func(Game) error { return nil }}
	errc := make(chan error, 1)
	go func() { errc <- r.Run(ctx, NewData()) }()
	<-entered // a turn is in progress, and waits
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run waited for the turn in progress")
	}
}

// TestWithRules: a shard brings its rules of the rounds to the merge, never its games'
// settings, and never takes away a stability check.
func TestWithRules(t *testing.T) {
	c := smallConfig()
	c.StabilityBot, c.PanelSize = "sage-16", 10
	o := smallConfig()
	o.Max, o.ConfirmGames, o.Bot = 16, 8, "other"
	n := c.WithRules(o)
	if n.Max != 16 || n.ConfirmGames != 8 || n.Bot != c.Bot || n.StabilityBot != "sage-16" || n.PanelSize != 10 {
		t.Errorf("WithRules: %+v", n)
	}
	diffs := c.Differences(o)
	if len(diffs) != 5 || diffs[0] != (Difference{"bot", true, "sage-4", "other"}) || diffs[1].Flag != "stability-bot" || diffs[1].Games {
		t.Errorf("Differences: %+v", diffs)
	}
}
