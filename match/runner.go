package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/replay"
)

// PlayoutCounter is what a bot that searches may implement so that a match can report
// its playouts per turn: the playouts it has done since it was made.
type PlayoutCounter interface {
	PlayoutsDone() int64
}

// Failer is what a bot that plays through something that can fail, an engine in another
// process, implements: after a game, a match checks Err and fails with its error.
type Failer interface {
	Err() error
}

// closeBot closes a bot that holds something, such as an engine's process (io.Closer),
// when its game ends.
func closeBot(b bot.Bot) {
	if c, ok := b.(io.Closer); ok {
		c.Close()
	}
}

// Config is a match: bot A against bot B on Pairs openings, each played twice with the
// seats exchanged.
type Config struct {
	A, B string
	// NewBot makes a bot by name, once per game (bot.New with the match's options). A bot
	// that is an io.Closer is closed at the end of its game.
	NewBot func(name string) (bot.Bot, error)
	Size   int
	Supply game.Supply
	// Seed makes the openings and every game's random source: pair i's opening and games
	// depend on Seed and i alone, so a match is the same whatever Workers is.
	Seed uint64
	// Pairs is the most pairs played; an SPRT may stop before.
	Pairs int
	// Workers is how many games are played at once (one per goroutine).
	Workers int
	// SPRT, when not nil, is decided after every pair in pair order; the match stops at
	// the first pair whose LLR crosses a bound.
	SPRT *SPRT
}

// Pair is one pair played: the opening and its two games, A the opener of the first (it
// plays the opening as Light) and B the opener of the second.
type Pair struct {
	Index   int // from 1
	Opening replay.Move
	Games   [2]*bot.Game
	// Points is A's points in the pair in halves, 0 to 4.
	Points int
	// Usage is each bot's cost in the pair: [0] A's, [1] B's.
	Usage [2]Usage
}

// Usage is what a bot spent on its turns: the opening, which the book plays, is not
// counted.
type Usage struct {
	Turns    int64
	Time     time.Duration
	Playouts int64 // -1 when the bot does not count them (PlayoutCounter)
}

func (u *Usage) add(v Usage) {
	u.Turns += v.Turns
	u.Time += v.Time
	if u.Playouts < 0 || v.Playouts < 0 {
		u.Playouts = -1
	} else {
		u.Playouts += v.Playouts
	}
}

// MsPerTurn is the mean time per turn in milliseconds.
func (u Usage) MsPerTurn() float64 {
	if u.Turns == 0 {
		return 0
	}
	return float64(u.Time) / float64(time.Millisecond) / float64(u.Turns)
}

// PlayoutsPerTurn is the mean playouts per turn, and false when the bot does not count them.
func (u Usage) PlayoutsPerTurn() (float64, bool) {
	if u.Playouts < 0 {
		return 0, false
	}
	if u.Turns == 0 {
		return 0, true
	}
	return float64(u.Playouts) / float64(u.Turns), true
}

// Result is a match's tally so far.
type Result struct {
	Pairs               int
	Wins, Draws, Losses int // A's games
	Pentanomial         Pentanomial
	Usage               [2]Usage // A's and B's
	LLR                 float64  // 0 without an SPRT
	Verdict             Verdict
}

// Games is the number of games counted.
func (r *Result) Games() int { return 2 * r.Pairs }

// Score is A's mean score per game.
func (r *Result) Score() float64 { return r.Pentanomial.Score() }

// Add counts a pair.
func (r *Result) Add(p *Pair) {
	r.Pairs++
	r.Pentanomial.Add(p.Points)
	for _, g := range p.Games {
		switch aScore(g, p) {
		case 2:
			r.Wins++
		case 1:
			r.Draws++
		default:
			r.Losses++
		}
	}
	r.Usage[0].add(p.Usage[0])
	r.Usage[1].add(p.Usage[1])
}

