package value

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// position plays the turn tokens on a board of side size.
func position(t *testing.T, size int, tokens ...string) *replay.Game {
	t.Helper()
	g, err := replay.NewGame(size, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	for i, tok := range tokens {
		if err := g.PlayText(tok); err != nil {
			t.Fatalf("turn %d %s: %v", i+1, tok, err)
		}
	}
	return g
}

// TestEncodePlanes checks the planes of small positions by hand, seen from the colour to
// move.
func TestEncodePlanes(t *testing.T) {
	const size = 6
	g := position(t, size, "a1,a2", "e5,e4", "c1,c2")
	planes, globals := make([]float32, Planes*size*size), make([]float32, Globals)
	if c := Encode(g, planes, globals); c != replay.Dark {
		t.Fatalf("seen from %v, want Dark", c)
	}
	at := func(p int, cell string) float32 {
		c, ok := game.ParseCell(cell)
		if !ok {
			t.Fatalf("cell %q", cell)
		}
		return planes[p*size*size+c.Row()*size+c.Col()]
	}
	for _, c := range []struct {
		plane int
		cell  string
		want  float32
	}{
		{0, "e5", 1}, {0, "e4", 1}, {0, "a1", 0}, // mine: Dark's, who moves
		{1, "a1", 1}, {1, "a2", 1}, {1, "c1", 1}, {1, "c2", 1}, {1, "e5", 0},
		{5, "e5", 2.0 / 3}, {6, "a1", 2.0 / 3}, {6, "c2", 2.0 / 3}, {6, "b1", 0},
		{3, "e5", 0}, {4, "a1", 0},
		{2, "b1", 0}, {11, "a1", 0},
		{15, "a1", 1}, {15, "f6", 1}, {15, "d3", 1},
	} {
		if got := at(c.plane, c.cell); got != c.want {
			t.Errorf("plane %d at %s: %v, want %v", c.plane, c.cell, got, c.want)
		}
	}
	// R3.2: a tile next to another group of one's own is not legal; b1 touches both of
	// Light's groups, so Light (theirs, plane 14) may not play there; nor on a tile.
	if at(14, "b1") != 0 || at(14, "a1") != 0 || at(13, "e5") != 0 {
		t.Errorf("legal cells on b1/a1/e5: %v %v %v", at(14, "b1"), at(14, "a1"), at(13, "e5"))
	}
	if at(13, "a5") != 1 || at(14, "a5") != 1 {
		t.Errorf("a5 is legal for both: %v %v", at(13, "a5"), at(14, "a5"))
	}
	want := []float32{0, 0, 0, 0, 0, 3 / 18.0, 0.6, 0}
	for i := range want {
		if math.Abs(float64(globals[i]-want[i])) > 1e-6 {
			t.Errorf("globals %v, want %v", globals, want)
			break
		}
	}
	// Light's bridge, Dark to move: its ends (theirs) and the cell under it
	g = position(t, size, "a1,a2", "e5,e4", "c1,c2", "f1,f2", "a1-c1")
	Encode(g, planes, globals)
	if at(1, "a1") != 1 || at(12, "a1") != 1 || at(12, "c1") != 1 || at(2, "b1") != 1 || at(12, "a2") != 0 || at(11, "a1") != 0 {
		t.Errorf("bridge a1-c1: ends %v %v, under it %v, a2 %v, mine %v", at(12, "a1"), at(12, "c1"), at(2, "b1"), at(12, "a2"), at(11, "a1"))
	}
}

// TestSymmetryRoundTrip checks that the 8 symmetries differ and that Inverse undoes each.
func TestSymmetryRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{5, 8} {
		src := make([]float32, 3*size*size)
		for i := range src {
			src[i] = float32(rng.NormFloat64())
		}
		seen := map[string]int{}
		for s := range Symmetries {
			turned, back := make([]float32, len(src)), make([]float32, len(src))
			Transform(turned, src, size, s)
			Transform(back, turned, size, Inverse(s))
			for i := range src {
				if back[i] != src[i] {
					t.Fatalf("size %d symmetry %d then %d: value %d is %v, was %v", size, s, Inverse(s), i, back[i], src[i])
				}
			}
			key := fmt.Sprint(turned)
			if u, ok := seen[key]; ok {
				t.Errorf("size %d: symmetries %d and %d are the same", size, u, s)
			}
			seen[key] = s
		}
	}
}

