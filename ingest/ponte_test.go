package ingest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestPonteTagsAndMoves(t *testing.T) {
	t.Parallel()
	in := `[Event "Autumn league"]
[Site "Brettspielnetz"]
[Date "2025.10.04"]
[Round "3"]
[Light "alice"]
[Dark "bob"]
[Size "12"]
[Supply "40/15"]
[Result "1-0"]
[Termination "resign"]
[Score "10-6"]
[Annotator "me"]

1. f6,g7 2. swap 3. e5,e6 {the centre} 4. g5,h5 5. e5-g6 6. pass
7. c3,d3 1-0
`
	out := readAll(t, in)
	if len(out) != 1 || out[0].err != nil {
		t.Fatalf("got %v", out)
	}
	r := out[0].rec
	wantTags := []Tag{{"Event", "Autumn league"}, {"Site", "Brettspielnetz"}, {"Date", "2025.10.04"},
		{"Round", "3"}, {"Light", "alice"}, {"Dark", "bob"}, {"Size", "12"}, {"Supply", "40/15"},
		{"Result", "1-0"}, {"Termination", "resign"}, {"Score", "10-6"}, {"Annotator", "me"}}
	if !slices.Equal(r.Tags, wantTags) {
		t.Errorf("tags = %v", r.Tags)
	}
	wantMoves := []Token{{Text: "f6,g7", Line: 14, Col: 4, Comment: ""}, {Text: "swap", Line: 14, Col: 13, Comment: ""}, {Text: "e5,e6", Line: 14, Col: 21, Comment: "the centre"},
		{Text: "g5,h5", Line: 14, Col: 43, Comment: ""}, {Text: "e5-g6", Line: 14, Col: 52, Comment: ""}, {Text: "pass", Line: 14, Col: 61, Comment: ""}, {Text: "c3,d3", Line: 15, Col: 4, Comment: ""}}
	if !slices.Equal(withoutNumbers(r.Moves), wantMoves) {
		t.Errorf("moves = %v", r.Moves)
	}
	if r.Source != "t" || r.Format != FormatPonte || r.Index != 1 || r.Line != 1 || token(r) != "1-0" {
		t.Errorf("record = %+v", r)
	}
	if r.Size != 12 || r.Supply.String() != "40/15" || r.Termination.String() != "resign" || r.Score == nil || *r.Score != [2]int{10, 6} {
		t.Errorf("typed = %d %q %q %v", r.Size, r.Supply, r.Termination, r.Score)
	}
	if r.Tag("Annotator") != "me" || r.Tag("GameId") != "" || r.ClaimedResult().String() != "1-0" || r.Raw != nil {
		t.Errorf("helpers: %q %q %q", r.Tag("Annotator"), r.Tag("GameId"), r.ClaimedResult())
	}
}

func TestPonteDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in          string
		size        int
		supply      string
		termination string
		claimed     string
	}{
		{"1. a1,b1 *", 10, "unlimited", "", "*"},
		{"1. a1,b1", 10, "unlimited", "", "*"},
		{"1. a1,b1 0-1", 10, "unlimited", "normal", "0-1"},
		{"[Result \"1/2-1/2\"]\n1. a1,b1", 10, "unlimited", "normal", "1/2-1/2"},
		{"[Result \"*\"]\n[Termination \"abandoned\"]\n1. a1,b1 *", 10, "unlimited", "abandoned", "*"},
		{"[Size \"5\"]\n[Supply \"unlimited\"]\n*", 5, "unlimited", "", "*"},
		{"[Size \"26\"]\n*", 26, "unlimited", "", "*"},
	}
	for _, tt := range tests {
		out := readAll(t, tt.in)
		if len(out) != 1 || out[0].err != nil {
			t.Errorf("%q: got %v", tt.in, out)
			continue
		}
		r := out[0].rec
		if r.Size != tt.size || r.Supply.String() != tt.supply || r.Termination.String() != tt.termination || r.ClaimedResult().String() != tt.claimed || r.Score != nil {
			t.Errorf("%q: got %d %q %q %q", tt.in, r.Size, r.Supply, r.Termination, r.ClaimedResult())
		}
	}
}

