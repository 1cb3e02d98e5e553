package replay

import mbits "math/bits"

// Features are the per-turn measurements of docs/rules.md's terms, taken after a turn.
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

// FeatureTracker measures Features turn by turn, incrementally. Use one tracker per game in
// flight and let it see every turn of the game (Play); Reset it, or start a new game, between
// games. A turn is looked at only where it can have changed something: its new tiles, or
// the water of its bridge, and what lies next to them. The tracker keeps:
//
//   - per colour, the cells that take a single tile (mobility), a bit per cell in row
//     bitmaps. A cell that does not take a tile never will again: cells only fill, groups
//     only grow, halos only spread, and the tile that spoils an island-to-be stays. So a
//     turn only clears bits. For the other colour, it clears the cells the turn filled or
//     blocked (tiles of the other colour never matter to R3 but by taking the cell); for
//     the mover, also the halo of a new island, and the cells that moverMobility decides
//     again: the few heavy ones next to or diagonal to the new tiles' groups.
//   - the viable placements of both colours (see placements.go), as masks of shapes per
//     anchor. A new tile clears the placements that hold it for the other colour, and
//     those that have it on their ring for its own colour (a fixed set of 37 anchors); a
//     blocked cell clears those that hold it, for both colours.
//   - the live sandbanks of both colours, each with a witness: a viable placement that
//     holds it. After a turn every witness is looked up (one bit each); a sandbank whose
//     witness was cleared looks for the next one (see liveSandbank), and is dead when
//     there is none. Deadness is for ever: a sandbank that absorbs a dead one is dead, and
//     is not counted as created; one that absorbs only live ones keeps the witness of the
//     first, which, if still viable, holds the whole new sandbank.
type FeatureTracker struct {
	size   int
	cs     [2]colourState
	viable [viableLen]uint64    // per anchor (plus viablePad): the viable shapes of both colours
	live   []liveSandbank       // the sandbanks of both colours not known to be dead
	groups [numCells]groupState // per group id (fewer than the cells of a board), groupsUsed of them
	// groupsUsed bounds the group ids of the game: start clears the groups below it.
	groupsUsed int
}

// colourState is what a FeatureTracker keeps per colour.
type colourState struct {
	legal     [rowWords]uint32 // per row, a bit for each cell that takes a single tile
	ready     [rowWords]uint32 // per row, a bit for each heavy cell (see moverMobility) that takes a single tile: a subset of legal
	own       [cellWords]uint8 // per cell: the size of the group of the colour's tile on it, 0 for none
	nb        [cellWords]uint8 // per cell: the sum of own over its orthogonal neighbours, kept next to sandbanks (see moverMobility)
	diag      [cellWords]uint8 // per cell: the tiles of the colour diagonal to it
	readyRows uint32           // a bit for each row where a cell was ever ready in this game
	heavier   [32]uint16       // the cells that turned heavy in this turn (at most 4 per cell of 2 sandbanks of 3), nheavier of them
	nheavier  uint
	mobility  int // the cells in legal
	nDead     int // the dead sandbanks
	largest   int // islands in the largest component; components only grow
}

// groupState is what a FeatureTracker keeps per group id; the zero value is a group that
// is not a dead sandbank and not on the live list.
type groupState struct {
	pos  int32 // 1 + its index in live, 0 when not there
	dead bool  // the sandbank is dead
}

// liveSandbank is a sandbank that is not dead, with its witness: the first placement, in
// the order of nextPlacement, that holds the cell and is viable. The placements before it
// were not viable, and never will be again: when the witness goes, the search goes on
// from it, and looks at each placement once in the sandbank's life.
type liveSandbank struct {
	id      int16
	cell    Cell  // a tile of the sandbank (any will do), which its witnesses hold
	at      uint8 // the witness's index in holds
	witness placement
}

// rowWords and cellWords are the lengths of the arrays per row and per cell: powers of 2
// at least numCells/stride and numCells, so that an index taken modulo them needs no
// bounds check.
const (
	rowWords  = 32
	cellWords = 1024
)

