package replay

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseMove: reading a token never panics, an accepted token is written back the same
// way (modulo nothing: the notation is canonical), and playing it never panics.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d4,e5", "d4-f5", "swap", "pass", "a1,a1", "z26,a1", "k1,a1", "a0,b1", "a27-b1", "a1-d1", "", ",", "-", "a", "a1,", "j10-h9", "d04,e5", "é4,a1"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		size = MinSize + abs(size)%(MaxSize-MinSize+1)
		m, err := ParseMove(s, size)
		if slow, slowErr := parseMove(s, size); slow != m || fmt.Sprint(slowErr) != fmt.Sprint(err) {
			t.Fatalf("%q: ParseMove %v, %v; parseMove %v, %v", s, m, err, slow, slowErr)
		}
		if err != nil {
			re, ok := err.(*RuleError)
			if !ok || re.Rule != RuleNotation {
				t.Fatalf("%q: error %v is not an R9 *RuleError", s, err)
			}
			return
		}
		if m.String() != s {
			t.Fatalf("%q reads as %v, which writes as %q", s, m, m.String())
		}
		g, _ := NewGame(size, Unlimited)
		_ = g.Play(m)
	})
}

// FuzzGame: any sequence of tokens is either played or rejected with a *RuleError, never a
// panic, and the incremental score always equals the score recomputed from the components.
func FuzzGame(f *testing.F) {
	f.Add("a1,c1 f1,f2 a1-c1 f4,f5 e1,e3 d4,d5 c1-e1", 6, false)
	f.Add("a1,b3 b1,a3 a1-b3 b1-a3 pass pass swap", 6, true)
	f.Add("d4,d5 swap g7,g8 e4,e5 g9,g10 e6,e7 pass pass", 10, false)
	f.Fuzz(func(t *testing.T, tokens string, size int, limited bool) {
		size = MinSize + abs(size)%(MaxSize-MinSize+1)
		supply := Unlimited
		if limited {
			supply = Supply40x15
		}
		g, _ := NewGame(size, supply)
		for _, tok := range strings.Fields(tokens) {
			before := g.Turn()
			if err := g.PlayText(tok); err != nil {
				if _, ok := err.(*RuleError); !ok {
					t.Fatalf("%q: %T is not a *RuleError", tok, err)
				}
				if g.Turn() != before {
					t.Fatalf("%q: rejected but the turn count moved", tok)
				}
			}
		}
		_, comps := g.Groups()
		var sum [2]int
		for _, c := range comps {
			sum[c.Colour] += c.Score()
		}
		if sum != g.Score() {
			t.Fatalf("incremental score %v, components score %v", g.Score(), sum)
		}
		_ = g.LegalBridges(g.ToMove())
		_ = g.LegalTileCells(g.ToMove())
	})
}
