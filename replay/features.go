package replay

import mbits "math/bits"

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

// FeatureTracker measures Features turn by turn, incrementally: it keeps, per colour, which
// cells take a single tile and which sandbanks are dead, and after a turn it looks again
// only at what the turn can have changed. Use one tracker per game in flight and let it see
// every turn of the game (Play); Reset it, or start a new game, between games.
//
// What a turn can change, and so what is looked at again:
//   - mobility of the other colour: only the cells the turn filled or blocked (tiles of the
//     other colour never matter to R3 but by taking the cell);
//   - mobility of the mover: the new tiles' 3×3 neighbourhoods, the cells next to the groups
//     the tiles joined and to the mover's groups diagonal to the new tiles (an island there
//     would now touch them), and the cells next to a new island (its halo);
//   - dead sandbanks: only sandbanks within four cells of a filled or blocked cell can lose
//     their last place for an island, and deadness is for ever (a sandbank that merges with
//     a dead one is dead). Each live sandbank keeps a witness, a place where it could still
//     become an island; a sandbank is searched again only when its witness breaks.
type FeatureTracker struct {
	size     int
	legal    [2][numCells]bool
	mobility [2]int
	stamp    [numCells]uint32 // groups looked at in this pass
	gen      uint32
	checked  [numCells]uint32 // cells whose mobility was decided again in this turn
	turnGen  uint32
	dead     []bool    // per group id: the sandbank is dead
	seen     []uint32  // per group id: the pass that last looked at it
	witness  [][4]Cell // per group id: a place where the sandbank could still become an island
	nDead    [2]int
	largest  [2]int // islands in each colour's largest component; components only grow
}

// Reset forgets the previous game.
func (t *FeatureTracker) Reset() { t.size = 0 }

// start sets the tracker up for the empty board of g.
func (t *FeatureTracker) start(g *Game) {
	t.size = g.size
	t.mobility = [2]int{g.size * g.size, g.size * g.size}
	for c := range t.legal {
		clear(t.legal[c][:])
		for r := 0; r < g.size; r++ {
			row := (r+margin)*stride + margin
			for i := row; i < row+g.size; i++ {
				t.legal[c][i] = true
			}
		}
	}
	t.dead = t.dead[:0]
	t.seen = t.seen[:0]
	t.witness = t.witness[:0]
	t.nDead = [2]int{}
	t.largest = [2]int{}
}

