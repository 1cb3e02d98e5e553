package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/ponte/ponte/annotate/value"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// trainGame is a game to draw positions from: its board and supply, turns (as read and
// checked once), index and Light's score.
type trainGame struct {
	size   int
	supply game.Supply
	index  int // the Round tag (play's game index), else the game's place among all read
	moves  []replay.Move
	light  float64
}

// heldOut tells the games kept out of training, to measure it: index mod 20 = 0.
func (g *trainGame) heldOut() bool { return g.index%20 == 0 }

// readGames reads the games of the archives with ingest, each replayed to its end: a game
// that cannot be read, is illegal, or has not ended is an error naming it.
func readGames(ctx context.Context, paths []string) ([]*trainGame, error) {
	var games []*trainGame
	err := ingest.OpenContext(ctx, paths, nil, nil, func(rec *ingest.Record, err error) error {
		if err != nil {
			if ingest.IsNotice(err) {
				return nil
			}
			return err
		}
		where := fmt.Sprintf("%s, game %d", rec.Source, rec.Index)
		g, err := replay.NewGame(rec.Size, rec.Supply)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		tg := &trainGame{size: rec.Size, supply: rec.Supply, index: len(games), moves: make([]replay.Move, len(rec.Moves))}
		if i, err := strconv.Atoi(rec.Tag("Round")); err == nil && i >= 0 {
			tg.index = i
		}
		for k, tok := range rec.Moves {
			m, err := g.PlayTurn(k+1, tok.Text)
			if err != nil {
				return fmt.Errorf("%s, turn %d %q: %w", where, k+1, tok.Text, err)
			}
			tg.moves[k] = m
		}
		if !g.Over() {
			return fmt.Errorf("%s: not over after its %d turns", where, len(rec.Moves))
		}
		tg.light = g.ResultFor(replay.Light)
		games = append(games, tg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("no game in %v", paths)
	}
	return games, nil
}

// errNoPosition is draw's answer for a game too short to draw from, or a position drawn
// after the game's end.
var errNoPosition = errors.New("no position to draw")

// draw encodes into s a position of gm drawn at random, after 3 to n−1 of its n turns,
// with the final score of the colour to move as its target.
func draw(gm *trainGame, rng *rand.Rand, s *value.Sample) error {
	n := len(gm.moves)
	if n < 5 {
		return errNoPosition
	}
	g, err := replay.NewGame(gm.size, gm.supply)
	if err != nil {
		return fmt.Errorf("game %d: %w", gm.index, err)
	}
	for k, m := range gm.moves[:3+rng.IntN(n-3)] {
		if err := g.Play(m); err != nil { // checked when read: a bug
			return fmt.Errorf("game %d, turn %d %s: %w", gm.index, k+1, m, err)
		}
	}
	if g.Over() {
		return errNoPosition
	}
	s.Target = float32(gm.light)
	if s.Encode(g) != replay.Light {
		s.Target = float32(1 - gm.light)
	}
	return nil
}
