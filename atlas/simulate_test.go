package atlas

import (
	"flag"
	"math/rand/v2"
	"testing"
)

var full = flag.Bool("atlas.full", false, "run the planted-truth test at full size: 200 simulated atlases of 660 classes")

// TestPlantedTruth runs simulated atlases of 660 classes with known p (Bernoulli games with
// draws) through the atlas's plans and checks the figures: verdict errors at most
// 5 % of the classes; the stated rate of the intervals, 95 % that every interval of a class's
// looks holds p (a confidence sequence's claim), met within 93–97 %, and so at least 95 % at
// the look where a class stops; V's interval covering the planted V in at least 93 % of the
// runs; and at most a quarter of a uniform allocation's games. The short version runs 4 atlases; -atlas.full runs 200 (docs/atlas.md has its
// figures).
func TestPlantedTruth(t *testing.T) {
	runs := 4
	if *full {
		runs = 200
	}
	if testing.Short() {
		runs = 2
	}
	c := DefaultConfig()
	c.Bot, c.Max, c.ConfirmGames = "sim", 8192, 4096
	byLook := map[int][2]int{}
	var errs, covered, all, fixed, classes, vCovered, games, uniform, decided int
	for run := range runs {
		truth := PlantedAtlas(660, rand.New(rand.NewPCG(uint64(run), 1)))
		r := c.Simulate(truth, uint64(run))
		errs += r.VerdictErrors
		covered += r.Covered
		all += r.AllCovered
		for j, b := range r.ByLook {
			s := byLook[j]
			byLook[j] = [2]int{s[0] + b[0], s[1] + b[1]}
		}
		fixed += r.FixedCovered
		classes += r.Classes
		decided += r.Decided
		games += r.Games
		uniform += r.Uniform
		if r.VCovered {
			vCovered++
		}
		if *full && run < 3 {
			t.Logf("run %d: V %.4f planted, [%.4f, %.4f] stated, %.4f estimated", run, r.PlantedV, r.VLo, r.VHi, r.V)
		}
	}
	errRate := float64(errs) / float64(classes)
	coverage := float64(covered) / float64(classes)
	sequence := float64(all) / float64(classes)
	fixedCoverage := float64(fixed) / float64(classes)
	vRate := float64(vCovered) / float64(runs)
	share := float64(games) / float64(uniform)
	t.Logf("%d runs of 660 classes: verdict errors %.2f%% of classes (%.1f%% decided), every look's interval covers %.2f%%, the stopping look's %.2f%% (fixed-n intervals %.2f%%), V covered in %d of %d runs (%.1f%%), games %.1f%% of uniform (%d a run against %d)",
		runs, 100*errRate, 100*float64(decided)/float64(classes), 100*sequence, 100*coverage, 100*fixedCoverage, vCovered, runs, 100*vRate, 100*share, games/runs, uniform/runs)
	for j := range c.Looks() + 1 {
		if b := byLook[j]; b[0] > 0 {
			t.Logf("stopped at look %d: %d classes, %.2f%% covered there", j, b[0], 100*float64(b[1])/float64(b[0]))
		}
	}
	if errRate > 0.05 {
		t.Errorf("verdict errors %.2f%% of classes, above 5%%", 100*errRate)
	}
	if lo, hi := 0.93, 0.97; sequence < lo || sequence > hi {
		t.Errorf("every look's interval covers %.2f%% of the classes, outside %.0f–%.0f%%", 100*sequence, 100*lo, 100*hi)
	}
	if coverage < 0.95 || coverage < sequence {
		t.Errorf("the stopping look's interval covers %.2f%%, below 95%% or below the whole sequence's %.2f%%", 100*coverage, 100*sequence)
	}
	if vRate < 0.93 {
		t.Errorf("V covered in %.1f%% of runs, below 93%%", 100*vRate)
	}
	if share > 0.25 {
		t.Errorf("games %.1f%% of a uniform allocation's, above a quarter", 100*share)
	}
}
