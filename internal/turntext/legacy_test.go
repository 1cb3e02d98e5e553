package turntext

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// The accessors read back every number Pack packs, at its widest, for every kind of turn.
func TestPackReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := func(max int) int { return r.IntN(max + 1) }
	for i := range 20000 {
		f := replay.Features{
			Turn: i + 1, Colour: replay.Colour(n(1)), Kind: replay.MoveKind(n(3)), IslandsFormed: n(7),
			LargestComponent: n(169), Score: [2]int{n(14365), n(14365)}, Islands: [2]int{n(169), n(169)},
			Sandbanks: [2]int{n(676), n(676)}, Dead: [2]int{n(676), n(676)}, DeadCreated: [2]int{n(45), n(45)},
			Mobility: [2]int{n(676), n(676)},
		}
		if i < 4 { // the largest values
			f.Score, f.Islands, f.Sandbanks = [2]int{14365, 14365}, [2]int{169, 169}, [2]int{676, 676}
			f.Dead, f.DeadCreated, f.Mobility, f.LargestComponent = [2]int{676, 676}, [2]int{45, 45}, [2]int{676, 676}, 169
			f.Kind = replay.MoveKind(i)
		}
		switch f.Kind {
		case replay.Tiles:
			f.Move = replay.Move{Kind: replay.Tiles, A: game.CellAt(n(25), n(25)), B: game.CellAt(n(25), n(25))}
			f.TileGroups = [2]int{1 + n(3), 1 + n(3)}
		case replay.Bridge:
			f.Move = replay.Move{Kind: replay.Bridge, A: game.CellAt(n(25), n(25)), B: game.CellAt(n(25), n(25))}
			f.BridgeShape, f.BridgeEnds, f.BridgeMerged = replay.BridgeShape(1+n(2)), [2]int{1 + n(3), 1 + n(3)}, n(1) == 1
		}
		millis := 0
		if n(1) == 1 {
			millis = n(1 << 30)
		}
		p := PackV6(&f, millis)
		text := string(AppendV6(nil, &p))
		var sc V6Scanner
		sc.Reset("[" + text + "]")
		if !sc.Next() {
			t.Fatalf("%s: %v", text, sc.Err())
		}
		got := sc.Turn()
		if *got != p {
			t.Fatalf("%s read back as %+v, want %+v", text, *got, p)
		}
		var groups, ends [2]int
		var merged int
		for c := range 2 {
			groups[c], ends[c] = got.Group(c), got.BridgeEnd(c)
		}
		if f.Kind == replay.Bridge {
			merged = 1
			if f.BridgeMerged {
				merged = 2
			}
		}
		a, b := "", ""
		if f.Kind == replay.Tiles || f.Kind == replay.Bridge {
			a, b = f.Move.A.String(), f.Move.B.String()
		}
		for _, c := range []struct {
			name      string
			got, want any
		}{
			{"colour", got.Colour(), int(f.Colour)}, {"kind", got.Kind(), int(f.Kind)},
			{"islands formed", got.IslandsFormed(), f.IslandsFormed}, {"groups", groups, f.TileGroups},
			{"shape", got.BridgeShape(), int(f.BridgeShape)}, {"ends", ends, f.BridgeEnds}, {"merged", got.BridgeMerged(), merged},
			{"largest", got.LargestComponent(), f.LargestComponent},
			{"scores", [2]int{got.Score(0), got.Score(1)}, f.Score},
			{"islands", [2]int{got.Islands(0), got.Islands(1)}, f.Islands},
			{"sandbanks", [2]int{got.Sandbanks(0), got.Sandbanks(1)}, f.Sandbanks},
			{"dead", [2]int{got.Dead(0), got.Dead(1)}, f.Dead},
			{"dead created", [2]int{got.DeadCreated(0), got.DeadCreated(1)}, f.DeadCreated},
			{"mobility", [2]int{got.Mobility(0), got.Mobility(1)}, f.Mobility},
			{"cells", [2]string{got.A, got.B}, [2]string{a, b}}, {"think", got.Think, int64(millis)},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("%s of %+v: %v, want %v", c.name, f, c.got, c.want)
			}
		}
		if sc.Next() || sc.Err() != nil {
			t.Fatalf("after the one turn: %v", sc.Err())
		}
	}
}

