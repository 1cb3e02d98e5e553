// Package bot holds players for Ponte del Diavolo built on the rules engine: a uniformly
// random player, a greedy player with a one-turn look-ahead, and two Monte Carlo tree search
// players: mcts, kept as it was so that old archives keep their players, and sage, the
// strong one. Every bot is deterministic for a given random source, so that archives of their
// games are reproducible from a seed.
package bot

import (
	"fmt"
	"math/rand/v2"
	"time"

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
	// Playouts is the mcts and sage bots' budget of simulated games per turn (default 400
	// for mcts, 300 for sage).
	Playouts int
	// Workers is how many goroutines the mcts bot searches with (default 1; sage searches
	// on one). A game is
	// reproducible for a seed and a number of workers: the playouts are split among the
	// workers, so another number gives another search.
	Workers int
	// TimePerTurn, when above 0, is the sage and arch bots' budget in time instead of
	// playouts.
	TimePerTurn time.Duration
	// Threads is how many threads the arch bot searches one position with (default 1). A
	// bot of more threads is named with them ("arch-1000-t2"): it plays other games.
	Threads int
	// Shared makes the arch bot's threads search one tree together ("arch-1000-s2")
	// instead of a tree each: stronger at the same time, but not reproducible for a seed.
	Shared bool
}

// Names lists the bots New knows, weakest first. The mcts and sage bots may also be named
// with their budget, "mcts-100", "sage-250" or "sage-100ms": a search with more playouts plays stronger, and each budget is a
// player of its own in a rating fit.
var Names = []string{"random", "greedy", "mcts", "sage", "arch"}

// MaxPlayouts bounds the mcts and sage bots' budget, so that a typing slip cannot start a search
// of days.
const MaxPlayouts = 1_000_000

// New returns the bot called name: random, greedy, mcts, sage or arch (with the options'
// budget), mcts-N, sage-N or arch-N (with a budget of N playouts, whatever the options
// say), sage-Nms or arch-Nms (N milliseconds a turn), arch-…-tK (on K threads, a tree
// each), arch-…-sK (on K threads sharing one tree), and lore-N, lore-Nms, lore-…-tK,
// lore-…-sK: arch with learned priors (NewLore).
func New(name string, o Options) (Bot, error) {
	switch name {
	case "random":
		return Random{}, nil
	case "greedy":
		return NewGreedy(), nil
	case "mcts":
		return NewMCTS(o), nil
	case "sage":
		return NewSage(o), nil
	case "arch":
		return NewArch(o), nil
	}
	n, err := parseName(name)
	if err != nil {
		return nil, err
	}
	if n.kind == "mcts" {
		o.Playouts = n.playouts
		return NewMCTS(o), nil
	}
	if n.kind == "arch" || n.kind == "lore" {
		if n.threads > 0 {
			o.Threads, o.Shared = n.threads, n.shared
		}
		if o.Threads > MaxThreads {
			return nil, fmt.Errorf("bot %q: at most %d threads, not %d", name, MaxThreads, o.Threads)
		}
		o.Playouts, o.TimePerTurn = n.playouts, n.perTurn
		if n.kind == "lore" {
			return NewLore(o), nil
		}
		return NewArch(o), nil
	}
	o.Playouts, o.TimePerTurn = n.playouts, n.perTurn
	return NewSage(o), nil
}

// MaxTimePerTurn bounds the sage bot's budget in time.
const MaxTimePerTurn = time.Hour

// MaxThreads bounds the arch bot's threads.
const MaxThreads = 256
