package ingest

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func writeAll(t testing.TB, f Format, recs ...*Record) string {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, f)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func sampleRecord() *Record {
	r := &Record{
		Tags: []Tag{{"Annotator", `he said "hi" \o/`}, {"Result", "1-0"}, {"Event", "Autumn league"},
			{"Size", "12"}, {"Date", "2025.10.04"}, {"Score", "10-6"}, {"Elo", "1500"}, {"GameId", "g-1"}},
		Comment: "opening",
		Result:  resultToken("1-0"),
	}
	for i := range 30 {
		r.Moves = append(r.Moves, Token{Text: []string{"f6,g7", "swap", "e5-g6", "pass"}[i%4]})
	}
	r.Moves[2].Comment = "the centre"
	r.Moves[5].Comment = "a } brace"
	r.derive()
	return r
}

func TestWritePonte(t *testing.T) {
	t.Parallel()
	got := writeAll(t, FormatPonte, sampleRecord())
	want := `[Event "Autumn league"]
[Date "2025.10.04"]
[GameId "g-1"]
[Size "12"]
[Result "1-0"]
[Score "10-6"]
[Annotator "he said \"hi\" \\o/"]
[Elo "1500"]

{opening} 1. f6,g7 2. swap 3. e5-g6 {the centre} 4. pass 5. f6,g7 6. swap
; a } brace
7. e5-g6 8. pass 9. f6,g7 10. swap 11. e5-g6 12. pass 13. f6,g7 14. swap
15. e5-g6 16. pass 17. f6,g7 18. swap 19. e5-g6 20. pass 21. f6,g7 22. swap
23. e5-g6 24. pass 25. f6,g7 26. swap 27. e5-g6 28. pass 29. f6,g7 30. swap 1-0

`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > lineWidth {
			t.Errorf("line longer than %d: %q", lineWidth, l)
		}
	}
}

