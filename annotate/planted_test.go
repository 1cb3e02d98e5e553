package annotate

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var (
	plantedGames  = flag.Int("planted.games", 8, "self-play games of the planted test")
	plantedBudget = flag.Int("planted.budget", 100, "the engine's playouts per position in the planted test")
	plantedDump   = flag.String("planted.dump", "", "write every turn's reading of the planted test to this CSV file")
)

// planter plays a game's both sides as its inner bots, except at turn at, where the side
// to move plays a uniformly random legal turn instead.
type planter struct {
	inner bot.Bot
	at    int
}

func (p *planter) Name() string { return "planted-" + p.inner.Name() }

func (p *planter) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn()+1 == p.at {
		return bot.Random{}.Turn(g, rng)
	}
	return p.inner.Turn(g, rng)
}

// Planted turns are drawn uniformly among turns plantFrom to plantTo, before the game is
// decided: on 10×10 a game of sage against sage lasts about 45 turns.
const plantFrom, plantTo = 4, 30

// plantedGame plays game i of the planted test: sage against sage on 10×10 at the default
// budget, one turn, drawn in advance, replaced by a random legal turn. It returns the
// game and the planted turn.
func plantedGame(t testing.TB, i int) (Game, int) {
	g, at, err := plantedGameErr(i)
	if err != nil {
		t.Fatal(err)
	}
	return g, at
}

func plantedGameErr(i int) (Game, int, error) {
	rng := rand.New(rand.NewPCG(uint64(i), 23))
	at := plantFrom + rng.IntN(plantTo-plantFrom+1)
	sage := func() bot.Bot { return bot.NewSage(bot.Options{Playouts: 100}) }
	played, err := bot.Play(&planter{sage(), at}, &planter{sage(), at}, 10, game.Unlimited, rng)
	if err != nil {
		return Game{}, 0, err
	}
	g := Game{GameID: "planted" + strconv.Itoa(i), Size: 10}
	for _, m := range played.Moves {
		g.Moves = append(g.Moves, m.String())
	}
	return g, at, nil
}