// Reset forgets the previous game.
func (t *FeatureTracker) Reset() { t.size = 0 }

// start sets the tracker up for the empty board of g.
func (t *FeatureTracker) start(g *Game) {
	t.size = g.size
	full := (uint32(1)<<g.size - 1) << margin
	cells := (g.size + 2*margin) * stride // the cells on the board and around it: what a game reads
	for c := range t.cs {
		cs := &t.cs[c]
		clear(cs.legal[:])
		for r := margin; r < margin+g.size; r++ {
			cs.legal[r] = full
		}
		clear(cs.ready[:])
		clear(cs.own[:cells])
		clear(cs.nb[:cells])
		clear(cs.diag[:cells])
		cs.mobility = g.size * g.size
		cs.nDead, cs.largest, cs.nheavier, cs.readyRows = 0, 0, 0, 0
	}
	n := viableRows(g.size)
	copy(t.viable[:n], viableTemplate(g.size)[:n])
	t.live = t.live[:0]
	clear(t.groups[:t.groupsUsed])
	t.groupsUsed = 0
}

// Play plays m on g and returns the features after it. On an illegal turn it returns the
// *RuleError and g is unchanged.
func (t *FeatureTracker) Play(g *Game, m Move) (f Features, err error) {
	if err = t.play(g, m, false, &f); err != nil {
		return Features{}, err
	}
	return f, nil
}

// PlayTurn is Game.PlayTurn with the features: it reads the token of the next turn and
// plays it, and returns the move read (the zero Move when the token could not be read,
// the error then ReadTurn's). It writes the features into f, all of them: the zero
// Features when the turn is not played. What the reading checked is not checked again,
// and a caller that keeps the features of every turn is spared the copies of a Features
// (a fifth of a kilobyte) that Play's result costs.
func (t *FeatureTracker) PlayTurn(g *Game, number int, token string, f *Features) (Move, error) {
	m, err := g.readTurn(number, token)
	if err != nil {
		*f = Features{}
		return Move{}, err
	}
	return m, t.play(g, m, true, f)
}

// play is Play writing the features into f, for a move that ReadTurn read for this turn
// when read is true.
func (t *FeatureTracker) play(g *Game, m Move, read bool, f *Features) error {
	*f = Features{}
	if g.turn == 0 || t.size != g.size {
		t.start(g)
	}
	before := g.tally[Light].islands + g.tally[Dark].islands
	colour := g.ToMove()
	merged := false
	if m.Kind == Bridge {
		if m.A.On(g.size) && m.B.On(g.size) && g.state[m.A]&tileBits != 0 && g.state[m.B]&tileBits != 0 {
			a, _ := g.ComponentOf(m.A)
			b, _ := g.ComponentOf(m.B)
			merged = a != b
		}
	}
	if err := g.play(m, true, read); err != nil {
		return err
	}
	t.groupsUsed = len(g.groups)
	cs := &t.cs[colour]
	switch m.Kind {
	case Tiles:
		p := &g.plan
		f.TileGroups = [2]int{p.g[0].size, p.g[p.n-1].size} // the groups of m.A and m.B
		t.afterTiles(g, colour, m, f)
	case Bridge:
		f.BridgeShape = ShapeOf(m.A, m.B)
		f.BridgeEnds = [2]int{int(g.groups[g.gid[m.A]].size), int(g.groups[g.gid[m.B]].size)}
		f.BridgeMerged = merged
		_, k := g.ComponentOf(m.A)
		cs.largest = max(cs.largest, k)
		w1, w2 := jumpWater(m.A, m.B) // a legal bridge: its ends are a jump apart
		t.block(w1)
		if w2 != NoCell {
			t.block(w2)
		}
		t.checkWitnesses(g, f)
	}
	f.Turn, f.Colour, f.Kind, f.Move = g.turn, colour, m.Kind, m
	f.IslandsFormed = g.tally[Light].islands + g.tally[Dark].islands - before
	f.LargestComponent = cs.largest
	l, d := &g.tally[Light], &g.tally[Dark]
	f.Score = [2]int{l.score, d.score}
	f.Islands = [2]int{l.islands, d.islands}
	f.Sandbanks = [2]int{l.sandbanks, d.sandbanks}
	f.Mobility = [2]int{t.cs[Light].mobility, t.cs[Dark].mobility}
	f.Dead = [2]int{t.cs[Light].nDead, t.cs[Dark].nDead}
	return nil
}

