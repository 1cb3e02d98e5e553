package annotate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

// The bots of a reading by play (engine play-N): the truth set's player and searcher, so
// that its values are those the truth set measures.
const (
	PlayPlayer   = "lore-100"
	PlaySearcher = "lore-1000"
)

// MaxPlayGames bounds N of play-N: games after each turn.
const MaxPlayGames = 4096

// analyser reads a position: a searching bot (bot.Analyser) or a reading by play.
type analyser interface {
	Analyse(g *replay.Game, played *replay.Move, rng *rand.Rand) bot.Analysis
}

// playReader reads a position by play: its best turn is a search's, and the values of that
// turn and of the turn played are the mover's mean scores over games played out after them
// by fresh bots, game k of both from the same random numbers (docs/annotate.md, "A reading
// by play").
type playReader struct {
	games    int
	searcher bot.Analyser
	player   string
	// last is the position read last, known by its random seed and turn: its search and
	// its best turn's value, which a reading of another turn of that position (truthset
	// marks reads each candidate alone) takes instead of searching and playing again.
	last struct {
		seed uint64
		turn int
		a    bot.Analysis
		bq   float64
	}
}

func newPlayReader(games int, searcher, player string) (*playReader, error) {
	b, err := bot.New(searcher, bot.Options{})
	if err != nil {
		return nil, err
	}
	a, ok := b.(bot.Analyser)
	if !ok {
		return nil, fmt.Errorf("searcher %q cannot analyse a position", searcher)
	}
	if err := bot.ParseName(player); err != nil {
		return nil, err
	}
	return &playReader{games: games, searcher: a, player: player}, nil
}

// Analyse reads pos: Light is the value of the best turn for Light; BestQ and PlayedQ the
// mover's mean scores after the best turn and after played (the best when played is nil),
// over games each. A bot that plays an illegal turn, or a game that does not end, is a bug
// of the bots, and panics.
func (p *playReader) Analyse(pos *replay.Game, played *replay.Move, rng *rand.Rand) bot.Analysis {
	if pos.Over() {
		return bot.Analysis{Light: pos.ResultFor(replay.Light)}
	}
	seed := rng.Uint64()
	mover := pos.ToMove()
	mean := func(m replay.Move) float64 {
		s, err := playOuts(context.Background(), pos, m.String(), mover, p.player, seed, p.games, nil)
		if err != nil {
			panic(fmt.Sprintf("a reading by play: %v", err))
		}
		var sum float64
		for _, v := range s {
			sum += v
		}
		return sum / float64(len(s))
	}
	if p.last.seed != seed || p.last.turn != pos.Turn() || p.last.a.Best == (replay.Move{}) {
		a := p.searcher.Analyse(pos, nil, rng)
		p.last.seed, p.last.turn, p.last.a, p.last.bq = seed, pos.Turn(), a, mean(a.Best)
	}
	a, bq := p.last.a, p.last.bq
	pq := bq
	if played != nil && !played.Same(a.Best) {
		pq = mean(*played)
	}
	light := bq
	if mover != replay.Light {
		light = 1 - bq
	}
	return bot.Analysis{Light: light, Best: a.Best, BestQ: bq, PlayedQ: pq, BestN: p.games, PlayedN: p.games, Playouts: p.games}
}

// playOuts plays n games out after token in pos, by fresh bots called player on both sides,
// game k from PCG(seed, k), and returns the scores of mover; games, when not nil, is told
// of each game.
func playOuts(ctx context.Context, pos *replay.Game, token string, mover replay.Colour, player string, seed uint64, n int, games func(int)) ([]float64, error) {
	s := make([]float64, n)
	for k := range s {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sides, err := freshSides(player)
		if err != nil {
			return nil, err
		}
		v, err := PlayOut(pos, token, mover, sides, rand.New(rand.NewPCG(seed, uint64(k))))
		if err != nil {
			return nil, fmt.Errorf("turn %s, game %d: %w", token, k, err)
		}
		s[k] = v
		if games != nil {
			games(1)
		}
	}
	return s, nil
}

// ReadsByPlay reports whether engine is a reading by play (play-N).
func ReadsByPlay(engine string) bool { return strings.HasPrefix(engine, "play-") }
