// Package bot holds players for Ponte del Diavolo built on the rules engine: a uniformly
// random player, a greedy player with a one-turn look-ahead, and a Monte Carlo tree search
// player. Every bot is deterministic for a given random source, so that archives of their
// games are reproducible from a seed.
package bot

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ponte/ponte/replay"
)

// Bot chooses turns.
type Bot interface {
	// Name is the bot's name as the command line and the records write it: "greedy".
	Name() string
	// Turn returns a legal turn for the colour to move in g, which must not be over. It
	// does not change g. All randomness comes from rng.
	Turn(g *replay.Game, rng *rand.Rand) replay.Move
}

// Options tune the bots that search.
type Options struct {
	// Playouts is the mcts bot's budget of simulated games per turn (default 400).
	Playouts int
	// Workers is how many goroutines the mcts bot searches with (default 1). A game is
	// reproducible for a seed and a number of workers: the playouts are split among the
	// workers, so another number gives another search.
	Workers int
}

// Names lists the bots New knows, weakest first.
var Names = []string{"random", "greedy", "mcts"}

// New returns the bot called name.
func New(name string, o Options) (Bot, error) {
	switch name {
	case "random":
		return Random{}, nil
	case "greedy":
		return NewGreedy(), nil
	case "mcts":
		return NewMCTS(o), nil
	}
	return nil, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names, ", "))
}
