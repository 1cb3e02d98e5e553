package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// refFeatures returns the features of a tile of c on the empty cell x of g, read the
// plain way from replay: the squares one by one, the groups by a flood of each, the
// islands in reach by a look at each jump.
func refFeatures(g *replay.Game, c replay.Colour, x game.Cell, value float64) []int16 {
	n := g.Size()
	state := func(y game.Cell) uint8 {
		if !y.On(n) {
			return stEdge
		}
		if k, ok := g.At(y); ok {
			if k == c {
				return stOwn
			}
			return stOther
		}
		if g.Blocked(y) {
			return stBlocked
		}
		return stEmpty
	}
	// group returns the cells of the group on the tile y.
	group := func(y game.Cell) []game.Cell {
		s := state(y)
		out := []game.Cell{y}
		for i := 0; i < len(out); i++ {
			for _, d := range [4]int{1, -1, stride, -stride} {
				if z := game.Cell(int(out[i]) + d); state(z) == s && !slices.Contains(out, z) {
					out = append(out, z)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	v := nValue - 1
	for i, hi := range valueBins {
		if value < hi {
			v = i
			break
		}
	}
	code, join, opp := 0, 1, 0
	var seen [][]game.Cell
	for _, d := range [4]int{1, stride, -1, -stride} {
		y := game.Cell(int(x) + d)
		s := state(y)
		code = code*5 + int(s)
		switch s {
		case stOwn:
			grp := group(y)
			if !slices.ContainsFunc(seen, func(h []game.Cell) bool { return slices.Equal(h, grp) }) {
				seen = append(seen, grp)
				join += len(grp)
			}
		case stOther:
			opp = max(opp, len(group(y)))
		}
	}
	own, other := 0, 0
	for _, d := range [4]int{stride + 1, stride - 1, -stride + 1, -stride - 1} {
		switch state(game.Cell(int(x) + d)) {
		case stOwn:
			own++
		case stOther:
			other++
		}
	}
	edge := min(x.Col(), x.Row(), n-1-x.Col(), n-1-x.Row())
	reach := 0
	for _, d := range jumps {
		if y := game.Cell(int(x) + d); state(y) == stOwn && len(group(y)) == 4 {
			reach++
		}
	}
	return []int16{int16(fValue + v), int16(fPat + int(patClass[code])), int16(fJoin + min(join, 4) - 1),
		int16(fOpp + min(opp, 4)), int16(fDiag + 3*min(own, 2) + min(other, 2)), int16(fEdge + min(edge, 4)),
		int16(fReach + min(reach, 2))}
}

// TestReadFeatures: the features of every legal cell, for both colours, in positions of
// playouts on every board size the games use and the smallest, are those read the plain
// way from replay (refFeatures), Read reusing one Board throughout.
func TestReadFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var b Board
	cells := 0
	for _, size := range []int{8, 10, 12, 5} {
		for range 6 {
			g, err := replay.NewGame(size, game.Unlimited)
			if err != nil {
				t.Fatal(err)
			}
			for !g.Over() {
				p, err := pos.FromGame(g)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range [2]replay.Colour{replay.Light, replay.Dark} {
					b.Read(&p, c)
					for _, x := range p.LegalTileCells(c, nil) {
						v := p.CellValue(c, x)
						got, want := b.CellFeatures(x, v, nil), refFeatures(g, c, x, v)
						if !slices.Equal(got, want) {
							t.Fatalf("%d×%d, turn %d, %v on %v: features %v, want %v", size, size, g.Turn(), c, x, got, want)
						}
						cells++
					}
				}
				if err := g.Play(p.PlayoutTurn(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if cells < 1000 {
		t.Fatalf("only %d cells compared", cells)
	}
}
