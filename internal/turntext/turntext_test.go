package turntext

import (
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/replay"
)

func randomGame(r *rand.Rand, n, wideEvery int) []Turn {
	feats, millis := RandomGame(r, n, wideEvery)
	out := make([]Turn, len(feats))
	for i := range feats {
		out[i] = Pack(&feats[i], millis[i])
	}
	return out
}

func build(t *testing.T, turns []Turn) string {
	t.Helper()
	var b Builder
	b.Reset()
	for i := range turns {
		b.Add(&turns[i])
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every turn reads back as it was packed, narrow or wide.
func TestReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for g := range 300 {
		turns := randomGame(r, r.IntN(120), []int{0, 3, 40}[g%3])
		text := build(t, turns)
		if len(turns) > 0 && g%3 == 0 && len(text) != HeaderSize+RecordSize*len(turns) {
			t.Fatalf("game %d: %d bytes for %d narrow turns", g, len(text), len(turns))
		}
		var sc Scanner
		n := 0
		for sc.Reset(text); sc.Next(); n++ {
			if got := *sc.Turn(); got != turns[n] {
				t.Fatalf("game %d turn %d: read %+v, want %+v", g, n+1, got, turns[n])
			}
		}
		if sc.Err() != nil || n != len(turns) {
			t.Fatalf("game %d: read %d of %d turns: %v", g, n, len(turns), sc.Err())
		}
	}
}

// NextSummary reads what Next reads of each turn, and the weights it divides by are the
// fields'.
func TestNextSummary(t *testing.T) {
	for i := range NumFields {
		want := []int64{1, wKind, wWide, wFormed, wShape, wDeadL, wDeadD, wScore, wLargest, wSandbanks, wGoneL, wGoneD, wMobL, wMobD, wCellA, wCellB}[i]
		if Weight(i) != want {
			t.Errorf("field %s: weight %d, the constant %d", Fields[i].Name, Weight(i), want)
		}
	}
	if max9 := int64(Base * Base * Base * Base * Base * Base * Base * Base * Base); Weight(NumFields-1)*Fields[NumFields-1].Values != wRecords || wRecords > max9 {
		t.Errorf("%d records", int64(wRecords))
	}
	r := rand.New(rand.NewPCG(11, 12))
	for g := range 100 {
		text := build(t, randomGame(r, r.IntN(120), []int{0, 3, 40}[g%3]))
		var a, b Scanner
		a.Reset(text)
		b.Reset(text)
		var s Summary
		for a.Next() {
			if !b.NextSummary(&s) {
				t.Fatalf("game %d: NextSummary stops at turn %d: %v", g, a.N(), b.Err())
			}
			u := a.Turn()
			want := Summary{u.IslandsFormed(), u.Kind() == 1, [2]int{u.DeadCreated(0), u.DeadCreated(1)}, [2]int{u.Mobility(0), u.Mobility(1)}}
			if s != want {
				t.Fatalf("game %d turn %d: summary %+v, want %+v", g, a.N(), s, want)
			}
		}
		if b.NextSummary(&s) || a.Err() != nil || b.Err() != nil {
			t.Fatalf("game %d: %v, %v", g, a.Err(), b.Err())
		}
	}
}

// BenchmarkNextSummary reads the summaries of a random game of 60 turns, or of the games
// of the file PONTE_BENCH_TURNS names (game_turns.turns, one game a line).
func BenchmarkNextSummary(b *testing.B) {
	var tb testing.T
	texts := []string{build(&tb, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))}
	if p := os.Getenv("PONTE_BENCH_TURNS"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		texts = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	var sc Scanner
	var s Summary
	turns := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		for _, text := range texts {
			for sc.Reset(text); sc.NextSummary(&s); {
				turns++
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
}

// The legacy text of version 6 reads as the same turns.
func TestV6TurnIsTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, want := range randomGame(r, 200, 10) {
		var f replay.Features // back to features through the accessors
		f.Colour, f.Kind, f.IslandsFormed = replay.Colour(want.Colour()), replay.MoveKind(want.Kind()), want.IslandsFormed()
		f.TileGroups = [2]int{want.Group(0), want.Group(1)}
		f.BridgeShape, f.BridgeEnds, f.BridgeMerged = replay.BridgeShape(want.BridgeShape()), [2]int{want.BridgeEnd(0), want.BridgeEnd(1)}, want.BridgeMerged() == 2
		f.LargestComponent = want.LargestComponent()
		for c := range 2 {
			f.Score[c], f.Islands[c], f.Sandbanks[c], f.Dead[c] = want.Score(c), want.Islands(c), want.Sandbanks(c), want.Dead(c)
			f.DeadCreated[c], f.Mobility[c] = want.DeadCreated(c), want.Mobility(c)
		}
		if f.Kind <= replay.Bridge {
			a, b := cellIndex(want.A), cellIndex(want.B)
			f.Move = replay.Move{Kind: f.Kind, A: game.CellAt(a%26, a/26), B: game.CellAt(b%26, b/26)}
		}
		v6 := PackV6(&f, int(want.Think))
		if got := v6.Turn(); got != want {
			t.Fatalf("%+v read as %+v", want, got)
		}
	}
}

// A text that is not as Builder writes it is refused with a *FormatError.
func TestScannerRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	good := build(t, randomGame(r, 5, 0))
	wide := build(t, randomGame(r, 5, 1))
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "shorter than the 7"},
		{"cut", good[:len(good)-1], "5 turns need 52 bytes"},
		{"not a digit", good[:8] + "\x7f" + good[9:], "is not a digit"},
		{"text after", good + "x", "not a JSON object"},
		{"wide values missing", wide[:HeaderSize+5*RecordSize], "without its values"},
		{"wide turn not a turn", good + `{"9":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}`, "not a turn of the text"},
		{"out of range", good[:HeaderSize] + "~~~~~~~~~" + good[HeaderSize+RecordSize:], "beyond its fields' ranges"},
	} {
		var sc Scanner
		for sc.Reset(tc.text); sc.Next(); {
		}
		var fe *FormatError
		if !errors.As(sc.Err(), &fe) || !strings.Contains(fe.Error(), tc.want) {
			t.Errorf("%s: %v, want a *FormatError with %q", tc.name, sc.Err(), tc.want)
		}
	}
}

