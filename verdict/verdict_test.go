package verdict_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
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
		if v.Legal != tt.legal || v.Score == nil || *v.Score != tt.score || v.Unreadable || v.TagErrors == nil || len(v.TagErrors) != 0 {
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
			fmt.Printf("game %d: legal, %d turns, score %v\n", v.Index, v.Turns, *v.Score)
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
		if fmt.Sprint(got.Legal, got.Turns, *got.Score, errText(got.Error)) != fmt.Sprint(want.Legal, want.Turns, *want.Score, errText(want.Error)) {
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
	turn := "-"
	if e.Turn != nil {
		turn = fmt.Sprint(*e.Turn)
	}
	return fmt.Sprintf("%s %s %d:%d %s", e.Rule, turn, e.Line, e.Col, e.Message)
}

// readOne reads the single record of text, readable or not.
func readOne(t *testing.T, text string) (*ingest.Record, *ingest.ParseError) {
	t.Helper()
	rec, err := ingest.NewReader(strings.NewReader(text), "t.ponte").Read()
	var pe *ingest.ParseError
	if err != nil && !errors.As(err, &pe) {
		t.Fatal(err)
	}
	return rec, pe
}

// A tag value that cannot be read (a slip) makes a read record illegal, not unreadable:
// its error comes after an illegal turn's and before the check of its claims (R8), every
// slip is in TagErrors, and the moves are replayed with their features.
func TestTagErrors(t *testing.T) {
	dateSlip := verdict.Error{Rule: "format", Line: 1, Col: 7, Message: `Date "2026-3-1": must be YYYY.MM.DD, ?? for unknown parts`}
	tests := []struct {
		name      string
		text      string
		err       string // errText of the verdict's error
		tagErrors []string
		turns     int
		score     [2]int
	}{
		{
			name:      "a slip, legal turns, a false claim",
			text:      "[Date \"2026-3-1\"]\n[Size \"6\"]\n[Score \"9-9\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 *\n",
			err:       "format - 1:7 " + dateSlip.Message,
			tagErrors: []string{"format - 1:7 " + dateSlip.Message},
			turns:     3, score: [2]int{1, 0},
		},
		{
			name:      "an illegal turn comes first",
			text:      "[Date \"2026-3-1\"]\n[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 4. f4,f5 5. c3,e5 *\n",
			err:       "R3.2 5 4:40 tile on c3 touches Light island b1,b2,a1,a2 diagonally",
			tagErrors: []string{"format - 1:7 " + dateSlip.Message},
			turns:     4, score: [2]int{1, 0},
		},
		{
			name: "two slips: the first is the error",
			text: "[Date \"2026-3-1\"]\n[Size \"6\"]\n[Result \"1-0\"]\n[Termination \"forfeit\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 0-1\n",
			err:  "format - 1:7 " + dateSlip.Message,
			tagErrors: []string{
				"format - 1:7 " + dateSlip.Message,
				`format - 4:14 Termination "forfeit": must be normal, resign, time, abandoned or agreement`,
				`format - 6:28 result token 0-1 differs from the Result tag "1-0": no result is claimed`,
			},
			turns: 3, score: [2]int{1, 0},
		},
	}
	var g replay.Game
	var ft replay.FeatureTracker
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, pe := readOne(t, tt.text)
			if pe != nil {
				t.Fatalf("unreadable: %v", pe)
			}
			for _, v := range []verdict.Verdict{verdict.Of(rec, &g), func() verdict.Verdict {
				v, feats := verdict.Analyze(rec, &g, &ft, nil)
				if len(feats) != v.Turns {
					t.Errorf("features of %d turns, %d played legally", len(feats), v.Turns)
				}
				return v
			}()} {
				if v.Legal || v.Unreadable || v.Turns != tt.turns || v.Score == nil || *v.Score != tt.score {
					t.Errorf("legal %v, unreadable %v, %d turns, score %v", v.Legal, v.Unreadable, v.Turns, v.Score)
				}
				if got := errText(v.Error); got != tt.err {
					t.Errorf("error %s, want %s", got, tt.err)
				}
				var got []string
				for i := range v.TagErrors {
					got = append(got, errText(&v.TagErrors[i]))
				}
				if strings.Join(got, "\n") != strings.Join(tt.tagErrors, "\n") {
					t.Errorf("tag errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.tagErrors, "\n"))
				}
			}
		})
	}
}

