package turntext

import (
	"math/rand/v2"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// RandomGame is n turns of random features and think times, for tests: the running values move by small steps (as a
// game's do) or, one turn in wideEvery, by anything up to their bounds.
func RandomGame(r *rand.Rand, n, wideEvery int) ([]replay.Features, []int) {
	k := func(max int) int { return r.IntN(max + 1) }
	var run [2][6]int
	run[0][5], run[1][5] = 100, 100
	lim := [6]int{maxScore, maxIslands, maxIslands, maxCells, maxCells, maxCells}
	var out []replay.Features
	var thinks []int
	for i := range n {
		f := replay.Features{Turn: i + 1, Colour: replay.Colour(i % 2), Kind: replay.MoveKind(k(3))}
		m := int(f.Colour)
		jump := wideEvery > 0 && k(wideEvery) == 0
		step := func(c, j, lo, hi int) {
			if jump {
				run[c][j] = k(lim[j])
				return
			}
			run[c][j] = min(max(run[c][j]+lo+k(hi-lo), 0), lim[j])
		}
		switch f.Kind {
		case replay.Tiles:
			f.Move = replay.Move{Kind: replay.Tiles, A: game.CellAt(k(25), k(25)), B: game.CellAt(k(25), k(25))}
			f.TileGroups = [2]int{1 + k(3), 1 + k(3)}
			f.IslandsFormed = k(2)
		case replay.Bridge:
			f.Move = replay.Move{Kind: replay.Bridge, A: game.CellAt(k(25), k(25)), B: game.CellAt(k(25), k(25))}
			f.BridgeShape, f.BridgeEnds, f.BridgeMerged = replay.BridgeShape(1+k(2)), [2]int{1 + k(3), 1 + k(3)}, k(1) == 1
		}
		run[m][1] = min(run[m][1]+f.IslandsFormed, maxIslands)
		step(m, 0, 0, 3)
		step(m, 2, 0, 1)
		step(m, 3, -4, 3)
		for c := range 2 {
			step(c, 5, -31, 0)
			// The sandbanks made dead, and the change of the dead: those made less those
			// no longer dead (0 to 3).
			f.DeadCreated[c] = k(1)
			if k(9) == 0 {
				f.DeadCreated[c] = k(15)
			}
			if jump {
				f.DeadCreated[c] = k(45)
			}
			run[c][4] = min(max(run[c][4]+f.DeadCreated[c]-k(3), 0), lim[4])
			if jump {
				run[c][4] = k(lim[4])
			}
		}
		for c := range 2 {
			f.Score[c], f.Islands[c], f.Sandbanks[c], f.Dead[c], f.Mobility[c] = run[c][0], run[c][1], run[c][3], run[c][4], run[c][5]
		}
		f.LargestComponent = run[m][2]
		millis := 0
		if jump && k(1) == 0 {
			millis = k(1 << 30)
		}
		out = append(out, f)
		thinks = append(thinks, millis)
	}
	return out, thinks
}
