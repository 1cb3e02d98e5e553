package pos_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// A search builds its position from the game and plays playouts on copies of it.
func Example() {
	g, _ := replay.NewGame(10, game.Unlimited)
	for _, tok := range []string{"e5,f5", "swap", "c3,c4", "e6,f6"} {
		if err := g.PlayText(tok); err != nil {
			fmt.Println(err)
			return
		}
	}
	root, err := pos.FromGame(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("turn", root.Turn(), "to move", root.ToMove(), "islands", root.Islands())
	fmt.Println("Dark's legal cells:", len(root.LegalTileCells(replay.Dark, nil)))

	rng := rand.New(rand.NewPCG(1, 2))
	var sim pos.Position
	sim.CopyFrom(&root)
	for !sim.Over() {
		sim.Play(sim.PlayoutTurn(rng))
	}
	fmt.Println("the playout ended:", sim.Result() != game.NoResult)
	// Output:
	// turn 4 to move Dark islands [1 0]
	// Dark's legal cells: 94
	// the playout ended: true
}