// block records a cell that a bridge blocked.
func (t *FeatureTracker) block(x Cell) {
	t.cs[Light].clearLegal(x)
	t.cs[Dark].clearLegal(x)
	killWater(&t.viable, x)
}

// clearLegal records that a single tile of the colour no longer goes on x.
func (cs *colourState) clearLegal(x Cell) {
	r, i := uint(x)/stride%rowWords, uint(x)%stride
	row := cs.legal[r]
	cs.mobility -= int(row >> i & 1)
	cs.legal[r] = row &^ (1 << i)
	cs.ready[r] &^= 1 << i
}

// clearAround records that no single tile of the colour goes on x's 8-neighbours any more:
// x is a cell of a new island of the colour.
func (cs *colourState) clearAround(x Cell) {
	r, b := uint(x)/stride, uint32(1)<<(uint(x)%stride)
	row3 := b>>1 | b | b<<1
	lo, mid, hi := cs.legal[(r-1)%rowWords], cs.legal[r%rowWords], cs.legal[(r+1)%rowWords]
	cs.mobility -= mbits.OnesCount32(lo&row3) + mbits.OnesCount32(mid&row3) + mbits.OnesCount32(hi&row3)
	cs.legal[(r-1)%rowWords], cs.legal[r%rowWords], cs.legal[(r+1)%rowWords] = lo&^row3, mid&^row3, hi&^row3
	cs.ready[(r-1)%rowWords] &^= row3
	cs.ready[r%rowWords] &^= row3
	cs.ready[(r+1)%rowWords] &^= row3
}

// clearReady records that the ready cells among the cells cols of row r no longer take a
// single tile of the colour.
func (cs *colourState) clearReady(r uint, cols uint32) {
	r %= rowWords
	if out := cols & cs.ready[r]; out != 0 {
		cs.legal[r] &^= out
		cs.ready[r] &^= out
		cs.mobility -= mbits.OnesCount32(out)
	}
}

// addLive gives the new sandbank id of colour c a witness and puts it on the live list, or
// counts it dead (created by this turn) when no viable placement holds it.
func (t *FeatureTracker) addLive(g *Game, c Colour, id int16, f *Features) {
	x := g.groups[id].cells[0]
	w, at, ok := nextPlacement(&t.viable, c, x, 0, 0)
	if !ok {
		t.groups[id].dead = true
		t.cs[c].nDead++
		f.DeadCreated[c]++
		return
	}
	t.groups[id].pos = int32(len(t.live)) + 1
	t.live = append(t.live, liveSandbank{id, x, uint8(at), w})
}

// dropLive takes the sandbank id off the live list, if it is there.
func (t *FeatureTracker) dropLive(id int16) {
	i := t.groups[id].pos - 1
	if i < 0 {
		return
	}
	last := t.live[len(t.live)-1]
	t.live[i] = last
	t.groups[last.id].pos = i + 1
	t.live = t.live[:len(t.live)-1]
	t.groups[id].pos = 0
}

// checkWitnesses looks up the witness of every live sandbank: one whose witness is no
// longer viable gets the next one, or is counted dead (created by this turn) and leaves
// the list. The list is walked from its end, so that the sandbank dropLive moves in has
// been looked at.
func (t *FeatureTracker) checkWitnesses(g *Game, f *Features) {
	v := &t.viable
	live := t.live
	for i := len(live) - 1; i >= 0; i-- {
		s := &live[i]
		if s.witness.viableIn(v) {
			continue
		}
		c := s.witness.colour()
		if w, at, ok := nextPlacement(v, c, s.cell, uint(s.at), 2<<(s.witness&31)-1); ok {
			s.witness, s.at = w, uint8(at)
			continue
		}
		t.groups[s.id].dead = true
		t.cs[c].nDead++
		f.DeadCreated[c]++
		t.dropLive(s.id)
	}
}

