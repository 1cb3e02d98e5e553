package value

// The network: L 3×3 "same" convolutions with ReLU, global average and max pooling,
// concatenated with the global inputs, one hidden ReLU layer and a sigmoid output; float32,
// with AVX2/FMA kernels on amd64 (kernels.go).

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Config gives the network sizes.
type Config struct {
	In      int // input planes C
	Filters int // conv filters F (default 32); multiples of 8 are fastest
	Layers  int // conv layers L (default 5), >= 1
	Globals int // global scalar inputs G
	Hidden  int // hidden FC units H (default 32)
}

// WithDefaults fills zero Filters/Layers/Hidden with 32/5/32.
func (c Config) WithDefaults() Config {
	if c.Filters == 0 {
		c.Filters = 32
	}
	if c.Layers == 0 {
		c.Layers = 5
	}
	if c.Hidden == 0 {
		c.Hidden = 32
	}
	return c
}

func (c Config) validate() error {
	if c.In < 1 || c.Filters < 1 || c.Layers < 1 || c.Hidden < 1 || c.Globals < 0 ||
		c.In > 1024 || c.Filters > 1024 || c.Layers > 64 || c.Hidden > 1024 || c.Globals > 1024 {
		return fmt.Errorf("%w: sizes %+v", ErrModel, c)
	}
	return nil
}

// Sample is one training/evaluation position.
type Sample struct {
	Size    int       // board side S
	Planes  []float32 // In*S*S, plane-major: plane c, row r, col k at c*S*S + r*S + k
	Globals []float32 // Globals values
	Target  float32   // in [0,1]; ignored by Predict
}

// tensors are views into one flat parameter (or gradient / moment) buffer.
//
//	ConvW[l]: [9*Cin][F], row index (dy*3+dx)*Cin + c  (dy,dx in 0..2, offset -1)
//	ConvB[l]: [F]
//	W1: [D][H] with D = 2F+G (inputs: F averages, F maxima, G globals); B1: [H]
//	W2: [H]; B2: [1]
type tensors struct {
	ConvW, ConvB [][]float32
	W1, B1       []float32
	W2, B2       []float32
}

func (c Config) cin(l int) int {
	if l == 0 {
		return c.In
	}
	return c.Filters
}

func (c Config) dIn() int { return 2*c.Filters + c.Globals }

// numParams returns the total parameter count.
func (c Config) numParams() int {
	n := 0
	for l := 0; l < c.Layers; l++ {
		n += 9*c.cin(l)*c.Filters + c.Filters
	}
	n += c.dIn()*c.Hidden + c.Hidden + c.Hidden + 1
	return n
}

func (c Config) views(buf []float32) tensors {
	var t tensors
	off := 0
	take := func(n int) []float32 { s := buf[off : off+n : off+n]; off += n; return s }
	for l := 0; l < c.Layers; l++ {
		t.ConvW = append(t.ConvW, take(9*c.cin(l)*c.Filters))
		t.ConvB = append(t.ConvB, take(c.Filters))
	}
	t.W1 = take(c.dIn() * c.Hidden)
	t.B1 = take(c.Hidden)
	t.W2 = take(c.Hidden)
	t.B2 = take(1)
	return t
}

// Net holds the weights (float32). Predict may be called concurrently as long
// as each goroutine uses its own Scratch and nobody trains the net meanwhile.
type Net struct {
	Cfg    Config
	Params []float32 // all parameters, flat (layout: see tensors)
	t      tensors
	wf     [][]float32 // per conv layer l>0: flipped, transposed weights [9*F][Cin] for the input gradient; refreshed by Trainer
}

func newNet(cfg Config) *Net {
	n := &Net{Cfg: cfg, Params: make([]float32, cfg.numParams())}
	n.t = cfg.views(n.Params)
	for l := 0; l < cfg.Layers; l++ {
		n.wf = append(n.wf, make([]float32, 9*cfg.cin(l)*cfg.Filters))
	}
	return n
}

// NewNet makes a net with He-initialised weights (normal, std sqrt(2/fan_in)), zero
// biases, and a small output layer. Zero Filters/Layers/Hidden get defaults; it panics on
// negative sizes (a programming error).
func NewNet(cfg Config, rng *rand.Rand) *Net {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		panic(err)
	}
	n := newNet(cfg)
	fill := func(w []float32, fanIn int, scale float64) {
		sd := scale * math.Sqrt(2/float64(fanIn))
		for i := range w {
			w[i] = float32(rng.NormFloat64() * sd)
		}
	}
	for l := 0; l < cfg.Layers; l++ {
		fill(n.t.ConvW[l], 9*cfg.cin(l), 1)
	}
	fill(n.t.W1, cfg.dIn(), 1)
	fill(n.t.W2, cfg.Hidden, 0.5) // output is linear into a sigmoid: keep it modest
	return n
}