// aScore is A's points in halves in a game of pair p.
func aScore(g *bot.Game, p *Pair) int {
	if g.Result == game.Draw {
		return 1
	}
	aOpened := g == p.Games[0]
	aLight := aOpened != g.Swapped
	if (g.Result == game.LightWins) == aLight {
		return 2
	}
	return 0
}

// Openings: pair i's opening is a random legal first turn (two tiles for Light) drawn
// from its own random source, seeded by Seed and i; game 2i−1 (A opens) and game 2i (B
// opens) have their own, seeded by Seed and the game's number.
func openingRand(seed uint64, pair int) *rand.Rand {
	return rand.New(rand.NewPCG(seed^0x6f70656e696e6773, uint64(pair))) // "openings"
}

func gameRand(seed uint64, game int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(game)))
}

// Opening is pair i's opening for a match of seed seed on a board of side size: a
// uniformly random legal first turn of Light.
func Opening(seed uint64, pair, size int, supply game.Supply) (replay.Move, error) {
	g, err := replay.NewGame(size, supply)
	if err != nil {
		return replay.Move{}, err
	}
	return bot.Random{}.Turn(g, openingRand(seed, pair)), nil
}

// seat is a bot in a match: it plays the book's opening at turn 1 when it opens, and
// counts its time and turns.
type seat struct {
	bot.Bot
	opening *replay.Move // nil for the responder
	usage   Usage
}

func (s *seat) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if s.opening != nil && g.Turn() == 0 {
		return *s.opening
	}
	start := time.Now()
	m := s.Bot.Turn(g, rng)
	s.usage.Time += time.Since(start)
	s.usage.Turns++
	return m
}

func (s *seat) done() Usage {
	u := s.usage
	if pc, ok := s.Bot.(PlayoutCounter); ok {
		u.Playouts = pc.PlayoutsDone()
	} else {
		u.Playouts = -1
	}
	return u
}

// PlayPair plays pair i of the match: the opening, then A opening it against B, then B
// opening it against A.
func PlayPair(cfg *Config, i int) (*Pair, error) {
	opening, err := Opening(cfg.Seed, i, cfg.Size, cfg.Supply)
	if err != nil {
		return nil, err
	}
	p := &Pair{Index: i, Opening: opening}
	for k := range 2 {
		g, usage, err := playGame(context.Background(), cfg, i, k, opening)
		if err != nil {
			return nil, err
		}
		p.Games[k] = g
		p.Usage[0].add(usage[0])
		p.Usage[1].add(usage[1])
	}
	p.Points = aScore(p.Games[0], p) + aScore(p.Games[1], p)
	return p, nil
}

// Record is the record of the k-th game (0 or 1) of pair p: bot.Game.Record's, numbered
// 2i−1+k in the match, with the tags Event "match", Site "ponte match", GameId
// "match-SEED-N", LightIsAI and DarkIsAI "true" (so that ponte stats counts the game among
// the bots', as it does Abstract Play's games with a bot), and two of its own, Match ("A
// vs B") and Pair (the pair's index).
func (p *Pair) Record(cfg *Config, k int) *ingest.Record {
	n := 2*p.Index - 1 + k
	rec := p.Games[k].Record(n, cfg.Seed)
	for _, t := range [][2]string{
		{"Event", "match"},
		{"Site", "ponte match"},
		{"GameId", "match-" + strconv.FormatUint(cfg.Seed, 10) + "-" + strconv.Itoa(n)},
		{game.LightIsAI, game.IsAIValue},
		{game.DarkIsAI, game.IsAIValue},
		{"Match", cfg.A + " vs " + cfg.B},
		{"Pair", strconv.Itoa(p.Index)},
	} {
		if err := rec.SetTag(t[0], t[1]); err != nil {
			panic(err) // constant names and values the record format accepts
		}
	}
	return rec
}

// ErrStopped is Run's error when emit asked it to stop.
var ErrStopped = errors.New("match stopped")

