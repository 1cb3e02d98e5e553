package gtp

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func newTestEngine(t testing.TB, name string) *Engine {
	t.Helper()
	b, err := bot.New(name, bot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(Config{Bot: b, Name: "ponte", Version: "test", Size: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// serve runs the engine on input and returns what it wrote.
func serve(t testing.TB, e *Engine, input string) string {
	t.Helper()
	var out bytes.Buffer
	if err := e.Serve(strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// answers splits an engine's output into its answers.
func answers(out string) []string {
	out = strings.TrimSuffix(out, "\n\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n\n")
}

// commandLines counts the lines of input that get an answer: those not empty once
// cleaned, up to and including quit.
func commandLines(input string) int {
	n := 0
	for line := range strings.SplitSeq(input, "\n") {
		if len(line) > MaxLine {
			n++
			continue
		}
		text := clean([]byte(line))
		if text == "" {
			continue
		}
		n++
		f := strings.Fields(text)
		if f[0] == "quit" || len(f) > 1 && f[1] == "quit" && strings.Trim(f[0], "0123456789") == "" {
			break
		}
	}
	return n
}

// The transcripts of testdata/*.gtp, each answered by sage-20 on the golden file beside
// it (-update rewrites them): every command line gets one answer, garbage included.
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.gtp")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := serve(t, newTestEngine(t, "sage-20"), string(in))
			if n, want := len(answers(got)), commandLines(string(in)); n != want {
				t.Errorf("%d answers to %d command lines", n, want)
			}
			golden := strings.TrimSuffix(path, ".gtp") + ".golden"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("answers differ from %s (go test -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// One command at a time: the answer to each line of a table, after the lines before it.
func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before string
		line   string
		want   string
	}{
		{"id echoed", "", "42 protocol_version", "=42 2"},
		{"error id echoed", "", "7 fly", `?7 unknown command "fly"`},
		{"crlf", "", "name\r", "= ponte"},
		{"tab", "", "known_command\tplay", "= true"},
		{"comment only", "", "# nothing", ""},
		{"id alone", "", "12", `? cannot read the command "12": an id is a number followed by a command`},
		{"wrong colour", "", "play dark d4,e5", "? wrong colour: turn 1 is Light's (R1)"},
		{"colour word", "", "play purple d4,e5", `? invalid colour "purple": light or dark`},
		{"black is light", "", "play black d4,e5", "="},
		{"occupied", "play light d4,e5", "play dark d4,a1", "? illegal move: R3: "},
		{"group size", "play light d4,e4\nplay dark a1,a2\nplay light d5,e5\nplay dark h8,h7", "play light f4,f5", "? illegal move: R3.1: "},
		{"swap late", "play light d4,e5\nplay dark a1,a2", "play light swap", "? illegal move: R1: swap is legal only as turn 2, not as turn 3"},
		{"bad cell", "", "play light d9,e5", `? illegal move: R9: cell d9 of "d9,e5" is off the 8×8 board`},
		{"bridge shape", "", "play light d4-d5", "? illegal move: R9: "},
		{"arity", "", "play light", "? play takes a colour and a turn (play light d4,e5)"},
		{"size", "", "boardsize 27", "? unacceptable size"},
		{"size ok", "", "boardsize 5", "="},
		{"undo none", "", "undo", "? cannot undo"},
		{"undo", "play light d4,e5", "undo", "="},
		{"score empty", "", "final_score", "= 0"},
		{"score", "play light a1,a2\nplay dark h8,h7\nplay light a3,a4", "final_score", "= L+1"},
		{"seed", "", "set_seed x", "? the seed must be a number from 0 to 18446744073709551615"},
		{"supply", "", "ponte-supply 3/3", `? unknown supply "3/3": "unlimited" or "40/15"`},
		{"time", "", "time_settings 60 5 1", "="},
		{"time bad", "", "time_settings 60 x 1", `? time_settings takes seconds of main time, seconds of byo-yomi and a number of stones, not "60 x 1"`},
		{"analyze colour", "", "ponte-analyze dark", "? wrong colour: turn 1 is Light's (R1)"},
		{"known", "", "known_command ponte-analyze", "= true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, "sage-20")
			if tc.before != "" {
				for _, a := range answers(serve(t, e, tc.before+"\n")) {
					if !strings.HasPrefix(a, "=") {
						t.Fatalf("before: %s", a)
					}
				}
			}
			got := strings.TrimSuffix(serve(t, e, tc.line+"\n"), "\n\n")
			// A want ending in ": " is the start of the answer; others are all of it.
			if prefix := strings.HasSuffix(tc.want, ": "); prefix && !strings.HasPrefix(got, tc.want) || !prefix && got != tc.want {
				t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

// A game played to its end by genmove: every turn legal, then genmove and play are
// refused, final_score is the game's.
func TestGameToTheEnd(t *testing.T) {
	e := newTestEngine(t, "greedy")
	serve(t, e, "boardsize 5\n")
	for turn := 1; !e.game.Over(); turn++ {
		if turn > 200 {
			t.Fatal("no end")
		}
		c := colourWord(e.game.ToMove())
		a := strings.TrimSuffix(serve(t, e, "genmove "+c+"\n"), "\n\n")
		if !strings.HasPrefix(a, "= ") {
			t.Fatalf("turn %d: %s", turn, a)
		}
	}
	for _, line := range []string{"genmove light", "genmove dark", "play light a1,a2"} {
		if got := serve(t, e, line+"\n"); got != "? game is over\n\n" {
			t.Errorf("%s after the end: %q", line, got)
		}
	}
	want := finalScore(e.game)
	if got := serve(t, e, "final_score\n"); got != "= "+want+"\n\n" {
		t.Errorf("final_score %q, want %q", got, want)
	}
	// Replaying the turns from the moves recorded gives the same game.
	g, _ := replay.NewGame(5, game.Unlimited)
	for _, m := range e.moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over() || g.Score() != e.game.Score() {
		t.Error("the moves recorded do not replay to the game")
	}
}

// A line over MaxLine is one error answer, and the lines after it are read.
func TestOverlongLine(t *testing.T) {
	in := "name\n" + strings.Repeat("x", 3*MaxLine) + "\nprotocol_version\n" + strings.Repeat("y", MaxLine+1) + "\n"
	got := answers(serve(t, newTestEngine(t, "random"), in))
	want := []string{"= ponte", "? line longer than 65536 bytes", "= 2", "? line longer than 65536 bytes"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	// The last line, without its end: answered too.
	if got := serve(t, newTestEngine(t, "random"), "name"); got != "= ponte\n\n" {
		t.Errorf("a last line without its end: %q", got)
	}
}

// ponte-analyze needs a bot that searches.
func TestAnalyzeNeedsSearch(t *testing.T) {
	got := serve(t, newTestEngine(t, "greedy"), "ponte-analyze light\n")
	if got != "? greedy does not search: ponte-analyze needs a sage or arch bot\n\n" {
		t.Errorf("%q", got)
	}
	got = serve(t, newTestEngine(t, "sage-20"), "play light d4,e5\nponte-analyze dark\n")
	if a := answers(got); len(a) != 2 || !strings.HasPrefix(a[1], "= win 0.") || !strings.Contains(a[1], " playouts 20") {
		t.Errorf("%q", got)
	}
}

// The time per turn that time_settings and time_left give a sage bot.
func TestClockBudget(t *testing.T) {
	for _, tc := range []struct {
		lines string
		want  time.Duration // 0: the bot's own budget
	}{
		{"", 0},
		{"time_settings 0 0 0", 0},
		{"time_settings 0 1 1", 900 * time.Millisecond},
		{"time_settings 0 10 5", 1800 * time.Millisecond},
		{"time_settings 20 0 0", 900 * time.Millisecond},
		{"time_settings 20 2 1", 2700 * time.Millisecond},
		{"time_settings 20 0 0\ntime_left light 2 0", 90 * time.Millisecond},
		{"time_settings 20 0 0\ntime_left dark 2 0", 900 * time.Millisecond},
		{"time_settings 0 10 5\ntime_left light 1 2", 450 * time.Millisecond},
		{"time_settings 0 0.0001 1", time.Millisecond},
	} {
		e := newTestEngine(t, "random")
		for _, a := range answers(serve(t, e, tc.lines+"\n")) {
			if a != "=" {
				t.Fatalf("%q: %s", tc.lines, a)
			}
		}
		d, set := e.clock.turnBudget(replay.Light)
		if d != tc.want || set != (tc.want > 0) {
			t.Errorf("%q: %v %v, want %v", tc.lines, d, set, tc.want)
		}
	}
	// genmove uses it and gives the bot its own budget back.
	b := bot.NewSage(bot.Options{TimePerTurn: 50 * time.Millisecond})
	e, _ := NewEngine(Config{Bot: b, Size: 6})
	restore := e.clock.budget(b, replay.Light)
	restore()
	serve(t, e, "time_settings 0 0.02 1\n")
	restore = e.clock.budget(b, replay.Light)
	if b.TimePerTurn != 18*time.Millisecond {
		t.Errorf("TimePerTurn %v during genmove", b.TimePerTurn)
	}
	restore()
	if b.TimePerTurn != 50*time.Millisecond || b.Name() != "sage-50ms" {
		t.Errorf("TimePerTurn %v after genmove", b.TimePerTurn)
	}
}

// FuzzEngine: whatever the input, no panic, and one answer per command line.
func FuzzEngine(f *testing.F) {
	for _, path := range []string{"testdata/commands.gtp", "testdata/garbage.gtp"} {
		in, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(in)
	}
	f.Add([]byte("boardsize 5\nplay light a1,a2\nundo\nundo\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		e := newTestEngine(t, "random") // the fastest bot: the input, not the bot, is fuzzed
		got := serve(t, e, string(in))
		n, want := len(answers(got)), commandLines(string(in))
		if n != want {
			t.Errorf("%d answers to %d command lines", n, want)
		}
	})
}
