package ingest

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

const samplesDir = "testdata/samples/"

// expectedGame is one line of testdata/samples/expected.jsonl: the game, and for the Abstract Play
// records the claims they make and the verdict on them.
type expectedGame struct {
	File string `json:"file"`
	// RecordID is the site's own id of the game ("game_id" in the file).
	RecordID      string   `json:"game_id"`
	ClaimedResult string   `json:"claimed_result"`
	Termination   string   `json:"termination"`
	Legal         *bool    `json:"legal"`
	Kind          string   `json:"kind"`
	Rule          string   `json:"rule"`
	Size          int      `json:"size"`
	Supply        string   `json:"supply"`
	Light         string   `json:"light"`
	Dark          string   `json:"dark"`
	Moves         []string `json:"moves"`
	Turns         int      `json:"turns"`
	Over          bool     `json:"over"`
	Result        string   `json:"result"`
	Score         [2]int   `json:"score"`
	Islands       [2]int   `json:"islands"`
	Bridges       [2]int   `json:"bridges"`
}

func readExpected(t *testing.T) []expectedGame {
	f, err := os.Open(samplesDir + "expected.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectedGame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e expectedGame
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if len(out) != 14 {
		t.Fatalf("%d expected games, want 14", len(out))
	}
	return out
}

// readPath reads the records of a file, which must all read well, with the
// path as their source; notices are an error too, but for the records of
// other games, which a player's export of Abstract Play mixes with Ponte's.
func readPath(t *testing.T, path string) []*Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(f, path)
	var recs []*Record
	for {
		rec, err := rd.Read()
		for _, n := range rd.Notices() {
			if !strings.Contains(n.Error(), "not Ponte del Diavolo") {
				t.Fatalf("notice %v", n)
			}
		}
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("%v", err)
		}
		recs = append(recs, rec)
	}
}

// TestSamples reads every sample file and checks its game against
// expected.jsonl, replaying it with the rules engine.
func TestSamples(t *testing.T) {
	for _, e := range readExpected(t) {
		t.Run(e.File, func(t *testing.T) {
			path := samplesDir + e.File
			recs := readPath(t, path)
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			rec := recs[0]
			want := FormatBoardspace
			if strings.HasPrefix(e.File, "abstractplay/") {
				want = FormatAbstractPlay
			}
			if rec.Format != want || rec.Index != 1 || rec.Source != path {
				t.Errorf("format %s, index %d, source %q", rec.Format, rec.Index, rec.Source)
			}
			// boardspace.net writes a bridge from its anchor, so the
			// reader writes it anchor first; expected.jsonl has some
			// the other way round: the same turn.
			if got := texts(rec); !slices.EqualFunc(got, e.Moves, sameTurn) {
				t.Errorf("moves\n got %v\nwant %v", got, e.Moves)
			}
			if rec.Tag("Light") != e.Light || rec.Tag("Dark") != e.Dark {
				t.Errorf("players %q/%q, want %q/%q", rec.Tag("Light"), rec.Tag("Dark"), e.Light, e.Dark)
			}
			opener := e.Light
			if len(e.Moves) > 1 && e.Moves[1] == "swap" {
				opener = e.Dark
			}
			if rec.Tag("Opener") != opener {
				t.Errorf("opener %q, want %q", rec.Tag("Opener"), opener)
			}
			if rec.Size != e.Size || rec.Supply.String() != e.Supply {
				t.Errorf("size %d supply %s, want %d %s", rec.Size, rec.Supply, e.Size, e.Supply)
			}
			// boardspace.net's GameOver claims nothing: the replay decides.
			wantClaim := e.ClaimedResult
			if wantClaim == "" {
				wantClaim = "*"
			}
			if rec.ClaimedResult().String() != wantClaim || rec.Termination.String() != e.Termination {
				t.Errorf("claims %s, termination %q; want %s, %q", rec.ClaimedResult(), rec.Termination, wantClaim, e.Termination)
			}
			if len(rec.TagErrors) > 0 {
				t.Errorf("tag errors %v", rec.TagErrors)
			}
			if e.RecordID != "" && rec.Tag("GameId") != e.RecordID {
				t.Errorf("GameId %q, want %q", rec.Tag("GameId"), e.RecordID)
			}
			supply, _ := gamepkg.ParseSupply(rec.Supply.String())
			g, err := replay.NewGame(rec.Size, supply)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range rec.Moves {
				if err := g.PlayText(m.Text); err != nil {
					t.Fatalf("turn %d %s: %v", i+1, m.Text, err)
				}
			}
			if e.Result == "" { // null: the game is not over
				e.Result = "*"
			}
			if g.Turn() != e.Turns || g.Over() != e.Over || g.Result().String() != e.Result ||
				g.Score() != e.Score || g.Islands() != e.Islands || g.Bridges() != e.Bridges {
				t.Errorf("replay: turns %d over %v result %s score %v islands %v bridges %v; want %d %v %s %v %v %v",
					g.Turn(), g.Over(), g.Result(), g.Score(), g.Islands(), g.Bridges(),
					e.Turns, e.Over, e.Result, e.Score, e.Islands, e.Bridges)
			}
			// The verdict on the claims (R8), where the file gives one.
			if e.Legal != nil {
				result := rec.ClaimedResult()
				err := g.CheckClaim(replay.Claim{Result: result, Termination: rec.Termination.String(), Score: rec.Score})
				rule := ""
				if re, ok := err.(*replay.RuleError); ok {
					rule = string(re.Rule)
				}
				if (err == nil) != *e.Legal || rule != e.Rule {
					t.Errorf("claim check %v; want legal %v, rule %q (%s)", err, *e.Legal, e.Rule, e.Kind)
				}
			}
			checkPositions(t, path, rec)
		})
	}
}

