package pos

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/ponte/ponte/replay"
)

// CellValue is the sage bot's quick, local estimate of a tile of colour c on cell (a cell
// of the board): growing a sandbank towards an island, completing one, blocking the
// opponent's sandbanks, and room around it. It is bot's cellValue, to the last bit.
func (p *Position) CellValue(c replay.Colour, cell replay.Cell) float64 {
	return p.cellValue(c, p.g.idx(cell))
}

func (p *Position) cellValue(c replay.Colour, x int) float64 {
	s := p.g.s
	t := &neighbourTab[c&1]
	sum := t[p.sq[x+1]] + t[p.sq[x-1]] + t[p.sq[x+s]] + t[p.sq[x-s]]
	if sum>>24 >= 2 {
		return p.cellValueGroups(c, x) // two neighbours may share a group
	}
	value := float64(sum>>8&0xff) * 0.5 // the opponent's sandbanks: 2 and 0.5, exact
	return value + growthValue(1+int(sum&0xff), int(sum>>16&0xff))
}

// growthValue is what a tile adds by the group of its colour it would make, of size tiles
// with free empty cells around a lone tile: an island most, a lone tile by its room.
// sage's candidate values (bot/candidates.go) are the same, and the differential test
// holds the two together.
func growthValue(size, free int) float64 {
	switch size {
	case 4:
		return 6
	case 3:
		return 2.5
	case 2:
		return 1.2
	case 1:
		return 0.3 * float64(free) / 4
	}
	return 0
}

// neighbourTab holds, per colour and square, what a neighbour adds to cellValue's sums,
// a byte each: the size of a group of the colour, the opponent's value in halves (4 for a
// sandbank of 3, 1 for one of 2), a free cell, and a group of the colour of 2 or more
// (whose other cells may be next to the cell too, so that its size counts once).
var neighbourTab = func() (out [2][256]uint32) {
	for c := range 2 {
		for sq := range 256 {
			size := uint32(sq >> 4)
			switch {
			case uint8(sq)&sqWall != 0:
			case sq&(1<<c) != 0:
				out[c][sq] = size
				if size >= 2 {
					out[c][sq] |= 1 << 24
				}
			case uint8(sq)&sqTiles != 0:
				switch size {
				case 3:
					out[c][sq] = 4 << 8
				case 2:
					out[c][sq] = 1 << 8
				}
			case uint8(sq)&sqBlocked == 0:
				out[c][sq] = 1 << 16
			}
		}
	}
	return out
}()

// cellValueGroups is cellValue counting each group of the colour once.
func (p *Position) cellValueGroups(c replay.Colour, x int) float64 {
	s := p.g.s
	own := uint8(1) << (c & 1)
	size, free := 1, 0
	var seen [4]int16
	nseen := 0
	value := 0.0
	for _, q := range [4]int{x + 1, x - 1, x + s, x - s} {
		sq := p.sq[q]
		switch {
		case sq&sqWall != 0:
		case sq&own != 0:
			id := p.gid[q]
			dup := false
			for _, s := range seen[:nseen] {
				dup = dup || s == id
			}
			if !dup {
				seen[nseen] = id
				nseen++
				size += int(sq >> 4)
			}
		case sq&sqTiles != 0:
			switch sq >> 4 {
			case 3:
				value += 2 // stand in the way of an island
			case 2:
				value += 0.5
			}
		case sq&sqBlocked == 0:
			free++
		}
	}
	return value + growthValue(size, free)
}

// BridgeValue is the sage bot's quick estimate of a bridge for its colour: the score it
// adds by joining components, or the islands it brings together later; -1 when its ends
// are already joined. It is bot's bridgeValue.
func (p *Position) BridgeValue(m replay.Move) float64 {
	n := p.g.size
	ra, ka, rb, kb := -1, 0, -1, 0
	if m.A.On(n) {
		ra, ka = p.component(p.g.idx(m.A))
	}
	if m.B.On(n) {
		rb, kb = p.component(p.g.idx(m.B))
	}
	return valueOf(ra, ka, rb, kb)
}

// component returns the component root of the tile on i and its islands, -1 and 0
// without a tile.
func (p *Position) component(i int) (int, int) {
	if !p.hasTile(i) {
		return -1, 0
	}
	r := p.root(p.gid[i])
	return int(r), int(p.isl[r])
}

func (p *Position) bridgeValue(x, y int) float64 {
	ra, ka := p.component(x)
	rb, kb := p.component(y)
	return valueOf(ra, ka, rb, kb)
}

func valueOf(a, ka, b, kb int) float64 {
	if a == b {
		return -1 // joins what is already joined
	}
	switch {
	case ka > 0 && kb > 0:
		return 10 * float64(ka*kb)
	case ka > 0 || kb > 0:
		return 1.5
	}
	return 0.4
}

