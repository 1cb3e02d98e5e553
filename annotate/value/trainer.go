package value

import (
	"math"
	"sync"
)

// Trainer does minibatch Adam (beta1 .9, beta2 .999, eps 1e-8) on a Net,
// minimising mean binary cross-entropy. L2 > 0 adds the classic L2 penalty
// 0.5*L2*|w|² (gradient L2*w, coupled, i.e. not AdamW) on conv and FC
// weights, not on biases. Step uses Workers goroutines (default 2).
type Trainer struct {
	Net     *Net
	LR, L2  float32
	Workers int
	m, v    []float32
	decay   []bool // per parameter: is a weight (gets L2)
	t       int
	ws      []*worker
	grad    []float32
}

type worker struct {
	sc   Scratch
	grad []float32
	g    tensors
	loss float64
}

// NewTrainer makes a trainer for n with learning rate lr and L2 coefficient l2.
func NewTrainer(n *Net, lr, l2 float32) *Trainer {
	np := len(n.Params)
	t := &Trainer{Net: n, LR: lr, L2: l2, Workers: 2,
		m: make([]float32, np), v: make([]float32, np), decay: make([]bool, np), grad: make([]float32, np)}
	mark := make([]float32, np)
	mv := n.Cfg.views(mark)
	set := func(s []float32) {
		for i := range s {
			s[i] = 1
		}
	}
	for _, w := range mv.ConvW {
		set(w)
	}
	set(mv.W1)
	set(mv.W2)
	for i, x := range mark {
		t.decay[i] = x == 1
	}
	return t
}

func (t *Trainer) workers(k int) []*worker {
	for len(t.ws) < k {
		w := &worker{grad: make([]float32, len(t.Net.Params))}
		w.g = t.Net.Cfg.views(w.grad)
		t.ws = append(t.ws, w)
	}
	return t.ws[:k]
}

// run computes loss and gradient (scaled by scale) of a slice of samples into w.
func (w *worker) run(n *Net, batch []*Sample, scale float32) {
	clear(w.grad)
	w.loss = 0
	for _, s := range batch {
		z := n.forward(s, &w.sc)
		w.loss += bceLogit(float64(z), float64(s.Target))
		dz := (sigmoid(z) - s.Target) * scale
		n.backward(s, &w.sc, dz, &w.g)
	}
}

// Gradient computes the mean loss over batch and its gradient with respect to
// Params (flat, same layout), without updating anything. The returned slice
// is reused by the next call.
func (t *Trainer) Gradient(batch []*Sample) (meanLoss float64, grad []float32) {
	n := t.Net
	n.syncT()
	k := max(1, min(t.Workers, len(batch)))
	ws := t.workers(k)
	scale := 1 / float32(len(batch))
	var wg sync.WaitGroup
	per := (len(batch) + k - 1) / k
	for i, w := range ws {
		lo, hi := i*per, min((i+1)*per, len(batch))
		if i == k-1 {
			w.run(n, batch[lo:hi], scale)
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); w.run(n, batch[lo:hi], scale) }()
	}
	wg.Wait()
	g := t.grad
	copy(g, ws[0].grad)
	loss := ws[0].loss
	for _, w := range ws[1:] {
		for i, v := range w.grad {
			g[i] += v
		}
		loss += w.loss
	}
	return loss / float64(len(batch)), g
}

// Step does one Adam update on the minibatch (forward, backward, update) and
// returns the mean loss before the update. Samples may have different sizes.
func (t *Trainer) Step(batch []*Sample) (meanLoss float64) {
	if len(batch) == 0 {
		return 0
	}
	loss, g := t.Gradient(batch)
	t.t++
	const b1, b2, eps = 0.9, 0.999, 1e-8
	bc1 := 1 - math.Pow(b1, float64(t.t))
	bc2 := 1 - math.Pow(b2, float64(t.t))
	step := float32(float64(t.LR) * math.Sqrt(bc2) / bc1)
	epsHat := float32(eps * math.Sqrt(bc2))
	p := t.Net.Params
	m, v := t.m, t.v
	l2 := t.L2
	for i, gi := range g {
		if l2 != 0 && t.decay[i] {
			gi += l2 * p[i]
		}
		mi := b1*m[i] + (1-b1)*gi
		vi := b2*v[i] + (1-b2)*gi*gi
		m[i], v[i] = mi, vi
		p[i] -= step * mi / (float32(math.Sqrt(float64(vi))) + epsHat)
	}
	return loss
}
