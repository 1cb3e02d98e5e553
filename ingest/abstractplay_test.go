package ingest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// apRec builds a pretty-printed Abstract Play record; moves is the JSON
// text of "moves", header extra header keys.
func apRec(game, id string, pie bool, variants, moves string) string {
	return fmt.Sprintf(`{
  "header": {
    "game": {"name": %q, "variants": [%s]},
    "site": {"name": "Abstract Play", "gameid": %q},
    "date-start": "2025-03-20T18:01:22.000Z",
    "pie-invoked": %v,
    "players": [
      {"name": "alice", "userid": "u1", "is_ai": false, "score": 6, "result": 1},
      {"name": "bob", "userid": "u2", "is_ai": true, "score": 3, "result": 0}
    ]
  },
  "moves": %s
}`, game, variants, id, pie, moves)
}

func TestAbstractPlayRecords(t *testing.T) {
	t.Parallel()
	in := "[\n" + apRec("Ponte del Diavolo", "g1", true, `"size-12"`, `[["f6,g7", "e5,e6"], ["g5,h5", "e5-g6"], ["pass"]]`) + ",\n" +
		apRec("Ponte del Diavolo", "g2", false, "", `[[{"move": "a1,b1", "time": 3}, {"move": "c3,d3"}], "pass"]`) + ",\n" +
		apRec("Hive", "g3", false, "", `[]`) + ",\n" +
		apRec("ponte-del-diavolo", "4", false, `"size-8", "other"`, `[]`) + "\n]\n"
	in = strings.Replace(in, `"gameid": "4"`, `"gameid": 4`, 1)
	rd := NewReader(strings.NewReader(in), "ap.json")
	if rd.Format() != FormatAbstractPlay {
		t.Fatalf("format %s", rd.Format())
	}
	var recs []*Record
	var notices []string
	for {
		rec, err := rd.Read()
		for _, n := range rd.Notices() {
			notices = append(notices, n.Error())
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	if want := []string{"ap.json:28:1: record of the game \"Hive\" skipped: not Ponte del Diavolo"}; !slices.Equal(notices, want) {
		t.Errorf("notices %q, want %q", notices, want)
	}
	r := recs[0]
	if got := texts(r); !slices.Equal(got, []string{"f6,g7", "swap", "e5,e6", "g5,h5", "e5-g6", "pass"}) {
		t.Errorf("moves %v", got)
	}
	// The players' results and scores are the record's claims; a size
	// variant is the Size, not a Variant.
	wantTags := map[string]string{"Site": "Abstract Play", "GameId": "g1", "Date": "2025.03.20", "Light": "alice",
		"Dark": "bob", "Opener": "bob", "Size": "12", "Supply": "unlimited", "Variant": "",
		"Result": "1-0", "Score": "6-3", "Termination": "", "date-start": "",
		"LightIsAI": "false", "DarkIsAI": "true", "LightUserId": "u1", "DarkUserId": "u2"}
	for name, want := range wantTags {
		if got := r.Tag(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	if r.Size != 12 || r.Supply.String() != "unlimited" || r.ClaimedResult().String() != "1-0" || r.Termination.String() != "normal" ||
		r.Score == nil || *r.Score != [2]int{6, 3} || r.Index != 1 || r.Line != 2 || len(r.TagErrors) != 0 {
		t.Errorf("record %+v", r)
	}
	lines := strings.Split(in, "\n")
	for _, m := range r.Moves {
		at := lines[m.Line-1][m.Col-1:]
		if !strings.HasPrefix(at, `"`+m.Text+`"`) && !(m.Text == "swap" && strings.HasPrefix(at, "true")) {
			t.Errorf("%s at %d:%d: %q", m.Text, m.Line, m.Col, at)
		}
	}
	r = recs[1]
	if got := texts(r); !slices.Equal(got, []string{"a1,b1", "c3,d3", "pass"}) || r.Size != 10 || r.Tag("Opener") != "alice" || r.Index != 2 {
		t.Errorf("record 2: %v %+v", got, r)
	}
	if m := r.Moves[0]; !strings.HasPrefix(lines[m.Line-1][m.Col-1:], `"a1,b1"`) {
		t.Errorf("object move at %d:%d", m.Line, m.Col)
	}
	r = recs[2]
	if r.Size != 8 || r.Tag("GameId") != "4" || r.Tag("Variant") != "other" || r.Index != 3 {
		t.Errorf("record 3: %+v", r)
	}
}

func TestAbstractPlayForms(t *testing.T) {
	t.Parallel()
	one := apRec("Ponte del Diavolo", "x", false, "", `[["a1,b1"]]`)
	oneLine := `{"header":{"game":{"name":"Ponte del Diavolo"},"players":[{"name":"a"},{"name":"b"}]},"moves":[["a1,b1","c1,d1"]]}`
	for name, in := range map[string]string{
		"one record":                one,
		"one record, BOM and CRLF":  "\ufeff" + strings.ReplaceAll(one, "\n", "\r\n"),
		"one-line records":          oneLine + "\n" + oneLine,
		"records one after another": one + one,
		"array on one line":         "[" + oneLine + "," + oneLine + "]",
		"empty array":               "[]",
	} {
		t.Run(name, func(t *testing.T) {
			res := readAll(t, in)
			for _, r := range res {
				if r.err != nil || r.rec.Format != FormatAbstractPlay {
					t.Fatalf("%v %+v", r.err, r.rec)
				}
			}
			want := map[bool]int{true: 2, false: 1}[strings.Count(in, `"header"`) == 2]
			if name == "empty array" {
				want = 0
			}
			if len(res) != want {
				t.Errorf("%d records, want %d", len(res), want)
			}
		})
	}
}

func TestAbstractPlayErrors(t *testing.T) {
	t.Parallel()
	good := apRec("Ponte del Diavolo", "ok", false, "", `[["a1,b1"]]`)
	tests := []struct {
		name      string
		bad       string // a record replacing the first of three
		line, col int    // of the error, in the bad record (line 1 is its '{')
		kind      error
		msg       string
	}{
		{"bad value", strings.Replace(good, `"pie-invoked": false`, `"pie-invoked": flase`, 1), 6, 20, ErrJSON, "invalid value"},
		{"key without colon", strings.Replace(good, `"date-start":`, `"date-start"`, 1), 5, 18, ErrJSON, "':' expected"},
		{"unclosed string", strings.Replace(good, `"ok"`, `"ok`, 1), 4, 54, ErrJSON, "control character"},
		{"move not a string", strings.Replace(good, `[["a1,b1"]]`, `[[12]]`, 1), 12, 14, ErrJSON, "a move must be"},
		{"round of three", strings.Replace(good, `[["a1,b1"]]`, `[["a", "b", "c"]]`, 1), 12, 24, ErrJSON, "more than two"},
		{"empty round", strings.Replace(good, `[["a1,b1"]]`, `[[]]`, 1), 12, 13, ErrJSON, "empty round"},
		{"no moves", strings.Replace(good, `,
  "moves": [["a1,b1"]]`, "", 1), 12, 1, ErrJSON, `"moves" missing`},
		{"bad size", strings.Replace(good, `"variants": []`, `"variants": ["size-30"]`, 1), 3, 56, ErrTagValue, "from 5 to 26"},
		{"one player", strings.Replace(good, `,
      {"name": "bob", "userid": "u2", "is_ai": true, "score": 3, "result": 0}`, "", 1), 7, 16, ErrJSON, "two players"},
		{"bad size name", strings.Replace(good, `"variants": []`, `"variants": ["30x30 board"]`, 1), 3, 56, ErrTagValue, "from 5 to 26"},
		{"sizes disagree", strings.Replace(good, `"variants": []`, `"variants": ["8x8 board", "size-12"]`, 1), 3, 69, ErrTagValue, "cannot be told"},
		{"move after resign", strings.Replace(good, `[["a1,b1"]]`, `[["a1,b1", "resign"], ["c3,d3"]]`, 1), 12, 35, ErrMove, "no move follows"},
		{"null as a move", strings.Replace(good, `[["a1,b1"]]`, `[["a1,b1", nul]]`, 1), 12, 23, ErrJSON, "invalid value"},
		{"not an object", `"a record"`, 1, 1, ErrJSON, "must be a JSON object"},
		{"an array", `[1, 2]`, 1, 1, ErrJSON, "must be a JSON object"},
		{"duplicate moves", strings.Replace(good, `"moves":`, `"moves": [], "moves":`, 1), 12, 16, ErrJSON, "duplicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := "[\n" + tt.bad + ",\n" + good + ",\n" + good + "\n]"
			res := readAll(t, in)
			if len(res) != 3 {
				t.Fatalf("%d records", len(res))
			}
			var pe *ParseError
			if !errors.As(res[0].err, &pe) || !errors.Is(pe, tt.kind) || !strings.Contains(pe.Error(), tt.msg) {
				t.Fatalf("error %v, want %v with %q", res[0].err, tt.kind, tt.msg)
			}
			if pe.Line != tt.line+1 || pe.Column != tt.col || pe.Game != 1 || pe.StartLine != 2 {
				t.Errorf("error at %d:%d (game %d from line %d), want %d:%d", pe.Line, pe.Column, pe.Game, pe.StartLine, tt.line+1, tt.col)
			}
			if res[0].rec.Raw == nil {
				t.Error("no raw text")
			}
			for _, r := range res[1:] {
				if r.err != nil || r.rec.Tag("GameId") != "ok" {
					t.Errorf("next record: %v", r.err)
				}
			}
		})
	}
}

func TestAbstractPlayStructure(t *testing.T) {
	t.Parallel()
	good := `{"header":{"players":[{"name":"a"},{"name":"b"}]},"moves":[]}`
	tests := []struct {
		name  string
		in    string
		want  []string // per Read: "ok", an error's text, or "fatal: ..."
		fatal string
	}{
		{"comma missing", "[" + good + "\n" + good + "]", []string{"ok", "t:2:1: game 2: ',' missing between two records"}, ""},
		{"extra comma", "[" + good + ",, " + good + "]", []string{"ok", "t:1:64: game 2: ',' without a record before it"}, ""},
		{"trailing comma", "[" + good + ",\n]", []string{"ok"}, "t:2:1: ',' before ']'"},
		{"array not closed", "[" + good + ",\n" + good, []string{"ok", "ok"}, "not closed: ']' missing"},
		{"record not closed", "[" + good + ",\n{\"header\": {", []string{"ok", "t:2:1: game 2: record not closed: the input ends"}, "not closed: ']' missing"},
		{"text after the record", good + " x", []string{"ok"}, "t:1:63: \"x\" outside a record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tt.in), "t")
			var got []string
			var fatal error
			for {
				_, err := rd.Read()
				if err == io.EOF {
					break
				}
				var pe *ParseError
				if err != nil && !errors.As(err, &pe) {
					fatal = err
					if _, err2 := rd.Read(); err2 != err {
						t.Errorf("fatal error not sticky: %v", err2)
					}
					break
				}
				if err != nil {
					got = append(got, err.Error())
				} else {
					got = append(got, "ok")
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if (fatal == nil) != (tt.fatal == "") || fatal != nil && (!strings.Contains(fatal.Error(), tt.fatal) || !errors.Is(fatal, ErrJSON)) {
				t.Errorf("fatal %v, want %q", fatal, tt.fatal)
			}
		})
	}
}

func TestAbstractPlayMaxDocument(t *testing.T) {
	t.Parallel()
	lim := DefaultLimits()
	lim.MaxDocument = 200
	good := `{"header":{"players":[{"name":"a"},{"name":"b"}]},"moves":[]}`
	big := `{"header":{"players":[{"name":"a"},{"name":"b"}]},"moves":[` + strings.Repeat(`"a1,b1",`+"\n", 40) + `"pass"]}`
	res := readAllWithin(t, "[\n"+good+",\n"+big+",\n"+good+"]", lim)
	if len(res) != 3 || res[0].err != nil || res[2].err != nil {
		t.Fatalf("%v", res)
	}
	// The record crosses its 200 bytes on line 18: 68 bytes on line 3 (from its '{', with
	// its line end), 9 on each of the 14 lines after it, and the 201st byte at column 7.
	var pe *ParseError
	if !errors.As(res[1].err, &pe) || !errors.Is(pe, ErrTooLarge) || pe.StartLine != 3 || pe.Line != 18 || pe.Column != 7 || len(res[1].rec.Raw) > 200 {
		t.Errorf("big record: %v", res[1].err)
	}
}

// TestJSONLHeaderTag checks that a JSON Lines record with a tag named
// "header" is written so that it reads back as JSON Lines.
func TestJSONLHeaderTag(t *testing.T) {
	t.Parallel()
	// (A file whose first line is {"header":{...}, ... is an Abstract Play
	// file: the first line here is another record.)
	for _, in := range []string{`{"header":{"a":1},"moves":["a1,b1"]}`, `{"header":"x","moves":[]}`} {
		res := readAll(t, "{\"moves\":[]}\n"+in)
		if len(res) != 2 || res[1].err != nil || res[1].rec.Format != FormatJSONL {
			t.Fatalf("%s: %v", in, res)
		}
		res = res[1:]
		var b strings.Builder
		w := NewWriter(&b, FormatJSONL)
		if err := w.Write(res[0].rec); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		back := readAll(t, b.String())
		if len(back) != 1 || back[0].err != nil || back[0].rec.Format != FormatJSONL || sameGame(res[0].rec, back[0].rec, false) != "" {
			t.Errorf("%s written as %s reads back as %+v", in, b.String(), back)
		}
	}
}

// apReal builds a one-line record in the shape of a real export (docs/formats/abstractplay.md):
// "pied", variants by display name, players with result and score.
func apReal(header, players, moves string) string {
	return `{"header":{"game":{"name":"Ponte del Diavolo","variants":[]},"site":{"name":"Abstract Play","gameid":"pontedd#x"},` +
		`"date-start":"2026-03-17T11:34:40.053Z","date-end":"2026-03-22T18:13:48.683Z","date-generated":"2026-08-02T03:03:59.045Z",` +
		header + `"players":[` + players + `]},"moves":` + moves + `}`
}

// TestAbstractPlayRealShape reads what real exports hold: terminal entries, null
// entries, the pie, variant names, tags kept, and claims that cannot be read, which
// are slips (TagErrors) and leave the moves to be replayed.
func TestAbstractPlayRealShape(t *testing.T) {
	t.Parallel()
	const (
		lightWon = `{"name":"al","userid":"u-al","score":2,"result":1},{"name":"bo","userid":"u-bo","score":0,"result":0,"is_ai":true}`
		darkWon  = `{"name":"al","score":2,"result":0},{"name":"bo","score":0,"result":1}`
		drawn    = `{"name":"al","result":1},{"name":"bo","result":1}`
		noClaims = `{"name":"al"},{"name":"bo"}`
	)
	tests := []struct {
		name        string
		in          string
		moves       string // the turns, space-separated
		size        int
		claim, term string
		score       string            // the Score tag
		tags        map[string]string // further tags to check ("" for absent)
		slips       []string          // messages of TagErrors, in order
	}{
		{"resign by the second seat", apReal(``, lightWon, `[["a1,b1","c3,d3"],["e5,f5","resign"]]`),
			"a1,b1 c3,d3 e5,f5", 10, "1-0", "resign", "2-0",
			map[string]string{"LightUserId": "u-al", "DarkIsAI": "true", "date-end": "2026-03-22T18:13:48.683Z"}, nil},
		{"resign alone in its round", apReal(``, darkWon, `[["a1,b1","c3,d3"],["resign"]]`),
			"a1,b1 c3,d3", 10, "0-1", "resign", "2-0", nil, nil},
		{"timeout, no results: the entry's seat loses", apReal(``, noClaims, `[["a1,b1","timeout"]]`),
			"a1,b1", 10, "1-0", "time", "", nil, nil},
		{"draw by agreement", apReal(``, drawn, `[["a1,b1","c3,d3"],["draw"]]`),
			"a1,b1 c3,d3", 10, "1/2-1/2", "agreement", "", nil, nil},
		{"abandoned", apReal(``, darkWon, `[["a1,b1","abandoned"]]`),
			"a1,b1", 10, "0-1", "abandoned", "2-0", nil, nil},
		{"null entries and object moves", apReal(``, lightWon, `[[{"move":"a1,b1","result":[{"type":"place"}]},null],[null,"c3,d3"],["pass","pass"]]`),
			"a1,b1 c3,d3 pass pass", 10, "1-0", "normal", "2-0", nil, nil},
		{"pied, 12x12, a tournament", apReal(`"pied":true,"event":"Spring cup","round":"3","unrated":true,`, lightWon, `[["f6,g7","e5,e6"]]`),
			"f6,g7 swap e5,e6", 12, "1-0", "normal", "2-0",
			map[string]string{"Opener": "bo", "Event": "Spring cup", "Round": "3", "Unrated": "true"}, nil},
		{"pie-invoked, the key of earlier exports", apReal(`"pie-invoked":true,`, lightWon, `[["f6,g7","e5,e6"]]`),
			"f6,g7 swap e5,e6", 10, "1-0", "normal", "2-0", map[string]string{"Opener": "bo"}, nil},
		{"8x8 board and another variant", apReal(``, lightWon, `[["a1,b1"]]`),
			"a1,b1", 8, "1-0", "normal", "2-0", map[string]string{"Variant": "quick"}, nil},
		{"a result that is no number", apReal(``, `{"name":"al","result":"won"},{"name":"bo","result":0}`, `[["a1,b1"]]`),
			"a1,b1", 10, "*", "", "", nil, []string{`players[0].result "won": must be a number`}},
		{"a score for one player", apReal(``, `{"name":"al","score":3},{"name":"bo"}`, `[["a1,b1"]]`),
			"a1,b1", 10, "*", "", "", nil, []string{"a score for one player only"}},
		{"the resigner is claimed the winner", apReal(``, lightWon, `[["a1,b1","c3,d3"],["resign"]]`),
			"a1,b1 c3,d3", 10, "*", "resign", "2-0", nil, []string{"the players' results claim 1-0, but the entry \"resign\" of the first seat means 0-1"}},
		{"a date that is no date", strings.Replace(apReal(``, lightWon, `[["a1,b1"]]`), "2026-03-17T", "17.3.2026T", 1),
			"a1,b1", 10, "1-0", "normal", "2-0", map[string]string{"Date": ""}, []string{`date-start "17.3.2026T11:34:40.053Z": must be an ISO date`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			switch tt.size {
			case 12:
				in = strings.Replace(in, `"variants":[]`, `"variants":["12x12 board"]`, 1)
			case 8:
				in = strings.Replace(in, `"variants":[]`, `"variants":["8x8 board","quick"]`, 1)
			}
			res := readAll(t, "["+in+"]")
			if len(res) != 1 || res[0].err != nil {
				t.Fatalf("%v", res)
			}
			r := res[0].rec
			if got := strings.Join(texts(r), " "); got != tt.moves {
				t.Errorf("moves %q, want %q", got, tt.moves)
			}
			if r.Size != tt.size || r.ClaimedResult().String() != tt.claim || r.Termination.String() != tt.term || r.Tag("Score") != tt.score {
				t.Errorf("size %d, claim %s, termination %q, score %q; want %d, %s, %q, %q",
					r.Size, r.ClaimedResult(), r.Termination, r.Tag("Score"), tt.size, tt.claim, tt.term, tt.score)
			}
			for name, want := range tt.tags {
				if got := r.Tag(name); got != want {
					t.Errorf("tag %s %q, want %q", name, got, want)
				}
			}
			if len(r.TagErrors) != len(tt.slips) {
				t.Fatalf("tag errors %v, want %q", r.TagErrors, tt.slips)
			}
			for i, pe := range r.TagErrors {
				if !strings.Contains(pe.Error(), tt.slips[i]) || !errors.Is(pe, ErrTagValue) || pe.Game != 1 {
					t.Errorf("tag error %v, want %q", pe, tt.slips[i])
				}
				if at := in[pe.Column-2:]; pe.Line != 1 || !strings.ContainsAny(at[:1], `"{[0123456789t`) {
					t.Errorf("tag error at %d:%d: %.20q", pe.Line, pe.Column, at)
				}
			}
		})
	}
}
