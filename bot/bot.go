// Package bot holds players for Ponte del Diavolo built on the rules engine: a uniformly
// random player, a greedy player with a one-turn look-ahead, and two Monte Carlo tree search
// players: mcts, kept as it was so that old archives keep their players, and sage, the
// strong one. Every bot is deterministic for a given random source, so that archives of their
// games are reproducible from a seed.
package bot

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
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
}

// Names lists the bots New knows, weakest first. The mcts and sage bots may also be named
// with their budget, "mcts-100", "sage-250" or "sage-100ms": a search with more playouts plays stronger, and each budget is a
// player of its own in a rating fit.
var Names = []string{"random", "greedy", "mcts", "sage", "arch"}

// MaxPlayouts bounds the mcts and sage bots' budget, so that a typing slip cannot start a search
// of days.
const MaxPlayouts = 1_000_000

// New returns the bot called name: random, greedy, mcts or sage (with the options'
// budget), mcts-N or sage-N (with a budget of N playouts, whatever the options say), or
// sage-Nms (N milliseconds a turn).
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
	if budget, ok := strings.CutPrefix(name, "arch-"); ok {
		return newArchNamed(name, budget, o)
	}
	if budget, ok := strings.CutPrefix(name, "sage-"); ok {
		return newSageNamed(name, budget, o)
	}
	if budget, ok := strings.CutPrefix(name, "mcts-"); ok {
		n, err := strconv.Atoi(budget)
		if err != nil || n < 1 || n > MaxPlayouts || strconv.Itoa(n) != budget {
			return nil, fmt.Errorf("bot %q: the budget after mcts- must be a number of playouts from 1 to %d", name, MaxPlayouts)
		}
		o.Playouts = n
		return NewMCTS(o), nil
	}
	return nil, fmt.Errorf("unknown bot %q (known: %s, or mcts-N, sage-N and arch-N for a budget of N playouts, sage-Nms and arch-Nms for N milliseconds a turn, arch-…-tK for K threads)", name, strings.Join(Names, ", "))
}

// MaxTimePerTurn bounds the sage bot's budget in time.
const MaxTimePerTurn = time.Hour

// newSageNamed makes the sage bot of a name with its budget: "sage-1000" (playouts) or
// "sage-100ms" (milliseconds a turn), whatever the options say.
func newSageNamed(name, budget string, o Options) (Bot, error) {
	ms, timed := strings.CutSuffix(budget, "ms")
	text := budget
	if timed {
		text = ms
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || strconv.Itoa(n) != text ||
		(!timed && n > MaxPlayouts) || (timed && time.Duration(n)*time.Millisecond > MaxTimePerTurn) {
		return nil, fmt.Errorf("bot %q: the budget after sage- must be a number of playouts from 1 to %d, or of milliseconds with ms (sage-100ms) up to %d", name, MaxPlayouts, MaxTimePerTurn.Milliseconds())
	}
	if timed {
		o.Playouts, o.TimePerTurn = 0, time.Duration(n)*time.Millisecond
	} else {
		o.Playouts, o.TimePerTurn = n, 0
	}
	return NewSage(o), nil
}

// MaxThreads bounds the arch bot's threads.
const MaxThreads = 256

// newArchNamed makes the arch bot of a name with its budget, "arch-1000" (playouts) or
// "arch-100ms" (milliseconds a turn), and its threads, "arch-1000-t2", whatever the options
// say; without -tK the options' Threads count.
func newArchNamed(name, budget string, o Options) (Bot, error) {
	bad := func() (Bot, error) {
		return nil, fmt.Errorf("bot %q: the budget after arch- must be a number of playouts from 1 to %d, or of milliseconds with ms (arch-100ms) up to %d, optionally followed by -tK for K threads from 1 to %d", name, MaxPlayouts, MaxTimePerTurn.Milliseconds(), MaxThreads)
	}
	if b, th, ok := strings.Cut(budget, "-t"); ok {
		k, err := strconv.Atoi(th)
		if err != nil || k < 1 || k > MaxThreads || strconv.Itoa(k) != th {
			return bad()
		}
		budget, o.Threads = b, k
	}
	if o.Threads > MaxThreads {
		return bad()
	}
	ms, timed := strings.CutSuffix(budget, "ms")
	text := budget
	if timed {
		text = ms
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || strconv.Itoa(n) != text ||
		(!timed && n > MaxPlayouts) || (timed && time.Duration(n)*time.Millisecond > MaxTimePerTurn) {
		return bad()
	}
	if timed {
		o.Playouts, o.TimePerTurn = 0, time.Duration(n)*time.Millisecond
	} else {
		o.Playouts, o.TimePerTurn = n, 0
	}
	return NewArch(o), nil
}
