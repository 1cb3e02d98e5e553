package bot_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/match"
)

// The ablation matches that decided which of the sage bot's ingredients to keep (see
// docs/bot-design.md). They are slow, so they run only when asked:
//
//	go test ./bot/ -run TestAblation -ablation 'sage-400 -rave,sage-400' -pairs 50
//
// Each name is a bot of bot.New, optionally followed by changes to a sage bot's settings:
// -rave (RAVE off), -widen (every candidate open at once), depth=N (playout turns before
// the evaluation, -1 to the end of the game), cells=N, explore=X, time=D; for an arch bot
// also -reuse (a new tree every turn) and threads=N.
var (
	ablation      = flag.String("ablation", "", "two bots to match, comma-separated, with sage settings after spaces")
	ablationPairs = flag.Int("pairs", 20, "game pairs of the ablation match")
	ablationSize  = flag.Int("size", 10, "board side of the ablation match")
	ablationSeed  = flag.Uint64("seed", 1, "seed of the ablation match")
	ablationWork  = flag.Int("workers", 2, "games of the ablation match played at once")
)

// variant makes the bot a name of the ablation flag describes.
func variant(spec string) (bot.Bot, error) {
	f := strings.Fields(spec)
	b, err := bot.New(f[0], bot.Options{Workers: 1})
	if err != nil || len(f) == 1 {
		return b, err
	}
	if a, ok := b.(*bot.Arch); ok {
		return archVariant(a, spec, f[1:])
	}
	s, ok := b.(*bot.Sage)
	if !ok {
		return nil, fmt.Errorf("%s: settings apply to sage and arch only", spec)
	}
	for _, o := range f[1:] {
		var err error
		switch k, v, _ := strings.Cut(o, "="); k {
		case "-rave":
			s.Rave = 0
		case "-widen":
			s.Widen = 1e9
		case "depth":
			_, err = fmt.Sscan(v, &s.Depth)
		case "cells":
			_, err = fmt.Sscan(v, &s.Cells)
		case "explore":
			_, err = fmt.Sscan(v, &s.Explore)
		case "rave":
			_, err = fmt.Sscan(v, &s.Rave)
		case "widen":
			_, err = fmt.Sscan(v, &s.Widen)
		case "time":
			s.TimePerTurn, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown setting")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", spec, o, err)
		}
	}
	s.SetName(spec)
	return s, nil
}

func TestAblation(t *testing.T) {
	if *ablation == "" {
		t.Skip("no -ablation match asked for")
	}
	a, b, ok := strings.Cut(*ablation, ",")
	if !ok {
		t.Fatal("-ablation wants two bots separated by a comma")
	}
	cfg := &match.Config{A: a, B: b, NewBot: variant, Size: *ablationSize, Supply: game.Unlimited,
		Seed: *ablationSeed, Pairs: *ablationPairs, Workers: *ablationWork}
	res, err := match.Run(context.Background(), cfg, func() {}, func(*match.Pair, *match.Result) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	elo := res.Pentanomial.Elo()
	t.Logf("%s vs %s, %d×%d, seed %d: %d games, +%d =%d -%d, score %.1f%%, Elo %+.0f [%+.0f, %+.0f], pairs %s; ms/turn %.1f vs %.1f",
		a, b, *ablationSize, *ablationSize, *ablationSeed, res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo.Value, elo.Lo, elo.Hi, res.Pentanomial,
		res.Usage[0].MsPerTurn(), res.Usage[1].MsPerTurn())
}

// archVariant applies the ablation flag's settings to an arch bot.
func archVariant(a *bot.Arch, spec string, settings []string) (bot.Bot, error) {
	for _, o := range settings {
		var err error
		switch k, v, _ := strings.Cut(o, "="); k {
		case "-rave":
			a.Rave = 0
		case "-widen":
			a.Widen = 1e9
		case "-reuse":
			a.Reuse = false
		case "cells":
			_, err = fmt.Sscan(v, &a.Cells)
		case "explore":
			_, err = fmt.Sscan(v, &a.Explore)
		case "rave":
			_, err = fmt.Sscan(v, &a.Rave)
		case "widen":
			_, err = fmt.Sscan(v, &a.Widen)
		case "threads":
			_, err = fmt.Sscan(v, &a.Threads)
		case "time":
			a.TimePerTurn, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown setting")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", spec, o, err)
		}
	}
	a.SetName(spec)
	return a, nil
}