// sameTurn reports whether two tokens are the same turn: equal, or the same
// bridge written from either end.
func sameTurn(a, b string) bool {
	if a == b {
		return true
	}
	x, y, ok := strings.Cut(a, "-")
	return ok && b == y+"-"+x
}

// checkPositions checks that every token stands where it says: on the
// P0/P1 property of a boardspace.net move, on the string of an Abstract Play
// move (or the pie-invoked value of the swap).
func checkPositions(t *testing.T, path string, rec *Record) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, m := range rec.Moves {
		if m.Line < rec.Line || m.Line > len(lines) || m.Col < 1 || m.Col > len(lines[m.Line-1]) {
			t.Fatalf("turn %d %s at %d:%d: outside the record", i+1, m.Text, m.Line, m.Col)
		}
		at := lines[m.Line-1][m.Col-1:]
		var ok bool
		switch {
		case rec.Format == FormatBoardspace:
			ok = strings.HasPrefix(at, "P0[") || strings.HasPrefix(at, "P1[")
		case m.Text == "swap": // the value of "pied"
			ok = strings.HasPrefix(at, "true")
		default:
			ok = strings.HasPrefix(at, `"`+m.Text+`"`)
		}
		if !ok {
			t.Errorf("turn %d %s at %d:%d holds %.20q", i+1, m.Text, m.Line, m.Col, at)
		}
	}
}

// TestSamplesThinkTimes checks the think times of a boardspace.net sample
// against its TM values, worked out by hand.
func TestSamplesThinkTimes(t *testing.T) {
	recs := readPath(t, samplesDir+"boardspace/PD-player57-player171-000.sgf")
	var ms []int
	for _, m := range recs[0].Moves[:5] {
		ms = append(ms, m.Millis)
	}
	// P0 Done at 9813; P1 Swap/Done at 4708; P0 18853-9813; P1 14718-4708;
	// P0 32054-18853.
	if want := []int{9813, 4708, 9040, 10010, 13201}; !slices.Equal(ms, want) {
		t.Errorf("think times %v, want %v", ms, want)
	}
}

// TestSamplesOpen reads the sample directory and a zip of it through Open.
func TestSamplesOpen(t *testing.T) {
	var n, notices int
	err := Open([]string{samplesDir + "boardspace", samplesDir + "abstractplay"}, func(rec *Record, err error) error {
		switch {
		case IsNotice(err): // the Hex game of ap-004.json
			notices++
		case err != nil:
			t.Errorf("%v", err)
		default:
			n++
		}
		return nil
	})
	if err != nil || n != 14 || notices != 1 {
		t.Errorf("%d records, %d notices, error %v; want 14, 1", n, notices, err)
	}
	files := map[string][]byte{}
	paths, _ := filepath.Glob(samplesDir + "*/*")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimPrefix(p, samplesDir)] = data
	}
	zp := filepath.Join(t.TempDir(), "samples.zip")
	if err := os.WriteFile(zp, zipped(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	n = 0
	err = Open([]string{zp}, func(rec *Record, err error) error {
		switch {
		case IsNotice(err):
		case err != nil:
			t.Errorf("%v", err)
		case !strings.HasPrefix(rec.Source, zp+"/"):
			t.Errorf("source %q", rec.Source)
		default:
			n++
		}
		return nil
	})
	if err != nil || n != 14 {
		t.Errorf("zip: %d records, error %v; want 14", n, err)
	}
}
