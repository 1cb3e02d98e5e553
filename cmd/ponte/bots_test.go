package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ponte bots --play plays a ladder into a file, resumes it without playing a block
// twice, and ponte bots fits it with greedy at 0.
func TestBotsPlayAndList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.jsonl")
	play := []string{"bots", "--play", "--ladder", path, "--bots", "random,greedy,mcts-4", "--size", "6",
		"--games", "8", "--block", "4", "--workers", "2"}
	_, errOut, status := runPonte(t, "", play...)
	if status != exitOK || !strings.Contains(errOut, "6 blocks appended") {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	before, _ := os.ReadFile(path)
	_, errOut, status = runPonte(t, "", append(play, "--games", "12")...)
	if status != exitOK || !strings.Contains(errOut, "3 blocks appended") {
		t.Fatalf("resumed: exit %d: %s", status, errOut)
	}
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) || strings.Count(string(after), "\n") != 9 {
		t.Errorf("the resumed ladder does not extend the first:\n%s", after)
	}
	out, errOut, status := runPonte(t, "", "bots", "--ladder", path, "--size", "6", "--json")
	if status != exitOK {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	var ratings []map[string]any
	if err := json.Unmarshal([]byte(out), &ratings); err != nil || len(ratings) != 3 {
		t.Fatalf("%v: %s", err, out)
	}
	for _, r := range ratings {
		for _, k := range []string{"name", "rating", "rating_lo", "rating_hi", "ms_per_turn"} {
			if _, ok := r[k]; !ok {
				t.Errorf("no %q in %v", k, r)
			}
		}
		if r["name"] == "greedy" && (r["rating"] != 0.0 || r["rating_lo"] != 0.0 || r["rating_hi"] != 0.0) {
			t.Errorf("greedy is not the anchor: %v", r)
		}
	}
	out, _, status = runPonte(t, "", "bots", "--ladder", path, "--size", "6")
	if status != exitOK || !strings.Contains(out, "greedy") || !strings.Contains(out, "95% interval") {
		t.Errorf("exit %d: %s", status, out)
	}
}

// The repository's ladder is built in and fits.
func TestBotsBuiltIn(t *testing.T) {
	out, errOut, status := runPonte(t, "", "bots", "--json", "--bootstraps", "20")
	if status != exitOK {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	if !strings.Contains(out, `"name":"greedy","games"`) {
		t.Errorf("%s", out)
	}
}

func TestBotsUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"a\":1}\n"), 0o644)
	for _, args := range [][]string{
		{"bots", "--play"},
		{"bots", "--play", "--ladder", bad},
		{"bots", "--ladder", bad},
		{"bots", "--ladder", filepath.Join(t.TempDir(), "none.jsonl")},
		{"bots", "--play", "--ladder", bad + "2", "--bots", "greedy,nobot"},
		{"bots", "--play", "--ladder", bad + "2", "--block", "3"},
		{"bots", "--anchor", "nobot"},
		{"bots", "extra"},
	} {
		_, errOut, status := runPonte(t, "", args...)
		if status != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, %q", args, status, errOut)
		}
	}
}

// TestBotsTime: --time measures the bots named in one pass and prints them with the
// machine; --json gives every bot its timing and its rating where the ladder has one.
func TestBotsTime(t *testing.T) {
	out, errOut, status := runPonte(t, "", "bots", "--time", "--positions", "3", "--rounds", "2", "--bots", "greedy,random,sage-10", "--quiet")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"measured now, in one pass", "3 positions × 2 rounds", "GOMAXPROCS", "sage-10", "ms/turn (median)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, errOut, status = runPonte(t, "", "bots", "--time", "--positions", "2", "--rounds", "1", "--bots", "greedy,sage-10", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep struct {
		Machine struct {
			GoMaxProcs int `json:"gomaxprocs"`
		} `json:"machine"`
		Bots []struct {
			Name            string   `json:"name"`
			Turns           int      `json:"turns"`
			MsPerTurn       float64  `json:"ms_per_turn"`
			PlayoutsPerTurn *float64 `json:"playouts_per_turn"`
			Rating          *float64 `json:"rating"`
		} `json:"bots"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Bots) != 2 || rep.Bots[0].Name != "greedy" || rep.Bots[0].Turns != 2 || rep.Bots[0].Rating == nil ||
		rep.Bots[1].PlayoutsPerTurn == nil || *rep.Bots[1].PlayoutsPerTurn != 10 || rep.Machine.GoMaxProcs < 1 {
		t.Fatalf("%s", out)
	}
	for _, args := range [][]string{
		{"bots", "--time", "--positions", "0"},
		{"bots", "--time", "--rounds", "100000", "--positions", "100000"},
		{"bots", "--time", "--bots", "nosuch"},
	} {
		if _, _, status := runPonte(t, "", args...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
}
