package annotate

import (
	"math"
	"testing"
)

// readings makes up readings: n turns predicted to lose predicted that measured measured.
type readings []TruthReading

func (rs *readings) add(n int, predicted, measured float64) {
	for range n {
		*rs = append(*rs, TruthReading{TruthRow: TruthRow{Loss: measured}, Predicted: predicted})
	}
}

// TestFitThresholds checks the rule on readings made up so that each threshold is known.
func TestFitThresholds(t *testing.T) {
	var rs readings
	// 100 quiet turns (measured 0): 10 of them predicted 0.12, 4 predicted 0.16.
	rs.add(86, 0, 0)
	rs.add(10, 0.12, 0)
	rs.add(4, 0.16, 0)
	// Turns that lose: 30 predicted 0.20 measuring 0.30, 10 predicted 0.30 measuring 0.90.
	rs.add(30, 0.20, 0.30)
	rs.add(10, 0.30, 0.90)
	for _, tc := range []struct {
		name string
		rs   readings
		want Thresholds
	}{
		// False alarms: 14 of 100 at 0.12, 4 from 0.13. The mean from 0.13: (30·0.3 +
		// 10·0.9)/44 = 0.41, a mistake; from 0.21: 0.90, a blunder.
		{"three marks", rs, Thresholds{Inaccuracy: 0.13, Mistake: 0.13, Blunder: 0.21}},
		// Without the 0.90s no threshold marks turns that lost 0.40 on average: the
		// mistake's and blunder's are above every predicted loss.
		{"no mistake", rs[:130], Thresholds{Inaccuracy: 0.13, Mistake: 0.21, Blunder: 0.21}},
	} {
		th, err := FitThresholds(tc.rs)
		if err != nil {
			t.Fatal(err)
		}
		if !near(th, tc.want) {
			t.Errorf("%s: thresholds %+v, want %+v", tc.name, th, tc.want)
		}
	}
	th := Thresholds{Inaccuracy: 0.13, Mistake: 0.20, Blunder: 0.25}
	if th.Mark(0.12) != Good || th.Mark(0.13) != Inaccuracy || th.Mark(0.2) != Mistake || th.Mark(0.25) != Blunder {
		t.Errorf("marks of 0.12, 0.13, 0.2, 0.25: %v %v %v %v", th.Mark(0.12), th.Mark(0.13), th.Mark(0.2), th.Mark(0.25))
	}
	// Too few readings, or none quiet, set no thresholds.
	if _, err := FitThresholds(rs[:5]); err == nil {
		t.Error("thresholds from 5 readings")
	}
	if _, err := FitThresholds(rs[100:]); err == nil {
		t.Error("thresholds from readings none of which is quiet")
	}
}

func near(a, b Thresholds) bool {
	return math.Abs(a.Inaccuracy-b.Inaccuracy) < 1e-9 && math.Abs(a.Mistake-b.Mistake) < 1e-9 && math.Abs(a.Blunder-b.Blunder) < 1e-9
}
