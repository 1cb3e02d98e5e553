package learn

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// cellFeats is how many features CellFeatures gives a cell.
const cellFeats = 7

// Data is the positions of games with the turn chosen in each, read into features: the
// training set of a Model.
type Data struct {
	samples []sample
	cells   []int16   // cellFeats features per cell
	values  []float32 // the hand-made value per cell
	pairs   []pair
	bridges []int16 // 2 features per bridge
	board   Board
	legal   []game.Cell
	moves   []replay.Move
	// Skipped counts the positions left out: the first two turns (the opening and the
	// swap, which the bot decides otherwise), and turns the alternatives do not list.
	Skipped int
}

// sample is one position: its cells, related pairs and bridges as ranges of Data's
// arrays, the pass, and the turn chosen.
type sample struct {
	cell0, ncells     int32
	pair0, npairs     int32
	bridge0, nbridges int32
	pass              bool
	kind              replay.MoveKind
	a, b              int32 // the chosen cells (Tiles) or bridge (Bridge), as indices in the ranges
}

// pair is two cells of a sample side by side or corner to corner, with their feature.
type pair struct {
	i, j int32
	f    int16
}

// Len returns the number of positions held.
func (d *Data) Len() int { return len(d.samples) }

// Add adds the position p with the turn chosen in it.
func (d *Data) Add(p *pos.Position, chosen replay.Move) {
	if p.Turn() < 2 || p.Over() {
		d.Skipped++
		return
	}
	c := p.ToMove()
	d.board.Read(p, c)
	s := sample{cell0: int32(len(d.cells) / cellFeats), pair0: int32(len(d.pairs)), bridge0: int32(len(d.bridges) / 2),
		kind: chosen.Kind, a: -1, b: -1}
	d.legal = p.LegalTileCells(c, d.legal[:0])
	if !p.CanPlaceTwo(c) {
		d.legal = d.legal[:0]
	}
	for k, x := range d.legal {
		v := p.CellValue(c, x)
		d.cells = d.board.CellFeatures(x, v, d.cells)
		d.values = append(d.values, float32(v))
		if chosen.Kind == replay.Tiles && (x == chosen.A || x == chosen.B) {
			if s.a < 0 {
				s.a = int32(k)
			} else {
				s.b = int32(k)
			}
		}
		for j := range k {
			if f := PairFeature(x, d.legal[j]); f >= 0 {
				d.pairs = append(d.pairs, pair{int32(j), int32(k), int16(f)})
			}
		}
	}
	s.ncells = int32(len(d.legal))
	s.npairs = int32(len(d.pairs)) - s.pair0
	d.moves = p.LegalBridges(c, d.moves[:0])
	for k, m := range d.moves {
		d.bridges = BridgeFeatures(m, p.BridgeValue(m), d.bridges)
		if chosen.Kind == replay.Bridge && ((m.A == chosen.A && m.B == chosen.B) || (m.A == chosen.B && m.B == chosen.A)) {
			s.a = int32(k)
		}
	}
	s.nbridges = int32(len(d.moves))
	s.pass = p.CanPass()
	ok := false
	switch chosen.Kind {
	case replay.Tiles:
		ok = s.a >= 0 && s.b >= 0
	case replay.Bridge:
		ok = s.a >= 0
	case replay.Pass:
		ok = s.pass
	}
	if !ok {
		d.cells = d.cells[:int(s.cell0)*cellFeats]
		d.values = d.values[:s.cell0]
		d.pairs = d.pairs[:s.pair0]
		d.bridges = d.bridges[:int(s.bridge0)*2]
		d.Skipped++
		return
	}
	d.samples = append(d.samples, s)
}