// syncT refreshes the flipped conv weights used by the backward pass:
// wf[(t*F+f)*Cin+c] = W[((8-t)*Cin+c)*F+f], so that the gradient wrt the
// layer input at cell j is im2col(dZ)_j · wf.
func (n *Net) syncT() {
	F := n.Cfg.Filters
	for l, w := range n.t.ConvW {
		cin := n.Cfg.cin(l)
		wf := n.wf[l]
		for t := 0; t < 9; t++ {
			for f := 0; f < F; f++ {
				for c := 0; c < cin; c++ {
					wf[(t*F+f)*cin+c] = w[((8-t)*cin+c)*F+f]
				}
			}
		}
	}
}

// Scratch holds per-goroutine working memory for Predict (and training).
// The zero value is ready to use; it grows on first use for a board size.
//
// Activations are stored cell-major with a zero border: side P = S+2,
// value (r,k,c) of the board at ((r+1)*P + k+1)*C + c. The 3×3 neighbourhood
// of a cell is then three contiguous runs of 3C values, so no im2col copy is needed.
type Scratch struct {
	size   int
	x      [][]float32 // activations per layer (padded): x[0] input, x[l+1] = relu(conv_l)
	dA, dB []float32   // backward activation gradients (padded)
	feat   []float32   // [D] pooled features + globals
	argmax []int32     // [F] padded cell index of the max
	h      []float32   // [H]
	dfeat  []float32
	dh     []float32
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

func (s *Scratch) ensure(c Config, size int) {
	P := size + 2
	pc := P * P
	if len(s.x) != c.Layers+1 {
		s.x = make([][]float32, c.Layers+1)
		s.size = 0
	}
	s.x[0] = grow(s.x[0], pc*c.In)
	for l := 1; l <= c.Layers; l++ {
		s.x[l] = grow(s.x[l], pc*c.Filters)
	}
	if s.size != size { // layout changed: borders must be zero
		for _, x := range s.x {
			clear(x)
		}
		s.size = size
	}
	s.dA = grow(s.dA, pc*c.Filters)
	s.dB = grow(s.dB, pc*c.Filters)
	s.feat = grow(s.feat, c.dIn())
	if cap(s.argmax) < c.Filters {
		s.argmax = make([]int32, c.Filters)
	}
	s.argmax = s.argmax[:c.Filters]
	s.h = grow(s.h, c.Hidden)
	s.dfeat = grow(s.dfeat, c.dIn())
	s.dh = grow(s.dh, c.Hidden)
}

// conv computes, for every board cell, out[cell] += sum over the 3×3
// neighbourhood of in[...] · w, where in has cin channels and out cout, both
// padded (side P = S+2); w is [9*cin][cout] with row (dy*3+dx)*cin + c.
func conv(in []float32, S, cin int, w []float32, out []float32, cout int) {
	P := S + 2
	seg := 3 * cin
	for r := 0; r < S; r++ {
		for k := 0; k < S; k += 2 {
			base := (r*P + k) * cin
			o := ((r+1)*P + k + 1) * cout
			if k+1 < S {
				z1, z2 := out[o:o+cout], out[o+cout:o+2*cout]
				for dy := 0; dy < 3; dy++ {
					a := base + dy*P*cin
					gemm2Row(in[a:a+seg], in[a+cin:a+cin+seg], w[dy*seg*cout:], z1, z2, cout, cout)
				}
			} else {
				z1 := out[o : o+cout]
				for dy := 0; dy < 3; dy++ {
					a := base + dy*P*cin
					gemmRow(in[a:a+seg], w[dy*seg*cout:], z1, cout, cout)
				}
			}
		}
	}
}

// forward runs the net on s, leaving intermediates in sc; returns the logit.
func (n *Net) forward(s *Sample, sc *Scratch) float32 {
	c := n.Cfg
	S := s.Size
	if S < 1 || len(s.Planes) != c.In*S*S || len(s.Globals) != c.Globals {
		panic(fmt.Sprintf("value: sample size %d with %d planes values, %d globals does not match config %+v",
			S, len(s.Planes), len(s.Globals), c))
	}
	sc.ensure(c, S)
	cells := S * S
	F := c.Filters
	P := S + 2
	// transpose input to padded cell-major
	x0 := sc.x[0]
	for ch := 0; ch < c.In; ch++ {
		for r := 0; r < S; r++ {
			p := s.Planes[ch*cells+r*S : ch*cells+r*S+S]
			o := ((r+1)*P + 1) * c.In
			for k, v := range p {
				x0[o+k*c.In+ch] = v
			}
		}
	}
	for l := 0; l < c.Layers; l++ {
		y := sc.x[l+1]
		b := n.t.ConvB[l]
		for r := 0; r < S; r++ {
			for k := 0; k < S; k++ {
				copy(y[((r+1)*P+k+1)*F:], b)
			}
		}
		conv(sc.x[l], S, c.cin(l), n.t.ConvW[l], y, F)
		relu(y)
	}
	// pooling
	xl := sc.x[c.Layers]
	feat := sc.feat
	avg, mx := feat[:F], feat[F:2*F]
	i0 := P + 1
	copy(avg, xl[i0*F:i0*F+F])
	copy(mx, xl[i0*F:i0*F+F])
	for f := range sc.argmax {
		sc.argmax[f] = int32(i0)
	}
	for r := 0; r < S; r++ {
		for k := 0; k < S; k++ {
			i := (r+1)*P + k + 1
			if i == i0 {
				continue
			}
			row := xl[i*F : i*F+F]
			for f, v := range row {
				avg[f] += v
				if v > mx[f] {
					mx[f] = v
					sc.argmax[f] = int32(i)
				}
			}
		}
	}
	inv := 1 / float32(cells)
	for f := range avg {
		avg[f] *= inv
	}
	copy(feat[2*F:], s.Globals)
	h := sc.h
	copy(h, n.t.B1)
	gemmRow(feat, n.t.W1, h, c.Hidden, c.Hidden)
	z := n.t.B2[0]
	for j, v := range h {
		if v < 0 {
			h[j] = 0
		} else {
			z += v * n.t.W2[j]
		}
	}
	return z
}

func sigmoid(z float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(z))))
}

