// Package components writes a final position's components as games.components_light and
// components_dark hold them: each component of a colour (islands joined by bridges) that
// holds an island, as the number of its islands, largest first, in a JSON array (`[3,1,1]`).
// The intake writes them for every game it stores, and the store's upgrade for the games
// stored before the columns were.
package components

import (
	"slices"
	"strconv"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Final fills comps[colour] with the islands of each component of the colour in g's
// position that holds an island, largest first, reusing comps' memory. Every tile of a
// 4-tile group (an island) names its component, and each component is counted once.
func Final(g *replay.Game, comps [2][]int) [2][]int {
	var seen [2][]int // component ids
	comps[0], comps[1] = comps[0][:0], comps[1][:0]
	size := g.Size()
	for row := range size {
		for col := range size {
			cell := game.CellAt(col, row)
			colour, ok := g.At(cell)
			if !ok || g.GroupSize(cell) != 4 {
				continue
			}
			id, islands := g.ComponentOf(cell)
			if slices.Contains(seen[colour], id) {
				continue
			}
			seen[colour] = append(seen[colour], id)
			comps[colour] = append(comps[colour], islands)
		}
	}
	for c := range comps {
		slices.Sort(comps[c])
		slices.Reverse(comps[c])
	}
	return comps
}

// Append appends the JSON array of islands.
func Append(dst []byte, islands []int) []byte {
	dst = append(dst, '[')
	for i, n := range islands {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, ']')
}

// common are the texts of components most games end with, made once.
var common = map[string]string{}

func init() {
	for _, c := range [][]int{{}, {1}, {1, 1}, {1, 1, 1}, {2}, {2, 1}, {1, 1, 1, 1}, {2, 1, 1}, {3}} {
		s := string(Append(nil, c))
		common[s] = s
	}
}

// Text is text as a string, shared when it is a common one (no allocation).
func Text(text []byte) string {
	if s, ok := common[string(text)]; ok { // no allocation to look up
		return s
	}
	return string(text)
}
