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

// wholeBoard computes mobility, dead sandbanks and the dead ones created by a turn from
// scratch, as docs/rules.md's terms define them: the oracle for the incremental tracker.
type wholeBoard struct{ wasDead [numCells]bool }

func (w *wholeBoard) measure(g *Game) (mobility, dead, created [2]int) {
	var buf [MaxSize * MaxSize]Cell
	for _, c := range [2]Colour{Light, Dark} {
		mobility[c] = len(g.appendLegalCells(buf[:0], c))
	}
	for id := range g.groups {
		grp := &g.groups[id]
		if grp.size == 0 || grp.size >= 4 {
			continue
		}
		var set [4]Cell
		n := copy(set[:], grp.cells[:grp.size])
		if growIslandDFS(g, grp.colour.bit(), &set, n) {
			continue
		}
		dead[grp.colour]++
		fresh := true
		for _, cell := range grp.cells[:grp.size] {
			fresh = fresh && !w.wasDead[cell]
		}
		if fresh {
			created[grp.colour]++
		}
		for _, cell := range grp.cells[:grp.size] {
			w.wasDead[cell] = true
		}
	}
	return
}

// TestIncrementalFeatures plays random games, biased towards crowded boards, bridges and
// groups growing next to each other, and compares the tracker with the whole-board oracle
// after every turn.
func TestIncrementalFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	games, turns := 800, 0
	if testing.Short() {
		games = 40
	}
	var ft FeatureTracker // one tracker for all games, as a worker uses it
	for gi := 0; gi < games; gi++ {
		size := MinSize + rng.IntN(8)
		supply := Unlimited
		if gi%5 == 0 {
			supply = Supply40x15
		}
		turns += playAgainstOracle(t, rng, &ft, gi, size, supply, 400, 3)
	}
	t.Logf("%d games, %d turns agree with the whole-board oracle", games, turns)
}

// playAgainstOracle plays game gi, a random game on a new board, for at most maxTurns
// turns with ft, biased towards crowded boards, bridges (one turn in bridgeOdds when one is
// legal) and groups growing next to each other, and compares ft's mobility and dead
// sandbanks with the whole-board oracle after every turn. It returns the turns played.
func playAgainstOracle(t *testing.T, rng *rand.Rand, ft *FeatureTracker, gi, size int, supply Supply, maxTurns, bridgeOdds int) int {
	t.Helper()
	g, _ := NewGame(size, supply)
	var oracle wholeBoard
	turns := 0
	for turn := 0; turn < maxTurns && !g.Over(); turn++ {
		c := g.ToMove()
		var m Move
		cells := g.LegalTileCells(c)
		switch br := g.LegalBridges(c); {
		case len(br) > 0 && rng.IntN(bridgeOdds) == 0:
			m = br[rng.IntN(len(br))]
		case g.Turn() == 1 && rng.IntN(2) == 0:
			m = SwapMove
		case len(cells) >= 2:
			a := cells[rng.IntN(len(cells))]
			b := cells[rng.IntN(len(cells))]
			if rng.IntN(2) == 0 { // next to a: grow groups
				if near := CellAt(a.Col()+rng.IntN(3)-1, a.Row()+rng.IntN(3)-1); near.On(size) {
					b = near
				}
			}
			m = TilesMove(a, b)
			if a == b || !g.IsLegal(m) {
				continue
			}
		default:
			m = PassMove
			if !g.IsLegal(m) {
				continue
			}
		}
		f, err := ft.Play(g, m)
		if err != nil {
			t.Fatalf("game %d: %s: %v", gi, m, err)
		}
		mob, dead, created := oracle.measure(g)
		if f.Mobility != mob || f.Dead != dead || f.DeadCreated != created {
			t.Fatalf("game %d (size %d) turn %d %s: mobility %v dead %v created %v; whole board %v %v %v",
				gi, size, f.Turn, m, f.Mobility, f.Dead, f.DeadCreated, mob, dead, created)
		}
		turns++
	}
	return turns
}

// growIslandDFS is the plain search of docs/rules.md's definition of a dead sandbank: extend the
// set one orthogonal neighbour at a time, in every order, and test each set of 4 cells. It
// is slow and simple: the oracle for the tracker's search.
func growIslandDFS(g *Game, bit uint8, set *[4]Cell, n int) bool {
	if n == 4 {
		for _, c := range set {
			for _, d := range eightWay {
				q := Cell(int(c) + d)
				if g.state[q]&bit != 0 && !inSet(set[:], q) {
					return false
				}
			}
		}
		return true
	}
	for i := 0; i < n; i++ {
		for _, d := range orthogonal {
			q := Cell(int(set[i]) + d)
			if inSet(set[:n], q) {
				continue
			}
			if s := g.state[q]; s != 0 && s != bit {
				continue
			}
			set[n] = q
			if growIslandDFS(g, bit, set, n+1) {
				return true
			}
		}
	}
	return false
}