// What Append writes: the numbers first, what is absent at the end left out.
func TestAppend(t *testing.T) {
	for _, tc := range []struct {
		turn V6Turn
		want string
	}{
		{V6Turn{P1: 5, P2: 6, P3: 7}, "[5,6,7]"},
		{V6Turn{P1: 1, P2: 2, P3: 3, A: "d4", B: "e5"}, `[1,2,3,"d4","e5"]`},
		{V6Turn{P1: 1, P2: 2, P3: 3, A: "d4", B: "e5", Think: 1500}, `[1,2,3,"d4","e5",1500]`},
		{V6Turn{P1: 4, P2: 0, P3: 0, Think: 20}, "[4,0,0,null,null,20]"},
	} {
		if got := string(AppendV6(nil, &tc.turn)); got != tc.want {
			t.Errorf("AppendV6(%+v) = %s, want %s", tc.turn, got, tc.want)
		}
	}
	var b V6Builder
	if got := b.String(); got != "[]" {
		t.Errorf("no turns: %s", got)
	}
	b.Add(&V6Turn{P1: 1, P2: 2, P3: 3})
	b.Add(&V6Turn{P1: 4, P2: 5, P3: 6, A: "a1", B: "b2"})
	if got, want := b.String(), `[[1,2,3],[4,5,6,"a1","b2"]]`; got != want || b.Len() != 2 {
		t.Errorf("two turns: %s (%d), want %s", got, b.Len(), want)
	}
	b.Reset()
	b.Add(&V6Turn{P1: 7})
	if got := b.String(); got != "[[7,0,0]]" {
		t.Errorf("after Reset: %s", got)
	}
}

// The scanner reads any spelling of the same JSON, and refuses what is not turns with the
// turn and the byte where it goes wrong.
func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		text  string
		turns []V6Turn
		err   string
	}{
		{text: "[]"},
		{text: " [ ] \n"},
		{text: `[[1,2,3],[4,5,6,"d4","e5",7]]`, turns: []V6Turn{{P1: 1, P2: 2, P3: 3}, {P1: 4, P2: 5, P3: 6, A: "d4", B: "e5", Think: 7}}},
		{text: "[ [ 1 , 2 ,3 ,null, null , null ] ,\n[0,0,0] ]", turns: []V6Turn{{P1: 1, P2: 2, P3: 3}, {}}},
		{text: `[[1,2,3,"d\u0034","\"x"]]`, turns: []V6Turn{{P1: 1, P2: 2, P3: 3, A: "d4", B: `"x`}}},
		{text: `[[-1,2,3]]`, turns: []V6Turn{{P1: -1, P2: 2, P3: 3}}},
		{text: "", err: "byte 1: not a JSON array"},
		{text: "{}", err: "byte 1: not a JSON array"},
		{text: "[1]", err: "turn 1, byte 2: a turn is not an array"},
		{text: "[[1,2,3]", err: "turn 1, byte 9: want , or ] after a turn"},
		{text: "[[1,2,3]] x", err: "byte 11: text after the array"},
		{text: "[[1,2,3],]", err: "turn 2, byte 10: a turn is not an array"},
		{text: "[[1,2]]", err: "turn 1, byte 6: a turn has fewer than 3 numbers"},
		{text: "[[]]", err: "turn 1, byte 3: want a number"},
		{text: "[[1,2,3,4]]", err: "turn 1, byte 9: want a cell (a string) or null"},
		{text: `[[1,2,"3"]]`, err: "turn 1, byte 7: want a number"},
		{text: `[[1,2,3,"a","b",5,6]]`, err: "turn 1, byte 18: a turn has more than 6 values"},
		{text: `[[1,2,3,"a","b","c"]]`, err: "turn 1, byte 17: want a number"},
		{text: "[[1.5,2,3]]", err: "turn 1, byte 3: not an integer"},
		{text: "[[1e3,2,3]]", err: "turn 1, byte 3: not an integer"},
		{text: "[[01,2,3]]", err: "turn 1, byte 3: a number with a leading 0"},
		{text: "[[1234567890123456789,2,3]]", err: "turn 1, byte 3: a number of more than 18 digits"},
		{text: `[[1,2,3,"d4]]`, err: "turn 1, byte 14: a string without its end"},
		{text: "[[1,2,3,\"d\n4\"]]", err: "turn 1, byte 11: a control character in a string"},
		{text: `[[1,2,3,"\q"]]`, err: `turn 1, byte 9: a string that is not JSON`},
		{text: "[[1,2,3] [4,5,6]]", err: "turn 1, byte 10: want , or ] after a turn"},
	} {
		for _, slow := range []bool{false, true} { // with the fast path and without
			slowOnly = slow
			scan(t, tc.text, tc.turns, tc.err)
		}
	}
	slowOnly = false
}

