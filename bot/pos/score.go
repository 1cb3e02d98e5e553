package pos

import (
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Score returns each colour's score (R6) as [light, dark].
func (p *Position) Score() [2]int { return p.score }

// Islands returns each colour's number of islands as [light, dark].
func (p *Position) Islands() [2]int { return p.islands }

// Sandbanks returns each colour's number of sandbanks as [light, dark].
func (p *Position) Sandbanks() [2]int { return p.sandbanks }

// Bridges returns each colour's number of bridges as [light, dark].
func (p *Position) Bridges() [2]int { return p.bridges }

// Standing applies R7 to the position, over or not: who is ahead and what decides it.
func (p *Position) Standing() (game.Result, replay.TieBreak) {
	for i, pair := range [3][2]int{p.score, p.islands, p.bridges} {
		switch {
		case pair[0] > pair[1]:
			return game.LightWins, replay.TieBreak(i)
		case pair[0] < pair[1]:
			return game.DarkWins, replay.TieBreak(i)
		}
	}
	return game.Draw, replay.Drawn
}

// Result returns the outcome of a finished game (R7), NoResult while it is not over.
func (p *Position) Result() game.Result {
	if !p.over {
		return game.NoResult
	}
	r, _ := p.Standing()
	return r
}
