package pos

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestCrossesTable checks crossesJ, the crossing test from tables, against crosses for
// every board cell and forward jump, after every turn of random games rich in bridges on
// every board size (the sizes whose boxes do not fit in a word take crosses itself).
func TestCrossesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 12))
	for size := game.MinSize; size <= game.MaxSize; size++ {
		p, err := New(size, game.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		geo := p.g
		var moves, bridges []replay.Move
		checked := 0
		for !p.Over() {
			if p.bridges[0]+p.bridges[1] > 0 {
				for x := range geo.cell {
					if geo.cell[x] == game.NoCell {
						continue
					}
					for j, d := range geo.jumps {
						if y := x + d; y < len(geo.cell) && geo.cell[y] != game.NoCell {
							if got, want := p.crossesJ(x, j), p.crosses(x, y); got != want {
								t.Fatalf("%d×%d turn %d: crossesJ(%s, jump %d) = %v, crosses = %v",
									size, size, p.turn, geo.cell[x], j, got, want)
							}
							checked++
						}
					}
				}
			}
			moves = p.LegalTurns(moves[:0])
			bridges = bridges[:0]
			for _, m := range moves {
				if m.Kind == replay.Bridge {
					bridges = append(bridges, m)
				}
			}
			m := moves[rng.IntN(len(moves))]
			if len(bridges) > 0 && rng.IntN(2) == 0 {
				m = bridges[rng.IntN(len(bridges))]
			}
			p.Play(m)
		}
		if checked == 0 {
			t.Errorf("%d×%d: no bridge was built", size, size)
		}
	}
}
