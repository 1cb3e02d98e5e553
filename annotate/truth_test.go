package annotate

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var (
	truthGames = flag.Int("planted.truth", 0, "TestRandomTurnTruth: planted games whose random turn is played out (0: skip)")
	truthPlay  = flag.Int("planted.truth.budget", 100, "TestRandomTurnTruth: playouts a turn of the bots that play the games out")
	truthK     = flag.Int("planted.truth.k", 40, "TestRandomTurnTruth: games played out from each side of the comparison")
	update     = flag.Bool("update", false, "rewrite the golden files in testdata/")
	truthDump  = flag.String("planted.truth.dump", "", "TestRandomTurnTruth: write each random turn's loss and measured cost to this CSV file")
)

// truthRow is one planted random turn: the reading's loss and what the turn cost when the
// game was played out from it.
type truthRow struct {
	game, turn       int
	loss             float64
	mark             Mark
	best, played     float64 // the mover's mean score over the games played out after each
	diffVar          float64 // the variance of the paired differences, per pair
	sameAsPlayed     bool
	random, bestTurn string
}

// TestRandomTurnTruth measures what each random turn of the planted test costs, turn by
// turn, without the reading's word for it: from the position before the random turn, the
// game is played out -planted.truth.k times after the engine's best turn there and as many
// times after the random turn (sage against sage, -planted.truth.budget playouts a turn, 100
// by default, the two sets paired on their random seeds), and the mover's scores compared. The difference is the turn's
// real loss against the best turn, in the currency the calibration uses (chances between
// sage-100s). It logs the mean, how the real losses spread once the play-outs' own noise is
// taken out, the share above each mark's threshold, and how the reading's loss tracks the
// real one (docs/annotate.md quotes it). Run with -planted.truth 100.
func TestRandomTurnTruth(t *testing.T) {
	if *truthGames == 0 {
		t.Skip("-planted.truth N plays out the random turns of N planted games")
	}
	rows := make([]truthRow, *truthGames)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	workers := 2
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := mustEngine(t, "sage-100", Fitted)
			for i := range jobs {
				r, err := truthOf(eng, i, *truthK, *truthPlay)
				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				rows[i] = r
				mu.Unlock()
			}
		}()
	}
	for i := range *truthGames {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if failed != nil {
		t.Fatal(failed)
	}
	if *truthDump != "" {
		f, err := os.Create(*truthDump)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w := csv.NewWriter(f)
		w.Write([]string{"game", "turn", "loss", "mark", "best_score", "random_score", "pair_var", "same", "best", "random"})
		for _, r := range rows {
			w.Write([]string{strconv.Itoa(r.game), strconv.Itoa(r.turn), fmt.Sprintf("%.5f", r.loss), strconv.Itoa(int(r.mark)),
				fmt.Sprintf("%.5f", r.best), fmt.Sprintf("%.5f", r.played), fmt.Sprintf("%.5f", r.diffVar), strconv.FormatBool(r.sameAsPlayed), r.bestTurn, r.random})
		}
		w.Flush()
		if err := w.Error(); err != nil {
			t.Fatal(err)
		}
	}
	lines, mean, _ := truthSummary(rows, *truthK, *truthPlay)
	for _, l := range lines {
		t.Log(l)
	}
	if mean <= 0 {
		t.Errorf("random turns cost %.3f on average against the engine's best: want a positive cost", mean)
	}
}

// TestRandomTurnTruthData summarises the committed play-outs of TestRandomTurnTruth
// (testdata/random-turn-truth*.csv: by sage-100, 40 a side; by sage-400, 24) as the docs
// quote them (the golden file;
// -update rewrites it), and checks what the docs conclude from them: the share of random
// turns that really lose a mistake's worth is, at its interval's top, far below 80 %.
func TestRandomTurnTruthData(t *testing.T) {
	for _, tc := range []struct {
		name        string // testdata/NAME.csv and NAME.golden
		k, playouts int
	}{
		{"random-turn-truth", 40, 100},
		{"random-turn-truth-sage400", 24, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := readTruth(t, "testdata/"+tc.name+".csv")
			lines, _, above := truthSummary(rows, tc.k, tc.playouts)
			got := strings.Join(lines, "\n") + "\n"
			checkGolden(t, "testdata/"+tc.name+".golden", got, "summary of the committed play-outs")
			if _, hi := wilson(float64(above), float64(len(rows))); hi >= 0.8 {
				t.Errorf("%d of %d random turns lose %.0f points or more (interval up to %.1f%%)", above, len(rows), 100*MistakeLoss, 100*hi)
			}
		})
	}
}