// Run plays the match's pairs on cfg.Workers goroutines, one game per goroutine at a
// time, and passes each pair to emit in pair order, after counting it in the result,
// from the calling goroutine. It stops when every pair is played, when the SPRT decides,
// when emit returns false (ErrStopped), at ctx's end (its error) or at a bot's error;
// the result holds the pairs emitted. Games are counted in order too: the games after
// the pair where the SPRT decides, or after a bot's error, are neither counted nor
// emitted, so that a match is the same whatever the workers. At most a window of 2 pairs
// per worker is played ahead of the next one to emit, so memory stays flat. played, when
// not nil, is called as each game ends, in any order, from the calling goroutine.
func Run(ctx context.Context, cfg *Config, played func(), emit func(*Pair, *Result) bool) (*Result, error) {
	res := &Result{}
	workers := max(1, min(cfg.Workers, 2*cfg.Pairs))
	// Game n of the match (from 1) is game k = (n−1) mod 2 of pair i = (n+1)/2.
	type done struct {
		opening replay.Move
		game    *bot.Game
		usage   [2]Usage
		err     error
	}
	p := pipeline.Pipeline[int, done]{
		Workers:  workers,
		MaxItems: 4 * workers,
		NewWorker: func() func(int) done {
			return func(n int) done {
				i, k := (n+1)/2, (n-1)%2
				var d done
				d.opening, d.err = Opening(cfg.Seed, i, cfg.Size, cfg.Supply)
				if d.err == nil {
					d.game, d.usage, d.err = playGame(ctx, cfg, i, k, d.opening)
				}
				return d
			}
		},
		Arrived: func(d done) {
			if played != nil && d.err == nil {
				played()
			}
		},
	}
	games := func(yield func(int) bool) {
		for n := 1; n <= 2*cfg.Pairs && yield(n); n++ {
		}
	}
	var pair *Pair
	err := p.Run(ctx, games, func(d done) error {
		if d.err != nil {
			return d.err
		}
		if pair == nil {
			pair = &Pair{Index: res.Pairs + 1, Opening: d.opening}
		}
		k := 0
		if pair.Games[0] != nil {
			k = 1
		}
		pair.Games[k] = d.game
		pair.Usage[0].add(d.usage[0])
		pair.Usage[1].add(d.usage[1])
		if k == 0 {
			return nil
		}
		q := pair
		pair = nil
		q.Points = aScore(q.Games[0], q) + aScore(q.Games[1], q)
		res.Add(q)
		if cfg.SPRT != nil {
			res.LLR = cfg.SPRT.LLR(res.Pentanomial)
			res.Verdict = cfg.SPRT.Decide(res.LLR)
		}
		if !emit(q, res) {
			return ErrStopped
		}
		if res.Verdict != Continue {
			return pipeline.Stop
		}
		return nil
	})
	return res, err
}

// playGame plays game k (0: A opens, 1: B opens) of pair i; at ctx's end it stops at its
// next turn (bot.PlayContext).
func playGame(ctx context.Context, cfg *Config, i, k int, opening replay.Move) (*bot.Game, [2]Usage, error) {
	var usage [2]Usage
	a, err := cfg.NewBot(cfg.A)
	if err != nil {
		return nil, usage, err
	}
	defer closeBot(a)
	b, err := cfg.NewBot(cfg.B)
	if err != nil {
		return nil, usage, err
	}
	defer closeBot(b)
	sa, sb := &seat{Bot: a}, &seat{Bot: b}
	opener, responder := sa, sb
	if k == 1 {
		opener, responder = sb, sa
	}
	opener.opening = &opening
	n := 2*i - 1 + k
	g, err := bot.PlayContext(ctx, opener, responder, cfg.Size, cfg.Supply, gameRand(cfg.Seed, n))
	for _, x := range []bot.Bot{a, b} {
		if f, ok := x.(Failer); ok && f.Err() != nil {
			err = f.Err() // what went wrong, rather than the turn it made the bot play
			break
		}
	}
	if err != nil {
		return nil, usage, fmt.Errorf("game %d: %w", n, err)
	}
	return g, [2]Usage{sa.done(), sb.done()}, nil
}
