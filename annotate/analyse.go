package annotate

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

// DefaultPlayouts is the engine's budget per position when none is given.
const DefaultPlayouts = 100

// Engine is the sage bot with a budget per position, and the calibration of its values.
// An Engine is not safe for use by several goroutines: make one per worker.
type Engine struct {
	playouts int
	cal      Calibration
	sage     *bot.Sage
}

// NewEngine returns the engine that searches each position with playouts playouts and
// calibrates its values with cal.
func NewEngine(playouts int, cal Calibration) *Engine {
	if playouts <= 0 {
		playouts = DefaultPlayouts
	}
	return &Engine{playouts: playouts, cal: cal, sage: bot.NewSage(bot.Options{Playouts: playouts})}
}

// Bot is the name of the engine as the rows name it: "sage-200".
func (e *Engine) Bot() string { return "sage-" + strconv.Itoa(e.playouts) }

// Playouts is the budget per position.
func (e *Engine) Playouts() int { return e.playouts }

// Game is a legal game to read: its stable id, board and turns.
type Game struct {
	GameID string
	Size   int
	Supply replay.Supply
	Moves  []string // the turns' tokens, "d4-e5", "swap"
}

// Turn is the engine's reading of one turn.
type Turn struct {
	Turn   int           // from 1
	Colour replay.Colour // the mover's colour before the turn (the swap is Dark's)
	Played string        // the turn played
	Best   string        // the engine's best turn in the position before it; "" when there is no choice to judge
	// RawBefore and RawAfter are the search's values for Light of the positions before and
	// after the turn; Before and After their calibrated chances that Light wins.
	RawBefore, RawAfter float64
	OverAfter           bool // the game is over after the turn: RawAfter is its result
	// BestQ and PlayedQ are the mover's values of the best turn and of the turn played in
	// the search of the position before it, which the loss compares.
	BestQ, PlayedQ float64
	// BestN and PlayedN are the playouts through the best turn and through the turn
	// played in that search (the same when they are one turn); 0 in rows read before they
	// were kept.
	BestN, PlayedN int
	Before, After  float64
	// Loss is the drop in the mover's chance of winning, never below 0: the calibrated
	// chance of the engine's best turn less that of the turn played, both weighed in the
	// search of the position before it (bot.Sage.Analyse), counting only the part of the
	// values' difference beyond its standard error (docs/annotate.md).
	Loss float64
	Mark Mark
}

// Position counts the positions searched; Progress is called after each.
type Progress func(positions int)

// Analyse reads every turn of g. It calls progress (when not nil) after each position and
// stops early, with the error of stop, when stop returns one.
func (e *Engine) Analyse(g Game, stop func() error, progress Progress) ([]Turn, error) {
	pos, err := replay.NewGame(g.Size, g.Supply)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.GameID, err)
	}
	seed := seedOf(g.GameID)
	n := len(g.Moves)
	raw := make([]float64, n+1)
	best := make([]replay.Move, n+1)
	colour := make([]replay.Colour, n+1)
	over := make([]bool, n+1)
	bestQ, playedQ := make([]float64, n+1), make([]float64, n+1)
	bestN, playedN := make([]int, n+1), make([]int, n+1)
	for k := 0; k <= n; k++ {
		if stop != nil {
			if err := stop(); err != nil {
				return nil, err
			}
		}
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		var played *replay.Move
		if k < n && !pos.Over() {
			m, err := pos.ReadTurn(k+1, g.Moves[k])
			if err != nil {
				return nil, fmt.Errorf("game %s: turn %d %q: %w", g.GameID, k+1, g.Moves[k], err)
			}
			played = &m
		}
		a := e.sage.Analyse(pos, played, rng)
		raw[k], best[k], over[k] = a.Light, a.Best, pos.Over()
		bestQ[k], playedQ[k] = a.BestQ, a.PlayedQ
		bestN[k], playedN[k] = a.BestN, a.PlayedN
		colour[k] = pos.ToMove()
		if progress != nil {
			progress(1)
		}
		if k == n {
			break
		}
		if _, err := pos.PlayTurn(k+1, g.Moves[k]); err != nil {
			return nil, fmt.Errorf("game %s: turn %d %q: %w", g.GameID, k+1, g.Moves[k], err)
		}
	}
	out := make([]Turn, n)
	for k := range n {
		t := Turn{Turn: k + 1, Colour: colour[k], Played: g.Moves[k], RawBefore: raw[k], RawAfter: raw[k+1],
			OverAfter: over[k+1], BestQ: bestQ[k], PlayedQ: playedQ[k],
			BestN: bestN[k], PlayedN: playedN[k]}
		if best[k] != (replay.Move{}) {
			t.Best = best[k].String()
		}
		e.cal.Apply(&t, g.Size)
		out[k] = t
	}
	return out, nil
}

// Apply sets the turn's calibrated chances, loss and mark from its search values, on a
// board of side size: how a reading is calibrated again when the calibration changes,
// without searching again.
func (c Calibration) Apply(t *Turn, size int) {
	before := Phase(t.Turn-1, size)
	t.Before = c.Chance(t.RawBefore, before)
	t.After = t.RawAfter
	if !t.OverAfter {
		t.After = c.Chance(t.RawAfter, Phase(t.Turn, size))
	}
	mover := func(q float64) float64 {
		if t.Colour == replay.Light {
			return c.Chance(q, before)
		}
		return 1 - c.Chance(1-q, before)
	}
	gap := max(0, t.BestQ-t.PlayedQ-searchError(t.BestQ, t.BestN, t.PlayedQ, t.PlayedN))
	t.Loss = max(0, mover(t.BestQ)-mover(t.BestQ-gap))
	t.Mark = MarkOf(t.Loss)
}

// searchError is the standard error of the difference of two turns' values in a search,
// the means of nb and np playouts with results near qb and qp: a playout's result is a
// win or a loss, so each mean's variance is q(1−q)/n, with q drawn ¼/(n+1) towards ½ so
// that a turn whose few playouts all agree is not taken as certain. It is 0 when a count
// is unknown (rows read before the counts were kept) or when the turn played is the best.
func searchError(qb float64, nb int, qp float64, np int) float64 {
	if nb <= 0 || np <= 0 {
		return 0
	}
	v := func(q float64, n int) float64 { return (q*(1-q) + 0.25/float64(n+1)) / float64(n) }
	return math.Sqrt(v(qb, nb) + v(qp, np))
}

// seedOf is the random seed of a game's searches: a hash of its stable id.
func seedOf(gameID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(gameID)))
	return h.Sum64()
}
