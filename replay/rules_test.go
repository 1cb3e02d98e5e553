package replay

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// lattice returns n cells of the lattice (2i, 2j) of a 26×26 board starting at lattice row
// j0: single tiles there never touch, so every one of them stays a legal sandbank.
func lattice(j0, n int) []Cell {
	var out []Cell
	for k := 0; k < n; k++ {
		out = append(out, CellAt(2*(k%13), 2*(j0+k/13)))
	}
	return out
}

// exhaust returns the 40 turns in which both colours place all their 40 tiles (40/15 supply).
func exhaust() []string {
	l, d := lattice(0, 40), lattice(6, 40)
	var moves []string
	for k := 0; k < 40; k += 2 {
		moves = append(moves, TilesMove(l[k], l[k+1]).String(), TilesMove(d[k], d[k+1]).String())
	}
	return moves
}

// bridgesOn returns the straight bridges between lattice neighbours (2i, 2j)–(2i+2, 2j) of
// the cells, n of them.
func bridgesOn(cells []Cell, n int) []string {
	var out []string
	for k := 0; len(out) < n && k+1 < len(cells); k += 2 {
		if cells[k].Row() == cells[k+1].Row() {
			out = append(out, BridgeMove(cells[k], cells[k+1]).String())
		}
	}
	return out
}

func join(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, strings.Fields(v)...)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