// placeTiles records the new tiles of colour c on a and b, before the groups are looked at.
func (t *FeatureTracker) placeTiles(c Colour, a, b Cell) {
	cs, os := &t.cs[c], &t.cs[c^1]
	cs.clearLegal(a)
	cs.clearLegal(b)
	os.clearLegal(a)
	os.clearLegal(b)
	keep := &tileKeeps[c]
	killTile(&t.viable, a, keep)
	killTile(&t.viable, b, keep)
	x, y := uint(a), uint(b)
	diag := &cs.diag
	diag[(x+stride+1)%cellWords]++
	diag[(x+stride-1)%cellWords]++
	diag[(x-stride+1)%cellWords]++
	diag[(x-stride-1)%cellWords]++
	diag[(y+stride+1)%cellWords]++
	diag[(y+stride-1)%cellWords]++
	diag[(y-stride+1)%cellWords]++
	diag[(y-stride-1)%cellWords]++
}

// grown records that the group of the tile on x, a sandbank of the colour, grew by grow
// tiles: the cells next to x see it in nb (those that turn heavy are listed in heavier),
// and those of them that were ready would now make a group of 5 or more.
func (cs *colourState) grown(x uint, grow uint8) {
	n := cs.nheavier
	n = cs.bump(x-1, grow, n)
	n = cs.bump(x+1, grow, n)
	n = cs.bump(x-stride, grow, n)
	n = cs.bump(x+stride, grow, n)
	cs.nheavier = n
	r, b := x/stride, uint32(1)<<(x%stride)
	ready := &cs.ready
	if (ready[(r-1)%rowWords]|ready[r%rowWords]|ready[(r+1)%rowWords])&(b>>1|b|b<<1) == 0 {
		return // (seldom otherwise)
	}
	legal := &cs.legal
	lo, mid, hi := ready[(r-1)%rowWords]&b, ready[r%rowWords]&(b>>1|b<<1), ready[(r+1)%rowWords]&b
	ready[(r-1)%rowWords] &^= lo
	ready[r%rowWords] &^= mid
	ready[(r+1)%rowWords] &^= hi
	legal[(r-1)%rowWords] &^= lo
	legal[r%rowWords] &^= mid
	legal[(r+1)%rowWords] &^= hi
	cs.mobility -= mbits.OnesCount32(lo|mid) + mbits.OnesCount32(hi) // (lo and mid share no column)
}

// bump adds grow to nb of q, and writes q down in heavier at n; it returns n, plus 1 when q
// turns heavy (nb goes from below 3 to 3 or more). No branch.
func (cs *colourState) bump(q uint, grow uint8, n uint) uint {
	old := uint(cs.nb[q%cellWords])
	cs.nb[q%cellWords] = uint8(old) + grow
	cs.heavier[n%uint(len(cs.heavier))] = uint16(q)
	return n + ((old+uint(grow)+253)>>8)&^((old+253)>>8)
}

