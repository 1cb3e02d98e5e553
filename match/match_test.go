package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPentanomial(t *testing.T) {
	tests := []struct {
		p           Pentanomial
		score       float64
		elo, lo, hi float64
	}{
		// Every pair split: a score of ½, no variance between pairs.
		{Pentanomial{0, 0, 10, 0, 0}, 0.5, 0, 0, 0},
		// 30 pairs won twice, 10 lost twice: s = 0.75, var of a pair's mean 0.1875.
		{Pentanomial{10, 0, 0, 0, 30}, 0.75, EloOfScore(0.75),
			EloOfScore(0.75 - 1.959963984540054*math.Sqrt(0.1875/40)), EloOfScore(0.75 + 1.959963984540054*math.Sqrt(0.1875/40))},
		{Pentanomial{0, 0, 0, 0, 5}, 1, math.Inf(1), math.Inf(1), math.Inf(1)},
	}
	for _, tt := range tests {
		if got := tt.p.Score(); got != tt.score {
			t.Errorf("%v: score %v, want %v", tt.p, got, tt.score)
		}
		e := tt.p.Elo()
		for _, pair := range [][2]float64{{e.Value, tt.elo}, {e.Lo, tt.lo}, {e.Hi, tt.hi}} {
			if !(pair[0] == pair[1] || math.Abs(pair[0]-pair[1]) < 1e-9) {
				t.Errorf("%v: Elo %+v, want %v [%v, %v]", tt.p, e, tt.elo, tt.lo, tt.hi)
			}
		}
	}
	if e := (Pentanomial{}).Elo(); !math.IsNaN(e.Value) {
		t.Errorf("no pairs: Elo %v", e)
	}
	if got := EloOfScore(ScoreOfElo(123.4)); math.Abs(got-123.4) > 1e-9 {
		t.Errorf("EloOfScore(ScoreOfElo(123.4)) = %v", got)
	}
}

// The generalised LLR agrees with fishtest's normal approximation (LLR_alt2: N (s1 − s0)
// (2μ − s0 − s1) / 2σ², σ² the variance of a pair's mean score) when the hypotheses are
// close, and has its properties: 0 without pairs, positive for results above both
// hypotheses' scores, negative below.
func TestLLR(t *testing.T) {
	tst := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	for _, p := range []Pentanomial{{20, 300, 900, 320, 30}, {50, 200, 500, 250, 60}, {1, 10, 50, 12, 2}} {
		n := float64(p.Pairs())
		mu := p.Score()
		v := 0.0
		for i, c := range p {
			v += float64(c) / n * (float64(i)/4 - mu) * (float64(i)/4 - mu)
		}
		s0, s1 := ScoreOfElo(tst.Elo0), ScoreOfElo(tst.Elo1)
		approx := n * (s1 - s0) * (2*mu - s0 - s1) / (2 * v)
		got := tst.LLR(p)
		if math.Abs(got-approx) > 0.02*math.Abs(approx)+0.01 {
			t.Errorf("%v: LLR %.4f, normal approximation %.4f", p, got, approx)
		}
	}
	if got := tst.LLR(Pentanomial{}); got != 0 {
		t.Errorf("no pairs: LLR %v", got)
	}
	wide := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	if got := wide.LLR(Pentanomial{0, 5, 20, 40, 30}); got <= 0 {
		t.Errorf("a strong result: LLR %v", got)
	}
	if got := wide.LLR(Pentanomial{30, 40, 20, 5, 0}); got >= 0 {
		t.Errorf("a weak result: LLR %v", got)
	}
	lo, hi := wide.Bounds()
	if math.Abs(lo+2.944) > 0.001 || math.Abs(hi-2.944) > 0.001 {
		t.Errorf("bounds %v, %v; want ±2.944", lo, hi)
	}
	if wide.Decide(hi) != H1 || wide.Decide(lo) != H0 || wide.Decide(0) != Continue {
		t.Error("Decide")
	}
}

// The distribution secular gives is the most likely one with the hypothesis's mean: it
// sums to 1, has mean s, and every small step that keeps both lowers Σ pdf log q.
func TestSecularIsTheMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 200 {
		var pdf [5]float64
		sum := 0.0
		for i := range pdf {
			pdf[i] = rng.Float64() + 1e-3
			sum += pdf[i]
		}
		for i := range pdf {
			pdf[i] /= sum
		}
		s := 0.05 + 0.9*rng.Float64()
		x := secular(pdf, s)
		var q [5]float64
		total, mean := 0.0, 0.0
		for i := range q {
			q[i] = pdf[i] / (1 + x*(pairValues[i]-s))
			total += q[i]
			mean += q[i] * pairValues[i]
		}
		if math.Abs(total-1) > 1e-9 || math.Abs(mean-s) > 1e-9 {
			t.Fatalf("pdf %v, s %v: q %v sums to %v, mean %v", pdf, s, q, total, mean)
		}
		obj := func(q [5]float64) float64 {
			o := 0.0
			for i := range q {
				o += pdf[i] * math.Log(q[i])
			}
			return o
		}
		best := obj(q)
		for range 20 {
			// A step d with Σd = 0 and Σ d v = 0: a random vector less its projection on
			// the span of 1 and v.
			var d [5]float64
			for i := range d {
				d[i] = rng.NormFloat64()
			}
			project(&d)
			var r [5]float64
			ok := true
			for i := range r {
				r[i] = q[i] + 1e-4*d[i]
				ok = ok && r[i] > 0
			}
			if ok && obj(r) > best+1e-12 {
				t.Fatalf("pdf %v, s %v: a step raises the likelihood from %v to %v", pdf, s, best, obj(r))
			}
		}
	}
}

// project removes from d its components along (1,1,1,1,1) and the pair values, by
// Gram–Schmidt.
func project(d *[5]float64) {
	one := [5]float64{1, 1, 1, 1, 1}
	v := pairValues
	dot := func(a, b [5]float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	// v less its mean: orthogonal to one.
	m := dot(v, one) / 5
	for i := range v {
		v[i] -= m
	}
	for _, e := range [][5]float64{one, v} {
		c := dot(*d, e) / dot(e, e)
		for i := range d {
			d[i] -= c * e[i]
		}
	}
}
