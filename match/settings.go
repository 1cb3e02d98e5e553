package match

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ParseSPRT reads an SPRT's bounds as a command line gives them, "ELO0,ELO1" (such as
// "0,50"), with the error rates alpha and beta; the errors name --sprt, --alpha and --beta.
func ParseSPRT(s string, alpha, beta float64) (*SPRT, error) {
	if t := (SPRT{Elo0: 0, Elo1: 1, Alpha: alpha, Beta: beta}); t.Check() != nil {
		return nil, fmt.Errorf("--alpha and --beta must be above 0 and below 0.5, not %g and %g", alpha, beta)
	}
	if s == "" {
		return nil, nil
	}
	lo, hi, ok := strings.Cut(s, ",")
	e0, err0 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
	e1, err1 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
	if !ok || err0 != nil || err1 != nil {
		return nil, fmt.Errorf("--sprt %q: must be two Elo differences, \"ELO0,ELO1\" (such as 0,50)", s)
	}
	t := &SPRT{Elo0: e0, Elo1: e1, Alpha: alpha, Beta: beta}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("--sprt %q: %w", s, err)
	}
	return t, nil
}

// ReadLadderFile reads the ladder file at path, or the ladder ponte holds when path is "".
func ReadLadderFile(path string) ([]Block, error) {
	if path == "" {
		return Ladder()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLadder(f, path)
}

// OpenLadder opens the ladder file at path to append blocks to it (made if need be), with
// the blocks it holds already.
func OpenLadder(path string) (*os.File, []Block, error) {
	var blocks []Block
	if _, err := os.Stat(path); err == nil {
		if blocks, err = ReadLadderFile(path); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	return f, blocks, err
}

// Line is the line that says, at the time now, a block played between cfg's bots: "12:04:05
// sage-50 vs greedy seed 3: 50 games, score 0.620, Elo +85 [+20, +150]".
func (b Block) Line(cfg *Config, now time.Time) string {
	e := b.Pentanomial.Elo()
	return fmt.Sprintf("%s %s vs %s seed %d: %d games, score %.3f, Elo %s [%s, %s]",
		now.UTC().Format("15:04:05"), cfg.A, cfg.B, cfg.Seed, b.Games, b.Pentanomial.Score(),
		SignedElo(e.Value), SignedElo(e.Lo), SignedElo(e.Hi))
}