// TestPlanted is the planted test: self-play games of sage where one turn of
// either side, drawn in advance among turns 4 to 30, is a random legal turn. It checks the
// issue's bar for sage's own turns (at most 10 % marked mistake or blunder) and that the
// random turns lose at least twice as much on average and (with 50 or more of them) are
// marked at least three times as often; it logs the share of random turns marked, with its interval, which the issue
// wants at 80 % and which no calibrated loss reaches here: played out, only a tenth of the
// random turns really lose a mistake's 30 points (TestRandomTurnTruthData,
// docs/annotate.md). The default run is
// short; `-planted.games 200` measures the rates with intervals worth quoting.
func TestPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and reads whole games")
	}
	e := mustEngine(t, "sage-"+strconv.Itoa(*plantedBudget), Fitted)
	var dump *os.File
	if *plantedDump != "" {
		f, err := os.Create(*plantedDump)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = f
		fmt.Fprintln(dump, "game,turn,planted,at,turns,colour,raw_before,raw_after,best_q,played_q,best_n,played_n,same,loss,mark")
	}
	var plantedN, plantedBad, ownN, ownBad int
	var marks [4]int
	var ownLoss []float64
	var plantedSum, ownSum, score float64
	for i := range *plantedGames {
		g, at := plantedGame(t, i)
		turns, err := e.Analyse(g, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var plantedColour replay.Colour
		for _, tu := range turns {
			if tu.Turn == at {
				plantedColour = tu.Colour
			}
			if dump != nil {
				fmt.Fprintf(dump, "%d,%d,%t,%d,%d,%s,%.5f,%.5f,%.5f,%.5f,%d,%d,%t,%.5f,%d\n", i, tu.Turn, tu.Turn == at, at, len(turns),
					tu.Colour, tu.RawBefore, tu.RawAfter, tu.BestQ, tu.PlayedQ, tu.BestN, tu.PlayedN, tu.Best == tu.Played, tu.Loss, tu.Mark)
			}
			if tu.Turn == 1 {
				continue // the opening is the greedy bot's, not the search's
			}
			bad := tu.Mark >= Mistake
			if tu.Turn == at {
				plantedSum += tu.Loss
				plantedN++
				marks[tu.Mark]++
				if bad {
					plantedBad++
				}
				t.Logf("game %d turn %d of %d %s: loss %.3f %s", i, tu.Turn, len(turns), tu.Played, tu.Loss, tu.Mark)
				continue
			}
			ownLoss = append(ownLoss, tu.Loss)
			ownSum += tu.Loss
			ownN++
			if bad {
				ownBad++
			}
		}
		// The game's result for the side that played the random turn: what the turn
		// really cost, on average over the games.
		if last := turns[len(turns)-1]; last.OverAfter {
			r := last.RawAfter
			if plantedColour == replay.Dark {
				r = 1 - r
			}
			score += r
		} else {
			score += 0.5
		}
	}
	slices.Sort(ownLoss)
	if len(ownLoss) > 0 {
		t.Logf("sage's own losses: median %.3f, 80%% %.3f, 90%% %.3f, 95%% %.3f", ownLoss[len(ownLoss)/2], ownLoss[len(ownLoss)*8/10], ownLoss[len(ownLoss)*9/10], ownLoss[len(ownLoss)*95/100])
	}
	if plantedN == 0 || ownN == 0 {
		t.Fatalf("%d planted turns, %d own turns", plantedN, ownN)
	}
	plo, phi := wilson(float64(plantedBad), float64(plantedN))
	olo, ohi := wilson(float64(ownBad), float64(ownN))
	pr, or := float64(plantedBad)/float64(plantedN), float64(ownBad)/float64(ownN)
	t.Logf("random turns marked mistake or blunder: %d of %d, %.1f%% (95%% interval %.1f–%.1f%%; %v by mark)", plantedBad, plantedN, 100*pr, 100*plo, 100*phi, marks)
	t.Logf("sage's own turns marked mistake or blunder: %d of %d, %.1f%% (95%% interval %.1f–%.1f%%)", ownBad, ownN, 100*or, 100*olo, 100*ohi)
	pm, om := plantedSum/float64(plantedN), ownSum/float64(ownN)
	t.Logf("mean loss: random turns %.3f, sage's own %.3f; the side that played the random turn scored %.3f over %d games", pm, om, score/float64(*plantedGames), *plantedGames)
	if pm < 2*om {
		t.Errorf("the random turns lose %.3f on average, sage's own %.3f: want at least twice as much", pm, om)
	}
	// A rate of marks on the few random turns of a short run (8) says little: this check
	// waits for a run with enough of them.
	if plantedN >= 50 && pr < 3*or {
		t.Errorf("%.1f%% of the random turns marked mistake or blunder, %.1f%% of sage's own: want at least three times as often", 100*pr, 100*or)
	}
	if or > 0.10 {
		t.Errorf("%.1f%% of sage's own turns marked mistake or blunder: want at most 10%%", 100*or)
	}
}

var (
	costGames  = flag.Int("planted.cost", 0, "TestRandomTurnCost: games to play (0: skip)")
	costRandom = flag.Int("planted.cost.turns", 1, "TestRandomTurnCost: random turns of the responder a game")
)

// TestRandomTurnCost measures, with the games alone and no reading, what random turns cost:
// sage against sage on 10×10 at -planted.budget, the responder playing -planted.cost.turns
// of its turns among 4 to 30 (drawn in advance) as random legal turns; it logs the
// responder's score (docs/annotate.md quotes it). Run with -planted.cost 200.
func TestRandomTurnCost(t *testing.T) {
	if *costGames == 0 {
		t.Skip("-planted.cost N plays N games")
	}
	score := 0.0
	for i := range *costGames {
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		at := map[int]bool{}
		for len(at) < *costRandom {
			at[4+2*rng.IntN(14)] = true // the responder's turns, 4 to 30
		}
		sage := func() bot.Bot { return bot.NewSage(bot.Options{Playouts: *plantedBudget}) }
		g, err := bot.Play(sage(), &randomAt{sage(), at}, 10, game.Unlimited, rng)
		if err != nil {
			t.Fatal(err)
		}
		light := 0.5
		switch g.Result {
		case game.LightWins:
			light = 1
		case game.DarkWins:
			light = 0
		}
		if g.Swapped {
			score += light
		} else {
			score += 1 - light
		}
	}
	t.Logf("%d random turns of the responder a game, sage-%d: the responder scored %.3f over %d games", *costRandom, *plantedBudget, score/float64(*costGames), *costGames)
}

// randomAt plays as its inner bot except at the turns in at, where it plays a random legal turn.
type randomAt struct {
	inner bot.Bot
	at    map[int]bool
}

func (p *randomAt) Name() string { return "random-at-" + p.inner.Name() }

func (p *randomAt) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if p.at[g.Turn()+1] {
		return bot.Random{}.Turn(g, rng)
	}
	return p.inner.Turn(g, rng)
}