// The JSON object of a verdict has its fields in the documented order; pointers are null
// where there is nothing to say, tag_errors is [] when there are none.
func TestVerdictJSON(t *testing.T) {
	const order = "source index line format game_id record_id legal unreadable turns over result claimed_result termination score islands bridges error tag_errors"
	tests := []struct {
		name, text string
		want       map[string]string // fields, as JSON
	}{
		{
			name: "legal, with a GameId and a termination",
			text: "[GameId \"club-7\"]\n[Size \"6\"]\n[Result \"0-1\"]\n[Termination \"resign\"]\n\n1. a1,a2 2. f1,f2 0-1\n",
			want: map[string]string{"format": `"ponte"`, "record_id": `"club-7"`, "legal": "true", "unreadable": "false",
				"turns": "2", "over": "false", "result": "null", "claimed_result": `"0-1"`, "termination": `"resign"`,
				"score": "[0,0]", "error": "null", "tag_errors": "[]"},
		},
		{
			name: "JSON Lines, without a GameId",
			text: "{\"size\": 6, \"moves\": [\"a1,a2\", \"f1,f2\", \"b1,b2\"], \"result\": \"1-0\", \"termination\": \"time\"}\n",
			want: map[string]string{"format": `"jsonl"`, "record_id": "null", "legal": "true", "over": "false",
				"result": "null", "claimed_result": `"1-0"`, "termination": `"time"`, "score": "[1,0]", "islands": "[1,0]",
				"bridges": "[0,0]", "tag_errors": "[]"},
		},
		{
			name: "a slip",
			text: "[Date \"2026-3-1\"]\n[Size \"6\"]\n\n1. a1,a2 *\n",
			want: map[string]string{"legal": "false", "unreadable": "false", "claimed_result": `"*"`, "termination": "null", "score": "[0,0]",
				"error":      `{"rule":"format","turn":null,"line":1,"col":7,"message":"Date \"2026-3-1\": must be YYYY.MM.DD, ?? for unknown parts"}`,
				"tag_errors": `[{"rule":"format","turn":null,"line":1,"col":7,"message":"Date \"2026-3-1\": must be YYYY.MM.DD, ?? for unknown parts"}]`},
		},
		{
			name: "unreadable",
			text: "[GameId \"x\"]\n[Size \"ten\"]\n\n1. a1,a2 *\n",
			want: map[string]string{"record_id": `"x"`, "legal": "false", "unreadable": "true", "turns": "0", "result": "null",
				"score": "null", "islands": "null", "bridges": "null", "tag_errors": "[]",
				"error": `{"rule":"format","turn":null,"line":2,"col":7,"message":"Size \"ten\": the board side must be an integer from 5 to 26"}`},
		},
	}
	var g replay.Game
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, pe := readOne(t, tt.text)
			var v verdict.Verdict
			if pe != nil {
				v = verdict.Unreadable(rec, pe)
			} else {
				v = verdict.Of(rec, &g)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			keys, fields := jsonFields(t, b)
			if strings.Join(keys, " ") != order {
				t.Errorf("fields %s\nwant   %s", strings.Join(keys, " "), order)
			}
			if fields["game_id"] != `"`+verdict.GameID(rec)+`"` {
				t.Errorf("game_id %s, want GameID %s", fields["game_id"], verdict.GameID(rec))
			}
			for k, want := range tt.want {
				if fields[k] != want {
					t.Errorf("%s: %s, want %s", k, fields[k], want)
				}
			}
		})
	}
}

