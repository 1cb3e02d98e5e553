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
