package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every game of the arch bot's committed matches (bot/testdata/arch-matches) is legal under
// ponte verify, and each archive holds the games its JSON result counts: the figures of
// docs/bot-design.md rest on them.
func TestArchMatchesData(t *testing.T) {
	results, err := filepath.Glob("../../bot/testdata/arch-matches/*.json")
	if err != nil || len(results) < 13 {
		t.Fatalf("%d results of matches found: %v", len(results), err)
	}
	total := 0
	for _, path := range results {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Games int }
		if err := json.Unmarshal(b, &r); err != nil || r.Games < 2 {
			t.Fatalf("%s: %v, %d games", path, err, r.Games)
		}
		archive := strings.TrimSuffix(path, ".json") + ".ponte.gz"
		out, errOut, status := runPonte(t, "", "verify", archive)
		want := fmt.Sprintf("%d games: %d legal, 0 illegal, 0 unreadable", r.Games, r.Games)
		if status != exitOK || !strings.Contains(out+errOut, want) {
			t.Errorf("ponte verify %s: exit status %d, want 0 and %q:\n%s%s", archive, status, want, out, errOut)
		}
		total += r.Games
	}
	t.Logf("%d games in %d matches, all legal", total, len(results))
}