// A turn the text cannot hold stops the Builder with a *CodeError naming it.
func TestBuilderRefuses(t *testing.T) {
	turns := randomGame(rand.New(rand.NewPCG(7, 8)), 3, 0)
	turns[1].kind, turns[1].A = 0, "z99"
	var b Builder
	for i := range turns {
		b.Add(&turns[i])
	}
	var ce *CodeError
	if !errors.As(b.Err(), &ce) || ce.Turn != 2 || b.Len() != 1 {
		t.Fatalf("%v after %d turns, want a *CodeError of turn 2", b.Err(), b.Len())
	}
}

// Reading a game without wide turns allocates nothing.
func TestScannerAllocates(t *testing.T) {
	text := build(t, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))
	var sc Scanner
	if a := testing.AllocsPerRun(100, func() {
		for sc.Reset(text); sc.Next(); {
		}
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

func BenchmarkScanner(b *testing.B) {
	var tb testing.T
	text := build(&tb, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))
	var sc Scanner
	for b.Loop() {
		for sc.Reset(text); sc.Next(); {
		}
	}
}

// notDigit finds the first byte outside ' ' … '~' wherever it is, 8 bytes at a time or not.
func TestNotDigit(t *testing.T) {
	for n := range 20 {
		clean := strings.Repeat("~ }!", 5)[:n]
		if got := notDigit(clean); got != -1 {
			t.Fatalf("notDigit(%q) = %d, want -1", clean, got)
		}
		for at := range n {
			for _, c := range []byte{0x00, 0x1f, 0x7f, 0x80, 0x9f, 0xe0, 0xff} {
				b := []byte(clean)
				b[at] = c
				if at+1 < n {
					b[n-1] = 0x7f // a later bad byte is not the first
				}
				if got := notDigit(string(b)); got != at {
					t.Fatalf("notDigit(%q) = %d, want %d", b, got, at)
				}
			}
		}
	}
}

// cellIndex reads a cell's notation as strconv.Atoi reads its row: every string of one to
// three bytes of letters, digits and signs.
func TestCellIndex(t *testing.T) {
	old := func(s string) int {
		if len(s) < 2 || len(s) > 3 || s[0] < 'a' || s[0] >= 'a'+game.MaxSize || s[1] == '0' {
			return -1
		}
		row, err := strconv.Atoi(s[1:])
		if err != nil || row < 1 || row > game.MaxSize || s[1] == '+' || s[1] == '-' {
			return -1
		}
		return (row-1)*game.MaxSize + int(s[0]-'a')
	}
	const chars = "`abyz{0123456789+- "
	var try func(s string)
	try = func(s string) {
		if got, want := cellIndex(s), old(s); got != want {
			t.Fatalf("cellIndex(%q) = %d, want %d", s, got, want)
		}
		if len(s) < 3 {
			for i := range len(chars) {
				try(s + chars[i:i+1])
			}
		}
	}
	try("")
}

// BenchmarkBuilder writes the turns of the games BenchmarkNextSummary reads.
func BenchmarkBuilder(b *testing.B) {
	var tb testing.T
	texts := []string{build(&tb, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))}
	if p := os.Getenv("PONTE_BENCH_TURNS"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		texts = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	var games [][]Turn
	var sc Scanner
	for _, text := range texts {
		var g []Turn
		for sc.Reset(text); sc.Next(); {
			g = append(g, *sc.Turn())
		}
		games = append(games, g)
	}
	var bd Builder
	turns := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		for _, g := range games {
			bd.Reset()
			for i := range g {
				bd.Add(&g[i])
			}
			turns += bd.Len()
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
}

// AddFeatures writes what Pack and Add write, and fails where they fail: on random games
// narrow and wide, with think times, and with turns that Add refuses (a value out of its
// range, a cell off the grid, an unknown kind), at every place in a game.
func TestAddFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	spoil := []func(f *replay.Features, millis *int){
		func(f *replay.Features, millis *int) { *millis = 1 + r.IntN(5000) },
		func(f *replay.Features, millis *int) { *millis = -r.IntN(5) },
		func(f *replay.Features, _ *int) { f.Colour = 2 },
		func(f *replay.Features, _ *int) { f.Kind = replay.MoveKind(4 + r.IntN(3)) },
		func(f *replay.Features, _ *int) { f.IslandsFormed = []int{-1, 3}[r.IntN(2)] },
		func(f *replay.Features, _ *int) { f.TileGroups[r.IntN(2)] = []int{0, 5}[r.IntN(2)] },
		func(f *replay.Features, _ *int) { f.BridgeShape = replay.BridgeShape([]int{0, 4}[r.IntN(2)]) },
		func(f *replay.Features, _ *int) { f.BridgeEnds[r.IntN(2)] = []int{0, 5}[r.IntN(2)] },
		func(f *replay.Features, _ *int) { f.Move.A = []game.Cell{game.NoCell, 31, 27*32 + 2}[r.IntN(3)] },
		func(f *replay.Features, _ *int) { f.Move.B = game.CellAt(r.IntN(26), 25) },
		func(f *replay.Features, _ *int) { f.Score[r.IntN(2)] += []int{-1, 1, 4, maxScore}[r.IntN(4)] },
		func(f *replay.Features, _ *int) { f.Islands[r.IntN(2)] += []int{-1, 1, maxIslands}[r.IntN(3)] },
		func(f *replay.Features, _ *int) { f.LargestComponent += []int{-1, 2, maxIslands}[r.IntN(3)] },
		func(f *replay.Features, _ *int) { f.Sandbanks[r.IntN(2)] += []int{-5, 1, 4, maxCells}[r.IntN(4)] },
		func(f *replay.Features, _ *int) { f.Dead[r.IntN(2)] += []int{-4, 1, maxCells}[r.IntN(3)] },
		func(f *replay.Features, _ *int) { f.DeadCreated[r.IntN(2)] = []int{-1, 16, maxCells + 1}[r.IntN(3)] },
		func(f *replay.Features, _ *int) { f.Mobility[r.IntN(2)] += []int{-32, 1, maxCells}[r.IntN(3)] },
	}
	for g := range 3000 {
		feats, millis := RandomGame(r, r.IntN(120), []int{0, 0, 3, 40}[g%4])
		if g%2 == 1 && len(feats) > 0 {
			for range 1 + r.IntN(3) {
				i := r.IntN(len(feats))
				spoil[r.IntN(len(spoil))](&feats[i], &millis[i])
			}
		}
		var want, got Builder
		want.Reset()
		got.Reset()
		for i := range feats {
			tu := Pack(&feats[i], millis[i])
			want.Add(&tu)
			got.AddFeatures(&feats[i], millis[i])
			if got.Len() != want.Len() {
				t.Fatalf("game %d turn %d: %d turns, want %d", g, i+1, got.Len(), want.Len())
			}
		}
		if a, b := got.String(), want.String(); a != b {
			t.Fatalf("game %d: AddFeatures wrote\n%q\nPack and Add\n%q", g, a, b)
		}
		if a, b := got.Err(), want.Err(); (a == nil) != (b == nil) || a != nil && a.Error() != b.Error() {
			t.Fatalf("game %d: AddFeatures fails with %v, Pack and Add with %v", g, a, b)
		}
	}
}

// BenchmarkAddFeatures writes the turns of 200 random games of 60 narrow turns from their
// features, as the ingest does: "pack-add" through Pack and Add, "features" with
// AddFeatures.
func BenchmarkAddFeatures(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	var games [][]replay.Features
	for range 200 {
		feats, _ := RandomGame(r, 60, 0)
		games = append(games, feats)
	}
	for _, way := range []string{"pack-add", "features"} {
		b.Run(way, func(b *testing.B) {
			var bd Builder
			turns := 0
			cpu0 := cputime.Process()
			for b.Loop() {
				for _, g := range games {
					bd.Reset()
					for i := range g {
						if way == "features" {
							bd.AddFeatures(&g[i], 0)
						} else {
							t := Pack(&g[i], 0)
							bd.Add(&t)
						}
					}
					turns += bd.Len()
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
		})
	}
}
