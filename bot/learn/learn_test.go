package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/replay"
)

// randomData returns the positions of a few games of random turns.
func randomData(t *testing.T, games, size int) *Data {
	t.Helper()
	d := &Data{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range games {
		p, err := pos.New(size, replay.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		var moves []replay.Move
		for !p.Over() {
			moves = p.LegalTurns(moves[:0])
			m := moves[rng.IntN(len(moves))]
			if rng.IntN(3) > 0 { // mostly the playout policy, for tiles next to tiles
				m = p.PlayoutTurn(rng)
			}
			d.Add(&p, m)
			p.Play(m)
		}
	}
	return d
}

func TestPatterns(t *testing.T) {
	if nPats > maxPats {
		t.Fatalf("%d neighbour patterns, room for %d", nPats, maxPats)
	}
	// east own, the rest empty, is north own, the rest empty.
	if a, b := patClass[2*125], patClass[2*25]; a != b {
		t.Errorf("a pattern and its rotation are classes %d and %d", a, b)
	}
	if a, b := patClass[2*125+3*25], patClass[2*125+3*5]; a == b {
		t.Errorf("own and other side by side, and facing, share class %d", a)
	}
}

// TestGradient holds the loss's gradient to its finite differences.
func TestGradient(t *testing.T) {
	d := randomData(t, 3, 8)
	if d.Len() < 50 {
		t.Fatalf("%d positions", d.Len())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]float64, NumFeatures)
	for i := range w {
		w[i] = rng.NormFloat64() * 0.5
	}
	g := make([]float64, NumFeatures)
	d.loss(w, g, 0.01)
	scratch := make([]float64, NumFeatures)
	const h = 1e-5
	for _, i := range []int{fValue + 1, fValue + 5, fPat, fPat + 3, fJoin + 1, fOpp, fDiag + 4, fEdge, fReach + 1, fPair, fPair + 1, fBridge + 1, fShape + 2, fPass} {
		old := w[i]
		w[i] = old + h
		up := d.loss(w, scratch, 0.01)
		w[i] = old - h
		down := d.loss(w, scratch, 0.01)
		w[i] = old
		num := (up - down) / (2 * h)
		if math.Abs(num-g[i]) > 1e-5*max(1, math.Abs(num)) {
			t.Errorf("feature %d: gradient %.8f, finite difference %.8f", i, g[i], num)
		}
	}
}

// TestFit fits random games' turns, which prefer tiles next to tiles: the fit lowers the
// loss from the start.
func TestFit(t *testing.T) {
	d := randomData(t, 4, 8)
	_, res, err := Fit(d, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if !(res.LogLoss < res.Start-0.1) {
		t.Errorf("log loss %.3f from %.3f", res.LogLoss, res.Start)
	}
	if _, _, err := Fit(&Data{}, 0); err != ErrNoData {
		t.Errorf("no data: %v", err)
	}
}
