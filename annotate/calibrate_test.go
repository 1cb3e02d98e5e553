package annotate

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Fit recovers the weights of positions drawn from a known calibration, and the fitted
// calibration's deciles hold their observed rates.
func TestFitRecoversKnownCalibration(t *testing.T) {
	want := Calibration{W: [4]float64{0.3, 0.6, -0.4, 0.5}}
	rng := rand.New(rand.NewPCG(1, 2))
	var pts []Point
	for range 20000 {
		p := Point{Raw: 0.02 + 0.96*rng.Float64(), Phase: 1.2 * rng.Float64()}
		if rng.Float64() < want.Chance(p.Raw, p.Phase) {
			p.Won = 1
		}
		pts = append(pts, p)
	}
	got, err := Fit(pts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.W {
		if math.Abs(got.W[i]-want.W[i]) > 0.15 {
			t.Errorf("W[%d] = %.3f, want %.3f", i, got.W[i], want.W[i])
		}
	}
	within, n := 0, 0
	for _, b := range got.Reliability(pts) {
		if b.N > 0 {
			n++
			if b.Within() {
				within++
			}
		}
	}
	if within < n-1 {
		t.Errorf("%d of %d deciles within their interval", within, n)
	}
	if b, id := got.Brier(pts), Identity.Brier(pts); b >= id {
		t.Errorf("Brier %.4f fitted, %.4f raw: the fit should do better", b, id)
	}
}

func TestMarkOf(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Mark
	}{{0, Good}, {InaccuracyLoss - 1e-9, Good}, {InaccuracyLoss, Inaccuracy}, {MistakeLoss, Mistake}, {BlunderLoss, Blunder}, {1, Blunder}} {
		if got := MarkOf(c.loss); got != c.want {
			t.Errorf("MarkOf(%v) = %v, want %v", c.loss, got, c.want)
		}
	}
	if Blunder.String() != "blunder" || Blunder.Symbol() != "??" || Good.String() != "" {
		t.Error("names")
	}
}

// The same game read twice, or by two engines of the same budget, gives the same rows.
func TestAnalyseDeterministic(t *testing.T) {
	g := selfPlayed(t, 3)
	a, err := mustEngine(t, "sage-20", Fitted).Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := mustEngine(t, "sage-20", Fitted)
	if _, err := e.Analyse(selfPlayed(t, 4), nil, nil); err != nil {
		t.Fatal(err)
	}
	b, err := e.Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(g.Moves) {
		t.Fatalf("%d rows for %d turns", len(a), len(g.Moves))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("turn %d: %+v then %+v", i+1, a[i], b[i])
		}
	}
}

// TestReliabilityCoverage checks the deciles' intervals against simulated truth: games whose
// positions carry exactly calibrated chances (each the posterior of the game's result given
// noisy signals so far) and share the game's result. Over 200 seeded runs of 280 games of
// 55 positions, the interval by games holds the decile's mean predicted chance 95.0% of the
// time; the interval by positions, which takes the positions as independent, 39%.
func TestReliabilityCoverage(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 40
	}
	var within, naive, bins int
	for run := range runs {
		rng := rand.New(rand.NewPCG(uint64(run), 77))
		var pts []Point
		for g := range 280 {
			won := rng.IntN(2)
			m := 0.05 + 0.25*rng.Float64() // how fast the game is decided
			llr := 0.0
			id := strconv.Itoa(g)
			for range 55 {
				mean := -m
				if won == 1 {
					mean = m
				}
				llr += 2 * m * (mean + rng.NormFloat64())
				pts = append(pts, Point{Raw: 1 / (1 + math.Exp(-llr)), Won: float64(won), Game: id})
			}
		}
		w, nv, ne := tally(Identity.Reliability(pts))
		within, naive, bins = within+w, naive+nv, bins+ne
	}
	by, pos := float64(within)/float64(bins), float64(naive)/float64(bins)
	t.Logf("%d runs, %d deciles: the interval by games holds the mean prediction in %.1f%%, by positions in %.1f%%", runs, bins, 100*by, 100*pos)
	if by < 0.93 || by > 0.97 {
		t.Errorf("the interval by games covers %.1f%% of the deciles, want 93–97%%", 100*by)
	}
	if pos > by-0.1 {
		t.Errorf("the interval by positions covers %.1f%%: the simulation does not share results within games as it should", 100*pos)
	}
}

// The calibration ponte is built with holds its issue's bar on its held-out games: at least
// 8 of the 10 deciles within their interval (annotate/fitted.go is made by fitcal).
func TestFittedCheck(t *testing.T) {
	within, bins := FittedCheck.Within()
	t.Logf("%d of %d deciles within, Brier %.4f (raw %.4f), %d held-out games", within, bins, FittedCheck.Brier, FittedCheck.RawBrier, FittedCheck.Games)
	if bins != 10 || within < 8 {
		t.Errorf("%d of %d deciles within their interval, want at least 8 of 10", within, bins)
	}
	if FittedCheck.Bot != "sage-100" {
		t.Errorf("checked on %s's readings, want sage-100's", FittedCheck.Bot)
	}
}

// TestFittedLoreCheck: the calibration of arch and lore (annotate/fitted_lore.go) was chosen
// by fitcal on the default engine's readings (Choose: the search's raw value, which holds
// all 10 deciles of the held-out games where the fit held 7: docs/annotate.md).
func TestFittedLoreCheck(t *testing.T) {
	within, bins := FittedLoreCheck.Within()
	if bins != 10 || within < 10 {
		t.Errorf("%d of %d deciles within their interval, want 10 of 10", within, bins)
	}
	if FittedLoreCheck.Bot != DefaultEngine {
		t.Errorf("checked on %s's readings, the default engine is %s", FittedLoreCheck.Bot, DefaultEngine)
	}
	if CalibrationOf("lore-50") != FittedLore || CalibrationOf("arch-400") != FittedLore || CalibrationOf("sage-100") != Fitted {
		t.Error("CalibrationOf does not give each family its calibration")
	}
}

// Choose keeps a fit only where it does better than the raw value on held-out games: on
// games whose raw values are their chances it keeps the raw value against a fit that is off,
// and on games whose chances are steeper than their values it keeps the fit.
func TestChoose(t *testing.T) {
	games := func(seed uint64, slope float64) []Point {
		rng := rand.New(rand.NewPCG(seed, 3))
		var pts []Point
		for g := range 600 {
			id := strconv.Itoa(g)
			for range 20 {
				raw := 0.02 + 0.96*rng.Float64()
				won := 0.0
				if rng.Float64() < sigmoid(slope*logit(raw)) {
					won = 1
				}
				pts = append(pts, Point{Raw: raw, Phase: 0.5, Won: won, Game: id})
			}
		}
		return pts
	}
	off := Calibration{W: [4]float64{0.4, 1, 0, 0}} // 10 points too high in the middle
	if c, why := Choose(off, games(1, 1)); c != Identity {
		t.Errorf("raw values that are chances: kept %v (%s), want the raw value", c, why)
	}
	steep := games(2, 2)
	fitted, err := Fit(games(3, 2))
	if err != nil {
		t.Fatal(err)
	}
	if c, why := Choose(fitted, steep); c != fitted {
		t.Errorf("chances steeper than the values: kept %v (%s), want the fit %v", c, why, fitted)
	}
}
