package replay

import (
	"math/rand/v2"
	"testing"
)

// TestFeaturesAgainstQueries checks the features that the conformance files do not cover
// (groups joined, bridge ends and merges, the largest component) against the position's
// own queries, turn by turn in random games.
func TestFeaturesAgainstQueries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	bridges, merges := 0, 0
	for gi := 0; gi < 40; gi++ {
		g, _ := NewGame(6+gi%6, Unlimited)
		var ft FeatureTracker
		for turn := 0; turn < 200 && !g.Over(); turn++ {
			c := g.ToMove()
			var m Move
			if br := g.LegalBridges(c); len(br) > 0 && rng.IntN(3) == 0 {
				m = br[rng.IntN(len(br))]
			} else if cells := g.LegalTileCells(c); len(cells) >= 2 {
				m = TilesMove(cells[rng.IntN(len(cells))], cells[rng.IntN(len(cells))])
				if m.A == m.B || !g.IsLegal(m) {
					continue
				}
			} else {
				m = PassMove
			}
			var beforeA, beforeB int
			if m.Kind == Bridge {
				beforeA, _ = g.ComponentOf(m.A)
				beforeB, _ = g.ComponentOf(m.B)
			}
			f, err := ft.Play(g, m)
			if err != nil {
				t.Fatal(err)
			}
			if f.Move != m || f.Colour != c || f.Turn != g.Turn() {
				t.Fatalf("features of %s: %+v", m, f)
			}
			_, comps := g.Groups()
			largest := 0
			for _, comp := range comps {
				if comp.Colour == c {
					largest = max(largest, comp.Islands)
				}
			}
			if f.LargestComponent != largest {
				t.Fatalf("turn %d: largest component %d, Groups says %d", f.Turn, f.LargestComponent, largest)
			}
			switch m.Kind {
			case Tiles:
				if f.TileGroups != [2]int{g.GroupSize(m.A), g.GroupSize(m.B)} || f.TileGroups[0] == 0 {
					t.Fatalf("tile groups %v", f.TileGroups)
				}
			case Bridge:
				bridges++
				if f.BridgeMerged {
					merges++
				}
				if f.BridgeShape != ShapeOf(m.A, m.B) || f.BridgeEnds != [2]int{g.GroupSize(m.A), g.GroupSize(m.B)} || f.BridgeMerged != (beforeA != beforeB) {
					t.Fatalf("bridge %s: %+v", m, f)
				}
			}
		}
	}
	if bridges == 0 || merges == 0 {
		t.Fatalf("%d bridges, %d merges: the test saw too little", bridges, merges)
	}
}