func TestPonteMovetext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		moves []Token // Comment compared too
		rc    string  // record comment
		res   string
	}{
		{"numbered", "1. a1,b1 2. swap 3. c3-d4 *",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: ""}, {Text: "swap", Line: 1, Col: 13, Comment: ""}, {Text: "c3-d4", Line: 1, Col: 21, Comment: ""}}, "", "*"},
		{"unnumbered", "a1,b1 swap\nc3-d4 pass",
			[]Token{{Text: "a1,b1", Line: 1, Col: 1, Comment: ""}, {Text: "swap", Line: 1, Col: 7, Comment: ""}, {Text: "c3-d4", Line: 2, Col: 1, Comment: ""}, {Text: "pass", Line: 2, Col: 7, Comment: ""}}, "", ""},
		{"mixed", "1. a1,b1 swap 3. c3-d4",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: ""}, {Text: "swap", Line: 1, Col: 10, Comment: ""}, {Text: "c3-d4", Line: 1, Col: 18, Comment: ""}}, "", ""},
		{"glued numbers", "1.a1,b1 2.swap\t3.pass 0-1",
			[]Token{{Text: "a1,b1", Line: 1, Col: 3, Comment: ""}, {Text: "swap", Line: 1, Col: 11, Comment: ""}, {Text: "pass", Line: 1, Col: 18, Comment: ""}}, "", "0-1"},
		{"annotations", "1. a1,b1! 2. swap? 3. c1,c2!! 4. d1,d2?? 5. e1,e2!? 6. f1,f2?! 1/2-1/2",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: ""}, {Text: "swap", Line: 1, Col: 14, Comment: ""}, {Text: "c1,c2", Line: 1, Col: 23, Comment: ""}, {Text: "d1,d2", Line: 1, Col: 34, Comment: ""},
				{Text: "e1,e2", Line: 1, Col: 45, Comment: ""}, {Text: "f1,f2", Line: 1, Col: 56, Comment: ""}}, "", "1/2-1/2"},
		{"unknown words kept", "1. hello 2. a1,,b1 3. z99-a1 4. 12 *",
			[]Token{{Text: "hello", Line: 1, Col: 4, Comment: ""}, {Text: "a1,,b1", Line: 1, Col: 13, Comment: ""}, {Text: "z99-a1", Line: 1, Col: 23, Comment: ""}, {Text: "12", Line: 1, Col: 33, Comment: ""}}, "", "*"},
		{"comments", "{before} 1. a1,b1 {after a1} { more } 2. c1,d1 ; to the end\n3. pass {multi\n  line} *",
			[]Token{{Text: "a1,b1", Line: 1, Col: 13, Comment: "after a1 more"}, {Text: "c1,d1", Line: 1, Col: 42, Comment: "to the end"}, {Text: "pass", Line: 2, Col: 4, Comment: "multi\n  line"}}, "before", "*"},
		{"comments follow the last turn", "1. {c} a1,b1 2.{d}pass",
			[]Token{{Text: "a1,b1", Line: 1, Col: 8, Comment: "d"}, {Text: "pass", Line: 1, Col: 19, Comment: ""}}, "c", ""},
		{"comment after result", "1. a1,b1 1-0 {late}",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: "late"}}, "", "1-0"},
		{"braces in ; comment", "1. a1,b1 ; x } y {\n2. c1,c2",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: "x } y {"}, {Text: "c1,c2", Line: 2, Col: 4, Comment: ""}}, "", ""},
		{"empty comment", "1. a1,b1 {} {   }",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: ""}}, "", ""},
		{"blank lines in movetext", "1. a1,b1\n\n\n2. c1,c2 *",
			[]Token{{Text: "a1,b1", Line: 1, Col: 4, Comment: ""}, {Text: "c1,c2", Line: 4, Col: 4, Comment: ""}}, "", "*"},
		{"result only", "*", nil, "", "*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := readAll(t, tt.in)
			if len(out) != 1 || out[0].err != nil {
				t.Fatalf("got %d records, %v", len(out), out)
			}
			r := out[0].rec
			if !slices.Equal(withoutNumbers(r.Moves), tt.moves) {
				t.Errorf("moves = %+v\nwant    %+v", r.Moves, tt.moves)
			}
			if r.Comment != tt.rc || token(r) != tt.res {
				t.Errorf("comment %q result %q", r.Comment, token(r))
			}
		})
	}
}