// interleave alternates two move lists: a[0], b[0], a[1], b[1], …
func interleave(a, b []string) []string {
	var out []string
	for i := range a {
		out = append(out, a[i])
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func TestRules(t *testing.T) {
	full := exhaust()
	tests := []struct {
		name   string
		size   int
		supply Supply
		moves  []string
		rule   Rule // "" for a legal game
		turn   int
		msg    string // part of the message
		over   bool
		score  [2]int
	}{
		// R1: the pie rule.
		{name: "R1 swap at turn 2", size: 6, moves: join("a1,c1 swap e5,e6 a3,b3")},
		{name: "R1 swap at turn 3", size: 6, moves: join("a1,c1 e5,e6 swap"), rule: RuleSwap, turn: 3, msg: "only as turn 2"},
		{name: "R1 swap at turn 1", size: 6, moves: join("swap"), rule: RuleSwap, turn: 1},
		{name: "R1 after swap Dark moves: Light tiles are the opener's", size: 6, moves: join("a1,a2 swap f1,f2 b1,b2"), score: [2]int{1, 0}},
		// R2 and R9: what a turn is and how it is written.
		{name: "R9 single tile", size: 6, moves: join("a1"), rule: RuleNotation, turn: 1},
		{name: "R9 unknown word", size: 6, moves: join("a1,b2 resign"), rule: RuleNotation, turn: 2, msg: "cannot read"},
		{name: "R9 uppercase", size: 6, moves: join("A1,B2"), rule: RuleNotation, turn: 1},
		{name: "R9 leading zero", size: 6, moves: join("a01,b2"), rule: RuleNotation, turn: 1},
		{name: "R9 column off board", size: 6, moves: join("a1,g1"), rule: RuleNotation, turn: 1, msg: "g1"},
		{name: "R9 row off board", size: 6, moves: join("a1,a7"), rule: RuleNotation, turn: 1, msg: "a7"},
		{name: "R9 row 0", size: 6, moves: join("a0,a2"), rule: RuleNotation, turn: 1, msg: "a0"},
		{name: "R9 same cell twice", size: 6, moves: join("b2,b2"), rule: RuleNotation, turn: 1, msg: "twice"},
		{name: "R9 bridge not a jump", size: 6, moves: join("a1,d1 f1,f2 a1-d1"), rule: RuleNotation, turn: 3, msg: "jump"},
		{name: "R9 bridge of length one", size: 6, moves: join("a1,c1 f1,f2 a1-b2"), rule: RuleNotation, turn: 3},
		{name: "R9 largest board", size: 26, moves: join("z26,a1 y25,b2")},
		// R3: placing tiles.
		{name: "R3 occupied", size: 6, moves: join("a1,a2 a1,f6"), rule: RuleTile, turn: 2, msg: "holds a Light tile"},
		{name: "R3 blocked", size: 6, moves: join("a1,c1 f1,f2 a1-c1 b1,f4"), rule: RuleTile, turn: 4, msg: "blocked"},
		{name: "R3 blocked under knight", size: 6, moves: join("a1,b3 f1,f2 a1-b3 e5,e6 b2,d5"), rule: RuleTile, turn: 5},
		{name: "R3.1 island of four", size: 6, moves: join("a1,a2 f1,f2 b1,b2"), score: [2]int{1, 0}},
		{name: "R3.1 five tiles", size: 6, moves: join("a1,a2 f1,f2 b1,c1 f4,f5 d1,e5"), rule: RuleSize, turn: 5, msg: "5 tiles"},
		{name: "R3.1 two tiles bridge two groups", size: 6, moves: join("a1,a3 f1,f2 b1,b3 f4,f5 a2,e5"), rule: RuleSize, turn: 5},
		{name: "R3.1 the two new tiles join", size: 8, moves: join("a1,a2 h1,h2 a3,a4")},
		{name: "R3.2 diagonal to own island", size: 6, moves: join("a1,a2 f1,f2 b1,b2 f4,f5 c3,e5"), rule: RuleDistance, turn: 5, msg: "touches Light island"},
		{name: "R3.2 new island diagonal to own sandbank", size: 6, moves: join("a1,a2 f1,f2 b1,c3 f4,f5 b2,e5"), rule: RuleDistance, turn: 5, msg: "c3"},
		{name: "R3.2 one turn makes two islands that touch", size: 8, moves: join("a1,a2 h1,h2 a3,c4 h4,h5 c5,c6 h7,h8 b3,d6"), rule: RuleDistance, turn: 7, msg: "island"},
		{name: "R3.2 the turn's two tiles: island and sandbank", size: 8, moves: join("a1,a2 h1,h2 a3,c5 h4,h5 a4,b5"), rule: RuleDistance, turn: 5},
		{name: "R3.2 sandbanks touch diagonally", size: 6, moves: join("a1,b2 f1,f2 c1,c3")},
		{name: "R3.2 1+2 join into an island", size: 6, moves: join("a1,a2 f1,f2 b3,e5 f4,f5 a3,e6"), score: [2]int{1, 0}},
		{name: "R3.2 other colour may touch", size: 6, moves: join("a1,a2 c1,c2 b1,b2 c3,b3"), score: [2]int{1, 1}},
		// R4: bridges.
		{name: "R4.1 straight", size: 6, moves: join("a1,c1 f1,f2 a1-c1")},
		{name: "R4.1 diagonal", size: 6, moves: join("a1,c3 f1,f2 c3-a1")},
		{name: "R4.1 knight", size: 6, moves: join("a1,b3 f1,f2 a1-b3")},
		{name: "R4.1 knight sideways", size: 6, moves: join("a1,c2 f1,f2 c2-a1")},
		{name: "R4 end is empty", size: 6, moves: join("a1,c1 f1,f2 a1-c3"), rule: RuleBridge, turn: 3, msg: "c3 is empty"},
		{name: "R4 other colour's tiles", size: 6, moves: join("a1,c1 a3,c3 a3-c3"), rule: RuleBridge, turn: 3, msg: "Dark"},
		{name: "R4.2 tile under straight", size: 6, moves: join("a1,c1 b1,f2 a1-c1"), rule: RuleWater, turn: 3, msg: "b1"},
		{name: "R4.2 own tile under bridge", size: 6, moves: join("a1,b1 f1,f2 c1,e5 f4,f5 a1-c1"), rule: RuleWater, turn: 5},
		{name: "R4.2 knight needs both cells", size: 6, moves: join("a1,b3 b2,f2 a1-b3"), rule: RuleWater, turn: 3},
		{name: "R4.2 knight over the other cell", size: 6, moves: join("a1,b3 a2,f2 a1-b3"), rule: RuleWater, turn: 3},
		{name: "R4.3 one end per tile", size: 6, moves: join("a1,c1 f1,f2 a1-c1 f4,f5 e1,e3 d4,d5 c1-e1"), rule: RuleOneEnd, turn: 7, msg: "already carries"},
		{name: "R4.4 knights cross", size: 6, moves: join("a1,b3 b1,a3 a1-b3 b1-a3"), rule: RuleCrossing, turn: 4},
		{name: "R4.4 diagonals cross", size: 6, moves: join("a1,c3 a3,c1 a1-c3 a3-c1"), rule: RuleCrossing, turn: 4},
		{name: "R4.4 diagonals crossing at a cell corner", size: 6, moves: join("b2,d4 a4,c2 b2-d4 a4-c2"), rule: RuleCrossing, turn: 4},
		{name: "R4.4 straights cross", size: 6, moves: join("b1,b3 a2,c2 b1-b3 a2-c2"), rule: RuleCrossing, turn: 4},
		{name: "R4.4 diagonal over a knight's blocked cell", size: 6, moves: join("a1,c2 e5,e6 a1-c2 f5,f6 a3,c1 e2,e3 a3-c1"), rule: RuleCrossing, turn: 7},
		{name: "R4.4 knights crossing in one point off the cells", size: 6, moves: join("a2,c3 a3,c2 a2-c3 a3-c2"), rule: RuleCrossing, turn: 4},
		{name: "R4.4 parallel knights share a blocked cell", size: 6, moves: join("a1,b3 e5,e6 a1-b3 f5,f6 b1,c3 e2,e3 b1-c3")},
		{name: "R4.4 diagonal and knight side by side", size: 8, moves: join("a1,c3 h8,h7 a1-c3 f1,f2 b1,d2 h4,h5 b1-d2")},
		{name: "R4.5 own colour cannot use a blocked cell", size: 6, moves: join("a1,c1 f1,f2 a1-c1 f4,f5 b1,e5"), rule: RuleTile, turn: 5},
		// R5: passing and the end.
		{name: "R5.1 pass while two tiles fit", size: 6, moves: join("a1,c1 pass"), rule: RulePass, turn: 2, msg: "can still place"},
		{name: "R5.1 pass with too few tiles", size: 26, supply: Supply40x15, moves: join(full, "pass"), over: false},
		{name: "R5.1 bridge instead of pass", size: 26, supply: Supply40x15, moves: join(full, bridgesOn(lattice(0, 40), 1))},
		{name: "R5.2 Light passes, Dark has one more turn", size: 26, supply: Supply40x15, moves: join(full, "pass", bridgesOn(lattice(6, 40), 1)), over: true, score: [2]int{0, 0}},
		{name: "R5.3 Dark passes, the game ends", size: 26, supply: Supply40x15, moves: join(full, bridgesOn(lattice(0, 40), 1), "pass"), over: true},
		{name: "R5.4 no move after the end", size: 26, supply: Supply40x15, moves: join(full, "pass pass a1,a2"), rule: RuleOver, turn: 43, msg: "over"},
		{name: "R5.4 comes before R9", size: 26, supply: Supply40x15, moves: join(full, "pass pass xyzzy"), rule: RuleOver, turn: 43},
		{name: "R5.4 comes before R1", size: 26, supply: Supply40x15, moves: join(full, "pass pass swap"), rule: RuleOver, turn: 43},
		// The 40/15 supply.
		{name: "R3 no tiles left", size: 26, supply: Supply40x15, moves: join(full, "z26,x26"), rule: RuleTile, turn: 41, msg: "tiles left"},
		{name: "R4 bridge pool empty", size: 26, supply: Supply40x15, moves: join(full, interleave(bridgesOn(lattice(0, 40), 8), bridgesOn(lattice(6, 40), 8))), rule: RuleBridge, turn: 56, msg: "pool is empty"},
		{name: "R4 pool of 15 bridges", size: 26, supply: Supply40x15, moves: join(full, interleave(bridgesOn(lattice(0, 40), 8), bridgesOn(lattice(6, 40), 7)))},
		{name: "unlimited supply", size: 26, moves: join(full, "z26,x26")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(tt.size, tt.supply)
			if err != nil {
				t.Fatal(err)
			}
			for i, tok := range tt.moves {
				err = g.PlayText(tok)
				if err != nil {
					var re *RuleError
					if !errors.As(err, &re) {
						t.Fatalf("turn %d %q: error %v is not a *RuleError", i+1, tok, err)
					}
					if g.Turn() != i {
						t.Errorf("a rejected turn changed the turn count to %d", g.Turn())
					}
					break
				}
			}
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("want legal, got %v", err)
				}
				if g.Over() != tt.over {
					t.Errorf("over = %v, want %v", g.Over(), tt.over)
				}
				if tt.score != [2]int{} && g.Score() != tt.score {
					t.Errorf("score = %v, want %v", g.Score(), tt.score)
				}
				return
			}
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("want %s at turn %d, got legal game", tt.rule, tt.turn)
			}
			if re.Rule != tt.rule || re.Turn != tt.turn {
				t.Errorf("got %s at turn %d (%v), want %s at turn %d", re.Rule, re.Turn, re, tt.rule, tt.turn)
			}
			if !strings.Contains(re.Message, tt.msg) {
				t.Errorf("message %q does not contain %q", re.Message, tt.msg)
			}
		})
	}
}