// Predict returns the network value in (0,1) for s. scratch may be nil (then
// one is allocated); reuse a Scratch per goroutine to avoid allocation.
func (n *Net) Predict(s *Sample, scratch *Scratch) float32 {
	if scratch == nil {
		scratch = new(Scratch)
	}
	return sigmoid(n.forward(s, scratch))
}

// bceLogit is the binary cross-entropy of target t for logit z, computed stably.
func bceLogit(z, t float64) float64 {
	// log(1+e^z) - t z
	sp := math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z)))
	return sp - t*z
}

// backward accumulates into g the gradient of scale*loss for the sample whose
// forward pass is in sc; dz is d(loss)/d(logit) times scale. Requires n.wt in sync.
func (n *Net) backward(s *Sample, sc *Scratch, dz float32, g *tensors) {
	c := n.Cfg
	F, H := c.Filters, c.Hidden
	S := s.Size
	cells := S * S
	g.B2[0] += dz
	dh := sc.dh
	for j, v := range sc.h {
		if v > 0 {
			g.W2[j] += dz * v
			dh[j] = dz * n.t.W2[j]
		} else {
			dh[j] = 0
		}
	}
	for j, v := range dh {
		g.B1[j] += v
	}
	ger(sc.feat, dh, g.W1, H)
	// dfeat[d] = sum_j W1[d,j] dh[j] (only pooled part needed)
	dfeat := sc.dfeat
	w1 := n.t.W1
	for d := 0; d < 2*F; d++ {
		row := w1[d*H : d*H+H]
		var a float32
		for j, v := range row {
			a += v * dh[j]
		}
		dfeat[d] = a
	}
	// pooling backward into dA = dLoss/d x[L] (padded)
	P := S + 2
	dA := sc.dA
	clear(dA)
	inv := 1 / float32(cells)
	for r := 0; r < S; r++ {
		for k := 0; k < S; k++ {
			i := (r+1)*P + k + 1
			row := dA[i*F : i*F+F]
			for f := range row {
				row[f] = dfeat[f] * inv
			}
		}
	}
	for f := 0; f < F; f++ {
		dA[int(sc.argmax[f])*F+f] += dfeat[F+f]
	}
	dB := sc.dB
	for l := c.Layers - 1; l >= 0; l-- {
		cin := c.cin(l)
		seg := 3 * cin
		y := sc.x[l+1]
		x := sc.x[l]
		// relu mask: dZ = dA * (y > 0), in place; also zeroes the border
		reluMask(dA, y)
		gb := g.ConvB[l]
		gw := g.ConvW[l]
		for i := 0; i < len(dA); i += F {
			for f, v := range dA[i : i+F] {
				gb[f] += v
			}
		}
		// dW[(dy*3+dx)*cin+c, :] += x[neighbour] ⊗ dZ[cell]
		for r := 0; r < S; r++ {
			for k := 0; k < S; k += 2 {
				base := (r*P + k) * cin
				o := ((r+1)*P + k + 1) * F
				if k+1 < S {
					for dy := 0; dy < 3; dy++ {
						a := base + dy*P*cin
						ger2(x[a:a+seg], x[a+cin:a+cin+seg], dA[o:o+F], dA[o+F:o+2*F], gw[dy*seg*F:(dy+1)*seg*F], F)
					}
				} else {
					for dy := 0; dy < 3; dy++ {
						a := base + dy*P*cin
						ger(x[a:a+seg], dA[o:o+F], gw[dy*seg*F:(dy+1)*seg*F], F)
					}
				}
			}
		}
		if l == 0 {
			break
		}
		// gradient wrt x[l] (relu output of layer l-1): a conv of dZ with the flipped weights
		clear(dB[:len(x)])
		conv(dA, S, F, n.wf[l], dB, cin)
		dA, dB = dB, dA
	}
}

// ErrModel is what a model file that cannot be read wraps.
var ErrModel = errors.New("not a value model")
