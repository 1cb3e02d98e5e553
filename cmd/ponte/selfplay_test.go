package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// selfplay runs `ponte selfplay` between random bots with args and fails the test unless it
// succeeds.
func selfplay(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	args = append([]string{"selfplay", "--light", "random", "--dark", "random"}, args...)
	out, errOut, status := runPonte(t, "", args...)
	if status != exitOK {
		t.Fatalf("ponte %s: exit status %d, stderr %q", strings.Join(args, " "), status, errOut)
	}
	return out, errOut
}

// The archive depends on the seed only, never on the number of workers.
func TestSelfplayDeterministic(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"ponte", []string{"--games", "16"}},
		{"jsonl", []string{"--games", "16", "--format", "jsonl"}},
		{"12x12 40/15", []string{"--games", "6", "--size", "12", "--supply", "40/15"}},
		{"greedy vs random", []string{"--games", "6", "--size", "8", "--light", "greedy"}},
		{"mcts vs random", []string{"--games", "2", "--size", "6", "--dark", "mcts", "--playouts", "8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one, _ := selfplay(t, append(tt.args, "--seed", "5", "--workers", "1")...)
			three, _ := selfplay(t, append(tt.args, "--seed", "5", "--workers", "3")...)
			again, _ := selfplay(t, append(tt.args, "--seed", "5", "--workers", "3")...)
			other, _ := selfplay(t, append(tt.args, "--seed", "6", "--workers", "3")...)
			if one != three || three != again {
				t.Error("the same seed gives different archives with --workers 1 and 3")
			}
			if one == other {
				t.Error("seeds 5 and 6 give the same archive")
			}
			if one == "" {
				t.Error("no output")
			}
		})
	}
}

// Every game written verifies as legal, with its claimed result and score.
func TestSelfplayVerifies(t *testing.T) {
	tests := []struct {
		games int
		args  []string
	}{
		{200, []string{"--size", "10"}},
		{50, []string{"--size", "12", "--supply", "40/15"}},
		{100, []string{"--size", "5", "--format", "jsonl"}},
		{60, []string{"--size", "7", "--supply", "40/15", "--format", "jsonl"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			archive, _ := selfplay(t, append(tt.args, "--games", strconv.Itoa(tt.games), "--seed", "11")...)
			_, errOut, status := runPonte(t, archive, "verify", "-")
			want := fmt.Sprintf("%d games: %d legal, 0 illegal, 0 unreadable", tt.games, tt.games)
			if status != exitOK || !strings.Contains(errOut, want) {
				t.Errorf("ponte verify: exit status %d, stderr %q, want 0 and %q", status, errOut, want)
			}
		})
	}
}

// The records carry the known tags (docs/formats/ponte.md) and the two of selfplay, in game order.
func TestSelfplayRecords(t *testing.T) {
	archive, _ := selfplay(t, "--games", "7", "--seed", "3", "--size", "8", "--supply", "40/15", "--dark", "greedy")
	r := ingest.NewReader(strings.NewReader(archive), "-")
	for i := 1; i <= 7; i++ {
		rec, err := r.Read()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		swapped := len(rec.Moves) > 1 && rec.Moves[1].Text == "swap"
		light, dark := "random", "greedy"
		if swapped {
			light, dark = dark, light
		}
		want := map[string]string{
			"Event": "selfplay", "Site": "ponte selfplay", "Round": strconv.Itoa(i), "GameId": fmt.Sprintf("selfplay-3-%d", i),
			"Light": light, "Dark": dark, "Size": "8", "Supply": "40/15", "Termination": "normal",
			"Opener": "random", "Seed": "3",
		}
		for name, value := range want {
			if got := rec.Tag(name); got != value {
				t.Errorf("game %d: %s %q, want %q", i, name, got, value)
			}
		}
		if rec.Score == nil || rec.ClaimedResult().String() == "*" || len(rec.Moves) == 0 {
			t.Errorf("game %d: no result or score: %v", i, rec.Tags)
		}
	}
}

// The summary counts what the archive holds: the opener's and the responder's wins, the
// draws and the swaps.
func TestSelfplaySummary(t *testing.T) {
	archive, errOut := selfplay(t, "--games", "150", "--size", "5", "--seed", "2")
	var opener, responder, draws, swaps int
	r := ingest.NewReader(strings.NewReader(archive), "-")
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		swapped := len(rec.Moves) > 1 && rec.Moves[1].Text == "swap"
		if swapped {
			swaps++
		}
		switch rec.ClaimedResult().String() {
		case "1/2-1/2":
			draws++
		case map[bool]string{false: "1-0", true: "0-1"}[swapped]:
			opener++
		default:
			responder++
		}
	}
	want := fmt.Sprintf("150 games (5×5, unlimited): opener random won %d, responder random won %d, %d %s; %d %s; ",
		opener, responder, draws, plural(draws, "draw", "draws"), swaps, plural(swaps, "swap", "swaps"))
	if !strings.HasPrefix(errOut, want) || !strings.HasSuffix(errOut, "; written to standard output\n") {
		t.Errorf("summary %q, want %q…", errOut, want)
	}
	if opener+responder+draws != 150 {
		t.Errorf("%d + %d + %d games", opener, responder, draws)
	}
}