func TestTurnNumbers(t *testing.T) {
	g, _ := NewGame(6, Unlimited)
	if err := g.PlayNumbered(1, "a1,b2"); err != nil {
		t.Fatal(err)
	}
	err := g.PlayNumbered(3, "c3,d4")
	if re, ok := err.(*RuleError); !ok || re.Rule != RuleNotation || re.Turn != 2 || !strings.Contains(re.Message, "turn number 3") {
		t.Errorf("wrong number: got %v", err)
	}
	if err := g.PlayNumbered(3, "swap"); err == nil || err.(*RuleError).Rule != RuleNotation {
		t.Errorf("swap at turn 2 with a wrong number: got %v, want R9", err)
	}
	if err := g.PlayNumbered(2, "c3,d4"); err != nil {
		t.Fatal(err)
	}
	if err := g.PlayNumbered(7, "swap"); err == nil || err.(*RuleError).Rule != RuleSwap {
		t.Errorf("swap at turn 3 with a wrong number: got %v, want R1 first", err)
	}
}

func TestRejectedTurnLeavesGameUnchanged(t *testing.T) {
	g, _ := NewGame(8, Unlimited)
	for _, tok := range strings.Fields("a1,a2 h1,h2 a3,c5 h4,h5") {
		if err := g.PlayText(tok); err != nil {
			t.Fatal(err)
		}
	}
	before := fmt.Sprint(g.Score(), g.Islands(), g.Sandbanks(), g.Tiles(), g.Turn(), g.ToMove())
	if err := g.PlayText("a4,b5"); err == nil {
		t.Fatal("a4,b5 makes an island touching b5,c5 and was accepted")
	}
	for _, c := range []Cell{CellAt(0, 3), CellAt(1, 4)} {
		if _, ok := g.At(c); ok {
			t.Fatalf("%s was placed by a rejected turn", c)
		}
	}
	if got := fmt.Sprint(g.Score(), g.Islands(), g.Sandbanks(), g.Tiles(), g.Turn(), g.ToMove()); got != before {
		t.Errorf("state changed: %s -> %s", before, got)
	}
	if err := g.PlayText("a4,e7"); err != nil {
		t.Errorf("the same turn with another second tile: %v", err)
	}
}

