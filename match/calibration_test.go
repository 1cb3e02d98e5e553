package match

import (
	"flag"
	"math"
	"testing"
)

var full = flag.Bool("match.full", false, "run the full calibration of the statistics (minutes)")

// calibrationCase is one planted truth for an SPRT.
type calibrationCase struct {
	test   SPRT
	draws  float64
	runs   int
	accept [2]float64 // the range of the share of runs that accept H1: at Elo0, at Elo1
}

// The SPRT accepts H1 in α of runs when the truth is Elo0 and in 1 − β when it is Elo1,
// within ±1.5% over 1,000 runs or more,
// and its mean games are within 15% of Wald's expectation.
func TestSPRTCalibration(t *testing.T) {
	cases := []calibrationCase{
		{SPRT{0, 50, 0.05, 0.05}, 0.04, 1000, [2]float64{0.035, 0.065}},
	}
	if *full {
		cases = []calibrationCase{
			{SPRT{0, 20, 0.05, 0.05}, 0.04, 5000, [2]float64{0.035, 0.065}},
			{SPRT{0, 50, 0.05, 0.05}, 0.04, 5000, [2]float64{0.035, 0.065}},
			{SPRT{0, 50, 0.05, 0.05}, 0.30, 5000, [2]float64{0.035, 0.065}},
			{SPRT{-10, 10, 0.05, 0.05}, 0.10, 5000, [2]float64{0.035, 0.065}},
		}
	}
	for ci, c := range cases {
		for h, elo := range []float64{c.test.Elo0, c.test.Elo1} {
			pl := Planted{Elo: elo, Draws: c.draws, Bias: 0.2}
			cal := CalibrateSPRT(c.test, pl, c.runs, 1_000_000, uint64(100*ci+h))
			want := c.accept
			if h == 1 {
				want = [2]float64{1 - c.accept[1], 1 - c.accept[0]}
			}
			ratio := cal.MeanGames / cal.WaldGames
			t.Logf("SPRT [%g, %g], draws %.0f%%, planted %+g: %d runs, H1 in %.1f%%, mean games %.0f, Wald %.0f (%.3f)",
				c.test.Elo0, c.test.Elo1, 100*c.draws, elo, cal.Runs, 100*cal.AcceptH1, cal.MeanGames, cal.WaldGames, ratio)
			if cal.AcceptH1 < want[0] || cal.AcceptH1 > want[1] {
				t.Errorf("planted %+g: H1 accepted in %.1f%% of runs, want %.1f%% to %.1f%%", elo, 100*cal.AcceptH1, 100*want[0], 100*want[1])
			}
			if math.Abs(ratio-1) > 0.15 {
				t.Errorf("planted %+g: mean games %.0f, Wald's %.0f", elo, cal.MeanGames, cal.WaldGames)
			}
			if cal.Unfinished > 0 {
				t.Errorf("%d runs without a verdict", cal.Unfinished)
			}
		}
	}
}

// The 95% Elo interval from the pairs covers the planted difference in 93–97% of matches.
func TestEloCoverage(t *testing.T) {
	type cover struct {
		pl    Planted
		pairs int
	}
	runs := 1000
	cases := []cover{{Planted{Elo: 50, Draws: 0.04, Bias: 0.2}, 100}}
	if *full {
		runs = 4000
		cases = []cover{
			{Planted{Elo: 0, Draws: 0.04, Bias: 0.2}, 100},
			{Planted{Elo: 50, Draws: 0.04, Bias: 0.2}, 100},
			{Planted{Elo: 200, Draws: 0.04, Bias: 0.1}, 200},
			{Planted{Elo: -100, Draws: 0.30, Bias: 0.2}, 400},
			{Planted{Elo: 20, Draws: 0.10, Bias: 0.3}, 1000},
		}
	}
	for i, c := range cases {
		got := CoverElo(c.pl, runs, c.pairs, uint64(1000+i))
		t.Logf("planted %+g Elo, draws %.0f%%, bias ±%.2f, %d pairs: covered in %.1f%% of %d matches",
			c.pl.Elo, 100*c.pl.Draws, c.pl.Bias, c.pairs, 100*got, runs)
		if got < 0.93 || got > 0.97 {
			t.Errorf("planted %+g: the interval covers it in %.1f%% of matches, want 93%% to 97%%", c.pl.Elo, 100*got)
		}
	}
}
