package replay_test

import (
	"errors"
	"fmt"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// A game is replayed turn by turn from its tokens; the engine keeps the score.
func ExampleGame_PlayText() {
	g, _ := replay.NewGame(10, game.Unlimited)
	for _, tok := range []string{"d4,d5", "swap", "g7,g8", "e4,e5"} {
		if err := g.PlayText(tok); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("turns:", g.Turn(), "swapped:", g.Swapped(), "next:", g.ToMove())
	fmt.Println("score:", g.Score(), "islands:", g.Islands())
	// Output:
	// turns: 4 swapped: true next: Dark
	// score: [1 0] islands: [1 0]
}

// An illegal turn is a *RuleError that names the rule, the turn and the cells.
func ExampleRuleError() {
	g, _ := replay.NewGame(6, game.Unlimited)
	var err error
	for _, tok := range []string{"a1,a2", "f1,f2", "b1,b2", "f4,f5", "c3,e5"} {
		if err = g.PlayText(tok); err != nil {
			break
		}
	}
	var re *replay.RuleError
	if errors.As(err, &re) {
		fmt.Println(re.Rule, re.Turn)
		fmt.Println(re)
	}
	// Output:
	// R3.2 5
	// R3.2: tile on c3 touches Light island b1,b2,a1,a2 diagonally
}

// ParseMove reads the notation of one turn for a board size.
func ExampleParseMove() {
	for _, s := range []string{"d4,e5", "d4-f5", "swap", "k1,a1"} {
		m, err := replay.ParseMove(s, 10)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(m.Kind, m)
	}
	// Output:
	// tiles d4,e5
	// bridge d4-f5
	// swap swap
	// R9: cell k1 of "k1,a1" is off the 10×10 board
}

// The engine answers what a bot needs: where tiles may go and which bridges may be built.
func ExampleGame_LegalBridges() {
	g, _ := replay.NewGame(6, game.Unlimited)
	for _, tok := range []string{"a1,c1", "f6,f5"} {
		_ = g.PlayText(tok)
	}
	fmt.Println(g.LegalBridges(replay.Light))
	fmt.Println(len(g.LegalTileCells(replay.Light)), "cells for a Light tile")
	// Output:
	// [a1-c1]
	// 32 cells for a Light tile
}

// A record's claims are checked against the replay (R8).
func ExampleGame_CheckClaim() {
	g, _ := replay.NewGame(6, game.Unlimited)
	_ = g.PlayText("a1,a2")
	err := g.CheckClaim(replay.Claim{Result: game.LightWins, Termination: "normal"})
	fmt.Println(err)
	// Output:
	// R8: the record claims a normal end, but the game is not over after turn 1: Dark is to move
}

// Groups and components show how a colour scores (R6).
func ExampleGame_Groups() {
	g, _ := replay.NewGame(8, game.Unlimited)
	for _, tok := range []string{"a1,a2", "h8,h7", "a3,a4", "h1,h2", "c2,c3", "f8,e8", "a2-c2"} {
		if err := g.PlayText(tok); err != nil {
			fmt.Println(err)
		}
	}
	groups, comps := g.Groups()
	for _, gr := range groups {
		fmt.Println(gr.Colour, gr.Cells, "island:", gr.Island(), "component:", gr.Component)
	}
	fmt.Println("Light components score", comps[0].Score())
	// Output:
	// Light [a3 a4 a1 a2] island: true component: 0
	// Light [c2 c3] island: false component: 0
	// Dark [h8 h7] island: false component: 1
	// Dark [h1 h2] island: false component: 2
	// Dark [f8 e8] island: false component: 3
	// Light components score 1
}
