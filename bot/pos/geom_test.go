package pos

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
)

// TestGeometry checks every board size's cell indices: the board's cells lie in the
// fewest 64-bit words any offset gives, a jump of two cells from any board cell stays
// inside the arrays, the words below w0 hold no board cell, and every cell's index maps
// back to it.
func TestGeometry(t *testing.T) {
	for n := game.MinSize; n <= game.MaxSize; n++ {
		g := geoms[n]
		first, last := g.idx(game.CellAt(0, 0)), g.idx(game.CellAt(n-1, n-1))
		if last != g.last {
			t.Errorf("%d×%d: last cell %d, geometry says %d", n, n, last, g.last)
		}
		fewest := (last - first + 64) / 64 // a span of k indices fills at least ⌈k/64⌉ words
		if words := g.nw - g.w0; words > fewest+1 || words != wordsAt(n, g.off) {
			t.Errorf("%d×%d: offset %d puts the board in %d words", n, n, g.off, words)
		}
		for off := range maxOff + 1 {
			if wordsAt(n, off) < g.nw-g.w0 {
				t.Errorf("%d×%d: offset %d needs %d words, %d does with %d", n, n, g.off, g.nw-g.w0, off, wordsAt(n, off))
			}
		}
		if first/64 != g.w0 || last/64+1 != g.nw || g.wlo != max(g.w0-1, 0) {
			t.Errorf("%d×%d: words %d to %d (from %d), cells %d to %d", n, n, g.w0, g.nw, g.wlo, first, last)
		}
		if top := last + 2*g.s + 2; top >= numIdx || first-2*g.s-2 < 0 || g.nw+1 >= numWords {
			t.Errorf("%d×%d: indices %d to %d, words to %d, out of the arrays", n, n, first-2*g.s-2, top, g.nw+1)
		}
		for r := range n {
			for c := range n {
				i := g.idx(game.CellAt(c, r))
				if g.cell[i] != game.CellAt(c, r) || int(g.x[i]) != c+2 || int(g.y[i]) != r+2 || !g.board.has(i) {
					t.Fatalf("%d×%d: cell (%d,%d) at %d maps back to %v, x %d, y %d", n, n, c, r, i, g.cell[i], g.x[i], g.y[i])
				}
			}
		}
	}
}

// wordsAt is the number of 64-bit words the cells of a board of side n span at offset off.
func wordsAt(n, off int) int {
	s := n + 2
	return ((n+1)*s+n+1+off)/64 - (2*s+2+off)/64 + 1
}

// TestDiffEverySize plays a game on every board size on both engines and checks they
// agree after every turn (each size has its own offset of the cell indices).
func TestDiffEverySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for n := game.MinSize; n <= game.MaxSize; n++ {
		t.Run(fmt.Sprintf("%dx%d", n, n), func(t *testing.T) {
			diffGame(t, n, game.Unlimited, policy, rng, n <= 8)
			if n <= 12 {
				diffGame(t, n, game.Supply40x15, uniform, rng, false)
			}
		})
	}
}
