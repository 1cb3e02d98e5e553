package ingest

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// reuseGame is one self-played game as `ponte selfplay` writes it: tags with values the
// reader has no constant for, a score, three lines of movetext.
const reuseGame = `[Event "selfplay"]
[Site "ponte selfplay"]
[Round "1234"]
[GameId "selfplay-7-1234"]
[Light "greedy"]
[Dark "greedy"]
[Size "10"]
[Supply "unlimited"]
[Result "0-1"]
[Termination "normal"]
[Score "14-18"]
[Opener "greedy"]
[Seed "7"]

1. b6,j1 2. swap 3. h8,h7 4. b5,a6 5. i7,g7 6. b7,j2 7. i2,i1 8. j3,i3 9. h2,h1
10. f4,e4 11. e3,f3 12. e5,g4 13. d3,d2 14. i3-g4 15. h2-f3 16. d9,e9
17. e10,d10 18. e8,c9 {a comment} 19. f10,c10 20. b7-c9 0-1

`

// endless repeats a text without end.
type endless struct {
	text string
	at   int
}

func (e *endless) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k := copy(b[n:], e.text[e.at:])
		n += k
		e.at = (e.at + k) % len(e.text)
	}
	return n, nil
}

// A reader whose records are released reads on without allocating: the records, their
// tags, turns and text are those released.
func TestReleaseReadsWithoutAllocating(t *testing.T) {
	rd := NewReader(&endless{text: reuseGame}, "endless.ponte")
	read := func() {
		rec, err := rd.Read()
		if err != nil || len(rec.Moves) != 20 || rec.Tag("GameId") != "selfplay-7-1234" || *rec.Score != [2]int{14, 18} {
			t.Fatalf("%v: %+v", err, rec)
		}
		rec.Release()
	}
	for range 10 { // the buffers grow to their size
		read()
	}
	if n := testing.AllocsPerRun(1000, read); n != 0 {
		t.Errorf("%v allocations per record read and released, want 0", n)
	}
}

// A record that is not released is never written over; a released one is filled again;
// a copy of a record, or a record released twice, is not taken back.
func TestReleaseReusesOnlyWhatIsReleased(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&text, "[GameId \"g%d\"]\n[Light \"p%d\"]\n[Score \"%d-0\"]\n\n1. a%d,b%d {c%d} 0-1\n\n", i, i, i, i, i, i)
	}
	rd := NewReader(strings.NewReader(text.String()), "t.ponte")
	next := func(want int) *Record {
		t.Helper()
		rec, err := rd.Read()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Index != want {
			t.Fatalf("record %d, want %d", rec.Index, want)
		}
		return rec
	}
	check := func(rec *Record, i int) {
		t.Helper()
		s := fmt.Sprint(i)
		if rec.Tag("GameId") != "g"+s || rec.Tag("Light") != "p"+s || *rec.Score != [2]int{i, 0} ||
			rec.Moves[0].Text != "a"+s+",b"+s || rec.Moves[0].Comment != "c"+s {
			t.Errorf("record %d holds %+v %+v", i, rec.Tags, rec.Moves)
		}
	}
	kept := next(1)
	second := next(2)
	copied := *second
	copied.Release() // a copy: not taken back
	if third := next(3); third == second || third == &copied {
		t.Fatal("a record was reused that was not released")
	}
	second.Release()
	second.Release() // twice: once taken back
	fourth := next(4)
	if fourth != second {
		t.Fatal("the released record was not reused")
	}
	if fifth := next(5); fifth == second {
		t.Fatal("a record released twice was reused twice")
	}
	check(kept, 1)
	check(fourth, 4)
	var released Record // no Reader's
	released.Release()
}

// Records that their reader reuses are read as the others: the same tags, turns, errors,
// raw text and typed fields, whatever came before them in the records reused.
func TestReleasedRecordsReadTheSame(t *testing.T) {
	text := reuseGame + "[Size \"6\"]\n[Date \"2026-03-07\"]\n[Note \"a \\\"b\\\"\"]\n\n1. a1,a2 2. f1,f2 } 3. b1,b2 *\n\n" +
		"1. a1,a2\n\n[Score \"1-x\"]\n[Termination \"agreement\"]\n\n1. e5,f5 1/2-1/2\n\n" + reuseGame
	want := readAll(t, text)
	rd := NewReader(strings.NewReader(text), "t")
	for i := range want {
		rec, err := rd.Read()
		if fmt.Sprint(err) != fmt.Sprint(want[i].err) {
			t.Fatalf("record %d: error %v, want %v", i+1, err, want[i].err)
		}
		w := want[i].rec
		if d := sameGame(rec, w, true); d != "" || string(rec.Raw) != string(w.Raw) || (rec.Raw == nil) != (w.Raw == nil) ||
			fmt.Sprint(rec.Score, rec.Size, rec.Supply, rec.Termination, rec.Result, rec.Line, rec.Index, rec.TagErrors) !=
				fmt.Sprint(w.Score, w.Size, w.Supply, w.Termination, w.Result, w.Line, w.Index, w.TagErrors) {
			t.Errorf("record %d read into a released record differs: %s\n%+v\n%+v", i+1, d, rec, w)
		}
		rec.Release()
	}
	if _, err := rd.Read(); err != io.EOF {
		t.Errorf("after the last record: %v", err)
	}
}

// A line's end (\n, and the \r before it; the \r at the end of the input) does not count
// in its length: a line of exactly MaxRecordBytes bytes is read whole whatever ends it,
// and one byte more is too large. (Found by FuzzRecordLimits: "*0...0\r\r", 199 bytes and
// two \r, was too large for 200.)
func TestLineEndNotCountedAtTheLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, end string
		extra     int // bytes over the limit
	}{
		{"LF", "\n", 0}, {"CRLF", "\r\n", 0}, {"CR CR LF", "\r\r\n", 0}, {"CR at the end", "\r", 0},
		{"CR CR at the end", "\r\r", 0}, {"nothing at the end", "", 0},
		{"CRLF, one byte more", "\r\n", 1}, {"CR CR at the end, one byte more", "\r\r", 1},
	} {
		comment := strings.Repeat("x", 200-len("1. a1,b1 {} *")+tt.extra)
		rd := NewReader(strings.NewReader("1. a1,b1 {"+comment+"} *"+tt.end), "t")
		rd.Limits = recordLimits(200, 1000, 1000, 1000)
		rec, err := rd.Read()
		if tooLarge := errors.Is(err, ErrTooLarge); tooLarge != (tt.extra > 0) || rec == nil ||
			tt.extra == 0 && (err != nil || len(rec.Moves) != 1 || rec.Moves[0].Comment != comment) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