func TestWriteJSONL(t *testing.T) {
	t.Parallel()
	r := sampleRecord()
	r.Moves = r.Moves[:3]
	r.Tags = append(r.Tags, Tag{"note", "a\nb\t\x01"}, Tag{"list", `[1, "x"]`}, Tag{"zip", "01234"})
	got := writeAll(t, FormatJSONL, r)
	want := `{"game_id":"g-1","event":"Autumn league","date":"2025-10-04","size":12,"result":"1-0","score":[10,6],"Annotator":"he said \"hi\" \\o/","Elo":1500,"note":"a\nb\t\u0001","list":[1, "x"],"zip":"01234","moves":["f6,g7","swap","e5-g6"]}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteMinimal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r           *Record
		ponte, json string
	}{
		{&Record{}, "*\n\n", `{"moves":[]}` + "\n"},
		{&Record{Result: resultToken("0-1"), Moves: []Token{{Text: "a1,b1"}}}, "1. a1,b1 0-1\n\n", `{"result":"0-1","moves":["a1,b1"]}` + "\n"},
		{&Record{Comment: `"x": y`, Moves: []Token{{Text: "a1,b1"}}}, "1. {\"x\": y} a1,b1 *\n\n", `{"moves":["a1,b1"]}` + "\n"},
		{&Record{Comment: "x", Result: resultToken("*")}, "* {x}\n\n", `{"moves":[]}` + "\n"},
	}
	for _, tt := range tests {
		tt.r.derive()
		if got := writeAll(t, FormatPonte, tt.r); got != tt.ponte {
			t.Errorf("ponte %q, want %q", got, tt.ponte)
		}
		if got := writeAll(t, FormatJSONL, tt.r); got != tt.json {
			t.Errorf("jsonl %q, want %q", got, tt.json)
		}
		out := readAll(t, writeAll(t, FormatPonte, tt.r))
		if len(out) != 1 || out[0].err != nil || sameGame(out[0].rec, tt.r, true) != "" {
			t.Errorf("%+v does not read back: %v", tt.r, out)
		}
	}
}

func TestWriteUnwritable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f Format
		r *Record
	}{
		{FormatPonte, &Record{Moves: []Token{{Text: "a1, b1"}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: ""}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: "1-0"}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: "a1!"}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: "3.a1"}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: "[a1"}}}},
		{FormatPonte, &Record{Moves: []Token{{Text: "a{1"}}}},
		{FormatPonte, &Record{Tags: []Tag{{"my key", "x"}}}},
		{FormatPonte, &Record{Tags: []Tag{{"", "x"}}}},
		{FormatPonte, &Record{Tags: []Tag{{"Note", "a\nb"}}}},
		{FormatPonte, &Record{Result: resultToken("2-0")}},
		{FormatPonte, &Record{Tags: []Tag{{"Event", "a"}, {"Event", "b"}}}},
		{FormatJSONL, &Record{Tags: []Tag{{"moves", "x"}}}},
		{FormatJSONL, &Record{Tags: []Tag{{"event", "x"}}}},
		{FormatJSONL, &Record{Tags: []Tag{{"Event", "\xff"}}}},
		{FormatJSONL, &Record{Moves: []Token{{Text: "a\xff"}}}},
		{FormatJSONL, &Record{Tags: []Tag{{"x", "a"}, {"x", "b"}}}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		w := NewWriter(&buf, tt.f)
		if err := w.Write(tt.r); !errors.Is(err, ErrUnwritable) {
			t.Errorf("%s %+v: error %v", tt.f, tt.r, err)
		}
		w.Flush()
		if buf.Len() != 0 {
			t.Errorf("%s %+v: wrote %q", tt.f, tt.r, buf.String())
		}
	}
	if err := NewWriter(&bytes.Buffer{}, FormatUnknown).Write(&Record{}); err == nil {
		t.Error("writing format unknown: no error")
	}
}

func TestSetTag(t *testing.T) {
	t.Parallel()
	r := &Record{}
	r.derive()
	if err := r.SetTag("Size", "30"); !errors.Is(err, ErrTagValue) || r.Size != 10 || len(r.Tags) != 0 {
		t.Errorf("SetTag Size 30: %v %d", err, r.Size)
	}
	for _, kv := range [][2]string{{"Size", "12"}, {"Result", "0-1"}, {"Score", "3-4"}, {"Size", "14"}, {"Annotator", "x"}} {
		if err := r.SetTag(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if r.Size != 14 || r.Termination.String() != "normal" || *r.Score != [2]int{3, 4} || len(r.Tags) != 4 || r.ClaimedResult().String() != "0-1" {
		t.Errorf("got %+v", r)
	}
}

// roundTrip writes recs in format f and reads them back.
func roundTrip(t *testing.T, f Format, recs []*Record) []*Record {
	t.Helper()
	text := writeAll(t, f, recs...)
	var back []*Record
	for _, res := range readAll(t, text) {
		if res.err != nil {
			t.Fatalf("reading back: %v", res.err)
		}
		if res.rec.Format != f {
			t.Fatalf("read back as %s", res.rec.Format)
		}
		back = append(back, res.rec)
	}
	if len(back) != len(recs) {
		t.Fatalf("read back %d records of %d", len(back), len(recs))
	}
	return back
}

func readFile(t *testing.T, path string) []*Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	for _, res := range readAll(t, string(data)) {
		if res.err != nil {
			t.Fatalf("%s: %v", path, res.err)
		}
		recs = append(recs, res.rec)
	}
	return recs
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	ponte := readFile(t, corpusDir+"corpus.ponte")
	jsonl := readFile(t, corpusDir+"corpus.jsonl")
	// (A result token without a Result tag becomes the result key, and so a
	// Result tag, in JSON Lines: the tag is there from the start here.)
	extra := readAll(t, `[Event "x"]
[Result "0-1"]
[Note "C:\dir \"q\""]

{first} 1. a1,b1! {c1} {c2} 2. swap ; has } brace
3.c3-d4 {multi
line} 0-1
`)[0].rec
	ponte = append(ponte, extra, sampleRecord())
	cases := []struct {
		name     string
		recs     []*Record
		via      []Format
		comments bool
	}{
		{"ponte", ponte, []Format{FormatPonte}, true},
		{"jsonl", jsonl, []Format{FormatJSONL}, false},
		{"ponte-jsonl-ponte", ponte, []Format{FormatJSONL, FormatPonte}, false},
		{"jsonl-ponte-jsonl", jsonl, []Format{FormatPonte, FormatJSONL}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs := c.recs
			for _, f := range c.via {
				recs = roundTrip(t, f, recs)
			}
			for i := range recs {
				if d := sameGame(c.recs[i], recs[i], c.comments); d != "" {
					t.Errorf("game %d: %s:\n%+v\n%+v", i+1, d, c.recs[i], recs[i])
				}
			}
		})
	}
}