// AddGame adds the positions of the game played by the turns moves, from an empty board,
// where the colour to move is one of learnFrom (by replay.Colour).
func (d *Data) AddGame(size int, supply game.Supply, moves []replay.Move, learnFrom [2]bool) error {
	p, err := pos.New(size, supply)
	if err != nil {
		return err
	}
	for i, m := range moves {
		if !p.IsLegal(m) {
			return fmt.Errorf("turn %d (%s) is not legal", i+1, m)
		}
		if learnFrom[p.ToMove()&1] {
			d.Add(&p, m)
		}
		p.Play(m)
	}
	return nil
}

// ErrNoData is returned by Fit without positions.
var ErrNoData = errors.New("learn: no positions to fit")

// FitResult is what Fit reports besides the model.
type FitResult struct {
	// LogLoss is the mean negative log-likelihood of the chosen turns, per position, at
	// the start (all weights 0, every turn alike) and at the end.
	Start, LogLoss float64
	// Iterations and Evaluations are the optimiser's.
	Iterations, Evaluations int
}

// Fit fits the weights that make the chosen turns most likely against the alternatives
// (a conditional logit, L-BFGS), with an L2 penalty of l2 per weight and position.
func Fit(d *Data, l2 float64) (*Model, FitResult, error) {
	if len(d.samples) == 0 {
		return nil, FitResult{}, ErrNoData
	}
	var last []float64
	var lastF float64
	lastG := make([]float64, NumFeatures)
	eval := func(x []float64) {
		if last != nil && equal(last, x) {
			return
		}
		last = append(last[:0], x...)
		lastF = d.loss(x, lastG, l2)
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return lastF },
		Grad: func(g, x []float64) { eval(x); copy(g, lastG) },
	}
	x0 := make([]float64, NumFeatures)
	start := d.loss(x0, make([]float64, NumFeatures), 0)
	res, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: 300}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, FitResult{}, err
	}
	m := &Model{}
	copy(m.W[:], res.X)
	var g [NumFeatures]float64
	return m, FitResult{Start: start, LogLoss: d.loss(res.X, g[:], 0), Iterations: res.Stats.MajorIterations, Evaluations: res.Stats.FuncEvaluations}, nil
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// loss returns the mean negative log-likelihood of the chosen turns under weights w plus
// the penalty l2/2·|w|², and its gradient in g.
func (d *Data) loss(w, g []float64, l2 float64) float64 {
	for i := range g {
		g[i] = 0
	}
	var u, coef, score []float64
	total := 0.0
	for _, s := range d.samples {
		cells := d.cells[int(s.cell0)*cellFeats : int(s.cell0+s.ncells)*cellFeats]
		score = score[:0]
		mc := math.Inf(-1)
		for i := range int(s.ncells) {
			v := 0.0
			for _, f := range cells[i*cellFeats : (i+1)*cellFeats] {
				v += w[f]
			}
			score = append(score, v)
			mc = max(mc, v)
		}
		u, coef = u[:0], coef[:0]
		sum, sq := 0.0, 0.0
		for _, v := range score {
			e := math.Exp(v - mc)
			u = append(u, e)
			sum += e
			sq += e * e
		}
		for _, e := range u {
			coef = append(coef, e*(sum-e))
		}
		pairs := d.pairs[s.pair0 : s.pair0+s.npairs]
		a := (sum*sum - sq) / 2
		for _, pr := range pairs {
			x := u[pr.i] * u[pr.j] * (math.Exp(w[pr.f]) - 1)
			a += x
			coef[pr.i] += x
			coef[pr.j] += x
		}
		logA := math.Inf(-1)
		if a > 0 {
			logA = 2*mc + math.Log(a)
		}
		br := d.bridges[int(s.bridge0)*2 : int(s.bridge0+s.nbridges)*2]
		mb := math.Inf(-1)
		for k := range int(s.nbridges) {
			mb = max(mb, w[br[2*k]]+w[br[2*k+1]])
		}
		b := 0.0
		for k := range int(s.nbridges) {
			b += math.Exp(w[br[2*k]] + w[br[2*k+1]] - mb)
		}
		logB := math.Inf(-1)
		if b > 0 {
			logB = mb + math.Log(b)
		}
		logP := math.Inf(-1)
		if s.pass {
			logP = w[fPass]
		}
		top := max(logA, logB, logP)
		logZ := top + math.Log(math.Exp(logA-top)+math.Exp(logB-top)+math.Exp(logP-top))
		// The chosen turn's score, and its features counted up in g.
		var chosen float64
		switch s.kind {
		case replay.Tiles:
			chosen = score[s.a] + score[s.b]
			for _, f := range cells[int(s.a)*cellFeats : int(s.a+1)*cellFeats] {
				g[f]--
			}
			for _, f := range cells[int(s.b)*cellFeats : int(s.b+1)*cellFeats] {
				g[f]--
			}
			if f := pairFeatureOf(pairs, s.a, s.b); f >= 0 {
				chosen += w[f]
				g[f]--
			}
		case replay.Bridge:
			f1, f2 := br[2*s.a], br[2*s.a+1]
			chosen = w[f1] + w[f2]
			g[f1]--
			g[f2]--
		case replay.Pass:
			chosen = w[fPass]
			g[fPass]--
		}
		total += logZ - chosen
		// The expected features under the model, added to g.
		if pa := math.Exp(logA - logZ); pa > 0 {
			scale := pa / a
			for i, c := range coef {
				for _, f := range cells[i*cellFeats : (i+1)*cellFeats] {
					g[f] += scale * c
				}
			}
			for _, pr := range pairs {
				g[pr.f] += scale * u[pr.i] * u[pr.j] * math.Exp(w[pr.f])
			}
		}
		if pb := math.Exp(logB - logZ); pb > 0 {
			scale := pb / b
			for k := range int(s.nbridges) {
				e := scale * math.Exp(w[br[2*k]]+w[br[2*k+1]]-mb)
				g[br[2*k]] += e
				g[br[2*k+1]] += e
			}
		}
		if s.pass {
			g[fPass] += math.Exp(logP - logZ)
		}
	}
	n := float64(len(d.samples))
	pen := 0.0
	for i := range g {
		g[i] = g[i]/n + l2*w[i]
		pen += w[i] * w[i]
	}
	return total/n + l2/2*pen
}

