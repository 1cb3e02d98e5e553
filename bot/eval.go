package bot

import (
	"math"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Evaluation weights: what a position is worth to a colour, in units of "a point of score".
const (
	wScore     = 10.0 // the score itself
	wIsland    = 2.0  // islands also break ties and feed future bridges
	wSandbank3 = 1.6  // one tile from an island
	wSandbank2 = 0.7  // two tiles from an island
	wSandbank1 = 0.0  // a lone tile is worth only its room: an opening in a corner is weak
	wDeadTile  = 0.5  // every tile of a dead sandbank is wasted ("burned land")
	wBridge    = 0.25 // bridges carry connections, and break ties
	wMobility  = 0.04 // cells left to build islands
	wRoom      = 0.12 // free cells next to the sandbanks that can still grow
)

// worth is what the position is worth to colour c alone.
func worth(g *replay.Game, c replay.Colour) float64 {
	k := g.Census(c)
	alive3, alive2, alive1 := k.Sandbanks[3]-k.Dead[3], k.Sandbanks[2]-k.Dead[2], k.Sandbanks[1]-k.Dead[1]
	deadTiles := 3*k.Dead[3] + 2*k.Dead[2] + k.Dead[1]
	return wScore*float64(g.Score()[c]) + wIsland*float64(g.Islands()[c]) +
		wSandbank3*float64(alive3) + wSandbank2*float64(alive2) + wSandbank1*float64(alive1) -
		wDeadTile*float64(deadTiles) + wBridge*float64(g.Bridges()[c]) + wMobility*float64(g.Mobility(c)) +
		wRoom*float64(k.Room)
}

// Evaluate returns how much better the position is for colour c than for its opponent.
// A finished game is worth ±1000 (0 for a draw), so that any search prefers a sure win.
func Evaluate(g *replay.Game, c replay.Colour) float64 {
	if g.Over() {
		switch r := g.Result(); {
		case r == game.Draw:
			return 0
		case (r == game.LightWins) == (c == replay.Light):
			return 1000
		default:
			return -1000
		}
	}
	return worth(g, c) - worth(g, c.Other())
}

// winChance maps an evaluation to the probability of winning that a search averages:
// a logistic curve where 4 points of evaluation are about 73%.
func winChance(eval float64) float64 {
	return 1 / (1 + math.Exp(-eval/4))
}

// lightValue is a playout's value for Light: the result when the game is over, else the
// win chance of Evaluate's margin.
func lightValue(g *replay.Game) float64 {
	if !g.Over() {
		return winChance(Evaluate(g, replay.Light))
	}
	switch g.Result() {
	case game.LightWins:
		return 1
	case game.DarkWins:
		return 0
	}
	return 0.5
}