func TestPonteEscapes(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`[Event "a \"b\" \\ c"]`, `a "b" \ c`},
		{`[Event "C:\games\x"]`, `C:\games\x`}, // other backslashes are kept
		{`[Event ""]`, ``},
		{`[Event "\\"]`, `\`},
		{`[Event "[x] ;{y}"]`, `[x] ;{y}`},
		{"[ Event   \"spaced\" ]", "spaced"},
		{"[Event \"x\"] ; a comment", "x"},
	}
	for _, tt := range tests {
		out := readAll(t, tt.in+"\n\n*\n")
		if len(out) != 1 || out[0].err != nil {
			t.Errorf("%s: %v", tt.in, out)
			continue
		}
		if got := out[0].rec.Tag("Event"); got != tt.want {
			t.Errorf("%s: Event = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPonteSeveralGames(t *testing.T) {
	t.Parallel()
	in := `[Event "one"]

1. a1,b1 2. c1,c2 1-0

[Event "two"]
[Result "0-1"]

1. d1,d2
2. pass 0-1
[Event "three"]
1. e1,e2
[Event "four"]

[Event "five"]

1. a1,b1 * 1. c1,d1 1-0 1. e1,f1 {x}
`
	out := readAll(t, in)
	want := []struct {
		event string
		line  int
		moves int
		res   string
	}{{"one", 1, 2, "1-0"}, {"two", 5, 2, "0-1"}, {"three", 10, 1, ""}, {"four", 12, 0, ""},
		{"five", 14, 1, "*"}, {"", 16, 1, "1-0"}, {"", 16, 1, ""}}
	if len(out) != len(want) {
		t.Fatalf("got %d records: %v", len(out), out)
	}
	for i, w := range want {
		r, err := out[i].rec, out[i].err
		if err != nil || r.Tag("Event") != w.event || r.Line != w.line || len(r.Moves) != w.moves || token(r) != w.res || r.Index != i+1 {
			t.Errorf("game %d: %v %q line %d moves %v result %q index %d", i+1, err, r.Tag("Event"), r.Line, texts(r), token(r), r.Index)
		}
	}
	if m := out[6].rec.Moves[0]; m.Col != 28 || m.Comment != "x" {
		t.Errorf("last game move %+v", m)
	}
}

func TestPonteBOMAndCRLF(t *testing.T) {
	t.Parallel()
	in := "\ufeff[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. a1,b1 {c\r\nd} 2. c1,c2\r\n3. pass *\r\n\r\n[Event \"z\"]\r\n\r\n1. a1,b1 2. a3 *"
	out := readAll(t, in)
	if len(out) != 2 || out[0].err != nil || out[1].err != nil {
		t.Fatalf("got %v", out)
	}
	r := out[0].rec
	want := []Token{{Text: "a1,b1", Line: 4, Col: 4, Comment: "c\nd"}, {Text: "c1,c2", Line: 5, Col: 7}, {Text: "pass", Line: 6, Col: 4}}
	if !slices.Equal(withoutNumbers(r.Moves), want) || r.Tag("Event") != "x" || r.Tag("Site") != "y" {
		t.Errorf("got %+v %v", r.Moves, r.Tags)
	}
	if r2 := out[1].rec; r2.Line != 8 || withoutNumbers(r2.Moves)[1] != (Token{Text: "a3", Line: 10, Col: 13}) {
		t.Errorf("game 2: line %d %v", r2.Line, r2.Moves)
	}
	// A BOM-only or blank input holds no records.
	for _, in := range []string{"", "\ufeff", "\n\n  \r\n", "\ufeff\r\n"} {
		if out := readAll(t, in); len(out) != 0 {
			t.Errorf("%q: got %v", in, out)
		}
	}
}

// TestTurnNumbers: the reader keeps the written turn numbers and their positions and
// does not judge them; a wrong one is an R9 for the replay.
func TestTurnNumbers(t *testing.T) {
	t.Parallel()
	out := readAll(t, "[Event \"x\"]\n\n1. a1,b1 c1,c2\n4.d1,d2 4. e1,e2 *")
	if len(out) != 1 || out[0].err != nil {
		t.Fatalf("got %v", out)
	}
	want := []Token{
		{Text: "a1,b1", Line: 3, Col: 4, Number: 1, NumberLine: 3, NumberCol: 1},
		{Text: "c1,c2", Line: 3, Col: 10},
		{Text: "d1,d2", Line: 4, Col: 3, Number: 4, NumberLine: 4, NumberCol: 1},
		{Text: "e1,e2", Line: 4, Col: 12, Number: 4, NumberLine: 4, NumberCol: 9},
	}
	if !slices.Equal(out[0].rec.Moves, want) {
		t.Errorf("got  %+v\nwant %+v", out[0].rec.Moves, want)
	}
}

// TestPonteErrors checks the kind and the exact position of every error. A
// slip (a tag value the replay does not need) leaves the record read, with
// its moves, and is kept in TagErrors.
func TestPonteErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		kind      error
		line, col int
		slip      bool
	}{
		{"result mismatch", "[Result \"1-0\"]\n\n1. a1,b1 0-1", ErrResultMismatch, 3, 10, true},
		{"result mismatch star", "[Result \"1-0\"]\n\n1. a1,b1\n  *", ErrResultMismatch, 4, 3, true},
		{"size too big", "[Size \"30\"]\n*", ErrTagValue, 1, 7, false},
		{"size too small", "[Size \"4\"]\n*", ErrTagValue, 1, 7, false},
		{"size not a number", "[Event \"e\"]\n[Size \"ten\"]\n*", ErrTagValue, 2, 7, false},
		{"size twice", "[Size \"10\"]\n[Size \"12\"]\n*", ErrTag, 2, 1, false},
		{"supply", "[Supply \"x\"]\n*", ErrTagValue, 1, 9, false},
		{"score", "[Score \"a-b\"]\n1. a1,b1 *", ErrTagValue, 1, 8, true},
		{"score one number", "[Score \"10\"]\n1. a1,b1 *", ErrTagValue, 1, 8, true},
		{"result", "[Result \"2-0\"]\n1. a1,b1 *", ErrTagValue, 1, 9, true},
		{"result with a letter O", "[Result \"1-O\"]\n1. a1,b1 *", ErrTagValue, 1, 9, true},
		{"termination", "[Termination \"x\"]\n1. a1,b1 *", ErrTagValue, 1, 14, true},
		{"date slashes and dots", "[Date \"2025/10.04\"]\n1. a1,b1 *", ErrTagValue, 1, 7, true},
		{"date month", "[Date \"2025.13.04\"]\n1. a1,b1 *", ErrTagValue, 1, 7, true},
		{"date partial part", "[Date \"20??.10.04\"]\n1. a1,b1 *", ErrTagValue, 1, 7, true},
		{"date short", "  [Date \"2025.1.4\"]\n1. a1,b1 *", ErrTagValue, 1, 9, true},
		{"round twice", "[Round \"1\"]\n [Round \"2\"]\n1. a1,b1 *", ErrTag, 2, 2, true},
		{"tag without quotes", "[Event x]\n*", ErrTag, 1, 8, false},
		{"tag without ]", "[Event \"x\"\n*", ErrTag, 1, 11, false},
		{"tag value not closed", "[Event \"x]\n*", ErrTag, 1, 8, false},
		{"tag escape at end", "[Event \"x\\\"]\n*", ErrTag, 1, 8, false},
		{"tag without name", "[ \"x\"]\n*", ErrTag, 1, 3, false},
		{"text after tag", "[Event \"x\"] 1. a1,b1\n*", ErrTag, 1, 13, false},
		{"duplicate tag", "[Event \"x\"]\n [Event \"y\"]\n1. a1,b1 *", ErrTag, 2, 2, true},
		{"unmatched }", "1. a1,b1 } *", ErrSyntax, 1, 10, false},
		{"comment not closed", "[Event \"x\"]\n\n1. a1,b1 {never\nclosed", ErrSyntax, 3, 10, false},
		{"number without turn", "1. a1,b1 2. *", ErrSyntax, 1, 10, false},
		{"number without turn at end", "1. a1,b1\n2.", ErrSyntax, 2, 1, false},
		{"two numbers", "1. 2. a1,b1", ErrSyntax, 1, 1, false},
		{"number with two dots", "1.. a1,b1", ErrSyntax, 1, 3, false},
		{"long annotation", "1. a1,b1!!! *", ErrSyntax, 1, 9, false},
		{"annotation alone", "1. a1,b1 !! *", ErrSyntax, 1, 10, false},
		{"annotated result", "1. a1,b1 1-0!", ErrSyntax, 1, 13, false},
		{"tag in movetext", "1. a1,b1 [Event \"x\"]", ErrSyntax, 1, 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := readAll(t, tt.in)
			if len(out) != 1 {
				t.Fatalf("got %d records: %v", len(out), out)
			}
			if tt.slip {
				r := out[0].rec
				if out[0].err != nil || len(r.TagErrors) != 1 || len(r.Moves) != 1 || r.Raw != nil {
					t.Fatalf("error %v, tag errors %v, moves %v: want the record read with one slip", out[0].err, r.TagErrors, r.Moves)
				}
				pe := r.TagErrors[0]
				if !errors.Is(pe, tt.kind) || pe.Line != tt.line || pe.Column != tt.col || pe.Game != 1 || pe.StartLine != r.Line {
					t.Errorf("got %v (line %d col %d), want %v at %d:%d", pe, pe.Line, pe.Column, tt.kind, tt.line, tt.col)
				}
				if r.ClaimedResult().String() != "*" || r.Score != nil || r.Termination.String() != "" || r.Date() != "" {
					t.Errorf("a slip claims %s, score %v, termination %q, date %q", r.ClaimedResult(), r.Score, r.Termination, r.Date())
				}
				return
			}
			var pe *ParseError
			if !errors.As(out[0].err, &pe) {
				t.Fatalf("error %v, want a ParseError", out[0].err)
			}
			if !errors.Is(pe, tt.kind) || pe.Line != tt.line || pe.Column != tt.col || pe.Game != 1 || pe.Source != "t" {
				t.Errorf("got %v (line %d col %d), want %v at %d:%d", pe, pe.Line, pe.Column, tt.kind, tt.line, tt.col)
			}
			r := out[0].rec
			if r.Index != 1 || r.Source != "t" || r.Line < 1 || len(r.Raw) == 0 {
				t.Errorf("partial record %+v", r)
			}
			if pe.StartLine != r.Line {
				t.Errorf("StartLine %d, record line %d", pe.StartLine, r.Line)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	t.Parallel()
	out := readAll(t, "[Event \"a\"]\n\n1. a1 *\n\n[Event \"b\"]\n\n1. a1,b1 2. c3,c4 } *\n")
	if len(out) != 2 || out[0].err != nil {
		t.Fatalf("got %v", out)
	}
	const want = "t:7:19: game 2: '}' without '{'"
	if got := out[1].err.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if pe := out[1].err.(*ParseError); pe.StartLine != 5 || pe.Game != 2 {
		t.Errorf("got %+v", pe)
	}
	if got := string(out[1].rec.Raw); got != "[Event \"b\"]\n\n1. a1,b1 2. c3,c4 } *\n" {
		t.Errorf("raw %q", got)
	}
}

// TestPonteRecovery checks that a bad game between good ones loses nothing
// else.
func TestPonteRecovery(t *testing.T) {
	t.Parallel()
	good1 := "[Event \"good1\"]\n\n1. a1,b1 2. c1,c2 *\n\n"
	good2 := "[Event \"good2\"]\n\n1. d1,d2 *\n"
	bads := []string{
		"[Event \"bad\"]\n[Size \"99\"]\n[Site \"s\"]\n\n1. a1,b1 *\n\n",
		"[Event \"bad\"\n[Site \"s\"]\n\n1. a1,b1 *\n\n",
		"[Event \"bad\"]\n\n1. a1,b1 3. c1,c2\n4. x } y\n\n",
		"[Event \"bad\"]\n\n1. a1,b1 {never closed\n2. c1,c2 *\n\n",
		"[Event \"bad\"]\n\n1. a1,b1 2.\n\n",
		"1. a1,b1 2. 3. c1,c2\n",
		"[Event \"bad\"]\n\n1. a1,b1 [Site \"x\"] 2. c1,c2 *\n\n",
	}
	for _, bad := range bads {
		out := readAll(t, good1+bad+good2)
		if len(out) != 3 || out[0].err != nil || out[1].err == nil || out[2].err != nil {
			t.Errorf("%q: got %v", bad, out)
			continue
		}
		if out[0].rec.Tag("Event") != "good1" || out[2].rec.Tag("Event") != "good2" || out[2].rec.Index != 3 {
			t.Errorf("%q: wrong games %v %v", bad, out[0].rec.Tags, out[2].rec.Tags)
		}
		if !strings.HasPrefix(string(out[1].rec.Raw), bad[:4]) || strings.Contains(string(out[1].rec.Raw), "good") {
			t.Errorf("%q: raw %q", bad, out[1].rec.Raw)
		}
	}
}

func TestPonteLongLine(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 16 MiB line")
	}
	// With a record limit above it, MaxLineLength is the limit that applies.
	lim := DefaultLimits()
	lim.MaxRecordBytes = 2 * MaxLineLength
	long := "1. " + strings.Repeat("a", MaxLineLength) + " *\n"
	out := readAllWithin(t, "[Event \"a\"]\n\n1. a1,b1 *\n\n[Event \"b\"]\n\n"+long+"\n[Event \"c\"]\n\n1. a1,b1 *\n", lim)
	if len(out) != 3 || out[1].err == nil || out[2].err != nil {
		t.Fatalf("got %v", out)
	}
	pe := out[1].err.(*ParseError)
	if !errors.Is(pe, ErrLineTooLong) || pe.Line != 7 || pe.Column != MaxLineLength+1 || len(out[1].rec.Raw) > MaxRaw {
		t.Errorf("got %v", pe)
	}
}
