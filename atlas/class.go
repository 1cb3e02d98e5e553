package atlas

import (
	"slices"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Fold is the canonical form of the opening {a, b} on a board of side n under the board's
// symmetries: one function, so that the folding the project uses is named in one place.
func Fold(a, b game.Cell, n int) (game.Cell, game.Cell) { return game.FoldPair(a, b, n) }

// Class is a class of openings: every pair of cells that a symmetry of the board maps
// onto its representative A, B (the folded pair).
type Class struct {
	ID   int       // from 1, in the order of the representatives (row, then column)
	A, B game.Cell // the representative, as Fold writes it
	// Edge is the distance from the nearer tile to the nearest edge (0 on the edge).
	Edge int
	// Apart is the distance between the tiles in king moves (1 for neighbours).
	Apart int
	// Size is the number of openings in the class (1, 2, 4 or 8).
	Size int
}

// Opening is the class's representative as Light's first turn.
func (c Class) Opening() replay.Move { return replay.TilesMove(c.A, c.B) }

// Classes lists the classes of legal first turns on a board of side n: the pairs of
// distinct cells folded by the board's symmetries, in the order of their representatives.
// A pair the rules forbid as a first turn (none under the current rules) is left out.
func Classes(n int) ([]Class, error) {
	g, err := replay.NewGame(n, game.Unlimited)
	if err != nil {
		return nil, err
	}
	type key struct{ a, b game.Cell }
	count := map[key]int{}
	for i := range n * n {
		for j := i + 1; j < n*n; j++ {
			a, b := game.CellAt(i%n, i/n), game.CellAt(j%n, j/n)
			fa, fb := Fold(a, b, n)
			count[key{fa, fb}]++
		}
	}
	out := make([]Class, 0, len(count))
	for k, size := range count {
		if !g.IsLegal(replay.TilesMove(k.a, k.b)) {
			continue
		}
		out = append(out, Class{A: k.a, B: k.b, Size: size, Edge: min(edge(k.a, n), edge(k.b, n)),
			Apart: max(abs(k.a.Col()-k.b.Col()), abs(k.a.Row()-k.b.Row()))})
	}
	slices.SortFunc(out, func(x, y Class) int {
		if c := order(x.A, y.A); c != 0 {
			return c
		}
		return order(x.B, y.B)
	})
	for i := range out {
		out[i].ID = i + 1
	}
	return out, nil
}

func order(a, b game.Cell) int {
	if a.Row() != b.Row() {
		return a.Row() - b.Row()
	}
	return a.Col() - b.Col()
}

func edge(c game.Cell, n int) int {
	return min(c.Col(), c.Row(), n-1-c.Col(), n-1-c.Row())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