// pairFeatureOf returns the feature of the pair of cells i and j among pairs, -1 when
// they are not related.
func pairFeatureOf(pairs []pair, i, j int32) int {
	i, j = min(i, j), max(i, j)
	for _, pr := range pairs {
		if pr.i == i && pr.j == j {
			return int(pr.f)
		}
	}
	return -1
}

// Coverage returns the share of the chosen tile turns whose two cells are both among the
// k best cells of their position, by the model's cell priors, or by the hand-made value
// when m is nil: the turns the tree, which pairs up its best cells, can play at all.
func (d *Data) Coverage(m *Model, k int) float64 {
	hit, n := 0, 0
	var score []float64
	for _, s := range d.samples {
		if s.kind != replay.Tiles {
			continue
		}
		n++
		score = score[:0]
		for i := range int(s.ncells) {
			c := int(s.cell0) + i
			v := float64(d.values[c])
			if m != nil {
				v = 0
				for _, f := range d.cells[c*cellFeats : (c+1)*cellFeats] {
					v += m.W[f]
				}
			}
			score = append(score, v)
		}
		if rank(score, s.a) < k && rank(score, s.b) < k {
			hit++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// rank returns how many scores are above score[i], or equal and before it.
func rank(score []float64, i int32) int {
	r := 0
	for j, v := range score {
		if v > score[i] || (v == score[i] && int32(j) < i) {
			r++
		}
	}
	return r
}

// Loss returns the mean negative log-likelihood per position of the chosen turns under m.
func (d *Data) Loss(m *Model) float64 {
	g := make([]float64, NumFeatures)
	return d.loss(m.W[:], g, 0)
}
