package match

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSPRT(t *testing.T) {
	for _, tc := range []struct {
		s           string
		alpha, beta float64
		want        *SPRT
		err         string
	}{
		{"", 0.05, 0.05, nil, ""},
		{"0,50", 0.05, 0.1, &SPRT{0, 50, 0.05, 0.1}, ""},
		{" -10 , 5 ", 0.05, 0.05, &SPRT{-10, 5, 0.05, 0.05}, ""},
		{"", 0.5, 0.05, nil, "--alpha and --beta must be above 0 and below 0.5, not 0.5 and 0.05"},
		{"50", 0.05, 0.05, nil, `--sprt "50": must be two Elo differences`},
		{"50,0", 0.05, 0.05, nil, `--sprt "50,0": the SPRT's ELO0 (50) must be below its ELO1 (0)`},
	} {
		got, err := ParseSPRT(tc.s, tc.alpha, tc.beta)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.s, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.s, err)
		case tc.err == "" && (got == nil) != (tc.want == nil), got != nil && *got != *tc.want:
			t.Errorf("%q: %+v, want %+v", tc.s, got, tc.want)
		}
	}
}

// A ladder opened to append to holds what was appended before, and a block's line says it.
func TestOpenLadder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.jsonl")
	blocks, err := Ladder()
	if err != nil || len(blocks) == 0 {
		t.Fatalf("the ladder ponte holds: %d blocks, %v", len(blocks), err)
	}
	for want := range 2 {
		f, got, err := OpenLadder(path)
		if err != nil || len(got) != want {
			t.Fatalf("open %d: %d blocks, %v", want, len(got), err)
		}
		if err := AppendBlock(f, blocks[0]); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if got, err := ReadLadderFile(path); err != nil || len(got) != 2 {
		t.Errorf("%d blocks, %v; want 2", len(got), err)
	}
	b := blocks[0]
	line := b.Line(&Config{A: "x", B: "y", Seed: 3}, time.Date(2026, 1, 2, 12, 4, 5, 0, time.UTC))
	if !strings.HasPrefix(line, "12:04:05 x vs y seed 3: ") || !strings.Contains(line, ", Elo ") {
		t.Errorf("line %q", line)
	}
}
