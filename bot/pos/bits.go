package pos

import (
	"math/bits"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Board geometry. A cell of a board of side N has the index (row+2)·S + col+2 + off with
// the stride S = N+2: the two columns past the last one are the margin on both sides (the
// column before the first is the last margin column of the row below), and two margin
// rows lie below and above the board. Any jump of up to two cells from a board cell stays
// inside the arrays and lands on the board or on the margin, so no bounds checks are
// needed. The offset off (0 to 63) puts the board's cells in as few 64-bit words as they
// can fill: the two of a 10×10 board (118 indices from the first cell to the last) would
// straddle three words without it.
const (
	maxStride = game.MaxSize + 2
	numIdx    = (game.MaxSize+4)*maxStride + 4 + maxOff
	maxOff    = 63
	numWords  = 16 // numIdx/64 + 2 (one spare word, read by the shifts), rounded up to a power of 2
	maxGroups = game.MaxSize * game.MaxSize
)

// bitset holds a bit per cell index.
type bitset [numWords]uint64

func (b *bitset) has(i int) bool { return b[uint(i)>>6%numWords]>>(uint(i)&63)&1 != 0 }
func (b *bitset) set(i int)      { b[uint(i)>>6%numWords] |= 1 << (uint(i) & 63) }

// set3 sets the bits i, i+1 and i+2.
func (b *bitset) set3(i int) {
	w, k := uint(i)>>6, uint(i)&63
	b[w%numWords] |= 7 << k
	if k > 61 {
		b[(w+1)%numWords] |= 7 >> (64 - k)
	}
}

// word returns the 64 bits of b from index off on.
func (b *bitset) word(off int) uint64 {
	w, s := uint(off)>>6, uint(off)&63
	return b[w%numWords]>>s | b[(w+1)%numWords]<<(64-s)
}

// up returns word i of the set whose bit x+k is bit x of b; down that whose bit x is bit
// x+k of b. 0 < k < 64, 0 <= i < numWords-1. The last word of a bitset is never set
// (numWords has a spare word), so that up reads it, modulo numWords, as the word before
// the first.
func up(b *bitset, i int, k uint) uint64 {
	return b[uint(i)%numWords]<<(k&63) | b[uint(i-1)%numWords]>>((64-k)&63)
}

func down(b *bitset, i int, k uint) uint64 {
	return b[uint(i)%numWords]>>(k&63) | b[uint(i+1)%numWords]<<((64-k)&63)
}

// geom is what a board size fixes: its stride, the words its cells use, the board mask,
// the conversions between cell indices and replay cells, and the bridge jumps.
type geom struct {
	size, s int
	off     int // the index of a cell is (row+2)·s + col+2 + off
	// The board's cells lie in the words w0 to nw-1; w0 > 0 only when off moved them,
	// and then word w0-1 holds margin only.
	w0, nw int
	wlo    int // max(w0-1, 0): the first word that scratch masks read by up are written from
	last   int // the highest cell index of the board
	board  bitset
	cell   [numIdx]game.Cell // the replay cell of an index, NoCell off the board
	x, y   [numIdx]int8      // column+2 and row+2 of an index
	// jumps are the 8 bridge jumps to a higher index, in the order replay lists bridges;
	// water their water cells as offsets from the lower end (the second equal to the
	// first for a straight or diagonal jump).
	jumps [8]int
	water [8][2]int
	walls [numIdx]uint8 // the squares of the empty board: sqWall off it
	// box[h-3][w-3] holds the cells of a box h rows high and w columns wide, from bit 0
	// (its lowest cell) on; 0 when the box does not fit in 64 bits.
	box [3][3]uint64
	// The crossing test of a bridge from a lower end x by jump j (crossesJ): the bridge
	// ends that matter lie in the word from x+xbase[j] masked by xbox[j] (0 when the box
	// does not fit in 64 bits); the one on bit b crosses or touches it when bit
	// jcode[partner−end+2s+2] of xtab[j][b] is set.
	xbase [8]int
	xbox  [8]uint64
	xtab  [8][64]uint16
	jcode [4*maxStride + 5]uint8
	// pmask has a bit for each tile a jump away from a tile 2s+2 cells above its bit 0,
	// pjump the jump of each bit; pmask is 0 when they do not fit in 64 bits.
	pmask uint64
	pjump [64]int8
}

// geoms are the geometries of the board sizes, built at start.
var geoms = func() (out [game.MaxSize + 1]*geom) {
	for n := game.MinSize; n <= game.MaxSize; n++ {
		g := &geom{size: n, s: n + 2}
		g.off = bestOffset(n)
		for i := range g.cell {
			if j := i - g.off; j >= 0 {
				g.x[i], g.y[i] = int8(j%g.s), int8(j/g.s)
			}
			g.walls[i] = sqWall
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				i := g.idx(game.CellAt(c, r))
				g.cell[i] = game.CellAt(c, r)
				g.board.set(i)
				g.walls[i] = 0
				g.last = i
			}
		}
		g.w0, g.nw = g.idx(game.CellAt(0, 0))/64, g.last/64+1
		g.wlo = max(g.w0-1, 0)
		for h := 3; h <= 5; h++ {
			for w := 3; w <= 5; w++ {
				if (h-1)*g.s+w > 64 {
					continue
				}
				for r := 0; r < h; r++ {
					g.box[h-3][w-3] |= (1<<w - 1) << (r * g.s)
				}
			}
		}
		// The forward jumps (dx, dy) in the order of replay's jump list.
		for j, d := range [8][2]int{{2, 0}, {0, 2}, {2, 2}, {-2, 2}, {1, 2}, {-1, 2}, {2, 1}, {-2, 1}} {
			a := game.CellAt(n/2, n/2)
			b := game.CellAt(n/2+d[0], n/2+d[1])
			g.jumps[j] = g.idx(b) - g.idx(a)
			w1, w2 := replay.Water(a, b)
			if w2 == game.NoCell {
				w2 = w1
			}
			g.water[j] = [2]int{g.idx(w1) - g.idx(a), g.idx(w2) - g.idx(a)}
		}
		g.crossTables()
		out[n] = g
	}
	return out
}()