func TestScoring(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		moves   string
		score   [2]int
		islands [2]int
		bridges [2]int
	}{
		{name: "one island", size: 8, moves: "a1,a2 h8,h7 a3,a4", score: [2]int{1, 0}, islands: [2]int{1, 0}},
		{name: "two islands unjoined", size: 10, moves: "a1,a2 j10,j9 a3,a4 j1,j2 c1,c2 j4,j5 c3,c4", score: [2]int{2, 0}, islands: [2]int{2, 0}},
		// a1..a4 island, c1..c4 island, bridged a2-c2? a2 and c2: b2 water — joined: T(2)=3.
		{name: "two islands bridged", size: 10, moves: "a1,a2 j10,j9 a3,a4 j1,j2 c1,c2 j4,j5 c3,c4 j7,h7 a2-c2", score: [2]int{3, 0}, islands: [2]int{2, 0}, bridges: [2]int{1, 0}},
		// islands a1-a4 and e1-e4 joined through the sandbank c2: a3-c2 knight, c2-e3 knight... c2 carries one end only, so use sandbank c2,c3: a2-c2 straight and c3-e3 straight.
		{name: "two islands through a sandbank", size: 10, moves: "a1,a2 j10,j9 a3,a4 j1,j2 e1,e2 j4,j5 e3,e4 j7,h7 c2,c3 h1,h2 a2-c2 h4,h5 c3-e3", score: [2]int{3, 0}, islands: [2]int{2, 0}, bridges: [2]int{2, 0}},
		{name: "bridge between sandbanks scores nothing", size: 8, moves: "a1,c1 h8,h7 a1-c1", score: [2]int{0, 0}, bridges: [2]int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := NewGame(tt.size, Unlimited)
			for _, tok := range strings.Fields(tt.moves) {
				if err := g.PlayText(tok); err != nil {
					t.Fatalf("%s: %v", tok, err)
				}
			}
			if g.Score() != tt.score || g.Islands() != tt.islands || g.Bridges() != tt.bridges {
				t.Errorf("score %v islands %v bridges %v, want %v %v %v", g.Score(), g.Islands(), g.Bridges(), tt.score, tt.islands, tt.bridges)
			}
			_, comps := g.Groups()
			sum := [2]int{}
			for _, c := range comps {
				sum[c.Colour] += c.Score()
			}
			if sum != g.Score() {
				t.Errorf("components score %v, incremental score %v", sum, g.Score())
			}
		})
	}
}

