package match_test

import (
	"fmt"

	"github.com/ponte/ponte/match"
)

// A match of 100 pairs: the pairs by A's points, two losses first.
func ExamplePentanomial_Elo() {
	p := match.Pentanomial{4, 6, 50, 25, 15}
	e := p.Elo()
	fmt.Printf("score %.3f, Elo %+.1f [%+.1f, %+.1f]\n", p.Score(), e.Value, e.Lo, e.Hi)
	// Output: score 0.603, Elo +72.2 [+39.1, +106.8]
}

// The SPRT of fishtest's large gains, [0, 50], after the same 100 pairs.
func ExampleSPRT() {
	t := match.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	p := match.Pentanomial{4, 6, 50, 25, 15}
	llr := t.LLR(p)
	lo, hi := t.Bounds()
	fmt.Printf("LLR %.2f (%.2f, %.2f): %s\n", llr, lo, hi, t.Decide(llr))
	// Output: LLR 7.23 (-2.94, 2.94): H1
}
