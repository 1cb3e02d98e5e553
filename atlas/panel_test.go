package atlas

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// plantedPanel is a stability panel of 40 classes drawn from a planted 660-class atlas as
// the atlas draws it (half the nearest ½, half at random), with its true p at the base
// strength and at the strong one (move maps one to the other).
func plantedPanel(rng *rand.Rand, move func(p float64) float64) (base, strong []Planted) {
	truth := PlantedAtlas(660, rng)
	idx := make([]int, len(truth))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(math.Abs(truth[a].P-0.5), math.Abs(truth[b].P-0.5))
	})
	rest := idx[20:]
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for _, i := range append(idx[:20:20], rest[:20]...) {
		base = append(base, truth[i])
		strong = append(strong, Planted{P: move(truth[i].P), Draw: truth[i].Draw})
	}
	return base, strong
}

// play is the tally of n games drawn from the planted truth t.
func play(rng *rand.Rand, t Planted, n int) (out Tally) {
	for range n {
		switch r := rng.Float64(); {
		case r < t.Draw:
			out.Draws++
		case r < t.Draw+(1-t.Draw)*(t.P-t.Draw/2)/(1-t.Draw):
			out.Wins++
		default:
			out.Losses++
		}
	}
	return out
}

func clampP(p float64) float64 { return math.Max(0.02, math.Min(0.98, p)) }

// TestPanelCoverage plays planted panels of 40 classes at two strengths with a known
// relation and counts how often the rank correlation's interval holds the planted rank
// correlation of the true p's, and the mean shift's the planted mean shift (95 % stated):
// the shift's at least 90 %, the rank correlation's at least 90 % inside (−1, 1) and 70 %
// at a planted 1, the edge that an interval of noisy ranks reaches least often; and the
// sentence says p(o) moves when it does not in at most 10 % of the panels. The short
// version runs 20 panels a scenario at 200 games a side; -atlas.full runs 400
// (docs/atlas.md has its figures).
func TestPanelCoverage(t *testing.T) {
	runs, reps := 20, 1000
	if *full {
		runs = 400
	}
	if testing.Short() {
		runs = 12
	}
	for _, sc := range []struct {
		name     string
		moves    bool    // whether the planted p moves with strength
		coverage float64 // the least coverage of the rank correlation's interval
		move     func(rng *rand.Rand) func(float64) float64
	}{
		{"same p", false, 0.7, func(*rand.Rand) func(float64) float64 { return func(p float64) float64 { return p } }},
		{"p shifted +3 points", true, 0.7, func(*rand.Rand) func(float64) float64 { return func(p float64) float64 { return clampP(p + 0.03) } }},
		{"p moved ±8 points at random", true, 0.9, func(rng *rand.Rand) func(float64) float64 {
			return func(p float64) float64 { return clampP(p + 0.08*rng.NormFloat64()) }
		}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			var covered, pCovered, shiftCovered, wrong int
			said := map[string]int{}
			for run := range runs {
				rng := rand.New(rand.NewPCG(uint64(run), 2))
				base, strong := plantedPanel(rng, sc.move(rng))
				var x, y []float64
				var bt, st []Tally
				for i := range base {
					x, y = append(x, base[i].P), append(y, strong[i].P)
					bt, st = append(bt, play(rng, base[i], 200)), append(st, play(rng, strong[i], 200))
				}
				rho, shift := spearman(x, y), mean(y)-mean(x)
				pc := ComparePanels(bt, st, uint64(run), reps)
				if pc.Lo <= rho && rho <= pc.Hi {
					covered++
				}
				if pc.pLo <= rho && rho <= pc.pHi {
					pCovered++
				}
				if pc.ShiftLo <= shift && shift <= pc.ShiftHi {
					shiftCovered++
				}
				if run == 0 {
					t.Logf("run 0: planted rank correlation %.3f, shift %+.4f; %s", rho, shift, pc.Sentence("weak", "strong", 0.03))
				}
				s := pc.Sentence("", "", 0.03)
				if !sc.moves && strings.HasPrefix(s, "p(o) moves") {
					wrong++
				}
				switch {
				case strings.HasPrefix(s, "p(o) moves"):
					said["moves"]++
				case strings.HasPrefix(s, "p(o) does not move"):
					said["does not move"]++
				default:
					said["cannot tell"]++
				}
			}
			rate := func(n int) float64 { return float64(n) / float64(runs) }
			t.Logf("%d panels of 40 classes, 200 games a side, %d replicates: rank correlation's interval holds the planted one in %.1f%% (percentile interval %.1f%%), mean shift's %.1f%%; said to move wrongly in %d",
				runs, reps, 100*rate(covered), 100*rate(pCovered), 100*rate(shiftCovered), wrong)
			if rate(covered) < sc.coverage || rate(shiftCovered) < 0.9 {
				t.Errorf("coverage %.1f%% and %.1f%%, below %.0f%% and 90%%", 100*rate(covered), 100*rate(shiftCovered), 100*sc.coverage)
			}
			if rate(wrong) > 0.1 {
				t.Errorf("said to move in %d of %d panels whose p does not", wrong, runs)
			}
			t.Logf("sentences: %v", said)
		})
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// --stability-both on a run again adds the check at both strengths, keeping a stability
// bot already stored; a merge never takes it away.
func TestResumeStabilityBoth(t *testing.T) {
	stored := DefaultConfig()
	stored.Size, stored.Bot = 5, "sage-4"
	given := stored
	given.StabilityBot, given.StabilityBoth = "sage-16", true
	only := func(flags ...string) func(string) bool {
		return func(f string) bool { return slices.Contains(flags, f) }
	}
	for _, tc := range []struct {
		stabilityBot string // stored
		flags        []string
		want         string // the stability bot after
		both         bool
	}{
		{"", []string{"stability-both"}, "sage-16", true},
		{"sage-8", []string{"stability-both"}, "sage-8", true},
		{"sage-8", []string{"first"}, "sage-8", false},
	} {
		s := stored
		s.StabilityBot = tc.stabilityBot
		n, err := s.Resume(&given, "atlas.db", only(tc.flags...))
		if err != nil || n.StabilityBot != tc.want || n.StabilityBoth != tc.both {
			t.Errorf("stored %q, flags %v: %+v, %v", tc.stabilityBot, tc.flags, n, err)
		}
	}
	with := given
	without := given
	without.StabilityBot, without.StabilityBoth = "", false
	if n := with.WithRules(&without); !n.StabilityBoth || n.StabilityBot != "sage-16" {
		t.Errorf("a merge of a shard without the check took it away: %+v", n)
	}
	without.StabilityBot = "sage-16"
	if n := with.WithRules(&without); !n.StabilityBoth {
		t.Errorf("a merge of a shard at one strength took the other away: %+v", n)
	}
	bad := stored
	bad.StabilityBoth = true
	if err := bad.Check(); err == nil {
		t.Errorf("--stability-both without a stability bot passes Check")
	}
}