// LegalTurns appends every legal turn to dst: the swap at turn 2, the tile pairs, the
// bridges, and the pass when no pair is legal (as bot.LegalTurns on replay).
func (p *Position) LegalTurns(dst []replay.Move) []replay.Move {
	c := p.ToMove()
	if p.turn == 1 {
		dst = append(dst, replay.SwapMove)
	}
	pairs := 0
	if p.supply != replay.Supply40x15 || p.tilesLeft[c] >= 2 {
		var l bitset
		p.legalMask(c, &l)
		var buf [maxGroups]int16
		n := p.listCells(&l, buf[:0])
		for i := range n {
			for j := i + 1; j < len(n); j++ {
				if p.tilesLegal(c, int(n[i]), int(n[j])) {
					dst = append(dst, replay.TilesMove(p.g.cell[n[i]], p.g.cell[n[j]]))
					pairs++
				}
			}
		}
	}
	dst = p.LegalBridges(c, dst)
	if pairs == 0 {
		dst = append(dst, replay.PassMove)
	}
	return dst
}

// listCells appends the indices of the cells of l to dst, in order.
func (p *Position) listCells(l *bitset, dst []int16) []int16 {
	for w := 0; w < p.g.nw; w++ {
		for v := l[w]; v != 0; v &= v - 1 {
			dst = append(dst, int16(w<<6+bits.TrailingZeros64(v)))
		}
	}
	return dst
}

// scored is a cell index with its value plus noise.
type scored struct {
	i int
	v float64
}

// top5 keeps the five highest noisy values, best first, as sage's policy inserts them.
type top5 struct {
	s [5]scored
	n int
}

// floor is the value a new entry must beat, -Inf while fewer than five are kept.
func (t *top5) floor() float64 {
	if t.n == len(t.s) {
		return t.s[t.n-1].v
	}
	return math.Inf(-1)
}

func (t *top5) insert(i int, v float64) {
	if t.n == len(t.s) && v <= t.s[t.n-1].v {
		return
	}
	if t.n < len(t.s) {
		t.n++
	}
	k := t.n - 1
	for ; k > 0 && t.s[k-1].v < v; k-- {
		t.s[k] = t.s[k-1]
	}
	t.s[k] = scored{i, v}
}

// fifth keeps the five highest of the values it is given, to know the fifth.
type fifth struct {
	v [5]float64
	n int
}

// floor is the fifth highest value, -Inf while fewer than five are kept.
func (t *fifth) floor() float64 {
	if t.n == len(t.v) {
		return t.v[4]
	}
	return math.Inf(-1)
}

func (t *fifth) insert(v float64) {
	if t.n == len(t.v) {
		if v <= t.v[4] {
			return
		}
	} else {
		t.n++
	}
	k := t.n - 1
	for ; k > 0 && t.v[k-1] < v; k-- {
		t.v[k] = t.v[k-1]
	}
	t.v[k] = v
}

// PlayoutTurn draws the playout policy's turn for the colour to move, which must have a
// turn (the game not over): the sage bot's policy, with the same distribution. A bridge
// that joins two components with islands (it scores at once); one time in four another
// useful bridge (joining a component with an island); otherwise a pair of two of the five
// best cells by CellValue plus uniform noise, where completing an island ranks first and
// is always played; when those do not pair up, random pairs of all legal cells, then the
// first legal pair from a random start; when there is none the best useful bridge or the
// pass.
//
// The five best are drawn without noise for every cell: the cells next to no tile fall
// into five classes by the free cells around them (their value is 0.3·free/4), and the
// noise of a class is drawn as the order statistics of its uniforms, top down, only as far
// as they can still enter the five; a cell next to a tile draws its noise only when its
// value could enter them. A bridge's value is known before its crossing is tested.
func (p *Position) PlayoutTurn(rng *rand.Rand) replay.Move {
	c := p.ToMove()
	geo := p.g
	tryBridges := rng.IntN(4) == 0
	if tryBridges || p.islands[c] >= 2 {
		least := 10.0
		if tryBridges {
			least = 1.5
		}
		if a, b, _, ok := p.bestBridge(c, least); ok {
			return replay.BridgeMove(geo.cell[a], geo.cell[b])
		}
	}
	var l bitset
	ncells := 0
	var top top5
	if p.supply != replay.Supply40x15 || p.tilesLeft[c] >= 2 {
		p.legalMask(c, &l)
		ncells = p.drawTop(c, &l, rng, &top)
	}
	n := top.n
	for try := 0; try < 6 && n >= 2; try++ {
		i, j := 0, 1+rng.IntN(n-1)
		if top.s[0].v < 6 { // no island to complete: any two of the best
			i = rng.IntN(n)
			if i == j {
				continue
			}
		}
		if p.tilesLegal(c, top.s[i].i, top.s[j].i) {
			return replay.TilesMove(geo.cell[top.s[i].i], geo.cell[top.s[j].i])
		}
	}
	if ncells >= 2 {
		var buf [maxGroups]int16
		cells := p.listCells(&l, buf[:0])
		for try := 0; try < 12; try++ {
			i, j := rng.IntN(len(cells)), rng.IntN(len(cells))
			if i != j && p.tilesLegal(c, int(cells[i]), int(cells[j])) {
				return replay.TilesMove(geo.cell[cells[i]], geo.cell[cells[j]])
			}
		}
		off := rng.IntN(len(cells))
		for a := range cells {
			x := int(cells[(a+off)%len(cells)])
			for b := a + 1; b < len(cells); b++ {
				if y := int(cells[(b+off)%len(cells)]); p.tilesLegal(c, x, y) {
					return replay.TilesMove(geo.cell[x], geo.cell[y])
				}
			}
		}
	}
	if a, b, _, ok := p.bestBridge(c, math.SmallestNonzeroFloat64); ok {
		return replay.BridgeMove(geo.cell[a], geo.cell[b])
	}
	if p.canPass(c) {
		return replay.PassMove
	}
	var buf [64]replay.Move // not reached: no pair is legal, so the pass is
	moves := p.LegalTurns(buf[:0])
	return moves[rng.IntN(len(moves))]
}

