package value

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randSample(rng *rand.Rand, c Config, S int, dense bool) *Sample {
	s := &Sample{Size: S, Planes: make([]float32, c.In*S*S), Globals: make([]float32, c.Globals)}
	for i := range s.Planes {
		if dense {
			s.Planes[i] = float32(rng.NormFloat64())
		} else if rng.IntN(3) == 0 {
			s.Planes[i] = 1
		}
	}
	for i := range s.Globals {
		s.Globals[i] = float32(rng.NormFloat64())
	}
	s.Target = []float32{0, 0.5, 1}[rng.IntN(3)]
	return s
}

func batchLoss(n *Net, batch []*Sample) float64 {
	var sc Scratch
	l := 0.0
	for _, s := range batch {
		l += bceLogit(float64(n.forward(s, &sc)), float64(s.Target))
	}
	return l / float64(len(batch))
}

// The kernels' references: plain loops.
func refGemmRow(a, b, c []float32, n, ldb int) {
	for k, av := range a {
		for j := 0; j < n; j++ {
			c[j] += av * b[k*ldb+j]
		}
	}
}

func refGer(a, v, m []float32, ldm int) {
	for k, av := range a {
		for j, vv := range v {
			m[k*ldm+j] += av * vv
		}
	}
}

// TestKernels compares the kernels (AVX2 where the machine has it) with plain loops.
func TestKernels(t *testing.T) {
	t.Logf("AVX2 and FMA: %v", useAVX)
	rng := rand.New(rand.NewPCG(1, 0))
	normal := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	near := func(what string, n, k int, got, want []float32, tol float64) {
		t.Helper()
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > tol*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("%s n=%d k=%d i=%d: %v, want %v", what, n, k, i, got[i], want[i])
			}
		}
	}
	for _, n := range []int{1, 5, 8, 13, 24, 32, 40, 67, 288} {
		for _, k := range []int{1, 2, 3, 16, 27, 288} {
			ldb := n + rng.IntN(3)
			a, a2, b, c := normal(k), normal(k), normal(k*ldb), normal(n)
			got, want := slices.Clone(c), slices.Clone(c)
			gemmRow(a, b, got, n, ldb)
			refGemmRow(a, b, want, n, ldb)
			near("gemmRow", n, k, got, want, 1e-4)

			got1, got2, want1, want2 := slices.Clone(c), slices.Clone(want), slices.Clone(c), slices.Clone(want)
			gemm2Row(a, a2, b, got1, got2, n, ldb)
			refGemmRow(a, b, want1, n, ldb)
			refGemmRow(a2, b, want2, n, ldb)
			near("gemm2Row", n, k, got1, want1, 1e-4)
			near("gemm2Row's second row", n, k, got2, want2, 1e-4)

			v, v2 := normal(n), normal(n)
			gotM, wantM := slices.Clone(b), slices.Clone(b)
			ger(a, v, gotM, ldb)
			refGer(a, v, wantM, ldb)
			near("ger", n, k, gotM, wantM, 1e-5)

			gotM, wantM = slices.Clone(b), slices.Clone(b)
			ger2(a, a2, v, v2, gotM, ldb)
			refGer(a, v, wantM, ldb)
			refGer(a2, v2, wantM, ldb)
			near("ger2", n, k, gotM, wantM, 1e-5)
		}
	}
	for n := 1; n <= 40; n++ {
		x, y := normal(n), normal(n)
		got, wantR, wantM := slices.Clone(x), slices.Clone(x), slices.Clone(x)
		relu(got)
		for i := range wantR {
			wantR[i] = max(wantR[i], 0)
			if y[i] <= 0 {
				wantM[i] = 0
			}
		}
		near("relu", n, 0, got, wantR, 0)
		got = slices.Clone(x)
		reluMask(got, y)
		near("reluMask", n, 0, got, wantM, 0)
	}
}

