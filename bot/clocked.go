package bot

import (
	"math/rand/v2"
	"time"

	"github.com/ponte/ponte/replay"
)

// Analyser is a bot that reads a position: the value of the position and its best turn,
// and what a turn played there gives away (Sage and Arch).
type Analyser interface {
	Bot
	Analyse(g *replay.Game, played *replay.Move, rng *rand.Rand) Analysis
}

// Clocked is a bot whose budget can be a time per turn, set from outside (Sage and Arch),
// as a game clock does.
type Clocked interface {
	Bot
	// SetTimePerTurn makes d the budget of the next turns (0: the bot's own budget again)
	// and returns the one it replaces.
	SetTimePerTurn(d time.Duration) time.Duration
}

// SetTimePerTurn sets the time budget of the next turns and returns the previous one.
func (s *Sage) SetTimePerTurn(d time.Duration) time.Duration {
	old := s.TimePerTurn
	s.TimePerTurn = d
	return old
}

// SetTimePerTurn sets the time budget of the next turns and returns the previous one.
func (a *Arch) SetTimePerTurn(d time.Duration) time.Duration {
	old := a.TimePerTurn
	a.TimePerTurn = d
	return old
}
