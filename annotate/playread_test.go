package annotate

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// quickPlay is a reading by play small enough for a test: 4 games of lore-8 after each
// turn, the best turn of lore-30.
func quickPlay(t *testing.T) *Engine {
	t.Helper()
	p, err := newPlayReader(4, "lore-30", "lore-8")
	if err != nil {
		t.Fatal(err)
	}
	return &Engine{name: "play-4", playouts: 4, cal: ByPlay, an: p}
}

// TestPlayReader reads a 6×6 game by play and checks each turn: the turn played is valued
// by the mean of its games, played from the random numbers of the position (the same as
// the best turn's); the loss is the whole difference of the two values, never below 0, 0
// when the turn played is the best; the marks are PlayThresholds'; a turn read alone is
// read as in the game; and the reading is the same twice.
func TestPlayReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	played, err := bot.Play(bot.NewSage(bot.Options{Playouts: 20}), bot.NewSage(bot.Options{Playouts: 20}), 6, game.Unlimited, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := Game{GameID: "play-test", Size: 6}
	for _, m := range played.Moves {
		g.Moves = append(g.Moves, m.String())
	}
	e := quickPlay(t)
	turns, err := e.Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := quickPlay(t).Analyse(g, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(turns, again) {
		t.Error("the same game read twice differs")
	}
	pos, err := replay.NewGame(6, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	own, lost := 0, 0
	for k, tr := range turns {
		// The turn played's value: its games, from the seed the position's random source
		// gives first.
		seed := rand.New(rand.NewPCG(seedOf(g.GameID), uint64(k))).Uint64()
		s, err := playOuts(context.Background(), pos, g.Moves[k], pos.ToMove(), "lore-8", seed, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		mean := (s[0] + s[1] + s[2] + s[3]) / 4
		if tr.PlayedQ != mean || tr.BestN != 4 || tr.PlayedN != 4 {
			t.Errorf("turn %d: played valued %g (%d games), its games' mean %g", k+1, tr.PlayedQ, tr.PlayedN, mean)
		}
		want := max(0, tr.BestQ-tr.PlayedQ)
		if math.Abs(tr.Loss-want) > 1e-3 || tr.Mark != PlayThresholds.Mark(tr.Loss) {
			t.Errorf("turn %d: loss %g %v, want %g (best %g, played %g) marked by %s", k+1, tr.Loss, tr.Mark, want, tr.BestQ, tr.PlayedQ, PlayThresholds)
		}
		if tr.Best == tr.Played {
			own++
			if tr.Loss != 0 || tr.PlayedQ != tr.BestQ {
				t.Errorf("turn %d: the best turn played loses %g", k+1, tr.Loss)
			}
		}
		if tr.Loss > 0 {
			lost++
		}
		if k%5 == 2 {
			alone, err := e.ReadCandidate(g.GameID, g.Size, g.Moves[:k], g.Moves[k])
			if err != nil {
				t.Fatal(err)
			}
			alone.RawAfter, alone.After = tr.RawAfter, tr.After // not read alone (ReadCandidate)
			if alone != tr {
				t.Errorf("turn %d read alone: %+v; in the game: %+v", k+1, alone, tr)
			}
		}
		if _, err := pos.PlayTurn(k+1, g.Moves[k]); err != nil {
			t.Fatal(err)
		}
	}
	if own == 0 || lost == 0 {
		t.Errorf("%d turns: %d the best, %d losing: the test checks too little", len(turns), own, lost)
	}
}

// TestPairedApply checks that a reading by play counts the whole difference of its values
// and marks it by its own thresholds, where a search's discounts its standard error.
func TestPairedApply(t *testing.T) {
	tr := Turn{Turn: 10, Colour: replay.Dark, BestQ: 0.70, PlayedQ: 0.45, BestN: 64, PlayedN: 64, RawBefore: 0.3, RawAfter: 0.5}
	p, s := tr, tr
	ByPlay.Apply(&p, 8)
	Identity.Apply(&s, 8)
	if math.Abs(p.Loss-0.25) > 1e-9 || p.Mark != Mistake {
		t.Errorf("by play: loss %g %v, want 0.25 mistake (%s)", p.Loss, p.Mark, PlayThresholds)
	}
	if s.Loss > 0.25-0.05 || s.Mark != Good {
		t.Errorf("a search's: loss %g %v, want the difference less its standard error, unmarked", s.Loss, s.Mark)
	}
	if ThresholdsOf("play-64") != PlayThresholds || ThresholdsOf("lore-200") != DefaultThresholds || !reflect.DeepEqual(CheckOf("play-64"), Check{}) {
		t.Error("the thresholds or the check of an engine are not its family's")
	}
}
