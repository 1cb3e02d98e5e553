package pos

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var longTurns = flag.Int("pos.turns", 0, "play this many turns of the long differential test on 8×8, 10×10 and 12×12 (0: the short test only)")

// driver chooses the next turn of a differential game.
type driver int

const (
	uniform   driver = iota // a uniformly random legal turn (Position.LegalTurns)
	policy                  // Position.PlayoutTurn
	reference               // the reference policy on replay
)

func (d driver) String() string { return [...]string{"uniform", "policy", "reference"}[d] }

// diffGame plays one game on both engines, checking them against each other after every
// turn, and returns the turns played.
func diffGame(t testing.TB, size int, supply game.Supply, d driver, rng *rand.Rand, pairs bool) int {
	g, err := replay.NewGame(size, supply)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(size, supply)
	if err != nil {
		t.Fatal(err)
	}
	var moves []replay.Move
	var dr Draw
	for !g.Over() {
		where := fmt.Sprintf("%d×%d %s %s turn %d", size, size, supply, d, g.Turn())
		compare(t, where, g, &p, rng, pairs)
		if rng.IntN(16) == 0 {
			q, err := FromGame(g)
			if err != nil {
				t.Fatalf("%s: FromGame: %v", where, err)
			}
			compare(t, where+" (FromGame)", g, &q, rng, false)
			var r Position
			r.CopyFrom(&p)
			r.CopyFrom(&q) // same geometry: the partial copy
			compare(t, where+" (CopyFrom)", g, &r, rng, false)
		}
		var m replay.Move
		switch d {
		case uniform:
			moves = p.LegalTurns(moves[:0])
			m = moves[rng.IntN(len(moves))]
		case policy:
			m = p.DrawTurn(rng, &dr) // played by PlayDraw below
		case reference:
			m = refPolicy(g, rng)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: replay rejects %s: %v", where, m, err)
		}
		if d == policy {
			p.PlayDraw(&dr)
		} else {
			p.Play(m)
		}
	}
	compare(t, fmt.Sprintf("%d×%d %s %s end", size, size, supply, d), g, &p, rng, pairs)
	return g.Turn()
}

// want0 returns replay's legal bridges of c, none when the pool is empty.
func want0(g *replay.Game, c replay.Colour) []replay.Move {
	if g.BridgesLeft() == 0 {
		return nil
	}
	return g.LegalBridges(c)
}

