package ingest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestJSONLRecord(t *testing.T) {
	t.Parallel()
	in := `{"game_id":"bga-512","site":"BGA","date":"2025-10-04","light":"alice","dark":"bob","size":10,"supply":"unlimited","result":"1-0","termination":"normal","score":[10,6],"moves":["f6,g7","swap","e5,e6","g5,h5","e5-g6","pass","c3,d3"]}`
	out := readAll(t, "\n"+in+"\n")
	if len(out) != 1 || out[0].err != nil {
		t.Fatalf("got %v", out)
	}
	r := out[0].rec
	wantTags := []Tag{{"GameId", "bga-512"}, {"Site", "BGA"}, {"Date", "2025.10.04"}, {"Light", "alice"},
		{"Dark", "bob"}, {"Size", "10"}, {"Supply", "unlimited"}, {"Result", "1-0"},
		{"Termination", "normal"}, {"Score", "10-6"}}
	if !slices.Equal(r.Tags, wantTags) {
		t.Errorf("tags = %v", r.Tags)
	}
	if r.Format != FormatJSONL || r.Line != 2 || r.Index != 1 || r.Result != nil || r.ClaimedResult().String() != "1-0" {
		t.Errorf("record %+v", r)
	}
	if r.Size != 10 || r.Supply.String() != "unlimited" || r.Termination.String() != "normal" || *r.Score != [2]int{10, 6} {
		t.Errorf("typed %d %q %q %v", r.Size, r.Supply, r.Termination, r.Score)
	}
	want := []string{"f6,g7", "swap", "e5,e6", "g5,h5", "e5-g6", "pass", "c3,d3"}
	if !slices.Equal(texts(r), want) {
		t.Errorf("moves %v", texts(r))
	}
	col := strings.Index(in, `"f6,g7"`) + 1
	if m := r.Moves[0]; m.Line != 2 || m.Col != col {
		t.Errorf("first move at %d:%d, want 2:%d", m.Line, m.Col, col)
	}
	if m := r.Moves[6]; m.Col != strings.Index(in, `"c3,d3"`)+1 {
		t.Errorf("last move col %d", m.Col)
	}
}

func TestJSONLValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		tags []Tag
		mv   []string
	}{
		{`{"moves":[]}`, nil, nil},
		{` { "moves" : [ "a1,b1" , "swap" ] } `, nil, []string{"a1,b1", "swap"}},
		{`{"event":"E\u00e9\"\\\/\n","round":3,"game_id":17,"moves":["a\u0031,b1"]}`,
			[]Tag{{"Event", "Eé\"\\/\n"}, {"Round", "3"}, {"GameId", "17"}}, []string{"a1,b1"}},
		{`{"date":"2025.10.04","size":"12","score":"3-4","moves":[]}`,
			[]Tag{{"Date", "2025.10.04"}, {"Size", "12"}, {"Score", "3-4"}}, nil},
		{`{"date":"????-??-??","score":[ 0 , 7 ],"moves":[]}`,
			[]Tag{{"Date", "????.??.??"}, {"Score", "0-7"}}, nil},
		{`{"result":null,"score":null,"moves":[]}`, nil, nil},
		{`{"Event":"pgn-style key","moves":[]}`, []Tag{{"Event", "pgn-style key"}}, nil},
		{`{"annotator":"me","elo":[1500, 1600],"rated":true,"x":null,"o":{"a":[1,{}]},"n":-1.5e3,"moves":[]}`,
			[]Tag{{"annotator", "me"}, {"elo", "[1500, 1600]"}, {"rated", "true"}, {"x", "null"},
				{"o", `{"a":[1,{}]}`}, {"n", "-1.5e3"}}, nil},
		{`{"moves":["\ud83d\ude00","\ud800x"]}`, nil, []string{"😀", "\uFFFDx"}},
	}
	for _, tt := range tests {
		out := readAll(t, tt.in)
		if len(out) != 1 || out[0].err != nil {
			t.Errorf("%s: got %v", tt.in, out)
			continue
		}
		if r := out[0].rec; !slices.Equal(r.Tags, tt.tags) || !slices.Equal(texts(r), tt.mv) {
			t.Errorf("%s: tags %q moves %q", tt.in, r.Tags, texts(r))
		}
	}
}

func TestJSONLErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		kind error
		col  int
	}{
		{"not an object", `["a"]`, ErrJSON, 1},
		{"not closed", `{"moves":[]`, ErrJSON, 12},
		{"bad key", `{moves:[]}`, ErrJSON, 2},
		{"no colon", `{"moves" []}`, ErrJSON, 10},
		{"text after", `{"moves":[]} x`, ErrJSON, 14},
		{"two objects", `{"moves":[]}{"moves":[]}`, ErrJSON, 13},
		{"missing moves", `{"event":"x"}`, ErrJSON, 13},
		{"moves not an array", `{"moves":"a1,b1"}`, ErrJSON, 10},
		{"move not a string", `{"moves":["a1,b1", 7]}`, ErrJSON, 20},
		{"move not closed", `{"moves":["a1,b1]}`, ErrJSON, 11},
		{"moves twice", `{"moves":[], "moves":[]}`, ErrJSON, 14},
		{"duplicate size", `{"size":10,"Size":"12","moves":[]}`, ErrJSON, 12},
		{"size wrong type", `{"size":true,"moves":[]}`, ErrJSON, 9},
		{"supply number", `{"supply":40,"moves":[]}`, ErrJSON, 11},
		{"bad number", `{"x":01,"moves":[]}`, ErrJSON, 6},
		{"bad literal", `{"x":tru,"moves":[]}`, ErrJSON, 6},
		{"bad escape", `{"moves":["a\x"]}`, ErrJSON, 13},
		{"bad unicode escape", `{"moves":["\u12G4"]}`, ErrJSON, 12},
		{"control character", "{\"moves\":[\"a\tb\"]}", ErrJSON, 13},
		{"trailing comma", `{"moves":["a",]}`, ErrJSON, 15},
		{"size 30", `{"size":30,"moves":[]}`, ErrTagValue, 9},
		{"size float", `{"size":10.0,"moves":[]}`, ErrTagValue, 9},
		{"supply", `{"supply":"x","moves":[]}`, ErrTagValue, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A first good line makes the content JSON Lines.
			out := readAll(t, `{"moves":[]}`+"\n"+tt.in)
			if len(out) != 2 || out[0].err != nil {
				t.Fatalf("got %v", out)
			}
			last := out[1]
			var pe *ParseError
			if !errors.As(last.err, &pe) {
				t.Fatalf("got %v, want a ParseError", last.err)
			}
			if !errors.Is(pe, tt.kind) || pe.Line != 2 || pe.Column != tt.col || pe.Game != 2 {
				t.Errorf("got %v, want %v at 2:%d", pe, tt.kind, tt.col)
			}
			if r := last.rec; r == nil || string(r.Raw) != tt.in+"\n" || r.Line != 2 {
				t.Errorf("partial record %+v", r)
			}
		})
	}
}