// drawTop fills top with the five best of CellValue plus U(0,1) noise over the cells of l,
// and returns the number of cells of l.
func (p *Position) drawTop(c replay.Colour, l *bitset, rng *rand.Rand, top *top5) int {
	geo := p.g
	s := uint(geo.s)
	c &= 1
	var near [1]bitset
	var class [5]bitset
	// A cell's value differs from 0.3·free/4 only next to a tile of its colour or a
	// sandbank of 2 or 3 of the other.
	var some, open bitset
	for w := 0; w <= geo.nw; w++ {
		some[w] = p.tiles[c][w] | p.mid[c^1][w]
		open[w] = geo.board[w] &^ (p.tiles[0][w] | p.tiles[1][w] | p.blocked[w])
	}
	for w := 0; w < geo.nw; w++ {
		near[0][w] = l[w] & (up(&some, w, 1) | down(&some, w, 1) | up(&some, w, s) | down(&some, w, s))
		plain := l[w] &^ near[0][w]
		// The free cells around each plain cell, added bit-sliced.
		a, b, e, f := down(&open, w, 1), up(&open, w, 1), down(&open, w, s), up(&open, w, s)
		s0, c0, s1, c1 := a^b, a&b, e^f, e&f
		one, k := s0^s1, s0&s1
		two := c0 ^ c1 ^ k
		four := c0&c1 | c0&k | c1&k
		class[0][w] = plain &^ (one | two | four)
		class[1][w] = plain & one &^ two
		class[2][w] = plain &^ one & two
		class[3][w] = plain & one & two
		class[4][w] = plain & four
	}
	// The five highest values without noise bound the fifth noisy value from below: a
	// cell (or class) whose value plus 1 does not exceed the bound cannot enter the five,
	// and draws no noise. The classes' values go in first, so that most cells next to a
	// tile fall below the five at once.
	var counts [5]int
	var raw fifth
	for f := 4; f >= 0; f-- {
		counts[f] = count(&class[f], geo.nw)
		// Falling values: each goes last, as insert would put it.
		for i := 0; i < counts[f] && raw.n < len(raw.v); i++ {
			raw.v[raw.n] = 0.3 * float64(f) / 4
			raw.n++
		}
	}
	n := 0
	var near1 [64]scored
	k := 0
	for w := 0; w < geo.nw; w++ {
		n += bits.OnesCount64(l[w])
		for v := near[0][w]; v != 0; v &= v - 1 {
			x := w<<6 + bits.TrailingZeros64(v)
			val := p.cellValue(c, x)
			raw.insert(val)
			if k < len(near1) {
				near1[k] = scored{x, val}
				k++
				continue
			}
			if val+1 > top.floor() { // more cells than near1 holds: no bound for them
				top.insert(x, val+rng.Float64())
			}
		}
	}
	bound := raw.floor()
	for _, e := range near1[:k] {
		if e.v+1 > max(bound, top.floor()) {
			top.insert(e.i, e.v+rng.Float64())
		}
	}
	for f := 4; f >= 0; f-- {
		val := 0.3 * float64(f) / 4
		if val+1 <= max(bound, top.floor()) {
			continue
		}
		m := &class[f]
		r := counts[f]
		// The largest of r uniforms is U^(1/r); given it, the next is the largest of r-1
		// uniforms below it, and so on.
		u := 1.0
		for ; r > 0; r-- {
			u *= math.Exp(math.Log(rng.Float64()) / float64(r))
			if val+u <= max(bound, top.floor()) {
				break
			}
			x := nth(m, geo.nw, rng.IntN(r))
			m[uint(x)>>6] &^= 1 << (uint(x) & 63)
			top.insert(x, val+u)
		}
	}
	return n
}
