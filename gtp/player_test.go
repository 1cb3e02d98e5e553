package gtp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
)

// pipePlayer is a Player whose engine e serves it in this process, over pipes.
func pipePlayer(t testing.TB, name string, e *Engine) *Player {
	t.Helper()
	cr, ew := io.Pipe() // engine → player
	er, cw := io.Pipe() // player → engine
	go func() {
		e.Serve(er, ew)
		ew.Close()
		er.Close()
	}()
	p, err := NewPlayer(name, cr, cw, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A match between a Player, whose engine serves sage-20 in process, and sage-20 itself:
// every game legal (the match checks each turn), the same games for a seed whatever the
// workers, and each engine closed at its game's end.
func TestPlayerInMatch(t *testing.T) {
	run := func(workers int) ([]string, int) {
		var players []*Player
		var mu = make(chan struct{}, 1)
		cfg := &match.Config{A: "gtp:sage-20", B: "sage-20", Size: 6, Seed: 3, Pairs: 3, Workers: workers,
			NewBot: func(name string) (bot.Bot, error) {
				if name == "sage-20" {
					return bot.New(name, bot.Options{})
				}
				p := pipePlayer(t, name, newTestEngine(t, "sage-20"))
				mu <- struct{}{}
				players = append(players, p)
				<-mu
				return p, nil
			}}
		var games []string
		res, err := match.Run(context.Background(), cfg, nil, func(p *match.Pair, r *match.Result) bool {
			for _, g := range p.Games {
				var b strings.Builder
				for _, m := range g.Moves {
					b.WriteString(m.String() + " ")
				}
				games = append(games, b.String())
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range players {
			if !p.closed || p.Err() != nil {
				t.Errorf("a player is not closed, or failed: %v", p.Err())
			}
		}
		return games, res.Games()
	}
	one, n := run(1)
	two, _ := run(2)
	if n != 6 || strings.Join(one, "\n") != strings.Join(two, "\n") {
		t.Errorf("%d games; workers 1 and 2 differ:\n%s\n--\n%s", n, strings.Join(one, "\n"), strings.Join(two, "\n"))
	}
}

// fakeEngine answers the player's commands with answer(command), the protocol's commands
// correctly; close ends its output after the command it is true for.
func fakeEngine(t *testing.T, answer func(cmd string) (reply string, close bool)) *Player {
	t.Helper()
	cr, ew := io.Pipe()
	er, cw := io.Pipe()
	go func() {
		defer ew.Close()
		sc := bufio.NewScanner(er)
		for sc.Scan() {
			line := sc.Text()
			switch strings.Fields(line)[0] {
			case "protocol_version":
				io.WriteString(ew, "= 2\n\n")
				continue
			case "list_commands":
				io.WriteString(ew, "= boardsize\nclear_board\nplay\ngenmove\n\n")
				continue
			}
			reply, end := answer(line)
			if reply != "" {
				io.WriteString(ew, reply)
			}
			if end {
				er.Close()
				return
			}
		}
	}()
	p, err := NewPlayer("gtp:fake", cr, cw, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// An engine that answers garbage, too late, not at all, refuses, or plays an illegal
// turn: the player's error names it and the turn, and no call hangs.
func TestPlayerErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		genmove func() (string, bool)
		want    string
	}{
		{"garbage", func() (string, bool) { return "hello\n\n", false }, `engine gtp:fake at turn 1: genmove light: the answer "hello" does not start with = or ?`},
		{"silent", func() (string, bool) { return "", false }, "engine gtp:fake at turn 1: genmove light: no answer within 200ms (the engine was stopped)"},
		{"death", func() (string, bool) { return "", true }, "engine gtp:fake at turn 1: genmove light: the engine ended before it answered"},
		{"refusal", func() (string, bool) { return "? no way\n\n", false }, "engine gtp:fake at turn 1: genmove light: refused: no way"},
		{"illegal", func() (string, bool) { return "= a1,a1\n\n", false }, `engine gtp:fake at turn 1: genmove light answered "a1,a1": R9: "a1,a1" names cell a1 twice`},
		{"off the board", func() (string, bool) { return "= a1,q2\n\n", false }, `engine gtp:fake at turn 1: genmove light answered "a1,q2": R9: cell q2 of "a1,q2" is off the 6×6 board`},
		{"swap at 1", func() (string, bool) { return "= swap\n\n", false }, `engine gtp:fake at turn 1: genmove light answered "swap": R1: swap is legal only as turn 2, not as turn 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fakeEngine(t, func(cmd string) (string, bool) {
				if strings.HasPrefix(cmd, "genmove") {
					return tc.genmove()
				}
				return "=\n\n", false
			})
			defer p.Close()
			g, _ := replay.NewGame(6, game.Unlimited)
			m := p.Turn(g, rand.New(rand.NewPCG(1, 2)))
			err := p.Err()
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v (turn %s), want %s", err, m, tc.want)
			}
			if !errors.As(err, new(*EngineError)) {
				t.Error("not an *EngineError")
			}
			if m2 := p.Turn(g, nil); m2 != replay.PassMove || p.Err() != err {
				t.Error("a failed player plays on")
			}
		})
	}
}

// A Player follows the game it is given, the match's book opening included, and starts
// again at a new game; a position it cannot reach by a turn of each colour is an error.
func TestPlayerFollows(t *testing.T) {
	var sent []string
	turns := []string{"e5,e6", "f1,f2"}
	p := fakeEngine(t, func(cmd string) (string, bool) {
		sent = append(sent, cmd)
		if strings.HasPrefix(cmd, "genmove") {
			m := turns[0]
			turns = turns[1:]
			return "= " + m + "\n\n", false
		}
		return "=\n\n", false
	})
	defer p.Close()
	g, _ := replay.NewGame(6, game.Unlimited)
	for _, tok := range []string{"a1,a2", "swap"} {
		if err := g.PlayText(tok); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if m := p.Turn(g, rng); m.String() != "e5,e6" || p.Err() != nil {
		t.Fatalf("%s %v", m, p.Err())
	}
	g.Play(replay.TilesMove(game.CellAt(4, 4), game.CellAt(4, 5)))
	g.PlayText("c3-b1") // not a bridge between Light's tiles: rejected, the game unchanged
	g.PlayText("a4,b4")
	if err := g.Play(p.Turn(g, rng)); err != nil {
		t.Fatal(err)
	}
	want := "boardsize 6|clear_board|play light a1,a2|play dark swap|genmove dark|play light a4,b4|genmove dark"
	if got := strings.Join(sent, "|"); got != want {
		t.Errorf("sent %s\nwant %s", got, want)
	}
	// A game four turns ahead cannot be followed.
	for _, tok := range []string{"a6,b6", "c1,d1", "b2,c2"} {
		if err := g.PlayText(tok); err != nil {
			t.Fatal(err)
		}
	}
	p.Turn(g, rng)
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), "cannot follow the game") {
		t.Errorf("%v", err)
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // words joined by |, or the error
	}{
		{"ponte gtp --bot sage-50", "ponte|gtp|--bot|sage-50"},
		{"  ./ponte\tgtp  ", "./ponte|gtp"},
		{`'/opt/my engine/ponte' gtp`, "/opt/my engine/ponte|gtp"},
		{`"a \"b\" \$c \n" d`, `a "b" $c \n|d`},
		{`a\ b c`, "a b|c"},
		{`x'y'"z"`, "xyz"},
		{`''`, ""},
		{`'abc`, "unterminated single quote"},
		{`"abc`, "unterminated double quote"},
		{`abc\`, "a backslash at the end"},
		{"   ", "no command"},
	} {
		words, err := Split(tc.line)
		got := strings.Join(words, "|")
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Split(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// ExampleEngine_Serve answers a few commands as ponte gtp does.
func ExampleEngine_Serve() {
	e, _ := NewEngine(Config{Bot: bot.NewGreedy(), Name: "ponte", Size: 6, Seed: 1})
	e.Serve(strings.NewReader("1 name\nplay light c3,c4\nplay light d4,d5\nfinal_score\n"), os.Stdout)
	// Output:
	// =1 ponte
	//
	// =
	//
	// ? wrong colour: turn 2 is Dark's (R1)
	//
	// = 0
}
