package match

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/stats"
)

// The ladder is the committed record of the matches that rate the bots: one JSON line per
// block of games between two bots ([Block]), appended by `ponte bots --play` and fitted by
// [FitLadder] with the project's rating model. ladder.jsonl is the repository's own.
//
//go:embed ladder.jsonl
var ladderData []byte

// Ladder returns the repository's ladder, as the binary holds it.
func Ladder() ([]Block, error) {
	return ReadLadder(strings.NewReader(string(ladderData)), "ladder.jsonl")
}

// Block is one match of a ladder: its settings, its tally, and its games by opener,
// swap and result, which the rating fit needs (a pair's two games have A then B as opener).
type Block struct {
	A           string      `json:"a"`
	B           string      `json:"b"`
	Size        int         `json:"size"`
	Supply      string      `json:"supply"`
	Seed        uint64      `json:"seed"`
	Games       int         `json:"games"`
	Wins        int         `json:"wins"`
	Draws       int         `json:"draws"`
	Losses      int         `json:"losses"`
	Pentanomial Pentanomial `json:"pentanomial"`
	Outcomes    []Outcome   `json:"outcomes"`
	Bots        [2]BotUsage `json:"bots"`
}

// Outcome counts the games of a block with the same opener, swap and opener's score.
type Outcome struct {
	Opener  string  `json:"opener"`
	Swapped bool    `json:"swapped"`
	Score   float64 `json:"score"` // the opener's: 1, ½ or 0
	Games   int     `json:"games"`
}

// BotUsage is a bot's cost in a block.
type BotUsage struct {
	Name      string  `json:"name"`
	Turns     int64   `json:"turns"`
	MsPerTurn float64 `json:"ms_per_turn"`
	// PlayoutsPerTurn is nil when the bot does not count its playouts.
	PlayoutsPerTurn *float64 `json:"playouts_per_turn"`
}

// NewBlock is the ladder's line for a match played with cfg and counted in r, whose pairs
// are pairs (for the outcomes).
func NewBlock(cfg *Config, r *Result, pairs []*Pair) Block {
	b := Block{A: cfg.A, B: cfg.B, Size: cfg.Size, Supply: cfg.Supply.String(), Seed: cfg.Seed,
		Games: r.Games(), Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Pentanomial: r.Pentanomial}
	type key struct {
		opener  string
		swapped bool
		score   float64
	}
	count := map[key]int{}
	for _, p := range pairs {
		for _, g := range p.Games {
			s := 0.5
			switch {
			case g.Result == game.Draw:
			case (g.Result == game.LightWins) != g.Swapped: // the opener is Light unless swapped
				s = 1
			default:
				s = 0
			}
			count[key{g.Opener, g.Swapped, s}]++
		}
	}
	for k, n := range count {
		b.Outcomes = append(b.Outcomes, Outcome{k.opener, k.swapped, k.score, n})
	}
	slices.SortFunc(b.Outcomes, func(x, y Outcome) int {
		switch {
		case x.Opener != y.Opener:
			return strings.Compare(x.Opener, y.Opener)
		case x.Swapped != y.Swapped:
			if x.Swapped {
				return 1
			}
			return -1
		}
		return int(math.Copysign(1, x.Score-y.Score))
	})
	for i, name := range []string{cfg.A, cfg.B} {
		u := r.Usage[i]
		b.Bots[i] = BotUsage{Name: name, Turns: u.Turns, MsPerTurn: u.MsPerTurn()}
		if p, ok := u.PlayoutsPerTurn(); ok {
			b.Bots[i].PlayoutsPerTurn = &p
		}
	}
	return b
}

