package verdict

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// readRecords reads every record of text, the unreadable ones included.
func readRecords(t *testing.T, text string) []*ingest.Record {
	t.Helper()
	rd := ingest.NewReader(strings.NewReader(text), "t")
	var out []*ingest.Record
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			return out
		}
		var pe *ingest.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
}

func idOf(t *testing.T, text string) string {
	t.Helper()
	recs := readRecords(t, text)
	if len(recs) != 1 {
		t.Fatalf("%d records in %q", len(recs), text)
	}
	return GameID(recs[0])
}

// The same game written in every way the readers accept has one id; any other game has
// another.
func TestGameID(t *testing.T) {
	same := []string{
		"1. a1,b1 2. c3,c4 *",
		"a1,b1 c3,c4",
		"1. a1,b1! {good} 2. c3,c4?! *",
		"[Event \"x\"]\n[Light \"alice\"]\n\n1. a1,b1 2. c3,c4 1-0",
		`{"light": "bob", "moves": ["a1,b1", "c3,c4"]}`,
		"1. b1,a1 2. c4,c3 *", // the cells of a turn in either order
		"[Size \"10\"]\n[Supply \"unlimited\"]\n\n1. a1,b1 2. c3,c4",
	}
	want := idOf(t, same[0])
	if len(want) != 32 || strings.Trim(want, "0123456789abcdef") != "" {
		t.Fatalf("id %q is not 32 hex digits", want)
	}
	for _, text := range same[1:] {
		if got := idOf(t, text); got != want {
			t.Errorf("%q: id %s, want %s (the same game as %q)", text, got, want, same[0])
		}
	}
	other := []string{
		"1. a1,b1 *",                                  // fewer moves
		"1. a1,b1 2. c3,c5 *",                         // another move
		"1. c3,c4 2. a1,b1 *",                         // another order
		"[Size \"12\"]\n\n1. a1,b1 2. c3,c4 *",        // another board
		"[Supply \"40/15\"]\n\n1. a1,b1 2. c3,c4 *",   // another supply
		"1. a1,b1 3. c3,c4 *",                         // a wrong turn number (R9)
		"1. a1,b1 2. c3-c5 *",                         // a bridge, not tiles
		"1. a1,b1 2. zz9 *",                           // a token that does not parse
		"[Size \"ten\"]\n\n1. a1,b1 2. c3,c4 *",       // unreadable: the id of its text
		"[Size \"ten\"]\n\n1. a1,b1 2. c3,c4 *\n\n\n", // the same text: the same id (checked below)
	}
	seen := map[string]string{want: same[0]}
	for i, text := range other {
		got := idOf(t, text)
		if prev, ok := seen[got]; ok && i != len(other)-1 {
			t.Errorf("%q has the id of %q", text, prev)
		}
		seen[got] = text
	}
	if idOf(t, other[len(other)-2]) != idOf(t, other[len(other)-1]) {
		t.Errorf("one unreadable record read twice has two ids")
	}
	if idOf(t, "1. a1-c1 *") != idOf(t, "1. c1-a1 *") {
		t.Errorf("a bridge's two ends in either order give two ids")
	}
}

// The verdict's game_id, hashed as the replay reads the moves, is GameID's for every record
// of the conformance corpus (legal games and every kind of illegal turn: over, swap, wrong
// numbers, tokens that do not parse) and of the hand-made sample data.
func TestVerdictGameID(t *testing.T) {
	var g replay.Game
	var ft replay.FeatureTracker
	n := 0
	for _, path := range []string{
		"../replay/testdata/conformance/edge.ponte",
		"../replay/testdata/conformance/random/corpus.ponte",
		"../replay/testdata/conformance/random/corpus.jsonl",
		"../sample_data/autumn-league.ponte",
		"../sample_data/online-site.jsonl",
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range readRecords(t, string(data)) {
			want := GameID(rec)
			if rec.Raw != nil {
				continue // unreadable: the id of its text, not of moves
			}
			if got := Of(rec, &g).GameID; got != want {
				t.Errorf("%s game %d: Of gives the id %s, GameID %s", path, rec.Index, got, want)
			}
			if got, _ := Analyze(rec, &g, &ft, nil); got.GameID != want {
				t.Errorf("%s game %d: Analyze gives the id %s, GameID %s", path, rec.Index, got.GameID, want)
			}
			n++
		}
	}
	if n < 300 {
		t.Errorf("only %d records", n)
	}
}