// turnedToken is a turn token under symmetry s of a board of side size.
func turnedToken(t *testing.T, tok string, s, size int) string {
	if tok == "pass" || tok == "swap" {
		return tok
	}
	sep := ","
	if strings.Contains(tok, "-") {
		sep = "-"
	}
	var out []string
	for _, part := range strings.Split(tok, sep) {
		c, ok := game.ParseCell(part)
		if !ok {
			t.Fatalf("token %q", tok)
		}
		r, k := Symmetric(s, size, c.Row(), c.Col())
		out = append(out, game.CellAt(k, r).String())
	}
	return strings.Join(out, sep)
}

// game0 is game 0 of 8×8 seed 777 (vnet/testdata/play-8x8-777.ponte).
var game0 = strings.Fields("b1,f7 e5,f5 b2,d5 e6,b3 d6,e4 e7,c3 d4,c1 b4,c2 a2,b7 e2,f3 b8,f6 f2,e1 f8,a7 e2-c3 a8,g8 c6,c7 g4,b5 f3-f5 b5-b7 c8,h4 g3,h3 h2,h6 g2,a4 e7-c8 a2-a4 h5,h7 pass")

// TestEncodeSymmetric checks that the planes of a game played turned by a symmetry are the
// planes of the game turned, and that the model's value is the same for all 8.
func TestEncodeSymmetric(t *testing.T) {
	m, err := LoadFile("testdata/model.bin")
	if err != nil {
		t.Fatal(err)
	}
	const size = 8
	n := Planes * size * size
	for _, turns := range []int{6, 17, 27} {
		g := position(t, size, game0[:turns]...)
		planes, globals := make([]float32, n), make([]float32, Globals)
		Encode(g, planes, globals)
		v := m.Value(g, replay.Light)
		for s := range Symmetries {
			var toks []string
			for _, tok := range game0[:turns] {
				toks = append(toks, turnedToken(t, tok, s, size))
			}
			h := position(t, size, toks...)
			got, gotG, want := make([]float32, n), make([]float32, Globals), make([]float32, n)
			Encode(h, got, gotG)
			Transform(want, planes, size, s)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("after %d turns, symmetry %d: plane %d cell %d is %v, want %v", turns, s, i/(size*size), i%(size*size), got[i], want[i])
				}
			}
			for i := range globals {
				if gotG[i] != globals[i] {
					t.Fatalf("after %d turns, symmetry %d: global %d is %v, want %v", turns, s, i, gotG[i], globals[i])
				}
			}
			if w := m.Value(h, replay.Light); math.Abs(w-v) > 1e-5 {
				t.Errorf("after %d turns, symmetry %d: value %.6f, unturned %.6f", turns, s, w, v)
			}
			if w := m.Value(h, replay.Dark); math.Abs(w-(1-v)) > 1e-5 {
				t.Errorf("after %d turns, symmetry %d: Dark's value %.6f, want 1 − %.6f", turns, s, w, v)
			}
		}
	}
}

// TestValueOver checks that a finished game's value is its result.
func TestValueOver(t *testing.T) {
	m, err := LoadFile("testdata/model.bin")
	if err != nil {
		t.Fatal(err)
	}
	g := position(t, 8, append(game0, "h1,a1")...)
	if !g.Over() || g.Result() != game.DarkWins {
		t.Fatalf("game 0: over %v, result %v", g.Over(), g.Result())
	}
	if l, d := m.Value(g, replay.Light), m.Value(g, replay.Dark); l != 0 || d != 1 {
		t.Errorf("values %v and %v, want 0 and 1", l, d)
	}
}

// TestValueConcurrent checks that Value from two goroutines gives the values of one.
func TestValueConcurrent(t *testing.T) {
	m, err := LoadFile("testdata/model.bin")
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	var games []*replay.Game
	for turns := 3; turns < len(game0); turns += 4 {
		g := position(t, 8, game0[:turns]...)
		games = append(games, g)
		want = append(want, m.Value(g, replay.Light))
	}
	bad := make(chan int, 2)
	for range 2 {
		go func() {
			n := 0
			for range 3 {
				for i, g := range games {
					if m.Value(g, replay.Light) != want[i] {
						n++
					}
				}
			}
			bad <- n
		}()
	}
	if a, b := <-bad, <-bad; a+b != 0 {
		t.Errorf("%d values differ from the serial ones", a+b)
	}
}

// BenchmarkValue is the cost of a value: the encoding and 8 passes of the network.
func BenchmarkValue(b *testing.B) {
	m, err := LoadFile("testdata/model.bin")
	if err != nil {
		b.Fatal(err)
	}
	g, err := replay.NewGame(8, game.Unlimited)
	if err != nil {
		b.Fatal(err)
	}
	for _, tok := range game0[:17] {
		if err := g.PlayText(tok); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Value(g, replay.Light)
	}
}
