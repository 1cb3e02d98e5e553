package replay

// Features are the per-turn measurements of RULES.md "Terms", taken after a turn.
// Every [2]int is [light, dark].
type Features struct {
	Turn          int      // the turn number, from 1
	Colour        Colour   // the mover's colour (the swap is Dark's turn 2)
	Kind          MoveKind // what the turn did
	Move          Move     // the turn itself, with its cells
	IslandsFormed int      // groups of the mover that reached exactly 4 tiles through this turn
	// TileGroups are the sizes of the groups the two tiles of a Tiles turn belong to after
	// it (equal when they joined one group); zero for other turns.
	TileGroups [2]int
	// For a Bridge turn: its shape, the sizes of the groups at its two ends (4 is an
	// island), and whether it joined two components (false when they were joined already).
	BridgeShape  BridgeShape
	BridgeEnds   [2]int
	BridgeMerged bool
	// LargestComponent is the number of islands in the mover's largest component.
	LargestComponent int
	Score            [2]int // R6 scores
	Islands          [2]int // islands on the board
	Sandbanks        [2]int // sandbanks on the board
	Dead             [2]int // dead sandbanks ("burned land")
	DeadCreated      [2]int // dead sandbanks that contain no sandbank already dead before the turn
	Mobility         [2]int // empty cells where a single tile of the colour would be legal
}

// FeatureTracker measures Features turn by turn. It remembers which sandbanks were already
// dead, which the "created" counts need; use one tracker per game and Reset it between games.
type FeatureTracker struct {
	wasDead [numCells]bool
	largest [2]int // islands in each colour's largest component; components only grow
}

// Reset forgets the previous game.
func (t *FeatureTracker) Reset() {
	clear(t.wasDead[:])
	t.largest = [2]int{}
}

// Play plays m on g and returns the features after it. On an illegal turn it returns the
// *RuleError and g is unchanged.
func (t *FeatureTracker) Play(g *Game, m Move) (Features, error) {
	before := g.tally[Light].islands + g.tally[Dark].islands
	colour := g.ToMove()
	merged := false
	if m.Kind == Bridge && m.A.On(g.size) && m.B.On(g.size) && g.state[m.A]&tileBits != 0 && g.state[m.B]&tileBits != 0 {
		a, _ := g.ComponentOf(m.A)
		b, _ := g.ComponentOf(m.B)
		merged = a != b
	}
	if err := g.Play(m); err != nil {
		return Features{}, err
	}
	f := Features{
		Turn:          g.turn,
		Colour:        colour,
		Kind:          m.Kind,
		Move:          m,
		IslandsFormed: g.tally[Light].islands + g.tally[Dark].islands - before,
		Score:         g.Score(),
		Islands:       g.Islands(),
		Sandbanks:     g.Sandbanks(),
	}
	switch m.Kind {
	case Tiles:
		f.TileGroups = [2]int{g.GroupSize(m.A), g.GroupSize(m.B)}
		for _, c := range [2]Cell{m.A, m.B} {
			_, k := g.ComponentOf(c)
			t.largest[colour] = max(t.largest[colour], k)
		}
	case Bridge:
		f.BridgeShape = ShapeOf(m.A, m.B)
		f.BridgeEnds = [2]int{g.GroupSize(m.A), g.GroupSize(m.B)}
		f.BridgeMerged = merged
		_, k := g.ComponentOf(m.A)
		t.largest[colour] = max(t.largest[colour], k)
	}
	f.LargestComponent = t.largest[colour]
	var buf [MaxSize * MaxSize]Cell
	for _, c := range [2]Colour{Light, Dark} {
		f.Mobility[c] = len(g.appendLegalCells(buf[:0], c))
	}
	for id := range g.groups {
		grp := &g.groups[id]
		if grp.size == 0 || grp.size >= 4 || !g.isDead(grp) {
			continue
		}
		f.Dead[grp.colour]++
		created := true
		for _, cell := range grp.cells[:grp.size] {
			if t.wasDead[cell] {
				created = false
			}
		}
		if created {
			f.DeadCreated[grp.colour]++
		}
		for _, cell := range grp.cells[:grp.size] {
			t.wasDead[cell] = true
		}
	}
	return f, nil
}

// DeadSandbanks returns the dead sandbanks of colour c, each as its cells.
func (g *Game) DeadSandbanks(c Colour) [][]Cell {
	var out [][]Cell
	for id := range g.groups {
		grp := &g.groups[id]
		if grp.colour == c && grp.size > 0 && grp.size < 4 && g.isDead(grp) {
			out = append(out, append([]Cell(nil), grp.cells[:grp.size]...))
		}
	}
	return out
}

// isDead reports whether a sandbank can no longer become part of any island: no connected
// set T of 4 cells contains it such that every other cell of T is empty and unblocked or a
// tile of its colour, and no tile of its colour outside T is an 8-neighbour of T. (A tile
// of the colour inside T whose sandbank is not wholly inside T has a tile outside T next to
// T, and an island cannot fit in T together with the sandbank, so the test of RULES.md
// reduces to this one.)
func (g *Game) isDead(grp *group) bool {
	var set [4]Cell
	n := copy(set[:], grp.cells[:grp.size])
	return !g.growIsland(grp.colour.bit(), &set, n)
}

// growIsland extends the connected set set[:n] by one orthogonal neighbour at a time and
// reports whether some extension to 4 cells is a place where an island could still form.
func (g *Game) growIsland(bit uint8, set *[4]Cell, n int) bool {
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
			if g.growIsland(bit, set, n+1) {
				return true
			}
		}
	}
	return false
}

func inSet(set []Cell, c Cell) bool {
	for _, x := range set {
		if x == c {
			return true
		}
	}
	return false
}
