//go:build linux

package main

import (
	"strings"
	"testing"
)

// On a terminal, ponte match draws its bar of games on standard error; the result goes to
// standard output.
func TestMatchProgressBar(t *testing.T) {
	status, out, screen := runOnTerminal(t, "match", "greedy", "random", "--games", "20", "--size", "6", "--sprt", "0,50", "--games", "40")
	if status != exitOK {
		t.Fatalf("exit status %d, terminal %q", status, screen)
	}
	if !strings.Contains(screen, "match ") || !strings.Contains(screen, "games/s") || !strings.Contains(screen, "LLR") {
		t.Errorf("no progress bar on the terminal: %q", screen)
	}
	if !strings.Contains(out, "greedy vs random") || strings.Contains(out, "games/s") {
		t.Errorf("standard output: %q", out)
	}
}
