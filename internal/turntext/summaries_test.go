package turntext

import (
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/cputime"
)

// scanSummaries is what a Scanner's NextSummary reads of text: the summaries until the
// end or the error, and the error.
func scanSummaries(text string) ([]Summary, error) {
	var sc Scanner
	var s Summary
	var out []Summary
	for sc.Reset(text); sc.NextSummary(&s); {
		out = append(out, s)
	}
	return out, sc.Err()
}

// summaryTexts are texts of random games, narrow and wide, and texts spoiled from them
// (a byte changed, the text cut or lengthened, the header's count changed), for
// AppendSummaries to read as NextSummary does.
func summaryTexts(t *testing.T) []string {
	r := rand.New(rand.NewPCG(13, 14))
	texts := []string{"", "       ", build(t, nil)}
	for g := range 400 {
		text := build(t, randomGame(r, r.IntN(90), []int{0, 0, 3, 40}[g%4]))
		texts = append(texts, text, text+"x", text[:len(text)-1])
		for range 6 {
			b := []byte(text)
			at := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[at] = byte(r.IntN(256)) // anything, a byte outside the digits included
			case 1:
				b[at] = byte(' ' + r.IntN(Base)) // another digit
			default:
				b[at] = "~ \x1f\x7f\x80"[r.IntN(5)] // the edges of the digits
			}
			texts = append(texts, string(b))
		}
		if len(text) >= HeaderSize {
			// The count one more or one less, and a mobility base at its largest.
			count := digits(text[:3])
			for _, c := range []int{count + 1, count - 1} {
				if c >= 0 {
					texts = append(texts, string(appendDigits(nil, c, 3))+text[3:])
				}
			}
			texts = append(texts, text[:3]+"~~"+text[5:])
		}
	}
	return texts
}

// AppendSummaries reads every text as NextSummary does: the same summaries, the same
// error, appended after what dst held.
func TestAppendSummaries(t *testing.T) {
	type turn struct { // another type with Summary's fields, as internal/turnsum's Turn
		IslandsFormed int
		Bridge        bool
		DeadCreated   [2]int
		Mobility      [2]int
	}
	fast, refused := 0, 0
	var dst []turn
	for i, text := range summaryTexts(t) {
		want, wantErr := scanSummaries(text)
		before := turn{IslandsFormed: i}
		dst = append(dst[:0], before)
		got, err := AppendSummaries(dst, text)
		if !reflect.DeepEqual(err, wantErr) {
			t.Fatalf("text %d %q: error %v, want %v", i, text, err, wantErr)
		}
		if len(got) != 1+len(want) || got[0] != before {
			t.Fatalf("text %d %q: %d summaries after %+v, want %d after %+v", i, text, len(got)-1, got[0], len(want), before)
		}
		for j := range want {
			if Summary(got[1+j]) != want[j] {
				t.Fatalf("text %d %q turn %d: %+v, want %+v", i, text, j+1, got[1+j], want[j])
			}
		}
		if _, ok := appendNarrow([]Summary(nil), text); ok {
			fast++
		}
		if err != nil {
			refused++
		}
	}
	if fast < 500 || refused < 500 {
		t.Errorf("%d texts read in one loop, %d refused: the texts do not try both ways", fast, refused)
	}
}

// Reading a game without wide turns into a slice with room allocates nothing.
func TestAppendSummariesAllocates(t *testing.T) {
	text := build(t, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))
	dst := make([]Summary, 0, 60)
	if a := testing.AllocsPerRun(100, func() {
		var err error
		if dst, err = AppendSummaries(dst[:0], text); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

// BenchmarkAppendSummaries reads the summaries of the games BenchmarkNextSummary reads
// (PONTE_BENCH_TURNS), into one slice as store.Reader.TurnSummaries does; NextSummary is
// the same with a Scanner, a turn at a time.
func BenchmarkAppendSummaries(b *testing.B) {
	texts := benchTexts(b)
	for _, bc := range []struct {
		name string
		read func(dst []Summary, text string) ([]Summary, error)
	}{
		{"AppendSummaries", AppendSummaries[Summary]},
		{"NextSummary", func(dst []Summary, text string) ([]Summary, error) {
			var sc Scanner
			var s Summary
			for sc.Reset(text); sc.NextSummary(&s); {
				dst = append(dst, s)
			}
			return dst, sc.Err()
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var dst []Summary
			var err error
			turns := 0
			cpu0 := cputime.Process()
			for b.Loop() {
				for _, text := range texts {
					if dst, err = bc.read(dst[:0], text); err != nil {
						b.Fatal(err)
					}
					turns += len(dst)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
		})
	}
}

// benchTexts are a random game of 60 turns, or the games of the file PONTE_BENCH_TURNS
// names (game_turns.turns, one game a line).
func benchTexts(b *testing.B) []string {
	var tb testing.T
	texts := []string{build(&tb, randomGame(rand.New(rand.NewPCG(9, 10)), 60, 0))}
	if p := os.Getenv("PONTE_BENCH_TURNS"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		texts = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	return texts
}
