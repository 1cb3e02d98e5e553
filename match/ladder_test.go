package match

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
)

// plantedBlock simulates a block of pairs between a and b, a stronger by elo, with
// draws and swaps, as the ladder stores it.
func plantedBlock(a, b string, elo float64, pairs int, rng *rand.Rand) Block {
	blk := Block{A: a, B: b, Size: 10, Supply: "unlimited", Games: 2 * pairs}
	count := map[Outcome]int{}
	pl := Planted{Elo: elo, Draws: 0.05}
	s := ScoreOfElo(elo)
	for range pairs {
		halves := 0
		for k, opener := range []string{a, b} {
			h := pl.game(s, rng) // A's halves
			halves += h
			switch h {
			case 2:
				blk.Wins++
			case 1:
				blk.Draws++
			default:
				blk.Losses++
			}
			score := float64(h) / 2
			if k == 1 {
				score = 1 - score // the opener's
			}
			count[Outcome{Opener: opener, Swapped: rng.IntN(2) == 0, Score: score}]++
		}
		blk.Pentanomial.Add(halves)
	}
	for o, n := range count {
		o.Games = n
		blk.Outcomes = append(blk.Outcomes, o)
	}
	blk.Bots = [2]BotUsage{{Name: a, Turns: 10, MsPerTurn: 2}, {Name: b, Turns: 10, MsPerTurn: 1}}
	return blk
}

// A ladder of planted strengths is fitted back to them, anchored at greedy, with
// intervals that hold them.
func TestFitLadder(t *testing.T) {
	truth := map[string]float64{"greedy": 0, "mcts-30": 150, "mcts-100": 250, "mcts-400": 330}
	order := []string{"greedy", "mcts-30", "mcts-100", "mcts-400"}
	rng := rand.New(rand.NewPCG(3, 4))
	var blocks []Block
	for i := range order {
		for j := i + 1; j <= i+2 && j < len(order); j++ {
			a, b := order[j], order[i]
			blocks = append(blocks, plantedBlock(a, b, truth[a]-truth[b], 300, rng))
		}
	}
	fit, err := FitLadder(blocks, "greedy", 10, "unlimited", 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Ratings) != 4 || fit.Ratings[0].Name != "mcts-400" || fit.Ratings[3].Name != "greedy" {
		t.Fatalf("ratings %+v", fit.Ratings)
	}
	for _, r := range fit.Ratings {
		if r.RatingLo == nil || r.RatingHi == nil || *r.RatingLo > truth[r.Name] || *r.RatingHi < truth[r.Name] {
			t.Errorf("%s: %+.0f [%v, %v], planted %+.0f", r.Name, r.Rating, r.RatingLo, r.RatingHi, truth[r.Name])
			continue
		}
		t.Logf("%s: %+.0f [%+.0f, %+.0f], planted %+.0f", r.Name, r.Rating, *r.RatingLo, *r.RatingHi, truth[r.Name])
		if r.Name == "greedy" && (r.Rating != 0 || *r.RatingLo != 0 || *r.RatingHi != 0) {
			t.Errorf("the anchor is not 0: %+v", r)
		}
	}
	if _, err := FitLadder(blocks, "random", 10, "unlimited", 10, 1); err == nil {
		t.Error("an anchor without games is fitted")
	}
}

// A bot that never scored has no lower bound.
func TestFitLadderOpenEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	blocks := []Block{plantedBlock("greedy", "random", 2000, 50, rng), plantedBlock("mcts-30", "greedy", 100, 100, rng)}
	fit, err := FitLadder(blocks, "greedy", 10, "unlimited", 50, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fit.Ratings {
		if r.Name == "random" && (r.RatingLo != nil || r.RatingHi == nil || r.Rating >= 0) {
			t.Errorf("random, which never scored: %+v", r)
		}
	}
}

func TestReadLadderErrors(t *testing.T) {
	good := `{"a":"greedy","b":"random","size":10,"supply":"unlimited","seed":1,"games":2,"wins":2,"draws":0,"losses":0,"pentanomial":[0,0,0,0,1],"outcomes":[{"opener":"greedy","swapped":false,"score":1,"games":1},{"opener":"random","swapped":true,"score":0,"games":1}],"bots":[{"name":"greedy","turns":1,"ms_per_turn":1,"playouts_per_turn":null},{"name":"random","turns":1,"ms_per_turn":1,"playouts_per_turn":null}]}`
	if b, err := ReadLadder(strings.NewReader(good+"\n\n"+good+"\n"), "l"); err != nil || len(b) != 2 {
		t.Fatalf("%d blocks, %v", len(b), err)
	}
	for _, tt := range []struct{ text, want string }{
		{good + "\n{", "l:2:"},
		{good + "\n" + strings.Replace(good, `"games":2`, `"games":4`, 1), "l:2: 4 games"},
		{strings.Replace(good, `"opener":"random"`, `"opener":"mcts"`, 1), "l:1: an outcome whose opener"},
		{strings.Replace(good, `"seed"`, `"sede"`, 1), "l:1: json: unknown field"},
		{strings.Replace(good, `"b":"random"`, `"b":"greedy"`, 1), "l:1: a block between"},
	} {
		_, err := ReadLadder(strings.NewReader(tt.text), "l")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q…", tt.text[:20], err, tt.want)
		}
	}
}

// The ladder's block of a real match adds up: its outcomes are its games.
func TestNewBlock(t *testing.T) {
	cfg := &Config{A: "greedy", B: "random", Size: 6, Supply: game.Unlimited, Seed: 4, Pairs: 5, Workers: 2,
		NewBot: func(name string) (bot.Bot, error) { return bot.New(name, bot.Options{}) }}
	var pairs []*Pair
	res, err := Run(context.Background(), cfg, nil, func(p *Pair, _ *Result) bool { pairs = append(pairs, p); return true })
	if err != nil {
		t.Fatal(err)
	}
	b := NewBlock(cfg, res, pairs)
	if err := b.check(); err != nil {
		t.Fatal(err)
	}
	if b.Games != 10 || b.Bots[0].Name != "greedy" || b.Bots[0].Turns == 0 {
		t.Errorf("%+v", b)
	}
	// Pair i is the same when played alone.
	p, err := PlayPair(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p.Points != pairs[2].Points || len(p.Games[0].Moves) != len(pairs[2].Games[0].Moves) || p.Opening != pairs[2].Opening {
		t.Error("PlayPair(3) differs from the match's third pair")
	}
}

// TestPlayoutsPerTurn checks that every bot that searches reports its playouts per turn
// through a match, and the others none.
func TestPlayoutsPerTurn(t *testing.T) {
	for _, tc := range []struct {
		bot   string
		known bool
	}{
		{"mcts-30", true},
		{"sage-25", true},
		{"greedy", false},
		{"random", false},
	} {
		cfg := &Config{A: tc.bot, B: "greedy", Size: 6, Supply: game.Unlimited, Seed: 2, Pairs: 1, Workers: 1,
			NewBot: func(name string) (bot.Bot, error) { return bot.New(name, bot.Options{}) }}
		p, err := PlayPair(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		per, ok := p.Usage[0].PlayoutsPerTurn()
		if ok != tc.known || (ok && (per <= 0 || per > 30)) {
			t.Errorf("%s: playouts per turn %.1f, %t; want known %t, between 0 and its budget", tc.bot, per, ok, tc.known)
		}
	}
}