// ReadLadder reads a ladder's lines; name is the file's, for the errors ("ladder.jsonl:3:
// …"). A line that does not hold a whole block is an error: a ladder is data one fits.
func ReadLadder(r io.Reader, name string) ([]Block, error) {
	var blocks []Block
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var b Block
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := b.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		blocks = append(blocks, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return blocks, nil
}

// check says what is inconsistent in a block.
func (b *Block) check() error {
	if b.A == "" || b.B == "" || b.A == b.B {
		return fmt.Errorf("a block between %q and %q", b.A, b.B)
	}
	n := 0
	for _, o := range b.Outcomes {
		if o.Opener != b.A && o.Opener != b.B {
			return fmt.Errorf("an outcome whose opener %q is neither %q nor %q", o.Opener, b.A, b.B)
		}
		if o.Score != 0 && o.Score != 0.5 && o.Score != 1 || o.Games < 0 {
			return fmt.Errorf("an outcome of %d games with a score of %v", o.Games, o.Score)
		}
		n += o.Games
	}
	if n != b.Games || b.Wins+b.Draws+b.Losses != b.Games || 2*b.Pentanomial.Pairs() != b.Games {
		return fmt.Errorf("%d games, but %d outcomes, %d wins, draws and losses, and %d pairs", b.Games, n, b.Wins+b.Draws+b.Losses, b.Pentanomial.Pairs())
	}
	return nil
}

// Rating is a bot's rating on a ladder: Elo over the anchor (0 for it), with its 95%
// interval, and its mean cost per turn over its ladder games.
type Rating struct {
	Name   string  `json:"name"`
	Games  int     `json:"games"`
	Rating float64 `json:"rating"`
	// RatingLo and RatingHi are the interval's ends; an end is nil (open) when the bot
	// lost every game of the ladder (the lower end) or won every game (the upper end).
	RatingLo        *float64 `json:"rating_lo"`
	RatingHi        *float64 `json:"rating_hi"`
	MsPerTurn       float64  `json:"ms_per_turn"`
	PlayoutsPerTurn *float64 `json:"playouts_per_turn"`
}

// LadderFit is a fitted ladder.
type LadderFit struct {
	Anchor     string
	Size       int
	Supply     string
	Games      int
	Bootstraps int
	Ratings    []Rating // best first
}

// FitLadder fits the blocks of one board size and supply with the project's rating model
// (stats.FitRatings: Bradley–Terry with an opener's advantage per branch of the pie rule),
// and anchors the ratings at anchor = 0. The intervals are the 2.5 and 97.5 percentiles of
// bootstraps fits of the ladder resampled game by game within each block, seeded by
// seed: the rating model's standard errors are of each rating less the players' mean,
// not of its difference from the anchor.
func FitLadder(blocks []Block, anchor string, size int, supply string, bootstraps int, seed uint64) (*LadderFit, error) {
	index := map[string]int{}
	var names []string
	type stratum struct{ games []stats.RatedGame }
	var strata []stratum
	usage := map[string]*struct {
		turns        int64
		ms           float64
		playouts     float64
		playoutTurns int64 // the turns of the batches that counted their playouts
		games        int
	}{}
	fit := &LadderFit{Anchor: anchor, Size: size, Supply: supply, Bootstraps: bootstraps}
	for _, b := range blocks {
		if b.Size != size || b.Supply != supply {
			continue
		}
		var st stratum
		for _, name := range []string{b.A, b.B} {
			if _, ok := index[name]; !ok {
				index[name] = len(names)
				names = append(names, name)
			}
		}
		for _, o := range b.Outcomes {
			opp := b.B
			if o.Opener == b.B {
				opp = b.A
			}
			for range o.Games {
				st.games = append(st.games, stats.RatedGame{Opener: index[o.Opener], Responder: index[opp], Swapped: o.Swapped, Score: o.Score})
			}
		}
		strata = append(strata, st)
		fit.Games += b.Games
		for _, u := range b.Bots {
			a := usage[u.Name]
			if a == nil {
				a = &struct {
					turns        int64
					ms           float64
					playouts     float64
					playoutTurns int64
					games        int
				}{}
				usage[u.Name] = a
			}
			a.turns += u.Turns
			a.ms += u.MsPerTurn * float64(u.Turns)
			a.games += b.Games
			if u.PlayoutsPerTurn != nil {
				a.playouts += *u.PlayoutsPerTurn * float64(u.Turns)
				a.playoutTurns += u.Turns
			}
		}
	}
	ai, ok := index[anchor]
	if !ok {
		return nil, fmt.Errorf("the ladder has no %d×%d games of the anchor %q", size, size, anchor)
	}
	var all []stats.RatedGame
	for _, st := range strata {
		all = append(all, st.games...)
	}
	f, err := stats.FitRatings(len(names), all, 0)
	if err != nil {
		return nil, err
	}
	if f.Groups > 1 {
		return nil, errors.New("the ladder's bots are not linked by games: some never met the others, even through third bots")
	}
	// Whether each bot scored in a game, and conceded in one.
	won, lost := make([]bool, len(names)), make([]bool, len(names))
	for _, g := range all {
		if g.Score < 1 {
			won[g.Responder] = true
			lost[g.Opener] = true
		}
		if g.Score > 0 {
			won[g.Opener] = true
			lost[g.Responder] = true
		}
	}
	boot := make([][]float64, len(names))
	rng := rand.New(rand.NewPCG(seed, 0x6c6164646572)) // "ladder"
	sample := make([]stats.RatedGame, 0, len(all))
	for range bootstraps {
		sample = sample[:0]
		for _, st := range strata {
			for range st.games {
				sample = append(sample, st.games[rng.IntN(len(st.games))])
			}
		}
		bf, err := stats.FitRatings(len(names), sample, 0)
		if err != nil || bf.Groups > 1 {
			continue
		}
		for i := range names {
			boot[i] = append(boot[i], bf.Rating[i]-bf.Rating[ai])
		}
	}
	// A bot with a perfect record (it never scored, or never conceded) has no estimate in
	// the data: its rating is where the model's prior holds it, and every resampled ladder
	// is perfect too. Its open end stays open; the other is the rule of three's one-sided
	// 95% bound on its score, 1 − 0.05^(1/n) of n games, in Elo over its opponents' mean
	// rating.
	oppSum, oppGames := make([]float64, len(names)), make([]int, len(names))
	for _, g := range all {
		oppSum[g.Opener] += f.Rating[g.Responder] - f.Rating[ai]
		oppSum[g.Responder] += f.Rating[g.Opener] - f.Rating[ai]
		oppGames[g.Opener]++
		oppGames[g.Responder]++
	}
	for i, name := range names {
		r := Rating{Name: name, Games: f.PlayerGames[i], Rating: f.Rating[i] - f.Rating[ai]}
		ruleOfThree := func(sign float64) *float64 {
			n := float64(oppGames[i])
			b := oppSum[i]/n + sign*EloOfScore(1-math.Pow(0.05, 1/n))
			return &b
		}
		switch {
		case i == ai:
			zero := 0.0
			r.Rating, r.RatingLo, r.RatingHi = 0, &zero, &zero
		case !won[i]:
			r.RatingHi = ruleOfThree(1)
		case !lost[i]:
			r.RatingLo = ruleOfThree(-1)
		case len(boot[i]) > 0:
			slices.Sort(boot[i])
			lo, hi := quantile(boot[i], 0.025), quantile(boot[i], 0.975)
			r.RatingLo, r.RatingHi = &lo, &hi
		}
		if u := usage[name]; u != nil && u.turns > 0 {
			r.MsPerTurn = u.ms / float64(u.turns)
			if u.playoutTurns > 0 {
				p := u.playouts / float64(u.playoutTurns)
				r.PlayoutsPerTurn = &p
			}
		}
		fit.Ratings = append(fit.Ratings, r)
	}
	slices.SortStableFunc(fit.Ratings, func(x, y Rating) int {
		switch {
		case x.Rating > y.Rating:
			return -1
		case x.Rating < y.Rating:
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	return fit, nil
}

// quantile is the q-quantile of sorted xs, linearly interpolated.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}