// jumpShapes are the offsets tried as bridges from each tile: the 16 jumps and shapes that
// are none.
var jumpShapes = [...][2]int{
	{2, 0}, {-2, 0}, {0, 2}, {0, -2}, {2, 2}, {2, -2}, {-2, 2}, {-2, -2},
	{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {-2, 1}, {2, -1}, {-2, -1},
	{1, 0}, {0, 1}, {1, 1}, {3, 0}, {3, 1}, {0, 0}, {-3, -3}, {0, 4},
}

func compare(t testing.TB, where string, g *replay.Game, p *Position, rng *rand.Rand, pairs bool) {
	t.Helper()
	fail := func(what string, got, want any) {
		t.Helper()
		t.Fatalf("%s: %s: pos %v, replay %v", where, what, got, want)
	}
	if p.Over() != g.Over() || p.Turn() != g.Turn() || p.ToMove() != g.ToMove() || p.Swapped() != g.Swapped() || p.LightPassed() != g.LightPassed() {
		fail("over/turn/to move/swapped/light passed", []any{p.Over(), p.Turn(), p.ToMove(), p.Swapped(), p.LightPassed()}, []any{g.Over(), g.Turn(), g.ToMove(), g.Swapped(), g.LightPassed()})
	}
	if p.Score() != g.Score() || p.Islands() != g.Islands() || p.Bridges() != g.Bridges() || p.Sandbanks() != g.Sandbanks() {
		fail("score/islands/bridges/sandbanks", []any{p.Score(), p.Islands(), p.Bridges(), p.Sandbanks()}, []any{g.Score(), g.Islands(), g.Bridges(), g.Sandbanks()})
	}
	if p.Result() != g.Result() {
		fail("result", p.Result(), g.Result())
	}
	pr, pt := p.Standing()
	gr, gt := g.Standing()
	if pr != gr || pt != gt {
		fail("standing", []any{pr, pt}, []any{gr, gt})
	}
	for _, c := range [2]replay.Colour{replay.Light, replay.Dark} {
		if p.TilesLeft(c) != g.TilesLeft(c) {
			fail("tiles left", p.TilesLeft(c), g.TilesLeft(c))
		}
		if got, want := p.LegalTileCells(c, nil), g.LegalTileCells(c); !slices.Equal(got, want) {
			fail(c.String()+" legal tile cells", got, want)
		}
		if p.Mobility(c) != g.Mobility(c) || p.CanPlaceTwo(c) != g.CanPlaceTwo(c) {
			fail(c.String()+" mobility, can place two", []any{p.Mobility(c), p.CanPlaceTwo(c)}, []any{g.Mobility(c), g.CanPlaceTwo(c)})
		}
		got, want := p.LegalBridges(c, nil), g.LegalBridges(c)
		if !slices.Equal(got, want) {
			fail(c.String()+" legal bridges", got, want)
		}
		for _, m := range got {
			if p.BridgeValue(m) != refBridgeValue(g, m) {
				fail("bridge value of "+m.String(), p.BridgeValue(m), refBridgeValue(g, m))
			}
		}
		// The policy's best bridge (from the incremental bridges and island-component
		// tiles): the first of the highest value in replay's order, when it reaches least.
		for _, least := range [...]float64{10, 1.5, math.SmallestNonzeroFloat64} {
			var want replay.Move
			wantV := math.Inf(-1)
			for _, m := range want0(g, c) {
				if v := refBridgeValue(g, m); v > wantV {
					want, wantV = m, v
				}
			}
			a, b, v, ok := p.bestBridge(c, least)
			if ok != (wantV >= least) || ok && (v != wantV || replay.BridgeMove(p.g.cell[a], p.g.cell[b]) != want) {
				fail(fmt.Sprintf("%s best bridge of at least %g", c, least), []any{ok, v, a, b}, []any{want, wantV})
			}
		}
	}
	if p.BridgesLeft() != g.BridgesLeft() {
		fail("bridges left", p.BridgesLeft(), g.BridgesLeft())
	}
	n := g.Size()
	var board []game.Cell
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			board = append(board, game.CellAt(c, r))
		}
	}
	for _, cell := range board {
		for _, c := range [2]replay.Colour{replay.Light, replay.Dark} {
			if got, want := p.CellValue(c, cell), refCellValue(g, c, cell); got != want {
				fail(fmt.Sprintf("%s cell value of %s", c, cell), got, want)
			}
		}
		pc, pok := p.At(cell)
		gc, gok := g.At(cell)
		if pok != gok || (pok && pc != gc) || p.Blocked(cell) != g.Blocked(cell) {
			fail("cell "+cell.String(), []any{pc, pok, p.Blocked(cell)}, []any{gc, gok, g.Blocked(cell)})
		}
	}
	check := func(m replay.Move) {
		if got, want := p.IsLegal(m), g.IsLegal(m); got != want {
			fail("IsLegal "+m.String(), got, want)
		}
	}
	check(replay.PassMove)
	check(replay.SwapMove)
	check(replay.Move{Kind: 9})
	if p.CanPass() != g.IsLegal(replay.PassMove) {
		fail("CanPass", p.CanPass(), g.IsLegal(replay.PassMove))
	}
	// Every pair of free cells (a sample on the largest boards), and pairs with other cells.
	var free []game.Cell
	for _, cell := range board {
		if _, ok := g.At(cell); !ok && !g.Blocked(cell) {
			free = append(free, cell)
		}
	}
	if pairs && n <= 12 {
		for i := range free {
			for j := i + 1; j < len(free); j++ {
				a, b := free[i], free[j]
				if rng.IntN(2) == 0 {
					a, b = b, a
				}
				check(replay.TilesMove(a, b))
			}
		}
	} else if len(free) >= 2 {
		for range 400 {
			check(replay.TilesMove(free[rng.IntN(len(free))], free[rng.IntN(len(free))]))
		}
	}
	off := []game.Cell{game.NoCell, game.CellAt(n, 0), game.CellAt(0, n), game.Cell(0xffff)}
	for range 40 {
		a, b := board[rng.IntN(len(board))], board[rng.IntN(len(board))]
		if a != b {
			check(replay.TilesMove(a, b))
		}
		if rng.IntN(8) == 0 { // replay explains bad notation slowly
			check(replay.TilesMove(a, a))
			check(replay.BridgeMove(a, b))
			check(replay.TilesMove(a, off[rng.IntN(len(off))]))
			check(replay.BridgeMove(off[rng.IntN(len(off))], b))
		}
	}
	// Every bridge shape, and shapes that are none, from every tile.
	for _, cell := range board {
		if _, ok := g.At(cell); !ok {
			continue
		}
		shapes := jumpShapes[:16]
		if rng.IntN(8) == 0 {
			shapes = jumpShapes[:] // and shapes that are none, which replay explains slowly
		}
		for _, d := range shapes {
			check(replay.BridgeMove(cell, game.CellAt(cell.Col()+d[0], cell.Row()+d[1])))
		}
	}
}

// TestDiff plays games of every kind on both engines and checks they agree after every
// turn. With -pos.turns N it plays N turns more on 8×8, 10×10 and 12×12.
func TestDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	turns := 0
	for _, size := range []int{5, 8, 10, 12, 26} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, d := range []driver{uniform, policy, reference} {
				if size == 26 && d != policy {
					continue // the largest board once a supply: a policy game
				}
				games := 1
				for range games {
					turns += diffGame(t, size, supply, d, rng, true)
				}
			}
		}
	}
	t.Logf("short form: %d turns", turns)
	if *longTurns == 0 {
		return
	}
	start, long, games := time.Now(), 0, 0
	for long < *longTurns {
		for _, size := range []int{8, 10, 12} {
			for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
				for _, d := range []driver{uniform, policy, reference} {
					long += diffGame(t, size, supply, d, rng, games%8 == 0)
					games++
				}
			}
		}
	}
	t.Logf("long form: %d turns in %d games, %v", long, games, time.Since(start).Round(time.Second))
}