func gradCheck(t *testing.T, cfg Config, sizes []int) {
	rng := rand.New(rand.NewPCG(2, 0))
	n := NewNet(cfg, rng)
	// non-zero biases so that nothing sits exactly at a ReLU kink
	v := n.t
	for _, b := range v.ConvB {
		for i := range b {
			b[i] = float32(rng.NormFloat64() * 0.1)
		}
	}
	for i := range v.B1 {
		v.B1[i] = float32(rng.NormFloat64() * 0.1)
	}
	var batch []*Sample
	for _, S := range sizes {
		batch = append(batch, randSample(rng, n.Cfg, S, true))
	}
	tr := NewTrainer(n, 0, 0)
	_, g0 := tr.Gradient(batch)
	g := append([]float32(nil), g0...)
	gv := n.Cfg.views(g)
	type tn struct {
		name string
		p, g []float32
	}
	var ts []tn
	for l := range v.ConvW {
		ts = append(ts, tn{fmt.Sprint("convW", l), v.ConvW[l], gv.ConvW[l]}, tn{fmt.Sprint("convB", l), v.ConvB[l], gv.ConvB[l]})
	}
	ts = append(ts, tn{"W1", v.W1, gv.W1}, tn{"B1", v.B1, gv.B1}, tn{"W2", v.W2, gv.W2}, tn{"B2", v.B2, gv.B2})
	bad, total := 0, 0
	for _, x := range ts {
		for trial := 0; trial < 8; trial++ {
			i := rng.IntN(len(x.p))
			old := x.p[i]
			const eps = 3e-3
			x.p[i] = old + eps
			lp := batchLoss(n, batch)
			x.p[i] = old - eps
			lm := batchLoss(n, batch)
			x.p[i] = old
			num := (lp - lm) / (2 * eps)
			an := float64(x.g[i])
			total++
			if math.Abs(num-an) > 2e-2*math.Max(math.Abs(num), math.Abs(an))+2e-4 {
				bad++
				t.Logf("%s[%d]: analytic %.6g numeric %.6g", x.name, i, an, num)
			}
		}
	}
	t.Logf("%d/%d entries outside tolerance", bad, total)
	if bad > 1 { // allow one ReLU-kink crossing
		t.Fatalf("too many gradient mismatches: %d/%d", bad, total)
	}
}

// Exercises the plain Go kernels (F, H and In below 8).
func TestGradTiny(t *testing.T) {
	gradCheck(t, Config{In: 3, Filters: 4, Layers: 2, Globals: 2, Hidden: 5}, []int{5, 4, 5, 3})
}

// Exercises the assembly kernels (F, H, 9*In multiples of 8).
func TestGradWide(t *testing.T) {
	gradCheck(t, Config{In: 8, Filters: 16, Layers: 3, Globals: 3, Hidden: 8}, []int{5, 4})
}

func TestSaveLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	n := NewNet(Config{In: 5, Filters: 8, Layers: 2, Globals: 2, Hidden: 6}, rng)
	var buf bytes.Buffer
	if err := n.Save(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := LoadNet(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cfg != n.Cfg {
		t.Fatalf("config %+v vs %+v", m.Cfg, n.Cfg)
	}
	var sc1, sc2 Scratch
	for _, S := range []int{8, 10, 12, 8} {
		s := randSample(rng, n.Cfg, S, false)
		if a, b := n.Predict(s, &sc1), m.Predict(s, &sc2); a != b {
			t.Fatalf("S=%d: %v vs %v", S, a, b)
		}
	}
}

// planted rule: target = sigmoid((#ones plane 0 - #ones plane 1)/3), mixed sizes.
func plantedSample(rng *rand.Rand, c Config) *Sample {
	S := []int{8, 10}[rng.IntN(2)]
	s := randSample(rng, c, S, false)
	cells := S * S
	d := 0
	for i := 0; i < cells; i++ {
		if s.Planes[i] == 1 {
			d++
		}
		if s.Planes[cells+i] == 1 {
			d--
		}
	}
	s.Target = sigmoid(float32(d) / 3)
	return s
}

func TestLearn(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	cfg := Config{In: 4, Filters: 16, Layers: 2, Globals: 2, Hidden: 16}
	n := NewNet(cfg, rng)
	var test []*Sample
	mean := 0.0
	for i := 0; i < 500; i++ {
		s := plantedSample(rng, n.Cfg)
		test = append(test, s)
		mean += float64(s.Target)
	}
	mean /= float64(len(test))
	base := 0.0
	ent := 0.0 // irreducible loss: entropy of the soft targets
	for _, s := range test {
		t := float64(s.Target)
		base -= t*math.Log(mean) + (1-t)*math.Log(1-mean)
		if t > 0 && t < 1 {
			ent -= t*math.Log(t) + (1-t)*math.Log(1-t)
		}
	}
	base /= float64(len(test))
	ent /= float64(len(test))
	tr := NewTrainer(n, 3e-3, 0)
	batch := make([]*Sample, 64)
	for step := 0; step < 300; step++ {
		for i := range batch {
			batch[i] = plantedSample(rng, n.Cfg)
		}
		tr.Step(batch)
	}
	got := batchLoss(n, test)
	t.Logf("test loss %.4f, mean-predictor loss %.4f, target entropy (minimum) %.4f", got, base, ent)
	// excess loss over the minimum must shrink to well below the baseline's
	if got-ent > 0.25*(base-ent) {
		t.Fatalf("did not learn: loss %.4f base %.4f min %.4f", got, base, ent)
	}
}

func benchStep(b *testing.B, F, L, workers int) {
	rng := rand.New(rand.NewPCG(5, 0))
	n := NewNet(Config{In: 16, Filters: F, Layers: L, Globals: 6, Hidden: 32}, rng)
	tr := NewTrainer(n, 1e-3, 1e-5)
	tr.Workers = workers
	batch := make([]*Sample, 256)
	for i := range batch {
		batch[i] = randSample(rng, n.Cfg, 10, false)
	}
	tr.Step(batch)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.Step(batch)
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "samples/s")
}

func BenchmarkStepF32L5(b *testing.B)   { benchStep(b, 32, 5, 2) }
func BenchmarkStepF24L4(b *testing.B)   { benchStep(b, 24, 4, 2) }
func BenchmarkStepF32L5W1(b *testing.B) { benchStep(b, 32, 5, 1) }
func BenchmarkStepF24L4W1(b *testing.B) { benchStep(b, 24, 4, 1) }

func benchPredict(b *testing.B, S int) {
	rng := rand.New(rand.NewPCG(6, 0))
	n := NewNet(Config{In: 16, Filters: 32, Layers: 5, Globals: 6, Hidden: 32}, rng)
	s := randSample(rng, n.Cfg, S, false)
	var sc Scratch
	n.Predict(s, &sc)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.Predict(s, &sc)
	}
}

func BenchmarkPredictS8(b *testing.B)  { benchPredict(b, 8) }
func BenchmarkPredictS10(b *testing.B) { benchPredict(b, 10) }

func TestPredictConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	n := NewNet(Config{In: 4, Filters: 8, Layers: 2, Globals: 1}, rng)
	var ss []*Sample
	var want []float32
	var sc Scratch
	for i := 0; i < 40; i++ {
		s := randSample(rng, n.Cfg, []int{8, 10, 12}[i%3], false)
		ss = append(ss, s)
		want = append(want, n.Predict(s, &sc))
	}
	done := make(chan bool)
	for g := 0; g < 2; g++ {
		go func() {
			var sc Scratch
			ok := true
			for rep := 0; rep < 5; rep++ {
				for i, s := range ss {
					if n.Predict(s, &sc) != want[i] {
						ok = false
					}
				}
			}
			done <- ok
		}()
	}
	if !<-done || !<-done {
		t.Fatal("concurrent Predict differs from serial")
	}
}