// TestJSONLSlips checks tag values that cannot be read but are not needed to
// replay: the record is read, moves and all, and the slip is kept with its
// position.
func TestJSONLSlips(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		kind error
		col  int
	}{
		{"duplicate key", `{"event":"a","Event":"b","moves":["a1,b1"]}`, ErrTag, 14},
		{"light wrong type", `{"light":["a"],"moves":["a1,b1"]}`, ErrTagValue, 10},
		{"result", `{"result":"2-0","moves":["a1,b1"]}`, ErrTagValue, 11},
		{"result a number", `{"result":1,"moves":["a1,b1"]}`, ErrTagValue, 11},
		{"termination", `{"termination":"x","moves":["a1,b1"]}`, ErrTagValue, 16},
		{"score strings", `{"score":["a","b"],"moves":["a1,b1"]}`, ErrTagValue, 10},
		{"score three", `{"score":[1,2,3],"moves":["a1,b1"]}`, ErrTagValue, 10},
		{"score negative", `{"score":[-1,2],"moves":["a1,b1"]}`, ErrTagValue, 10},
		{"score string", `{"score":"a-b","moves":["a1,b1"]}`, ErrTagValue, 10},
		{"date", `{"date":"04.10.2025","moves":["a1,b1"]}`, ErrTagValue, 9},
		{"date a number", `{"date":20251004,"moves":["a1,b1"]}`, ErrTagValue, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := readAll(t, `{"moves":[]}`+"\n"+tt.in+"\n"+`{"moves":["c3,d4"]}`)
			if len(out) != 3 || out[0].err != nil || out[1].err != nil || out[2].err != nil {
				t.Fatalf("got %v", out)
			}
			r := out[1].rec
			if len(r.TagErrors) != 1 || len(r.Moves) != 1 || r.Raw != nil || len(out[2].rec.TagErrors) != 0 {
				t.Fatalf("tag errors %v, moves %v", r.TagErrors, r.Moves)
			}
			pe := r.TagErrors[0]
			if !errors.Is(pe, tt.kind) || pe.Line != 2 || pe.Column != tt.col || pe.Game != 2 || pe.StartLine != 2 {
				t.Errorf("got %v, want %v at 2:%d", pe, tt.kind, tt.col)
			}
			if r.ClaimedResult().String() != "*" || r.Score != nil || r.Termination.String() != "" || r.Date() != "" {
				t.Errorf("a slip claims %s, score %v, termination %q, date %q", r.ClaimedResult(), r.Score, r.Termination, r.Date())
			}
		})
	}
}

// TestDates checks that ISO dates are read in .ponte and JSON Lines alike and
// kept in the one form YYYY.MM.DD.
func TestDates(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"[Date \"2026-03-14\"]\n1. a1,b1 *",
		"[Date \"2026.03.14\"]\n1. a1,b1 *",
		"[Date \"2026/03/14\"]\n1. a1,b1 *",
		`{"date":"2026-03-14","moves":["a1,b1"]}`,
		`{"date":"2026.03.14","moves":["a1,b1"]}`,
	} {
		out := readAll(t, in)
		if len(out) != 1 || out[0].err != nil || len(out[0].rec.TagErrors) != 0 {
			t.Fatalf("%s: %v", in, out)
		}
		if r := out[0].rec; r.Tag("Date") != "2026.03.14" || r.Date() != "2026.03.14" {
			t.Errorf("%s: date %q", in, r.Tag("Date"))
		}
	}
}

// TestManySlips checks that the tag errors of one record are bounded.
func TestManySlips(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "[Round \"%d\"]\n", i)
	}
	b.WriteString("1. a1,b1 *\n")
	out := readAll(t, b.String())
	if len(out) != 1 || out[0].err != nil {
		t.Fatalf("%v", out)
	}
	errs := out[0].rec.TagErrors
	if len(errs) != MaxTagErrors || !strings.Contains(errs[MaxTagErrors-1].Error(), "t:65:1: game 1: 136 tag errors from here on, not listed") {
		t.Errorf("%d tag errors, the last %v", len(errs), errs[len(errs)-1])
	}
}

func TestJSONLRecovery(t *testing.T) {
	t.Parallel()
	in := `{"event":"good1","moves":["a1,b1"]}

{"event":"bad","moves":["a1,b1"],}
{"event":"bad","size":99,"moves":["a1,b1"]}
not json at all

{"event":"good2","moves":["c1,c2"]}
`
	out := readAll(t, in)
	if len(out) != 5 {
		t.Fatalf("got %v", out)
	}
	for i, want := range []int{0, 3, 4, 5, 0} {
		if want == 0 {
			if out[i].err != nil {
				t.Errorf("record %d: %v", i+1, out[i].err)
			}
			continue
		}
		if pe, ok := out[i].err.(*ParseError); !ok || pe.Line != want || pe.Game != i+1 {
			t.Errorf("record %d: %v", i+1, out[i].err)
		}
	}
	if r := out[4].rec; r.Tag("Event") != "good2" || r.Line != 7 || r.Index != 5 {
		t.Errorf("last record %+v", r)
	}
}