// readTruth reads the rows TestRandomTurnTruth writes with -planted.truth.dump.
func readTruth(t *testing.T, path string) []truthRow {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []truthRow
	for i, rec := range recs[1:] {
		var r truthRow
		var errs [7]error
		r.game, errs[0] = strconv.Atoi(rec[0])
		r.turn, errs[1] = strconv.Atoi(rec[1])
		r.loss, errs[2] = strconv.ParseFloat(rec[2], 64)
		mark, err3 := strconv.Atoi(rec[3])
		r.mark, errs[3] = Mark(mark), err3
		r.best, errs[4] = strconv.ParseFloat(rec[4], 64)
		r.played, errs[5] = strconv.ParseFloat(rec[5], 64)
		r.diffVar, errs[6] = strconv.ParseFloat(rec[6], 64)
		for _, err := range errs {
			if err != nil {
				t.Fatalf("%s line %d: %v", path, i+2, err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// truthSummary is what TestRandomTurnTruth says of its rows, k play-outs a side: the lines
// it logs, the mean real loss, and how many random turns lose at least MistakeLoss.
func truthSummary(rows []truthRow, k, playouts int) (lines []string, mean float64, aboveMistake int) {
	var cost, loss, noise []float64
	for _, r := range rows {
		cost = append(cost, r.best-r.played)
		loss = append(loss, r.loss)
		noise = append(noise, r.diffVar/float64(k))
	}
	n := float64(len(cost))
	mean, sd := stat.MeanStdDev(cost, nil)
	meanNoise := stat.Mean(noise, nil)
	trueVar := max(0, sd*sd-meanNoise)
	half := 1.96 * sd / math.Sqrt(n)
	lines = append(lines, fmt.Sprintf("%d random turns, each played out %d times after it and after the engine's best turn (sage-%d): real loss mean %.3f (95%% interval %.3f–%.3f); spread of the measured losses %.3f, of which the play-outs' noise %.3f: the real losses' own spread %.3f",
		len(cost), k, playouts, mean, mean-half, mean+half, sd, math.Sqrt(meanNoise), math.Sqrt(trueVar)))
	for _, th := range []float64{0.05, 0.10, InaccuracyLoss, MistakeLoss} {
		above := 0
		for _, c := range cost {
			if c >= th {
				above++
			}
		}
		if th == MistakeLoss {
			aboveMistake = above
		}
		// With real losses spread as measured around their mean (taken as normal), the
		// share at or above th; the share measured is inflated by the play-outs' noise.
		model := 1 - distuv.Normal{Mu: mean, Sigma: math.Sqrt(trueVar)}.CDF(th)
		if trueVar == 0 {
			model = 0
			if mean >= th {
				model = 1
			}
		}
		lo, hi := wilson(float64(above), n)
		lines = append(lines, fmt.Sprintf("measured loss ≥ %.2f: %d of %d, %.1f%% (95%% interval %.1f–%.1f%%); real losses spread as measured: %.1f%%", th, above, len(cost), 100*float64(above)/n, 100*lo, 100*hi, 100*model))
	}
	alpha, beta := stat.LinearRegression(loss, cost, nil, false)
	lines = append(lines, fmt.Sprintf("the reading's loss against the measured one: mean %.3f against %.3f, correlation %.2f, measured = %.3f + %.2f × reading",
		stat.Mean(loss, nil), mean, stat.Correlation(loss, cost, nil), alpha, beta))
	return lines, mean, aboveMistake
}

// truthOf plays out the random turn of planted game i and the engine's best turn in its
// place, k times each.
func truthOf(e *Engine, i, k, playouts int) (truthRow, error) {
	g, at, err := plantedGameErr(i)
	if err != nil {
		return truthRow{}, err
	}
	turns, err := e.Analyse(g, nil, nil)
	if err != nil {
		return truthRow{}, err
	}
	tu := turns[at-1]
	pos, err := replay.NewGame(g.Size, game.Unlimited)
	if err != nil {
		return truthRow{}, err
	}
	for j := range at - 1 {
		if err := pos.PlayText(g.Moves[j]); err != nil {
			return truthRow{}, fmt.Errorf("planted game %d turn %d: %w", i, j+1, err)
		}
	}
	mover := pos.ToMove()
	r := truthRow{game: i, turn: at, loss: tu.Loss, mark: tu.Mark, random: tu.Played, bestTurn: tu.Best, sameAsPlayed: tu.Best == tu.Played}
	var diffs []float64
	var sb, sr float64
	for j := range k {
		b, err := playOut(pos, tu.Best, mover, playouts, uint64(i), uint64(j))
		if err != nil {
			return r, fmt.Errorf("planted game %d: %w", i, err)
		}
		p, err := playOut(pos, tu.Played, mover, playouts, uint64(i), uint64(j))
		if err != nil {
			return r, fmt.Errorf("planted game %d: %w", i, err)
		}
		sb += b
		sr += p
		diffs = append(diffs, b-p)
	}
	r.best, r.played = sb/float64(k), sr/float64(k)
	r.diffVar = stat.Variance(diffs, nil)
	return r, nil
}

// playOut plays turn token in pos and the rest of the game with sage against sage at
// playouts a turn, seeded by (a, b), and returns the score of mover.
func playOut(pos *replay.Game, token string, mover replay.Colour, playouts int, a, b uint64) (float64, error) {
	sides := [2]bot.Bot{bot.NewSage(bot.Options{Playouts: playouts}), bot.NewSage(bot.Options{Playouts: playouts})}
	return PlayOut(pos, token, mover, sides, rand.New(rand.NewPCG(a, b<<8|77)))
}
