package annotate

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestErrorOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name            string
		se, sigma, bias float64
	}{
		{"exact reading, noisy truth", 0.05, 0, 0},
		{"noisy reading, exact truth", 0, 0.10, 0},
		{"both noisy, biased", 0.05, 0.08, -0.03},
	} {
		var rs []TruthReading
		for range 20000 {
			loss := 0.3 * rng.Float64()
			r := TruthReading{TruthRow: TruthRow{Loss: loss + tc.se*rng.NormFloat64(), LossSE: tc.se}}
			r.Predicted = loss + tc.bias + tc.sigma*rng.NormFloat64()
			rs = append(rs, r)
		}
		e := ErrorOf(rs)
		if math.Abs(e.SD-tc.sigma) > 0.01 || math.Abs(e.Bias-tc.bias) > 0.003 {
			t.Errorf("%s: bias %.4f sd %.4f, planted %.4f and %.4f", tc.name, e.Bias, e.SD, tc.bias, tc.sigma)
		}
	}
}

func TestCeiling(t *testing.T) {
	rows := []TruthRow{{Loss: 0.30}, {Loss: 0.00}, {Loss: 0.12}, {Loss: 0.05}, {Loss: 0.40}}
	// An exact reading of an exact truth set: marks from 10 points are all right.
	p, r, f := Ceiling(rows, 0, 0.10, 10, 1)
	if p != 1 || r != 1 || f != 0 {
		t.Errorf("exact: precision %.3f recall %.3f false alarms %.3f, want 1, 1, 0", p, r, f)
	}
	// Marking everything: precision is the share measured ≥ 10 points, false alarms all.
	p, _, f = Ceiling(rows, 0, -1, 10, 1)
	if math.Abs(p-0.6) > 1e-9 || math.Abs(f-1) > 1e-9 {
		t.Errorf("mark all: precision %.3f false alarms %.3f, want 0.6 and 1", p, f)
	}
	// A noisy reading does worse than an exact one.
	p1, r1, _ := Ceiling(rows, 0.2, 0.10, 2000, 1)
	if p1 >= 1 || r1 >= 1 {
		t.Errorf("noisy: precision %.3f recall %.3f, want below 1", p1, r1)
	}
}

// TestErrorOfEquivalent plants a reading that is the measured loss halved plus an error:
// its equivalent error, once rescaled, is the planted error doubled.
func TestErrorOfEquivalent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var rs []TruthReading
	for range 40000 {
		r := TruthReading{TruthRow: TruthRow{Loss: 0.3 * rng.Float64(), LossSE: 0.05}}
		r.Predicted = 0.5*r.Loss + 0.04*rng.NormFloat64()
		rs = append(rs, r)
	}
	if e := ErrorOf(rs); math.Abs(e.Equivalent-0.08) > 0.005 {
		t.Errorf("equivalent error %.4f, planted 0.08 (0.04 on a reading of half the scale)", e.Equivalent)
	}
}
