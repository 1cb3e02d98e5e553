package game_test

import (
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// ParseCell reads exactly the cells the rules engine reads in a turn: a text c is a cell on
// a board of side n for game.ParseCell when "c,x" is a turn of two tiles for
// replay.ParseMove (x another cell on the board), and names the same square. store's
// games.parquet folds the stored opening through it.
func TestParseCellAsTheRules(t *testing.T) {
	texts := []string{"", "a", "a0", "a01", "a1", "d4", "z26", "z27", "a100", "A1", "a1!", " a1", "a1 ",
		"j10", "j1", "k10", "swap", "pass", "d4,e5", "d4-e5", "aa1", "b9", "b19", "c20", "y25", "{", "é1"}
	for col := 'a'; col <= 'z'; col++ {
		for row := 0; row <= 27; row++ {
			texts = append(texts, string(col)+itoa(row))
		}
	}
	for _, n := range []int{5, 10, 14, 26} {
		other := "a1"
		for _, s := range texts {
			if s == other {
				other = "b1"
			}
			m, err := replay.ParseMove(s+","+other, n)
			c, ok := game.ParseCell(s)
			onBoard := ok && c.On(n)
			if (err == nil) != onBoard || err == nil && m.A != c {
				t.Errorf("%q on %d×%d: ParseMove %v, %v; ParseCell %v, %v (on the board: %v)", s, n, n, m, err, c, ok, onBoard)
			}
			if ok && c.String() != s {
				t.Errorf("ParseCell(%q) = %v, which is written %q", s, c, c.String())
			}
			other = "a1"
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

func TestResultText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want game.Result
		ok   bool
	}{
		{"1-0", game.LightWins, true},
		{"0-1", game.DarkWins, true},
		{"1/2-1/2", game.Draw, true},
		{"*", game.NoResult, true},
		{"", game.NoResult, true},
		{"1-1", game.NoResult, false},
		{"½-½", game.NoResult, false},
		{"1-0 ", game.NoResult, false},
	} {
		r, ok := game.ParseResult(tc.text)
		if r != tc.want || ok != tc.ok {
			t.Errorf("ParseResult(%q) = %v, %v; want %v, %v", tc.text, r, ok, tc.want, tc.ok)
		}
		if ok && tc.text != "" && r.String() != tc.text {
			t.Errorf("%q reads as %v, written %q", tc.text, r, r.String())
		}
	}
}

func TestSupplyText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want game.Supply
		ok   bool
	}{
		{"unlimited", game.Unlimited, true},
		{"40/15", game.Supply40x15, true},
		{"", game.Unlimited, true},
		{"40x15", game.Unlimited, false},
		{"Unlimited", game.Unlimited, false},
	} {
		s, ok := game.ParseSupply(tc.text)
		if s != tc.want || ok != tc.ok {
			t.Errorf("ParseSupply(%q) = %v, %v; want %v, %v", tc.text, s, ok, tc.want, tc.ok)
		}
		if ok && tc.text != "" && s.String() != tc.text {
			t.Errorf("%q reads as %v, written %q", tc.text, s, s.String())
		}
	}
}

func TestLightScore(t *testing.T) {
	for r, want := range map[game.Result]float64{game.LightWins: 1, game.Draw: 0.5, game.DarkWins: 0, game.NoResult: 0} {
		if got := r.LightScore(); got != want {
			t.Errorf("%v: Light's score %g, want %g", r, got, want)
		}
	}
}