// afterTiles updates mobility, the viable placements and the sandbanks' deadness after the
// tile turn m of colour c: the groups the tiles belong to are g.plan's.
func (t *FeatureTracker) afterTiles(g *Game, c Colour, m Move, f *Features) {
	t.placeTiles(c, m.A, m.B)

	// The new groups. A sandbank that absorbed a dead one is dead. One made of new tiles
	// alone gets a witness. One that kept the id of the live sandbanks it absorbed (the
	// first of them) keeps that one's witness and its place on the live list; the others
	// leave it.
	cs := &t.cs[c]
	p := &g.plan
	for gi := 0; gi < p.n; gi++ {
		ng := &p.g[gi]
		size := uint8(ng.size)
		for _, cell := range ng.cells[:ng.size] {
			x := uint(cell)
			grow := size - cs.own[x%cellWords]
			cs.own[x%cellWords] = size
			if size < 4 { // (next to an island, a cell never takes a tile again)
				cs.grown(x, grow)
			}
		}
		id := g.gid[ng.cells[0]]
		wasDead := false
		for _, o := range ng.olds[:ng.nold] {
			if t.groups[o].dead {
				wasDead = true
				t.groups[o].dead = false
				cs.nDead--
			}
			if o != id {
				t.dropLive(o)
			}
		}
		if ng.size == 4 || ng.nold > 1 {
			// Components gain islands only where an island formed or groups merged.
			_, k := g.ComponentOf(ng.cells[0])
			cs.largest = max(cs.largest, k)
		}
		switch {
		case ng.size == 4:
			t.dropLive(id)
			for _, cell := range ng.cells {
				cs.clearAround(cell)
			}
		case wasDead:
			t.dropLive(id)
			t.groups[id].dead = true
			cs.nDead++
		case ng.nold == 0:
			t.addLive(g, c, id, f)
		}
	}
	t.checkWitnesses(g, f)
	cs.moverMobility(g, c, m)
}

// moverMobility updates the mobility of its colour after the colour's tile turn m, once
// afterTiles has cleared the halos of new islands and grown has done its part. A cell that
// is still legal is next to no island, so its neighbours' group sizes are 1 to 3, and their
// sum nb counts each group once, but for a group of 3 bent around the cell (two cells of
// one domino are never both next to a cell). With nb < 3 the tile would make a sandbank,
// which only the halo decides. The other cells are heavy (and stay so: groups only grow):
// a heavy cell that is still legal is ready, it takes an island-to-be of exactly 4 tiles.
// So only the heavy cells are decided again, where the turn can have changed something:
//   - the ready cells next to a new sandbank: their island-to-be would now have 5 tiles or
//     more (grown clears them);
//   - the ready cells whose island-to-be a new tile touches diagonally: those diagonal to
//     it, and those next to a group diagonal to it (touchHeavy clears them);
//   - the legal cells that turned heavy, next to a new sandbank (grown lists them in
//     heavier): they are tested (takesIsland), and are ready or no longer legal.
func (cs *colourState) moverMobility(g *Game, c Colour, m Move) {
	if cs.readyRows != 0 {
		ga, gb := g.gid[m.A], g.gid[m.B]
		tiles := &g.ctiles[c&1] // the colour's tiles, this turn's too
		cs.touchHeavy(g, tiles, m.A, ga, gb)
		cs.touchHeavy(g, tiles, m.B, ga, gb)
	}
	// The cells that turned heavy (grown cleared those that were ready), if still legal.
	for _, x := range cs.heavier[:cs.nheavier] {
		r, b := uint(x)/stride%rowWords, uint32(1)<<(x%stride)
		if cs.legal[r]&b != 0 {
			cs.turnsHeavy(g, uint(x), r, b)
		}
	}
	cs.nheavier = 0
}

// turnsHeavy decides a legal cell x (bit b of row r) next to a new sandbank, which turned
// heavy in this turn: it is tested.
func (cs *colourState) turnsHeavy(g *Game, x, r uint, b uint32) {
	if s := cs.nb[x%cellWords]; (s == 3 || s == 6) && cs.takesIsland(g, x, s) {
		cs.ready[r] |= b
		cs.readyRows |= 1 << r
		return
	}
	cs.legal[r] &^= b
	cs.mobility--
}