// Play plays m on g and returns the features after it. On an illegal turn it returns the
// *RuleError and g is unchanged.
func (t *FeatureTracker) Play(g *Game, m Move) (Features, error) {
	if g.turn == 0 || t.size != g.size {
		t.start(g)
	}
	before := g.tally[Light].islands + g.tally[Dark].islands
	colour := g.ToMove()
	merged := false
	var olds [8]int16 // the mover's groups next to the new tiles, before they merge
	var oldCells [8]Cell
	nold := 0
	switch m.Kind {
	case Bridge:
		if m.A.On(g.size) && m.B.On(g.size) && g.state[m.A]&tileBits != 0 && g.state[m.B]&tileBits != 0 {
			a, _ := g.ComponentOf(m.A)
			b, _ := g.ComponentOf(m.B)
			merged = a != b
		}
	case Tiles:
		if m.A.On(g.size) && m.B.On(g.size) {
			var buf [4]int16
			for _, x := range [2]Cell{m.A, m.B} {
				n := g.neighbourGroups(colour.bit(), x, &buf)
				for _, o := range buf[:n] {
					olds[nold], oldCells[nold] = o, g.groups[o].cells[0]
					nold++
				}
			}
		}
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
	for len(t.dead) < len(g.groups) {
		t.dead = append(t.dead, false)
		t.seen = append(t.seen, 0)
		t.witness = append(t.witness, [4]Cell{})
	}
	switch m.Kind {
	case Tiles:
		f.TileGroups = [2]int{g.GroupSize(m.A), g.GroupSize(m.B)}
		for _, c := range [2]Cell{m.A, m.B} {
			_, k := g.ComponentOf(c)
			t.largest[colour] = max(t.largest[colour], k)
		}
		t.afterTiles(g, colour, m, olds[:nold], oldCells[:nold], &f)
	case Bridge:
		f.BridgeShape = ShapeOf(m.A, m.B)
		f.BridgeEnds = [2]int{g.GroupSize(m.A), g.GroupSize(m.B)}
		f.BridgeMerged = merged
		_, k := g.ComponentOf(m.A)
		t.largest[colour] = max(t.largest[colour], k)
		w1, w2 := Water(m.A, m.B)
		for _, w := range [2]Cell{w1, w2} {
			if w == NoCell {
				continue
			}
			t.setLegal(Light, w, false)
			t.setLegal(Dark, w, false)
			t.recheckDead(g, w, 3, &f)
		}
	}
	f.LargestComponent = t.largest[colour]
	f.Mobility = t.mobility
	f.Dead = t.nDead
	return f, nil
}

func (t *FeatureTracker) setLegal(c Colour, x Cell, legal bool) {
	if t.legal[c][x] != legal {
		t.legal[c][x] = legal
		if legal {
			t.mobility[c]++
		} else {
			t.mobility[c]--
		}
	}
}

// afterTiles updates mobility and dead sandbanks after a tile turn of colour c.
// olds are the groups next to the new tiles before the turn, and oldCells one cell of each,
// which tells which new group each old one went into.
func (t *FeatureTracker) afterTiles(g *Game, c Colour, m Move, olds []int16, oldCells []Cell, f *Features) {
	t.turnGen++
	other := c.Other()
	t.setLegal(other, m.A, false)
	t.setLegal(other, m.B, false)
	t.setLegal(c, m.A, false)
	t.setLegal(c, m.B, false)

	// The groups the tiles joined: dead if they absorbed a dead sandbank, else searched.
	t.gen++
	gen := t.gen
	bit := c.bit()
	for _, x := range [2]Cell{m.A, m.B} {
		id := g.gid[x]
		grp := &g.groups[id]
		if t.stamp[grp.cells[0]] == gen {
			continue // the other tile's group, done
		}
		for _, cell := range grp.cells[:grp.size] {
			t.stamp[cell] = gen
		}
		// The sandbanks this group absorbed: a dead one makes it dead (deadness is for
		// ever), and their ids, merged away, lose their marks.
		wasDead := false
		for k, o := range olds {
			if g.gid[oldCells[k]] != id || !t.dead[o] {
				continue
			}
			wasDead = true
			if o != id {
				t.dead[o] = false
				t.nDead[c]--
			}
		}
		if t.dead[id] {
			t.dead[id] = false
			t.nDead[c]--
		}
		if grp.size < 4 {
			switch {
			case wasDead:
				t.dead[id] = true
				t.nDead[c]++
			case t.inheritWitness(g, id, olds, oldCells):
			case !t.search(g, id):
				t.dead[id] = true
				t.nDead[c]++
				f.DeadCreated[c]++
			}
		}
		// Mobility of the mover around the group.
		for _, cell := range grp.cells[:grp.size] {
			for _, d := range orthogonal {
				t.recheck(g, c, Cell(int(cell)+d))
			}
		}
		if grp.size == 4 { // a new island: its halo can no longer take a tile
			for _, cell := range grp.cells {
				for _, d := range eightWay {
					t.recheck(g, c, Cell(int(cell)+d))
				}
			}
		}
	}
	for _, x := range [2]Cell{m.A, m.B} {
		for _, d := range eightWay {
			q := Cell(int(x) + d)
			t.recheck(g, c, q)
			if g.state[q]&bit != 0 && g.gid[q] != g.gid[m.A] && g.gid[q] != g.gid[m.B] {
				// a group of the mover diagonal to a new tile: an island formed next to it
				// would now touch the new tile
				h := &g.groups[g.gid[q]]
				for _, cell := range h.cells[:h.size] {
					for _, d2 := range orthogonal {
						t.recheck(g, c, Cell(int(cell)+d2))
					}
				}
			}
		}
	}
	t.recheckDead(g, m.A, 4, f)
	t.recheckDead(g, m.B, 4, f)
}

// recheck decides again whether one tile of colour c is legal on x (once per turn per cell).
// A cell that does not take a tile never will again: cells only fill, groups only grow,
// halos only spread, and the tile that spoils an island-to-be stays; so only cells that
// are legal now are looked at.
func (t *FeatureTracker) recheck(g *Game, c Colour, x Cell) {
	if !t.legal[c][x] || t.checked[x] == t.turnGen {
		return
	}
	t.checked[x] = t.turnGen
	t.setLegal(c, x, g.singleLegal(c, x))
}

// singleLegal is checkTiles for one tile, without building a plan: the cell is free, the
// group it would join has at most 4 tiles, and R3.2 holds (a sandbank only needs the cell
// to be outside every island's halo; an island needs no other tile of its colour around it).
func (b *board) singleLegal(c Colour, x Cell) bool {
	if b.state[x] != 0 {
		return false
	}
	bit := c.bit()
	var ids [4]int16
	n := b.neighbourGroups(bit, x, &ids)
	size := 1
	for _, id := range ids[:n] {
		size += int(b.groups[id].size)
	}
	switch {
	case size > 4:
		return false
	case size < 4:
		return b.halo[x]&bit == 0
	}
	var island [4]Cell
	k := copy(island[:], []Cell{x})
	for _, id := range ids[:n] {
		grp := &b.groups[id]
		k += copy(island[k:], grp.cells[:grp.size])
	}
	for _, cell := range island {
		for _, d := range diagonal {
			q := Cell(int(cell) + d)
			if b.state[q]&bit != 0 && !inSet(island[:], q) {
				return false
			}
		}
	}
	return true
}

// recheckDead looks at the live sandbanks (of both colours) with a tile within r cells of x:
// those whose witness no longer holds are searched again, and counted dead when no place
// for an island is left.
func (t *FeatureTracker) recheckDead(g *Game, x Cell, r int, f *Features) {
	t.gen++ // a pass per changed cell: each pass asks whether this cell breaks a witness
	gen := t.gen
	x0, y0 := int(x)%stride, int(x)/stride
	lo, hi := max(x0-r, 0), min(x0+r, stride-1)
	window := uint32(1)<<uint(hi+1) - uint32(1)<<uint(lo) // columns lo … hi (1<<32 is 0: the wrap sets the top bits)
	for row := max(y0-r, margin); row <= min(y0+r, margin+g.size-1); row++ {
		for bits := g.tiles[row] & window; bits != 0; bits &= bits - 1 {
			id := g.gid[row*stride+mbits.TrailingZeros32(bits)]
			if t.dead[id] || t.seen[id] == gen {
				continue
			}
			t.seen[id] = gen
			grp := &g.groups[id]
			if grp.size >= 4 {
				continue
			}
			if w := &t.witness[id]; w[0] != NoCell && !witnessTouched(w, x, g.state[x]&grp.colour.bit() != 0) || t.witnessHolds(g, id) {
				continue
			}
			if !t.search(g, id) {
				t.dead[id] = true
				t.nDead[grp.colour]++
				f.DeadCreated[grp.colour]++
			}
		}
	}
}

// search looks for a place where sandbank id could still become an island and keeps it as
// its witness; false when there is none (the sandbank is dead).
func (t *FeatureTracker) search(g *Game, id int16) bool {
	grp := &g.groups[id]
	var set [4]Cell
	n := copy(set[:], grp.cells[:grp.size])
	if !g.growIsland(grp.colour.bit(), &set, n) {
		return false
	}
	t.witness[id] = set
	return true
}

// inheritWitness tries the witnesses of the sandbanks a new group absorbed: one that holds
// the whole new group and is still a place for an island spares the search.
func (t *FeatureTracker) inheritWitness(g *Game, id int16, olds []int16, oldCells []Cell) bool {
	grp := &g.groups[id]
	for k, o := range olds {
		if g.gid[oldCells[k]] != id {
			continue
		}
		w := t.witness[o]
		covers := true
		for _, cell := range grp.cells[:grp.size] {
			covers = covers && inSet(w[:], cell)
		}
		if covers {
			t.witness[id] = w
			if t.witnessHolds(g, id) {
				return true
			}
		}
	}
	return false
}

// witnessTouched reports whether a change on cell x can break witness w: x is in it, or x
// is a new tile of the witness's colour next to it.
func witnessTouched(w *[4]Cell, x Cell, own bool) bool {
	for _, c := range w {
		d := int(x) - int(c)
		if d == 0 {
			return true
		}
		if own && (d == 1 || d == -1 || d == stride || d == -stride || d == stride+1 || d == stride-1 || d == -stride+1 || d == -stride-1) {
			return true
		}
	}
	return false
}

// witnessHolds checks that the sandbank's witness is still a place for an island.
func (t *FeatureTracker) witnessHolds(g *Game, id int16) bool {
	w := &t.witness[id]
	if w[0] == NoCell {
		return false
	}
	bit := g.groups[id].colour.bit()
	for _, c := range w {
		if s := g.state[c]; s != 0 && s != bit {
			return false
		}
	}
	for _, c := range w {
		for _, d := range eightWay {
			q := Cell(int(c) + d)
			if g.state[q]&bit != 0 && !inSet(w[:], q) {
				return false
			}
		}
	}
	return true
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
// reports whether some extension to 4 cells is a place where an island could still form:
// every added cell empty and unblocked or a tile of the colour, and no tile of the colour
// outside the 4 cells next to them. The tiles of the colour next to the partial set, which
// must all end up in it, are carried down the search and updated by each added cell: a
// partial set with more of them than it can take in is given up at once. On success set
// holds the 4 cells.
func (g *Game) growIsland(bit uint8, set *[4]Cell, n int) bool {
	var forced [8]Cell
	nf := 0
	for i := 0; i < n; i++ {
		for _, d := range eightWay {
			q := Cell(int(set[i]) + d)
			if g.state[q]&bit != 0 && !inSet(set[:n], q) && !inSet(forced[:nf], q) {
				if n+nf+1 > 4 {
					return false
				}
				forced[nf] = q
				nf++
			}
		}
	}
	return g.extend(bit, set, n, forced, nf)
}

func (g *Game) extend(bit uint8, set *[4]Cell, n int, forced [8]Cell, nf int) bool {
	if n == 4 {
		return nf == 0
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
			// the forced tiles of the larger set: q is no longer outside it, q's own
			// neighbours outside it are
			var f [8]Cell
			k := 0
			for _, x := range forced[:nf] {
				if x != q {
					f[k] = x
					k++
				}
			}
			ok := true
			for _, d2 := range eightWay {
				r := Cell(int(q) + d2)
				if g.state[r]&bit != 0 && !inSet(set[:n+1], r) && !inSet(f[:k], r) {
					if n+1+k+1 > 4 {
						ok = false
						break
					}
					f[k] = r
					k++
				}
			}
			if ok && n+1+k <= 4 && g.extend(bit, set, n+1, f, k) {
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
