package annotate

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// DefaultEngine is the engine that reads games when none is given: lore, the strongest
// bot at equal time, at the budget the truth set's curve chose (docs/annotate.md, "Truth
// set").
const DefaultEngine = "lore-200"

// Engine is a searching bot with a budget per position, and the calibration of its values.
// An Engine is not safe for use by several goroutines: make one per worker.
type Engine struct {
	name     string
	playouts int
	cal      Calibration
	an       analyser
	// after values the turn played by the search of the position after it (arch and lore);
	// without it, by playouts forced through it in the search of the position before it
	// (sage, as the rows read before the truth set were made).
	after bool
}

// NewEngine returns the engine of the bot called name, sage-N, arch-N or lore-N (N
// playouts a position, optionally -tK for K threads with a tree each), or the reading by
// play play-N (N games after each turn), whose values cal calibrates. CalibrationOf(name)
// is the one made for it.
func NewEngine(name string, cal Calibration) (*Engine, error) {
	if err := CheckEngine(name); err != nil {
		return nil, err
	}
	if ReadsByPlay(name) {
		n, _ := strconv.Atoi(strings.TrimPrefix(name, "play-"))
		p, err := newPlayReader(n, PlaySearcher, PlayPlayer)
		if err != nil {
			return nil, err
		}
		return &Engine{name: name, playouts: n, cal: cal, an: p}, nil
	}
	b, err := bot.New(name, bot.Options{})
	if err != nil {
		return nil, err
	}
	e := &Engine{name: name, cal: cal, an: b.(bot.Analyser)}
	switch b := b.(type) {
	case *bot.Sage:
		e.playouts = b.Budget
	case *bot.Arch:
		e.playouts, e.after = b.Budget, true
	}
	return e, nil
}

// CheckEngine reports a bot name that cannot read games: a reading is the same on every
// machine, so the budget is of playouts, not of time, and threads search a tree each.
func CheckEngine(name string) error {
	if family, games, _ := strings.Cut(name, "-"); family == "play" {
		if n, err := strconv.Atoi(games); err != nil || n < 1 || n > MaxPlayGames || strconv.Itoa(n) != games {
			return fmt.Errorf("engine %q: a reading by play is play-N, N games after each turn, from 1 to %d", name, MaxPlayGames)
		}
		return nil
	}
	if err := bot.ParseName(name); err != nil {
		return err
	}
	family, budget, _ := strings.Cut(name, "-")
	switch {
	case family != "sage" && family != "arch" && family != "lore":
		return fmt.Errorf("engine %q: the engine is sage-N, arch-N or lore-N (N playouts a position), or play-N (N games after each turn)", name)
	case budget == "":
		return fmt.Errorf("engine %q: give the budget, %s-N for N playouts a position", name, family)
	case strings.Contains(budget, "ms"):
		return fmt.Errorf("engine %q: the budget must be of playouts, not of time, so that a reading is the same on every machine", name)
	case strings.Contains(budget, "-s"):
		return fmt.Errorf("engine %q: threads sharing one tree do not read the same twice; use -tK, a tree each", name)
	}
	return nil
}

// Bot is the engine as the rows name it: "lore-50".
func (e *Engine) Bot() string { return e.name }

// Playouts is the budget per position: playouts for a search, games a turn for play-N.
func (e *Engine) Playouts() int { return e.playouts }

// Game is a legal game to read: its stable id, board and turns.
type Game struct {
	GameID string
	Size   int
	Supply game.Supply
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
	// BestQ and PlayedQ are the mover's values of the best turn, in the search of the
	// position before it, and of the turn played: for sage in the same search, for arch and
	// lore in the search of the position after it (the best turn's value when the turn
	// played is the best). The loss compares them.
	BestQ, PlayedQ float64
	// BestN and PlayedN are the playouts that made BestQ and PlayedQ (the same when they
	// are one turn; PlayedN 0 when the turn ended the game); 0 in rows read before they
	// were kept.
	BestN, PlayedN int
	Before, After  float64
	// Loss is the drop in the mover's chance of winning, never below 0: the calibrated
	// chance of the engine's best turn less that of the turn played (BestQ and PlayedQ),
	// counting only the part of the values' difference beyond its standard error
	// (docs/annotate.md).
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
	searched := make([]int, n+1)
	var moves []replay.Move
	for k := 0; k <= n; k++ {
		if stop != nil {
			if err := stop(); err != nil {
				return nil, err
			}
		}
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		var played *replay.Move
		if k < n && !pos.Over() && !e.after {
			m, err := pos.ReadTurn(k+1, g.Moves[k])
			if err != nil {
				return nil, fmt.Errorf("game %s: turn %d %q: %w", g.GameID, k+1, g.Moves[k], err)
			}
			played = &m
		}
		a := e.an.Analyse(pos, played, rng)
		raw[k], best[k], over[k] = a.Light, a.Best, pos.Over()
		bestQ[k], playedQ[k] = a.BestQ, a.PlayedQ
		bestN[k], playedN[k] = a.BestN, a.PlayedN
		searched[k] = a.Playouts
		colour[k] = pos.ToMove()
		if progress != nil {
			progress(1)
		}
		if k == n {
			break
		}
		m, err := pos.PlayTurn(k+1, g.Moves[k])
		if err != nil {
			return nil, fmt.Errorf("game %s: turn %d %q: %w", g.GameID, k+1, g.Moves[k], err)
		}
		moves = append(moves, m)
	}
	if e.after {
		for k := range n {
			if !best[k].Same(moves[k]) {
				playedQ[k], playedN[k] = valueAfter(colour[k], raw[k+1], over[k+1], searched[k+1])
			} else {
				playedQ[k], playedN[k] = bestQ[k], bestN[k] // the engine's own best loses nothing
			}
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
	gap := t.BestQ - t.PlayedQ
	if !c.Paired {
		gap -= searchError(t.BestQ, t.BestN, t.PlayedQ, t.PlayedN)
	}
	gap = max(0, gap)
	t.Loss = max(0, mover(t.BestQ)-mover(t.BestQ-gap))
	t.Mark = c.marks().Mark(t.Loss)
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

// valueAfter is the value of the turn played for mover, colour, read in the search of the
// position after it (raw, its value for Light, after playouts playouts; over when the turn
// ended the game, whose result is certain: 0 playouts, no error counted).
func valueAfter(mover replay.Colour, raw float64, over bool, playouts int) (float64, int) {
	if mover != replay.Light {
		raw = 1 - raw
	}
	if over {
		return raw, 0
	}
	return raw, playouts
}

// seedOf is the random seed of a game's searches: a hash of its stable id.
func seedOf(gameID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(gameID)))
	return h.Sum64()
}