// scan reads text and checks that it reads as turns, or fails with wantErr.
func scan(t *testing.T, text string, turns []V6Turn, wantErr string) {
	t.Helper()
	{
		var sc V6Scanner
		sc.Reset(text)
		var got []V6Turn
		for sc.Next() {
			got = append(got, *sc.Turn())
			if sc.N() != len(got) {
				t.Errorf("%q: N %d at turn %d", text, sc.N(), len(got))
			}
		}
		err := sc.Err()
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%q: %v", text, err)
		case wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), wantErr)):
			t.Errorf("%q: error %v, want %q", text, err, wantErr)
		case wantErr == "" && !reflect.DeepEqual(got, turns):
			t.Errorf("%q: %+v, want %+v", text, got, turns)
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%q: %T, want a *SyntaxError", text, err)
		}
		if sc.Next() {
			t.Errorf("%q: Next after the end", text)
		}
	}
}

// The scanner never panics, and what it accepts it reads back the same once written again
// (a string is written as JSON writes it: its text may differ, not its value).
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"[]", `[[1,2,3],[4,5,6,"d4","e5",7]]`, "[[1,2,3,null,null,9]]", `[[1,2,3,"\u00e9"]]`} {
		f.Add(s)
	}
	read := func(text string) ([]V6Turn, string, error) {
		var sc V6Scanner
		var b V6Builder
		var turns []V6Turn
		for sc.Reset(text); sc.Next(); {
			turns = append(turns, *sc.Turn())
			b.Add(sc.Turn())
		}
		return turns, b.String(), sc.Err()
	}
	f.Fuzz(func(t *testing.T, text string) {
		fastTurns, once, err := read(text)
		slowOnly = true
		slowTurns, slowOnce, slowErr := read(text)
		slowOnly = false
		if !reflect.DeepEqual(fastTurns, slowTurns) || once != slowOnce || fmt.Sprint(err) != fmt.Sprint(slowErr) {
			t.Fatalf("%q: read as %+v (%v), and without the fast path as %+v (%v)", text, fastTurns, err, slowTurns, slowErr)
		}
		if err != nil {
			return
		}
		turns, twice, err := read(once)
		if err != nil {
			t.Fatalf("%q read as %q, which cannot be read: %v", text, once, err)
		}
		again, _, err := read(twice)
		if err != nil || !reflect.DeepEqual(again, turns) {
			t.Errorf("%q read as %q, then %q: %+v, then %+v (%v)", text, once, twice, turns, again, err)
		}
	})
}

// The scanner allocates nothing for what Append writes.
func TestV6ScannerAllocates(t *testing.T) {
	var b V6Builder
	for i := range 60 {
		b.Add(&V6Turn{P1: int64(i) << 30, P2: 1 << 50, P3: 3 << 44, A: "j10", B: "a1", Think: 100})
	}
	text := b.String()
	var sc V6Scanner
	allocs := testing.AllocsPerRun(100, func() {
		for sc.Reset(text); sc.Next(); {
		}
	})
	if allocs != 0 || sc.Err() != nil {
		t.Errorf("%v allocations, %v", allocs, sc.Err())
	}
}

// BenchmarkScanner reads the text of a game of 46 turns with numbers as large as real ones.
func BenchmarkV6Scanner(b *testing.B) {
	var tb V6Builder
	for i := range 46 {
		tb.Add(&V6Turn{P1: int64(i%2) | 1<<6 | 2<<9 | int64(60-i)<<30, P2: int64(i) | int64(i/2)<<16 | 3<<32 | 2<<40 | 5<<48,
			P3: 4 | 1<<10 | 2<<20 | int64(70-i)<<44, A: "d4", B: "e10"})
	}
	text := tb.String()
	var sc V6Scanner
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for sc.Reset(text); sc.Next(); {
		}
	}
	b.ReportMetric(46*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}
