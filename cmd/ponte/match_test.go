package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ponte/ponte/bot"
)

// A match is the same for a seed whatever the number of workers, its games are legal
// under ponte verify, and --json has the fields the contract names.
func TestMatchDeterministicAndVerified(t *testing.T) {
	dir := t.TempDir()
	var outs []string
	for _, workers := range []string{"1", "3"} {
		path := filepath.Join(dir, "m"+workers+".ponte.gz")
		out, errOut, status := runPonte(t, "", "match", "greedy", "random", "--games", "12", "--size", "8",
			"--seed", "9", "--workers", workers, "--out", path, "--json")
		if status != exitOK {
			t.Fatalf("exit %d: %s", status, errOut)
		}
		outs = append(outs, out)
		vout, verr, vstatus := runPonte(t, "", "verify", path)
		if vstatus != exitOK || !strings.Contains(vout+verr, "12 games: 12 legal") {
			t.Fatalf("verify: exit %d: %s %s", vstatus, vout, verr)
		}
	}
	one, _ := os.ReadFile(filepath.Join(dir, "m1.ponte.gz"))
	three, _ := os.ReadFile(filepath.Join(dir, "m3.ponte.gz"))
	if string(one) != string(three) {
		t.Error("--workers 1 and 3 wrote different archives")
	}
	var a, b map[string]any
	if err := json.Unmarshal([]byte(outs[0]), &a); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(outs[1]), &b)
	for _, k := range []string{"games", "wins", "draws", "losses", "score", "elo", "elo_lo", "elo_hi", "llr", "llr_lo", "llr_hi", "sprt", "bots"} {
		if _, ok := a[k]; !ok {
			t.Errorf("--json has no %q", k)
		}
	}
	for _, k := range []string{"games", "wins", "draws", "losses", "pentanomial"} {
		if ja, _ := json.Marshal(a[k]); string(ja) != func() string { jb, _ := json.Marshal(b[k]); return string(jb) }() {
			t.Errorf("%s differs between --workers 1 and 3", k)
		}
	}
	if a["games"] != 12.0 || a["wins"].(float64)+a["draws"].(float64)+a["losses"].(float64) != 12 {
		t.Errorf("games %v, wins+draws+losses do not add up: %s", a["games"], outs[0])
	}
}

// An SPRT that is bound to accept H1 (greedy against random wins every pair) stops there,
// before --games, at the same pair whatever the workers.
func TestMatchSPRTStops(t *testing.T) {
	var first any
	for _, workers := range []string{"1", "4"} {
		out, errOut, status := runPonte(t, "", "match", "greedy", "random", "--games", "400", "--size", "6",
			"--sprt", "0,50", "--workers", workers, "--json")
		if status != exitOK {
			t.Fatalf("exit %d: %s", status, errOut)
		}
		var r struct {
			Games       int
			SPRT        string
			LLR         float64
			LLRHi       float64 `json:"llr_hi"`
			Pentanomial [5]int
		}
		json.Unmarshal([]byte(out), &r)
		if r.SPRT != "H1" || r.Games >= 400 || r.LLR < r.LLRHi {
			t.Errorf("workers %s: %s", workers, out)
		}
		if first == nil {
			first = r
		} else if r != first {
			t.Errorf("the SPRT stopped elsewhere with --workers 4: %+v, then %+v", first, r)
		}
	}
}

func TestMatchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"match", "greedy"},
		{"match", "greedy", "nobot"},
		{"match", "greedy", "random", "--games", "3"},
		{"match", "greedy", "random", "--sprt", "50,0"},
		{"match", "greedy", "random", "--sprt", "x"},
		{"match", "greedy", "random", "--alpha", "0"},
		{"match", "greedy", "random", "--sprt", "0,5", "--alpha", "0.7"},
		{"match", "greedy", "random", "--size", "2"},
		{"match", "greedy", "random", "--out", "-"},
	} {
		_, errOut, status := runPonte(t, "", args...)
		if status != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, %q", args, status, errOut)
		}
	}
}

// Ctrl-C before the first pair: nothing counted, the result said, exit 130.
func TestMatchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "m.ponte")
	out, errOut, status := runPonteCtx(t, ctx, "match", "greedy", "random", "--games", "10", "--out", path)
	if status != exitInterrupted || !strings.Contains(errOut, "interrupted") || out == "" {
		t.Fatalf("exit %d, out %q, err %q", status, out, errOut)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the archive of the finished games is not written: %v", err)
	}
}

// Ctrl-C in the middle of a match: the pairs handed on are counted, written and legal, the
// result so far is printed, and the exit status is 130. The interrupt is the context's
// cancellation, by a bot once the 5th game has started.
func TestMatchInterruptedMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started atomic.Int64
	newBot = func(name string, o bot.Options) (bot.Bot, error) {
		if name == "greedy" && started.Add(1) == 6 { // one greedy per game, and one when the options are checked
			cancel()
		}
		return bot.New(name, o)
	}
	t.Cleanup(func() { newBot = bot.New })
	path := filepath.Join(t.TempDir(), "m.ponte")
	out, errOut, status := runPonteCtx(t, ctx, "match", "greedy", "random", "--games", "200", "--size", "6",
		"--workers", "2", "--out", path, "--json")
	if status != exitInterrupted || !strings.Contains(errOut, "interrupted after") {
		t.Fatalf("exit %d, err %q", status, errOut)
	}
	var r struct{ Games int }
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Games < 0 || r.Games >= 200 {
		t.Fatalf("result so far: %v %s", err, out)
	}
	// The games in play when it was cancelled stop at their next turn (issue 31 finding
	// 10), and the pairs not yet handed on in order with them: what is counted may be
	// nothing, and is what is written.
	if r.Games == 0 {
		if b, err := os.ReadFile(path); err != nil || len(b) != 0 {
			t.Errorf("no game counted, the archive holds %d bytes, %v", len(b), err)
		}
		return
	}
	vout, verr, vstatus := runPonte(t, "", "verify", path)
	if vstatus != exitOK || !strings.Contains(vout+verr, fmt.Sprintf("%d games: %d legal", r.Games, r.Games)) {
		t.Errorf("verify: exit %d: %s %s", vstatus, vout, verr)
	}
}