// jsonFields returns the keys of a JSON object in order, and each value's JSON.
func jsonFields(t *testing.T, b []byte) ([]string, map[string]string) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	fields := map[string]string{}
	for k, v := range m {
		fields[k] = string(v)
	}
	return keys, fields
}

// A record the reader could not give back stands for itself by the error's text.
func TestUnreadableWithoutRecord(t *testing.T) {
	pe := &ingest.ParseError{Source: "s.jsonl", Game: 3, StartLine: 7, Line: 7, Column: 2, Err: ingest.ErrJSON}
	v := verdict.Unreadable(nil, pe)
	if !v.Unreadable || v.Legal || v.Source != "s.jsonl" || v.Index != 3 || v.Line != 7 || v.Score != nil ||
		v.GameID != verdict.GameID(verdict.UnreadableRecord(pe)) || v.ClaimedResult != game.NoResult || v.TagErrors == nil {
		t.Errorf("%+v", v)
	}
	if e := v.Error; e == nil || e.Rule != "format" || e.Line != 7 || e.Col != 2 || e.Message != ingest.ErrJSON.Error() {
		t.Errorf("error %+v", e)
	}
}

// Check gives each record the verdict Of or Unreadable gives it: the verdicts of a batch
// share one allocation for their pointers, never one value.
func TestCheckMatchesOf(t *testing.T) {
	text := "[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 *\n\n" +
		"[GameId \"g2\"]\n[Size \"7\"]\n[Termination \"resign\"]\n[Result \"0-1\"]\n\n1. a1,a2 2. g1,g2 3. b1,b2 4. g4,g5 0-1\n\n" +
		"[Size \"ten\"]\n\n1. a1,a2\n\n" +
		"[Date \"x\"]\n[Size \"5\"]\n\n1. a1,a2 2. e1,e2 3. b1,b2 4. pass *\n"
	var recs []*ingest.Record
	var errs []error
	r := ingest.NewReader(strings.NewReader(text), "t.ponte")
	for {
		rec, err := r.Read()
		if rec == nil && err != nil {
			break
		}
		recs, errs = append(recs, rec), append(errs, err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records", len(recs))
	}
	var want []string
	var g replay.Game
	for i, rec := range recs {
		var v verdict.Verdict
		var pe *ingest.ParseError
		if errors.As(errs[i], &pe) {
			v = verdict.Unreadable(rec, pe)
		} else {
			v = verdict.Of(rec, &g)
		}
		b, _ := json.Marshal(v)
		want = append(want, string(b))
	}
	stream := func(yield func(*ingest.Record, error) bool) {
		for range 50 {
			for i := range recs {
				// Check releases what it is given: the records kept here go as copies.
				c := *recs[i]
				if !yield(&c, errs[i]) {
					return
				}
			}
		}
	}
	var got []verdict.Verdict
	if err := verdict.Check(stream, 2, func(v verdict.Verdict, err error) error {
		got = append(got, v)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i, v := range got { // compared after the run: no verdict's values were overwritten
		b, _ := json.Marshal(v)
		if string(b) != want[i%4] {
			t.Fatalf("verdict %d:\n%s\nwant\n%s", i+1, b, want[i%4])
		}
	}
}

// A verdict costs one allocation: what its pointers and strings hold.
func TestOfAllocations(t *testing.T) {
	rec, _ := readOne(t, "[GameId \"g\"]\n[Size \"6\"]\n[Result \"0-1\"]\n[Termination \"resign\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 0-1\n")
	var g replay.Game
	if v := verdict.Of(rec, &g); !v.Legal || v.RecordID == nil || v.Termination == nil {
		t.Fatalf("%+v", v)
	}
	if n := testing.AllocsPerRun(100, func() { verdict.Of(rec, &g) }); n > 1 {
		t.Errorf("%.0f allocations per verdict, want at most 1", n)
	}
}