func TestJSONLLongLine(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 16 MiB line")
	}
	// With a record limit above it, MaxLineLength is the limit that applies.
	lim := DefaultLimits()
	lim.MaxRecordBytes = 2 * MaxLineLength
	long := `{"moves":["` + strings.Repeat("a", MaxLineLength) + `"]}`
	out := readAllWithin(t, `{"moves":[]}`+"\n"+long+"\n"+`{"moves":["a1,b1"]}`, lim)
	if len(out) != 3 || out[0].err != nil || out[2].err != nil || !errors.Is(out[1].err, ErrLineTooLong) {
		t.Fatalf("got %v", out)
	}
	if pe := out[1].err.(*ParseError); pe.Line != 2 || pe.Column != MaxLineLength+1 || len(out[1].rec.Raw) != MaxRaw {
		t.Errorf("got %v", pe)
	}
	if out[2].rec.Line != 3 {
		t.Errorf("line %d", out[2].rec.Line)
	}
}

// TestNotRecords checks JSON objects that are no game records: a file of them (the
// verdicts of ponte verify --json lying beside an archive) is one notice, not an error
// per line; before game records they are errors, each, and past 64 one more error counts
// the rest.
func TestNotRecords(t *testing.T) {
	t.Parallel()
	verdict := `{"source":"a.ponte","index":1,"line":1,"game_id":"x","legal":true,"turns":3}`
	lines := func(n int) string { return strings.Repeat(verdict+"\n", n) }
	game := `{"moves":["a1,b1"]}` + "\n"
	apArray := "[\n" + `{"source":"a","legal":true},` + "\n" + `{"source":"b","legal":false}` + "\n]\n"
	tests := []struct {
		name    string
		in      string
		want    []string // per record: "ok" or the error
		notices []string
	}{
		{"a file of verdicts", lines(3), nil,
			[]string{`t:1:1: no game record in this file: 3 JSON objects without "moves" (lines 1 to 3) passed over`}},
		{"one verdict", lines(1), nil,
			[]string{`t:1:1: no game record in this file: 1 JSON object without "moves" (line 1) passed over`}},
		{"a JSON array of other objects", apArray, nil,
			[]string{`t:2:1: no game record in this file: 2 JSON objects without "moves" (lines 2 to 3) passed over`}},
		{"objects, then a game", lines(2) + game, []string{
			`t:1:76: game 1: key "moves" missing`, `t:2:76: game 2: key "moves" missing`, "ok"}, nil},
		{"a game, then an object", game + lines(1), []string{"ok", `t:2:76: game 2: key "moves" missing`}, nil},
		{"many objects, then a game", lines(70) + game, append(append(slices.Repeat([]string{"error"}, 64),
			`t:65:1: game 65: 6 more JSON objects without "moves", to line 70: not game records`), "ok"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tt.in), "t")
			var got, notices []string
			for {
				_, err := rd.Read()
				for _, n := range rd.Notices() {
					notices = append(notices, n.Error())
				}
				if err == io.EOF {
					break
				}
				switch {
				case err == nil:
					got = append(got, "ok")
				case !errors.Is(err, ErrNotRecord) || !errors.Is(err, ErrJSON):
					t.Fatalf("error %v, want ErrNotRecord", err)
				case len(tt.want) > len(got) && tt.want[len(got)] == "error":
					got = append(got, "error")
				default:
					got = append(got, err.Error())
				}
			}
			if !slices.Equal(got, tt.want) || !slices.Equal(notices, tt.notices) {
				t.Errorf("got %q, notices %q;\nwant %q, %q", got, notices, tt.want, tt.notices)
			}
		})
	}
}
