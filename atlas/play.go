package atlas

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// opener is the seat that plays the class's opening at turn 1, then its bot.
type opener struct {
	bot.Bot
	opening replay.Move
}

func (o *opener) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn() == 0 {
		return o.opening
	}
	return o.Bot.Turn(g, rng)
}

// Play plays game u.Index of class cl in u's stage: the opening, then the stage's bot on
// both sides (it may swap at turn 2: the position, Dark to move, is the same either way,
// and Light's score is what is counted), from the random source of the game's seed. When
// ctx ends, the game stops before its next turn with ctx's error.
func (c *Config) Play(ctx context.Context, u Unit, cl Class, newBot func(string) (bot.Bot, error)) (Game, *bot.Game, error) {
	name := c.BotOf(u.Stage)
	a, err := newBot(name)
	if err != nil {
		return Game{}, nil, err
	}
	b, err := newBot(name)
	if err != nil {
		return Game{}, nil, err
	}
	seed := GameSeed(c.Seed, u.Stage, u.Class, u.Index)
	g, err := bot.PlayContext(ctx, &opener{a, cl.Opening()}, b, c.Size, c.Supply, rand.New(rand.NewPCG(seed, 0x61746c6173))) // "atlas"
	if err != nil {
		return Game{}, nil, fmt.Errorf("class %d game %d: %w", u.Class, u.Index, err)
	}
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.String()
	}
	return Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Seed: seed, Points: points(g.Result),
		Turns: len(g.Moves), Swapped: g.Swapped, Bot: name, Moves: strings.Join(moves, " ")}, g, nil
}

func points(r game.Result) int {
	switch r {
	case game.LightWins:
		return 2
	case game.Draw:
		return 1
	}
	return 0
}

// Replay plays a stored game's turns again through the rules engine and returns it as the
// bot package's game: an illegal turn, or an outcome other than the one stored, is an error.
func (c *Config) Replay(g Game) (*bot.Game, error) {
	out, err := c.replay(g)
	if err != nil {
		return nil, fmt.Errorf("%s class %d game %d: %w", g.Stage, g.Class, g.Index, err)
	}
	return out, nil
}

// replay is Replay with the fault as a *GameError naming the column.
func (c *Config) replay(g Game) (*bot.Game, *GameError) {
	rg, err := replay.NewGame(c.Size, c.Supply)
	if err != nil {
		return nil, &GameError{Column: "moves", Err: err}
	}
	out := &bot.Game{Opener: g.Bot, Responder: g.Bot, Size: c.Size, Supply: c.Supply}
	for i, tok := range strings.Fields(g.Moves) {
		if rg.Over() {
			return nil, &GameError{Column: "moves", Value: fmt.Sprintf("turn %d %q", i+1, tok), Err: fmt.Errorf("the game is over after %d turns", i)}
		}
		m, err := rg.PlayTurn(i+1, tok)
		if err != nil {
			return nil, &GameError{Column: "moves", Value: fmt.Sprintf("turn %d %q", i+1, tok), Err: err}
		}
		out.Moves = append(out.Moves, m)
	}
	if !rg.Over() {
		return nil, &GameError{Column: "moves", Value: fmt.Sprintf("%d turns", len(out.Moves)), Err: errors.New("the game is not over")}
	}
	out.Swapped = rg.Swapped()
	out.Result, out.DecidedBy = rg.Standing()
	out.Score, out.Islands, out.Bridges = rg.Score(), rg.Islands(), rg.Bridges()
	if p := points(out.Result); p != g.Points {
		return nil, &GameError{Column: "points", Value: fmt.Sprint(g.Points), Err: fmt.Errorf("the turns give %s (%d)", out.Result, p)}
	}
	if out.Swapped != g.Swapped {
		return nil, &GameError{Column: "swapped", Value: fmt.Sprint(g.Swapped), Err: fmt.Errorf("the turns give %v", out.Swapped)}
	}
	return out, nil
}

// Record is a stored game as a .ponte record, bot.Game.Record's with the tags Event
// "atlas", Site "ponte atlas", GameId "atlas-SIZE-STAGE-CLASS-INDEX-SEED", LightIsAI and
// DarkIsAI "true", and the atlas's own: Atlas (the board and the bot), Class (its number
// and representative, "12 c1,e3"), Stage and Bot.
func (c *Config) Record(cl Class, g Game) (*ingest.Record, error) {
	bg, err := c.Replay(g)
	if err != nil {
		return nil, err
	}
	rec := bg.Record(g.Index+1, g.Seed)
	id := fmt.Sprintf("atlas-%d-%s-%d-%d-%d", c.Size, g.Stage, g.Class, g.Index, c.Seed)
	for _, t := range [][2]string{
		{"Event", "atlas"},
		{"Site", "ponte atlas"},
		{"GameId", id},
		{"LightIsAI", "true"},
		{"DarkIsAI", "true"},
		{"Atlas", fmt.Sprintf("%d×%d %s %s seed %d", c.Size, c.Size, c.Supply, c.Bot, c.Seed)},
		{"Class", strconv.Itoa(cl.ID) + " " + cl.A.String() + "," + cl.B.String()},
		{"Stage", g.Stage.String()},
		{"Bot", g.Bot},
	} {
		if err := rec.SetTag(t[0], t[1]); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