// touchHeavy clears the heavy cells whose island-to-be the new tile a touches diagonally:
// those diagonal to it, and those next to a group diagonal to it that is not one of the
// new groups ga and gb.
func (cs *colourState) touchHeavy(g *Game, tiles *[rowWords]uint32, a Cell, ga, gb int16) {
	r, col := uint(a)/stride, uint(a)%stride
	// Nothing to do without a ready cell within 4 rows and columns.
	if uint64(cs.readyRows)<<4>>r&0x1ff == 0 { // rows r-4 … r+4
		return
	}
	k := &cs.ready
	near := k[(r-4)%rowWords] | k[(r-3)%rowWords] | k[(r-2)%rowWords] | k[(r-1)%rowWords] | k[r%rowWords] |
		k[(r+1)%rowWords] | k[(r+2)%rowWords] | k[(r+3)%rowWords] | k[(r+4)%rowWords]
	if near&(0x1ff<<col>>4) == 0 {
		return
	}
	side := uint32(1)<<col<<1 | uint32(1)<<col>>1
	cs.clearReady(r-1, side)
	cs.clearReady(r+1, side)
	for _, rr := range [2]uint{r - 1, r + 1} {
		for d := tiles[rr%rowWords] & side; d != 0; d &= d - 1 {
			if id := g.gid[int(rr)*stride+mbits.TrailingZeros32(d)]; id != ga && id != gb {
				h := &g.groups[id]
				for _, cell := range h.cells[:h.size] {
					r, b := uint(cell)/stride, uint32(1)<<(uint(cell)%stride)
					cs.clearReady(r-1, b)
					cs.clearReady(r, b>>1|b<<1)
					cs.clearReady(r+1, b)
				}
			}
		}
	}
}

// takesIsland decides a cell x that was legal and turns heavy, with its neighbours' group
// sizes adding up to s (3 or 6): whether a tile of the colour
// there would make an island of exactly 4 tiles with the groups next to it, and one that
// touches no other tile of the colour. Only diagonally can it (a tile orthogonally next to
// it is in it), so it does when the tiles diagonal to its cells, counted in diag, are more
// than its own cells diagonal to its cells.
func (cs *colourState) takesIsland(g *Game, x uint, s uint8) bool {
	own := &cs.own
	var h [8]uint // the 3 tiles of the island, and room for the cells written past them
	if s == 3 {
		// Groups of 3 tiles in all, one next to x in each direction where there is one
		// (no group is next to x twice): the groups are written one after the other,
		// the directions without one write past them (group 0, any group will do).
		k := uint(0)
		for _, d := range orthogonal {
			q := uint(int(x) + d)
			size := own[q%cellWords]
			grp := &g.groups[g.gid[q]&-int16((uint16(size)+0xff)>>8)]
			h[k%8], h[(k+1)%8], h[(k+2)%8] = uint(grp.cells[0]), uint(grp.cells[1]), uint(grp.cells[2])
			k += uint(size)
		}
	} else { // 3 + 3: one group of 3 bent around x, or two groups
		var ids [2]int16
		n := 0
		for _, d := range orthogonal {
			if q := uint(int(x) + d); own[q%cellWords] == 3 {
				ids[n%2] = g.gid[q]
				n++
			}
		}
		if n != 2 || ids[0] != ids[1] {
			return false
		}
		grp := &g.groups[ids[0]]
		h[0], h[1], h[2] = uint(grp.cells[0]), uint(grp.cells[1]), uint(grp.cells[2])
	}
	diag := &cs.diag
	touching := uint(diag[x%cellWords]) + uint(diag[h[0]%cellWords]) + uint(diag[h[1]%cellWords]) + uint(diag[h[2]%cellWords])
	inside := isDiagonal(x, h[0]) + isDiagonal(x, h[1]) + isDiagonal(x, h[2]) +
		2*(isDiagonal(h[0], h[1])+isDiagonal(h[0], h[2])+isDiagonal(h[1], h[2]))
	return touching == inside
}

// isDiagonal is 1 when cells a and b touch at a corner only (they are 31 or 33 cells
// apart), else 0.
func isDiagonal(a, b uint) uint {
	d := int(a) - int(b)
	m := d >> 63
	u := uint64(uint32((d^m)-m)-(stride-1)) &^ 2 // |d| - 31, 0 for a corner (and less than 2^32)
	return uint((u - 1) >> 63)
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
// T, and an island cannot fit in T together with the sandbank, so the test of docs/rules.md
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
