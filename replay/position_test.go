package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPositionQueries checks the cheap queries bots use against the allocating ones, after
// every turn of random games, and CopyFrom against Clone.
func TestPositionQueries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for gi := 0; gi < 30; gi++ {
		g, _ := NewGame(6+gi%5, Unlimited)
		var scratch Game
		for !g.Over() {
			for _, c := range [2]Colour{Light, Dark} {
				if got, want := g.Mobility(c), len(g.LegalTileCells(c)); got != want {
					t.Fatalf("Mobility %d, LegalTileCells %d", got, want)
				}
				k := g.Census(c)
				dead := 0
				for _, n := range k.Dead {
					dead += n
				}
				all := 0
				for _, n := range k.Sandbanks {
					all += n
				}
				if dead != len(g.DeadSandbanks(c)) || all != g.Sandbanks()[c] {
					t.Fatalf("census %+v, dead %d, sandbanks %d", k, len(g.DeadSandbanks(c)), g.Sandbanks()[c])
				}
			}
			groups, comps := g.Groups()
			for _, gr := range groups {
				for _, cell := range gr.Cells {
					if g.GroupID(cell) != g.GroupID(gr.Cells[0]) || g.GroupSize(cell) != len(gr.Cells) {
						t.Fatalf("group %v: ids or sizes differ", gr.Cells)
					}
					if _, k := g.ComponentOf(cell); k != comps[gr.Component].Islands {
						t.Fatalf("component of %s holds %d islands, Groups says %d", cell, k, comps[gr.Component].Islands)
					}
				}
			}
			scratch.CopyFrom(g)
			clone := g.Clone()
			// play the same random legal turn on the copy, the clone and the game
			var moves []Move
			if cells := g.LegalTileCells(g.ToMove()); len(cells) >= 2 {
				for range 20 {
					m := TilesMove(cells[rng.IntN(len(cells))], cells[rng.IntN(len(cells))])
					if m.A != m.B && g.IsLegal(m) {
						moves = append(moves, m)
					}
				}
			}
			moves = append(moves, g.LegalBridges(g.ToMove())...)
			m := PassMove
			if len(moves) > 0 {
				m = moves[rng.IntN(len(moves))]
			} else if !g.IsLegal(PassMove) {
				break // the sampled pairs missed; good enough for this test
			}
			for _, x := range []*Game{g, &scratch, clone} {
				if err := x.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			want := fmt.Sprint(g.Score(), g.Islands(), g.Sandbanks(), g.Bridges(), g.Mobility(Light), g.Turn())
			for _, x := range []*Game{&scratch, clone} {
				if got := fmt.Sprint(x.Score(), x.Islands(), x.Sandbanks(), x.Bridges(), x.Mobility(Light), x.Turn()); got != want {
					t.Fatalf("copy %s, game %s", got, want)
				}
			}
		}
	}
}

// TestLightPassed follows R5.2: Light's pass gives Dark one more turn, then the game is over.
func TestLightPassed(t *testing.T) {
	g, _ := NewGame(5, Supply40x15)
	g.tilesLeft = [2]int{1, 1} // neither colour can place two tiles: both may pass
	if g.LightPassed() {
		t.Fatal("LightPassed before any pass")
	}
	for _, tok := range []string{"a1,a2", "b4,b5"} { // turns 1 and 2, as pairs of the full supply
		g.tilesLeft = [2]int{TilesPerColour, TilesPerColour}
		if err := g.PlayText(tok); err != nil {
			t.Fatal(err)
		}
	}
	g.tilesLeft = [2]int{1, 1}
	if err := g.PlayText("pass"); err != nil { // turn 3, Light
		t.Fatal(err)
	}
	if !g.LightPassed() || g.Over() {
		t.Fatalf("after Light's pass: LightPassed %v, Over %v; want true, false", g.LightPassed(), g.Over())
	}
	if err := g.PlayText("pass"); err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Fatal("the game is not over after Dark's last turn")
	}
}