// Files are compressed and formatted by their name (or --format), written whole, and read
// back by `ponte verify`.
func TestSelfplayFiles(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		format ingest.Format
		magic  string
	}{
		{"games.ponte", nil, ingest.FormatPonte, "[Event"},
		{"games.jsonl", nil, ingest.FormatJSONL, `{"game_id"`},
		{"games.ponte.gz", nil, ingest.FormatPonte, "\x1f\x8b"},
		{"games.jsonl.gz", nil, ingest.FormatJSONL, "\x1f\x8b"},
		{"games.ponte.zst", nil, ingest.FormatPonte, "\x28\xb5\x2f\xfd"},
		{"games.JSONL.ZST", nil, ingest.FormatJSONL, "\x28\xb5\x2f\xfd"},
		{"games.txt", []string{"--format", "jsonl"}, ingest.FormatJSONL, `{"game_id"`},
		{"games.jsonl.gz", []string{"--format", "ponte"}, ingest.FormatPonte, "\x1f\x8b"},
	}
	for _, tt := range tests {
		t.Run(tt.name+strings.Join(tt.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.name)
			out, errOut := selfplay(t, append(tt.args, "--games", "20", "--out", path)...)
			if out != "" {
				t.Errorf("standard output %q, want nothing", out)
			}
			if !strings.HasSuffix(errOut, "written to "+path+"\n") {
				t.Errorf("summary %q does not say where the file is", errOut)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(data, []byte(tt.magic)) {
				t.Errorf("file starts with %q, want %q", data[:min(len(data), 12)], tt.magic)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("%d files in the directory, want 1 (no temporary file left)", len(entries))
			}
			_, errOut, status := runPonte(t, "", "verify", path)
			if status != exitOK || !strings.Contains(errOut, "20 games: 20 legal") {
				t.Errorf("ponte verify %s: exit status %d, stderr %q", path, status, errOut)
			}
			err = ingest.Open([]string{path}, func(rec *ingest.Record, err error) error {
				if err == nil && rec.Format != tt.format {
					t.Fatalf("game %d read as %s, want %s", rec.Index, rec.Format, tt.format)
				}
				return err
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// An existing file is replaced only when the run succeeds.
func TestSelfplayReplacesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.ponte")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, status := runPonte(t, "", "selfplay", "--light", "nobody", "--out", path); status != exitUsage {
		t.Errorf("exit status %d", status)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Error("a failed run changed the file")
	}
	selfplay(t, "--games", "3", "--out", path)
	if data, _ := os.ReadFile(path); !bytes.HasPrefix(data, []byte("[Event")) {
		t.Errorf("file holds %q", data)
	}
}

var summaryLine = regexp.MustCompile(`^\d+ games? \(\d+×\d+, [a-z0-9/]+\): opener \w+ won \d+, responder \w+ won \d+, \d+ draws?; \d+ swaps?; [0-9.]+ s \([0-9.]+ games/s\); written to .+\n$`)

// Standard error gets a progress bar only when it is a terminal: written to a buffer or a
// pipe, it gets the summary alone; with --quiet, nothing.
func TestSelfplayStderr(t *testing.T) {
	args := []string{"selfplay", "--light", "random", "--dark", "random", "--games", "40", "--workers", "2"}
	t.Run("buffer", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if status := run(args, nil, &out, &errOut); status != exitOK {
			t.Fatalf("exit status %d", status)
		}
		if !summaryLine.MatchString(errOut.String()) {
			t.Errorf("stderr %q is not the summary line", errOut.String())
		}
	})
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out bytes.Buffer
		status := run(args, nil, &out, w)
		w.Close()
		errOut, _ := readAllString(r)
		if status != exitOK || !summaryLine.MatchString(errOut) {
			t.Errorf("exit status %d, stderr %q is not the summary line", status, errOut)
		}
	})
	t.Run("quiet", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if status := run(append(args, "--quiet"), nil, &out, &errOut); status != exitOK {
			t.Fatalf("exit status %d", status)
		}
		if errOut.Len() != 0 {
			t.Errorf("stderr %q, want nothing", errOut.String())
		}
		if strings.Count(out.String(), "[Event ") != 40 {
			t.Error("--quiet changed the output")
		}
	})
}

func readAllString(f *os.File) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(f)
	return b.String(), err
}

func TestSelfplayUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown light bot", []string{"--light", "alphazero"}, `--light: unknown bot "alphazero" (known: random, greedy, mcts, sage, arch, or mcts-N, sage-N, arch-N and lore-N for a budget of N playouts, sage-Nms, arch-Nms and lore-Nms for N milliseconds a turn, arch-…-tK for K threads with a tree each, arch-…-sK for K threads on one tree)`},
		{"unknown dark bot", []string{"--dark", "Random"}, `--dark: unknown bot "Random"`},
		{"size too small", []string{"--size", "4"}, "--size must be from 5 to 26, not 4"},
		{"size too large", []string{"--size", "27"}, "--size must be from 5 to 26, not 27"},
		{"size not a number", []string{"--size", "ten"}, `--size must be a whole number from 5 to 26, not "ten"`},
		{"bad supply", []string{"--supply", "40/16"}, `--supply "40/16": must be "unlimited" or "40/15"`},
		{"empty supply", []string{"--supply", ""}, `--supply "": must be`},
		{"no games", []string{"--games", "0"}, "--games must be from 1 to 1048576, not 0"},
		{"negative games", []string{"--games", "-3"}, "--games must be from 1 to 1048576, not -3"},
		{"no workers", []string{"--workers", "0"}, "--workers must be from 1 to 256, not 0"},
		{"no playouts", []string{"--playouts", "0"}, "--playouts must be from 1 to 1000000, not 0"},
		{"bad format", []string{"--format", "pgn"}, `--format "pgn": must be "ponte" or "jsonl"`},
		{"bad seed", []string{"--seed", "-1"}, `invalid argument "-1" for "--seed"`},
		{"argument", []string{"games.ponte"}, `unknown command "games.ponte"`},
		{"empty out", []string{"--out", ""}, "--out must name a file"},
		{"missing directory", []string{"--out", "no/such/dir/games.ponte"}, "cannot write no/such/dir/games.ponte"},
		{"out is a directory", []string{"--out", "."}, "cannot write .: it is a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status := runPonte(t, "", append([]string{"selfplay", "--games", "2"}, tt.args...)...)
			if status != exitUsage {
				t.Errorf("exit status %d, want %d", status, exitUsage)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr %q, want it to contain %q", errOut, tt.stderr)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// cheat plays like random but, in the games its random source picks, passes at its first
// turn while it could place two tiles: an illegal turn (R5.1).
type cheat struct{ bot.Random }

func (cheat) Name() string { return "cheat" }

func (c cheat) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if g.Turn() < 2 && rng.IntN(5) == 0 {
		return replay.PassMove
	}
	return c.Random.Turn(g, rng)
}

// A bot's illegal turn stops the run with exit status 1 and the number of the first game
// (in game order, whatever the workers) where it happened; no file is left behind.
func TestSelfplayBotError(t *testing.T) {
	newBot = func(name string, o bot.Options) (bot.Bot, error) {
		if name == "cheat" {
			return cheat{}, nil
		}
		return bot.New(name, o)
	}
	t.Cleanup(func() { newBot = bot.New })

	dir := t.TempDir()
	var first string
	for _, workers := range []string{"1", "2", "5"} {
		path := filepath.Join(dir, "games.ponte")
		_, errOut, status := runPonte(t, "", "selfplay", "--light", "cheat", "--dark", "random", "--games", "40",
			"--workers", workers, "--out", path)
		if status != exitInternal {
			t.Errorf("exit status %d, want %d (a bot's illegal turn is a bug)", status, exitInternal)
		}
		m := regexp.MustCompile(`^ponte selfplay: (game \d+): cheat played an illegal turn 1 \(pass\): R5\.1: .* \(a bug in the bot: please report it\)\n$`).FindStringSubmatch(errOut)
		if m == nil {
			t.Fatalf("stderr %q", errOut)
		}
		if first == "" {
			first = m[1]
		} else if m[1] != first {
			t.Errorf("--workers %s: %s, with --workers 1: %s", workers, m[1], first)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%d files left in the directory", len(entries))
		}
	}
	if first == "game 1" {
		t.Fatal("the cheat cheated in game 1: choose another rule for it")
	}
	// On standard output, the games before the first illegal one are written whole.
	out, _, status := runPonte(t, "", "selfplay", "--light", "cheat", "--dark", "random", "--games", "40", "--workers", "3")
	n, _ := strconv.Atoi(strings.TrimPrefix(first, "game "))
	_, errOut, vstatus := runPonte(t, out, "verify", "-")
	if want := fmt.Sprintf("%d games: %d legal,", n-1, n-1); status != exitInternal || vstatus != exitOK || !strings.Contains(errOut, want) {
		t.Errorf("exit status %d, standard output verified with status %d: %q, want %q", status, vstatus, errOut, want)
	}
}