func TestTriangularScore(t *testing.T) {
	// k islands joined in one component score k(k+1)/2: a chain of upright islands in
	// columns two apart, each joined to the one before by a straight bridge.
	g, _ := NewGame(26, Unlimited)
	dark := 0
	play := func(tok string) {
		t.Helper()
		if err := g.PlayText(tok); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
	darkTurn := func() {
		play(TilesMove(CellAt(2*(dark%13), 10+4*(dark/13)), CellAt(2*(dark%13), 12+4*(dark/13))).String())
		dark++
	}
	want := []int{1, 3, 6, 10, 15, 21, 28}
	for k, w := range want {
		col := 2 * k
		play(TilesMove(CellAt(col, 0), CellAt(col, 1)).String())
		darkTurn()
		play(TilesMove(CellAt(col, 2), CellAt(col, 3)).String())
		darkTurn()
		if k > 0 {
			row := 1 + k%2
			play(BridgeMove(CellAt(col-2, row), CellAt(col, row)).String())
			darkTurn()
		}
		if got := g.Score()[Light]; got != w {
			t.Fatalf("%d islands in one component score %d, want %d", k+1, got, w)
		}
	}
}

func TestStanding(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		want  Result
		by    TieBreak
	}{
		{name: "empty board is a draw", moves: "", want: Draw, by: Drawn},
		{name: "score", moves: "a1,a2 h8,h7 a3,a4", want: LightWins, by: ByScore},
		{name: "bridges break a tie", moves: "a1,c1 h8,h6 a1-c1", want: LightWins, by: ByBridges},
		{name: "Dark bridges", moves: "a1,c1 h8,h6 a2,b4 h8-h6", want: DarkWins, by: ByBridges},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := NewGame(8, Unlimited)
			for _, tok := range strings.Fields(tt.moves) {
				if err := g.PlayText(tok); err != nil {
					t.Fatal(err)
				}
			}
			if r, by := g.Standing(); r != tt.want || by != tt.by {
				t.Errorf("standing %s by %s, want %s by %s", r, by, tt.want, tt.by)
			}
		})
	}
	// Islands decide equal scores: two unjoined islands (2 points) against two joined...
	// equal score needs equal-scoring structures with different island counts: 3 unjoined
	// islands score 3, two joined islands score 3.
	g, _ := NewGame(14, Unlimited)
	light := "a1,a2 a3,a4 c1,c2 c3,c4 e1,e2 e3,e4"
	dark := "n1,n2 n3,n4 l1,l2 l3,l4 j9,j10 n10,n11"
	lt, dk := strings.Fields(light), strings.Fields(dark)
	for i := range lt {
		if err := g.PlayText(lt[i]); err != nil {
			t.Fatal(err)
		}
		if err := g.PlayText(dk[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.PlayText("c8,c10"); err != nil { // Light: anything
		t.Fatal(err)
	}
	if err := g.PlayText("n2-l2"); err != nil { // Dark joins its two islands: 3 points
		t.Fatal(err)
	}
	if s := g.Score(); s != [2]int{3, 3} {
		t.Fatalf("score %v, want 3-3", s)
	}
	if r, by := g.Standing(); r != LightWins || by != ByIslands {
		t.Errorf("standing %s by %s, want 1-0 by islands", r, by)
	}
}

func TestCheckClaim(t *testing.T) {
	full := exhaust()
	over, _ := NewGame(26, Supply40x15)
	for _, tok := range join(full, "pass pass") {
		if err := over.PlayText(tok); err != nil {
			t.Fatal(err)
		}
	}
	open, _ := NewGame(8, Unlimited)
	_ = open.PlayText("a1,a2")
	score := func(l, d int) *[2]int { return &[2]int{l, d} }
	tests := []struct {
		name  string
		game  *Game
		claim Claim
		ok    bool
		msg   string
	}{
		{name: "true draw", game: over, claim: Claim{Result: Draw, Termination: "normal", Score: score(0, 0)}, ok: true},
		{name: "false winner", game: over, claim: Claim{Result: LightWins, Termination: "normal"}, msg: "claims 1-0"},
		{name: "false score", game: over, claim: Claim{Result: Draw, Termination: "normal", Score: score(1, 0)}, msg: "score 1-0"},
		{name: "normal end of an unfinished game", game: open, claim: Claim{Result: LightWins, Termination: "normal"}, msg: "not over"},
		{name: "resignation is not checked", game: open, claim: Claim{Result: DarkWins, Termination: "resign"}, ok: true},
		{name: "score of a resigned game is checked", game: open, claim: Claim{Result: DarkWins, Termination: "resign", Score: score(0, 1)}, msg: "score"},
		{name: "nothing claimed", game: open, claim: Claim{}, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.game.CheckClaim(tt.claim)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var re *RuleError
			if !errors.As(err, &re) || re.Rule != RuleRecord || re.Turn != 0 || !strings.Contains(re.Message, tt.msg) {
				t.Errorf("got %v, want R8 mentioning %q", err, tt.msg)
			}
		})
	}
}

// The chess habit, two turns under one number (1. e5,f5 d4,d3 2. a1,a2), gets the hint
// that each turn has its own number; another wrong number does not.
func TestTurnNumberHint(t *testing.T) {
	for _, c := range []struct {
		numbers []int
		hint    bool
	}{
		{[]int{1, 0, 2}, true}, // 1. e5,f5 d4,d3 2. …: turn 3 written as 2
		{[]int{1, 2, 1}, false},
		{[]int{1, 2, 7}, false},
	} {
		g, _ := NewGame(10, Unlimited)
		var err error
		for i, n := range c.numbers {
			if err = g.PlayNumbered(n, []string{"e5,f5", "d4,d3", "a1,a2"}[i]); err != nil {
				break
			}
		}
		re, ok := err.(*RuleError)
		if !ok || re.Rule != RuleNotation || re.Turn != 3 || strings.Contains(re.Message, "one number per turn (1. e5,f5 2. d4,d3)") != c.hint {
			t.Errorf("numbers %v: %v, want the hint: %v", c.numbers, err, c.hint)
		}
	}
}