// bestOffset returns the offset (0 to maxOff) that puts the cells of a board of side n
// in the fewest 64-bit words, the smallest of those; 0 when none saves a word, so that
// the board's first word is then word 0.
func bestOffset(n int) int {
	s := n + 2
	first, last := 2*s+2, (n+1)*s+n+1
	words := func(off int) int { return (last+off)/64 - (first+off)/64 + 1 }
	best := 0
	for off := 1; off <= maxOff; off++ {
		if words(off) < words(best) {
			best = off
		}
	}
	return best
}

// idx returns the index of a replay cell (which must be on the board or near it).
func (g *geom) idx(c game.Cell) int { return int(c>>5)*g.s + int(c&31) + g.off }

// count returns the number of bits of m in the words w0 to nw-1.
func count(m *bitset, w0, nw int) int {
	n := 0
	for w := w0; w < nw; w++ {
		n += bits.OnesCount64(m[w])
	}
	return n
}

// nth returns the index of the k-th bit (from 0) of m in the words w0 to nw-1.
func nth(m *bitset, w0, nw, k int) int {
	for w := w0; w < nw; w++ {
		c := bits.OnesCount64(m[w])
		if k >= c {
			k -= c
			continue
		}
		return w<<6 + selectBit(m[w], k)
	}
	return -1
}

// selectBit returns the position of the k-th set bit (from 0) of v, which has more than
// k: halves, quarters and eighths by their counts, then bit by bit.
func selectBit(v uint64, k int) int {
	pos := 0
	if c := bits.OnesCount32(uint32(v)); k >= c {
		k -= c
		v >>= 32
		pos = 32
	}
	if c := bits.OnesCount16(uint16(v)); k >= c {
		k -= c
		v >>= 16
		pos += 16
	}
	if c := bits.OnesCount8(uint8(v)); k >= c {
		k -= c
		v >>= 8
		pos += 8
	}
	for ; k > 0; k-- {
		v &= v - 1
	}
	return pos + bits.TrailingZeros64(v)
}

// shift returns word i of the set whose bit x is bit x+k of b, for -64 < k < 64, k != 0.
func shift(b *bitset, i int, k int) uint64 {
	if k > 0 {
		return down(b, i, uint(k))
	}
	return up(b, i, uint(-k))
}

// The words must hold every index and a spare one, and be a power of 2 in number, so that
// an index taken modulo numWords needs no bounds check.
var _ [numWords - numIdx/64 - 2]struct{}

// maxLast is the highest index of a board cell, on the largest board at the largest offset.
const maxLast = (game.MaxSize+1)*maxStride + game.MaxSize + 1 + maxOff

// The arrays hold every index a jump of two cells from a board cell reaches.
var _ [numIdx - (maxLast + 2*maxStride + 2) - 1]struct{}

// No loop over the words of a board writes beyond word nw (at most maxLast/64+1), so the
// last word stays empty for up.
var _ [numWords - 1 - (maxLast/64 + 1) - 1]struct{}
var _ [0]struct{} = [numWords & (numWords - 1)]struct{}{}
