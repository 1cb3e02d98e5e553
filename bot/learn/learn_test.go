package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// randomData returns the positions of a few games of random turns.
func randomData(t *testing.T, games, size int) *Data {
	t.Helper()
	d := &Data{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range games {
		p, err := pos.New(size, game.Unlimited)
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
	if d.Skipped < 8 {
		t.Errorf("%d positions skipped, want at least the 8 openings and swaps", d.Skipped)
	}
	m, res, err := Fit(d, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if !(res.LogLoss < res.Start-0.1) {
		t.Errorf("log loss %.3f from %.3f", res.LogLoss, res.Start)
	}
	if got, zero := d.Coverage(m, 12), d.Coverage(&Model{}, 12); got < zero {
		t.Errorf("the fitted model covers %.3f of the tile turns with its 12 best cells, no model %.3f", got, zero)
	}
	if _, _, err := Fit(&Data{}, 0); err != ErrNoData {
		t.Errorf("no data: %v", err)
	}
}

// TestTrained: the fitted model prefers what arch plays: growing a sandbank to an island
// over a lone tile, and a bridge joining islands over one joining nothing.
func TestTrained(t *testing.T) {
	m := Trained()
	p, err := pos.New(8, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a1,b1", "h8,g8", "c1,a2"} { // Light has an island
		mv, err := replay.ParseMove(s, 8)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(mv)
	}
	var b Board
	// Dark to move, with h8 g8: f8 makes a sandbank of 3, d4 a lone tile.
	b.Read(&p, p.ToMove())
	grow := m.Cell(&b, game.CellAt(5, 7), p.CellValue(replay.Dark, game.CellAt(5, 7)))
	lone := m.Cell(&b, game.CellAt(3, 3), p.CellValue(replay.Dark, game.CellAt(3, 3)))
	if !(grow > lone) {
		t.Errorf("f8, next to Dark's g8 h8, scores %.2f; d4, alone, %.2f", grow, lone)
	}
	join := m.Bridge(replay.BridgeMove(game.CellAt(0, 0), game.CellAt(2, 1)), 10)
	none := m.Bridge(replay.BridgeMove(game.CellAt(0, 0), game.CellAt(2, 1)), 0.4)
	if !(join > none) {
		t.Errorf("a bridge joining islands scores %.2f, one joining nothing %.2f", join, none)
	}
}

// TestReadAgain: a Board read again, after positions of other sizes, holds what a new
// Board reads (its squares off the board kept from the last Read of the same size), and
// its cells' priors are the sums of their features' weights in CellFeatures' order.
func TestReadAgain(t *testing.T) {
	m := Trained()
	var again Board
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{12, 8, 8, 10, 5, 12} {
		p, err := pos.New(size, game.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 * size {
			if p.Over() {
				break
			}
			p.Play(p.PlayoutTurn(rng))
		}
		var fresh Board
		c := p.ToMove()
		fresh.Read(&p, c)
		again.Read(&p, c)
		if fresh.st != again.st {
			t.Fatalf("%d×%d: the squares read again differ from a new Board's", size, size)
		}
		for _, x := range p.LegalTileCells(c, nil) {
			v := p.CellValue(c, x)
			want := 0.0
			for _, f := range fresh.CellFeatures(x, v, nil) {
				want += m.W[f]
			}
			if got := m.Cell(&again, x, v); got != want {
				t.Fatalf("%d×%d, cell %v: prior %v, want %v", size, size, x, got, want)
			}
		}
	}
}
