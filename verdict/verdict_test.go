package verdict_test

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

func readAll(text string) []*ingest.Record {
	var recs []*ingest.Record
	r := ingest.NewReader(strings.NewReader(text), "t.ponte")
	for {
		rec, err := r.Read()
		if err != nil {
			if rec == nil {
				return recs
			}
		}
		recs = append(recs, rec)
	}
}

func TestOf(t *testing.T) {
	const text = `[Size "6"]
[Result "*"]

1. a1,a2 2. f1,f2 3. b1,b2 *

[Size "6"]

1. a1,a2 2. f1,f2
3. b1,b2 4. f4,f5 5. c3,e5 *

[Size "6"]

1. a1,a2 2. f1,f2 5. b1,b2 *

[Size "6"]
[Result "1-0"]

1. a1,a2 2. f1,f2 3. b1,b2 1-0
`
	recs := readAll(text)
	var g replay.Game
	tests := []struct {
		legal           bool
		rule            string
		turn, line, col int
		score           [2]int
	}{
		{legal: true, score: [2]int{1, 0}},
		{rule: "R3.2", turn: 5, line: 9, col: 22, score: [2]int{1, 0}},
		{rule: "R9", turn: 3, line: 13, col: 19},            // the number, not the token, is at fault
		{rule: "R8", line: 15, col: 1, score: [2]int{1, 0}}, // claims a normal end
	}
	if len(recs) != len(tests) {
		t.Fatalf("%d records", len(recs))
	}
	for i, tt := range tests {
		v := verdict.Of(recs[i], &g)
		if v.Legal != tt.legal || v.Score != tt.score {
			t.Errorf("game %d: %+v", i+1, v)
		}
		if tt.legal {
			if v.Error != nil {
				t.Errorf("game %d: error %+v", i+1, v.Error)
			}
			continue
		}
		e := v.Error
		if e == nil || e.Rule != tt.rule || e.Line != tt.line || e.Col != tt.col || (e.Turn == nil) != (tt.turn == 0) || e.Turn != nil && *e.Turn != tt.turn {
			t.Errorf("game %d: error %+v, want %s at turn %d, %d:%d", i+1, e, tt.rule, tt.turn, tt.line, tt.col)
		}
	}
}

// records yields n copies of a legal and an illegal game, numbered.
func records(n int, extra error) iter.Seq2[*ingest.Record, error] {
	base := readAll("[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 *\n\n[Size \"6\"]\n\n1. a1,a2 2. a1,f6 *\n")
	return func(yield func(*ingest.Record, error) bool) {
		for i := 0; i < n; i++ {
			rec := *base[i%2]
			rec.Index = i + 1
			if !yield(&rec, nil) {
				return
			}
			if extra != nil && i == n/2 {
				if !yield(nil, extra) {
					return
				}
			}
		}
	}
}

func TestCheckKeepsOrder(t *testing.T) {
	pathErr := errors.New("open x: no such file")
	for _, workers := range []int{1, 2, 5} {
		next := 1
		sawErr := false
		err := verdict.Check(records(1000, pathErr), workers, func(v verdict.Verdict, err error) error {
			if err != nil {
				if err != pathErr || next != 502 {
					t.Errorf("workers %d: error %v after game %d", workers, err, next-1)
				}
				sawErr = true
				return nil
			}
			if v.Index != next {
				t.Fatalf("workers %d: game %d where %d was due", workers, v.Index, next)
			}
			if v.Legal != (v.Index%2 == 1) {
				t.Errorf("workers %d: game %d legal=%v", workers, v.Index, v.Legal)
			}
			next++
			return nil
		})
		if err != nil || next != 1001 || !sawErr {
			t.Errorf("workers %d: err %v, %d games, path error seen %v", workers, err, next-1, sawErr)
		}
	}
}

func TestCheckStopsOnEmitError(t *testing.T) {
	stop := errors.New("disk full")
	n := 0
	err := verdict.Check(records(100000, nil), 2, func(v verdict.Verdict, err error) error {
		n++
		if n == 10 {
			return stop
		}
		return nil
	})
	if err != stop || n != 10 {
		t.Errorf("err %v after %d verdicts", err, n)
	}
}

func ExampleCheck() {
	text := `[Event "club"]
[Size "6"]

1. a1,a2 2. f1,f2 3. b1,b2 *

[Event "club"]
[Size "6"]

1. a1,c1 2. f1,f2 3. a1-c1 4. b1,f4 *
`
	games := func(yield func(*ingest.Record, error) bool) {
		r := ingest.NewReader(strings.NewReader(text), "club.ponte")
		for {
			rec, err := r.Read()
			if rec == nil || !yield(rec, err) {
				return
			}
		}
	}
	_ = verdict.Check(games, 0, func(v verdict.Verdict, err error) error {
		if v.Legal {
			fmt.Printf("game %d: legal, %d turns, score %v\n", v.Index, v.Turns, v.Score)
			return nil
		}
		fmt.Printf("game %d: %s at turn %d (%d:%d): %s\n", v.Index, v.Error.Rule, *v.Error.Turn, v.Error.Line, v.Error.Col, v.Error.Message)
		return nil
	})
	// Output:
	// game 1: legal, 3 turns, score [1 0]
	// game 2: R3 at turn 4 (9:31): cell b1 is blocked by a bridge
}

// Analyze gives the same verdict as Of, and the features of every turn played legally.
func TestAnalyze(t *testing.T) {
	recs := readAll("[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 *\n\n[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 4. f4,f5 5. c3,e5 *\n")
	var g replay.Game
	var ft replay.FeatureTracker
	for _, rec := range recs {
		want := verdict.Of(rec, &g)
		got, turns := verdict.Analyze(rec, &g, &ft, nil)
		if fmt.Sprint(got.Legal, got.Turns, got.Score, errText(got.Error)) != fmt.Sprint(want.Legal, want.Turns, want.Score, errText(want.Error)) {
			t.Errorf("game %d: Analyze %+v, Of %+v", rec.Index, got, want)
		}
		if len(turns) != got.Turns || turns[2].IslandsFormed != 1 || turns[2].Score != [2]int{1, 0} {
			t.Errorf("game %d: %d turns of features for %d turns: %+v", rec.Index, len(turns), got.Turns, turns)
		}
	}
}

func errText(e *verdict.Error) string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s %d %d:%d %s", e.Rule, *e.Turn, e.Line, e.Col, e.Message)
}
