package pos

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// CellValue is the sage bot's quick, local estimate of a tile of colour c on cell (a cell
// of the board): growing a sandbank towards an island, completing one, blocking the
// opponent's sandbanks, and room around it. It is bot's cellValue, to the last bit.
func (p *Position) CellValue(c replay.Colour, cell game.Cell) float64 {
	return p.cellValue(c, p.g.idx(cell))
}

func (p *Position) cellValue(c replay.Colour, x int) float64 {
	s := p.g.s
	t := &neighbourTab[c&1]
	sum := t[p.sq[x+1]] + t[p.sq[x-1]] + t[p.sq[x+s]] + t[p.sq[x-s]]
	if sum>>24 >= 2 {
		return p.cellValueGroups(c, x) // two neighbours may share a group
	}
	// The opponent's sandbanks (2 and 0.5, exact) and the growth, as growthValue.
	return float64(sum>>8&0xff)*0.5 + growthTab[sum&31][sum>>16&7]
}

// growthTab is growthValue(1+own, free) by the sizes of the colour's groups next to a
// cell (own) and its free neighbours.
var growthTab = func() (t [32][8]float64) {
	for own := range t {
		for free := range t[own] {
			t[own][free] = growthValue(1+own, free)
		}
	}
	return t
}()

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
	if p.supply != game.Supply40x15 || p.tilesLeft[c] >= 2 {
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
	for w := p.g.w0; w < p.g.nw; w++ {
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

// top5 keeps the five highest noisy values (never negative), best first, as sage's policy
// inserts them: a value goes after those equal to it. The values are kept as keys (key),
// 0 for a place not filled, so that an insertion is five compare-exchanges without a
// branch to mispredict.
type top5 struct {
	k [5]uint64 // the values' keys, falling
	i [5]int    // their cells
	n int       // the places filled
}

// v returns the j-th highest value, -Inf for a place not filled.
func (t *top5) v(j int) float64 { return unkey(t.k[j]) }

// floor is the value a new entry must beat, -Inf while fewer than five are kept.
func (t *top5) floor() float64 { return unkey(t.k[4]) }

// insert adds the cell i of value v >= 0. The new entry's place follows every entry at
// least as high, and the entries after it move down one place: each place is chosen, from
// the entries before the insertion, by two conditional moves.
func (t *top5) insert(i int, v float64) {
	t.n = min(t.n+1, len(t.k))
	kv := key(v)
	k0, k1, k2, k3, k4 := t.k[0], t.k[1], t.k[2], t.k[3], t.k[4]
	i0, i1, i2, i3, i4 := t.i[0], t.i[1], t.i[2], t.i[3], t.i[4]
	// Place j holds entry j when it is at least kv, else the new entry when entry j-1 is
	// (or j is 0), else entry j-1.
	g0, g1, g2, g3, g4 := k0 >= kv, k1 >= kv, k2 >= kv, k3 >= kv, k4 >= kv
	nk, ni := kv, i
	if g0 {
		nk, ni = k0, i0
	}
	t.k[0], t.i[0] = nk, ni
	nk, ni = k0, i0
	if g0 {
		nk, ni = kv, i
	}
	if g1 {
		nk, ni = k1, i1
	}
	t.k[1], t.i[1] = nk, ni
	nk, ni = k1, i1
	if g1 {
		nk, ni = kv, i
	}
	if g2 {
		nk, ni = k2, i2
	}
	t.k[2], t.i[2] = nk, ni
	nk, ni = k2, i2
	if g2 {
		nk, ni = kv, i
	}
	if g3 {
		nk, ni = k3, i3
	}
	t.k[3], t.i[3] = nk, ni
	nk, ni = k3, i3
	if g3 {
		nk, ni = kv, i
	}
	if g4 {
		nk, ni = k4, i4
	}
	t.k[4], t.i[4] = nk, ni
}

// The five highest values of cells without noise (never negative) are kept as integer
// keys: 0 for a place not filled (-Inf), else the value's bits plus 1, which order
// non-negative floats as the floats themselves (integer compares are cheaper).

// key is the key of v >= 0.
func key(v float64) uint64 { return math.Float64bits(v) + 1 }

// unkey is the value of key k, -Inf for 0.
func unkey(k uint64) float64 {
	if k == 0 {
		return math.Inf(-1)
	}
	return math.Float64frombits(k - 1)
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
	var d Draw
	return p.DrawTurn(rng, &d)
}

// Draw is a playout turn's working space, kept between turns so that a turn clears
// nothing, and what the turn drew, with the plan of its tiles that PlayDraw reuses. Its
// zero value is ready.
type Draw struct {
	move    replay.Move
	c       replay.Colour
	x, y    int  // the tiles' cells, as Play reads them from move
	planned bool // pl is the plan of move's tiles on the position drawn from
	no10    bool // the mover had no legal bridge worth 10 before the turn
	pl      plan
	top     top5
	// The masks of a turn, each written (words 0 to nw) before it is read.
	l, single, next, near, some, open bitset
	class                             [5]bitset
	near1                             [64]scored
}

// DrawTurn is PlayoutTurn drawing into d, which keeps the turn and the plan of its tiles
// for PlayDraw: the same turn for the same random draws. The position does not change.
func (p *Position) DrawTurn(rng *rand.Rand, d *Draw) replay.Move {
	d.planned, d.no10 = false, false
	d.move = p.drawTurn(rng, d)
	return d.move
}

// PlayDraw plays the turn that DrawTurn drew last into d on this position: Play(d's turn),
// without planning its tiles again.
func (p *Position) PlayDraw(d *Draw) {
	if !d.planned || d.move.Kind != replay.Tiles {
		p.play(d.move, d.no10)
		return
	}
	d.planned = false
	p.grew, p.nadded = false, 0
	p.applyTiles(d.c, d.x, d.y, &d.pl)
	p.tilesLeft[d.c] -= 2
	p.afterTurn(d.c, d.move, d.no10)
}

// pairLegal is tilesLegal keeping, when x and y are legal, their turn and its plan in d.
func (p *Position) pairLegal(c replay.Colour, x, y int, d *Draw) bool {
	if !p.tilesLegalPlan(c, x, y, &d.pl) {
		return false
	}
	d.c, d.x, d.y, d.planned = c, x, y, true
	return true
}

func (p *Position) drawTurn(rng *rand.Rand, d *Draw) replay.Move {
	c := p.ToMove()
	geo := p.g
	tryBridges := rng.IntN(4) == 0
	d.no10 = p.icomp[c] < 2
	if tryBridges || p.islands[c] >= 2 {
		least := 10.0
		if tryBridges {
			least = 1.5
		}
		a, b, v, ok := p.bestBridge(c, least)
		// bestBridge looked for a bridge worth 10 first (unless the pool is empty).
		d.no10 = d.no10 || v < 10 && (p.supply != game.Supply40x15 || p.bridgesLeft > 0)
		if ok {
			return replay.BridgeMove(geo.cell[a], geo.cell[b])
		}
	}
	l := &d.l
	ncells := 0
	top := &d.top
	*top = top5{}
	if p.supply != game.Supply40x15 || p.tilesLeft[c] >= 2 {
		p.legalMaskWith(c, l, &d.single, &d.next)
		ncells = p.drawTop(c, rng, d)
	}
	n := top.n
	for try := 0; try < 6 && n >= 2; try++ {
		i, j := 0, 1+rng.IntN(n-1)
		if top.v(0) < 6 { // no island to complete: any two of the best
			i = rng.IntN(n)
			if i == j {
				continue
			}
		}
		if x, y := top.i[i], top.i[j]; p.pairLegal(c, x, y, d) {
			return replay.TilesMove(geo.cell[x], geo.cell[y])
		}
	}
	if ncells >= 2 {
		var buf [maxGroups]int16
		cells := p.listCells(l, buf[:0])
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
	// No pair is legal: the colour has fewer than 2 tiles, fewer than 2 legal cells, or
	// the pairs above were all of them. So the pass is legal (canPass), without asking.
	return replay.PassMove
}

// classValue is the value of a cell next to no tile of its colour and no sandbank of 2 or
// 3 of the other, by its free neighbours: 0.3·free/4.
// (computed as sage computes it, 0.3·free rounded and then divided).
var classValue = func() (v [5]float64) {
	for f := range v {
		v[f] = 0.3 * float64(f) / 4
	}
	return v
}()

// classKey holds the keys of classValue (and 0 past them).
var classKey = func() (k [8]uint64) {
	for f, v := range classValue {
		k[f] = key(v)
	}
	return k
}()

// placeClasses holds, by the numbers of plain cells in classes 4, 4 to 3, 4 to 2, 4 to 1
// and 4 to 0, each at most 5 (index ((((a0·6+a1)·6+a2)·6+a3)·6+a4), the classes of the five
// highest plain values, 3 bits a place, best first: 5 for a place no plain cell fills.
var placeClasses = func() (t [6 * 6 * 6 * 6 * 6]uint16) {
	for i := range t {
		a := [5]int{i / 1296 % 6, i / 216 % 6, i / 36 % 6, i / 6 % 6, i % 6} // a0, a1, a2, a3, a4
		for j := range 5 {
			f := 5
			if j < a[0] {
				f = 0
				for g := 1; g <= 4; g++ {
					if j < a[g] {
						f = g
					}
				}
			}
			t[i] |= uint16(f) << (3 * j)
		}
	}
	return t
}()

// drawTop fills d.top with the five best of CellValue plus U(0,1) noise over the cells of
// d.l, and returns the number of cells of d.l.
func (p *Position) drawTop(c replay.Colour, rng *rand.Rand, d *Draw) int {
	geo := p.g
	s := uint(geo.s)
	c &= 1
	l, near, class, top := &d.l, &d.near, &d.class, &d.top
	// A cell's value differs from 0.3·free/4 only next to a tile of its colour or a
	// sandbank of 2 or 3 of the other.
	some, open := &d.some, &d.open
	for w := geo.wlo; w <= geo.nw; w++ {
		some[w] = p.tiles[c][w] | p.mid[c^1][w]
		open[w] = geo.board[w] &^ (p.tiles[0][w] | p.tiles[1][w] | p.blocked[w])
	}
	var counts [5]int
	n := 0
	for w := geo.w0; w < geo.nw; w++ {
		lw := l[w]
		n += bits.OnesCount64(lw)
		nw := lw & (up(some, w, 1) | down(some, w, 1) | up(some, w, s) | down(some, w, s))
		near[w] = nw
		plain := lw &^ nw
		// The free cells around each plain cell, added bit-sliced.
		a, b, e, f := down(open, w, 1), up(open, w, 1), down(open, w, s), up(open, w, s)
		s0, c0, s1, c1 := a^b, a&b, e^f, e&f
		one, k := s0^s1, s0&s1
		two := c0 ^ c1 ^ k
		four := c0&c1 | c0&k | c1&k
		k0 := plain &^ (one | two | four)
		k1 := plain & one &^ two
		k2 := plain &^ one & two
		k3 := plain & one & two
		k4 := plain & four
		class[0][w], class[1][w], class[2][w], class[3][w], class[4][w] = k0, k1, k2, k3, k4
		counts[0] += bits.OnesCount64(k0)
		counts[1] += bits.OnesCount64(k1)
		counts[2] += bits.OnesCount64(k2)
		counts[3] += bits.OnesCount64(k3)
		counts[4] += bits.OnesCount64(k4)
	}
	// The five highest values without noise bound the fifth noisy value from below: a
	// cell (or class) whose value plus 1 does not exceed the bound cannot enter the five,
	// and draws no noise. The classes' values go in first, so that most cells next to a
	// tile fall below the five at once.
	// The classes' values, falling: place j holds the class of the j-th plain cell in
	// the order of their values (class 4 first).
	c4 := counts[4]
	c3 := c4 + counts[3]
	c2 := c3 + counts[2]
	c1 := c2 + counts[1]
	c0 := c1 + counts[0]
	// Which class a place holds is data: from a table, without branches.
	pc := placeClasses[(((min(c0, 5)*6+min(c1, 5))*6+min(c2, 5))*6+min(c3, 5))*6+min(c4, 5)]
	// The five highest values as keys (key), highest first, in registers.
	r0, r1, r2, r3, r4 := classKey[pc&7], classKey[pc>>3&7], classKey[pc>>6&7], classKey[pc>>9&7], classKey[pc>>12&7]
	near1 := &d.near1
	k := 0
	nt := &neighbourTab[c]
	sq := &p.sq
	for w := geo.w0; w < geo.nw; w++ {
		for v := near[w]; v != 0; v &= v - 1 {
			x := w<<6 + bits.TrailingZeros64(v)
			// cellValue, its common case inline
			var val float64
			if sum := nt[sq[x+1]] + nt[sq[x-1]] + nt[sq[x+int(s)]] + nt[sq[x-int(s)]]; sum>>24 >= 2 {
				val = p.cellValueGroups(c, x)
			} else {
				val = float64(sum>>8&0xff)*0.5 + growthTab[sum&31][sum>>16&7]
			}
			// Keep the five highest by compare-exchanges in registers (the same five
			// as an insertion, without branches to mispredict).
			kv := key(val)
			r0, kv = max(r0, kv), min(r0, kv)
			r1, kv = max(r1, kv), min(r1, kv)
			r2, kv = max(r2, kv), min(r2, kv)
			r3, kv = max(r3, kv), min(r3, kv)
			r4 = max(r4, kv)
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
	bound := unkey(r4)
	least := atLeast(bound, top.floor()) // what a noisy value must beat; it only rises
	for _, e := range near1[:k] {
		if e.v+1 > least {
			top.insert(e.i, e.v+rng.Float64())
			least = atLeast(bound, top.floor())
		}
	}
	for f := 4; f >= 0; f-- {
		val := classValue[f]
		if val+1 <= least {
			continue
		}
		m := &class[f]
		r := counts[f]
		// The largest of r uniforms is U^(1/r); given it, the next is the largest of r-1
		// uniforms below it, and so on.
		u := 1.0
		for ; r > 0; r-- {
			draw := rng.Float64()
			if below(val, u, least, draw, r) {
				break
			}
			u *= math.Exp(math.Log(draw) / float64(r))
			if val+u <= least {
				break
			}
			x := nth(m, geo.w0, geo.nw, rng.IntN(r))
			m[uint(x)>>6] &^= 1 << (uint(x) & 63)
			top.insert(x, val+u)
			least = atLeast(bound, top.floor())
		}
	}
	return n
}

// atLeast is max(bound, floor) for values that are not NaN (floor may be -Inf).
func atLeast(bound, floor float64) float64 {
	if floor > bound {
		return floor
	}
	return bound
}

// below reports, without the logarithm and the exponential, that the next noise of a
// class whose noise so far is u, u·x^(1/r), leaves val plus it at most least; false when
// it cannot tell (then it is computed). It tells when val+u is at most least already (the
// noise only falls), or when x is below ((least−val)/u)^r by a margin of 1e-6, a million
// times what the rounding of the logarithm, the exponential and the power can move.
func below(val, u, least, x float64, r int) bool {
	if val+u <= least {
		return true
	}
	d := least - val
	if d < 1e-4 {
		return false
	}
	return x < powInt(d/u, r)*(1-1e-6)
}

// powInt returns t^r for r ≥ 1 by squaring.
func powInt(t float64, r int) float64 {
	p := 1.0
	for {
		if r&1 != 0 {
			p *= t
		}
		r >>= 1
		if r == 0 {
			return p
		}
		t *= t
	}
}
