package replay_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// The conformance records were made by an independent reference engine (see
// testdata/conformance/README.md). Every verdict and every feature must agree.

// expected is one line of an expected.jsonl file.
type expected struct {
	Index   int     `json:"index"`
	Title   string  `json:"title"`
	Kind    string  `json:"kind"`
	Legal   bool    `json:"legal"`
	Rule    string  `json:"rule"`
	Turn    *int    `json:"turn"`
	Turns   int     `json:"turns"`
	Over    bool    `json:"over"`
	Result  string  `json:"result"`
	Score   *[2]int `json:"score"`
	Islands *[2]int `json:"islands"`
	Bridges *[2]int `json:"bridges"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

func readRecords(t *testing.T, path string) []*ingest.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := ingest.NewReader(f, path)
	var recs []*ingest.Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%v", err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// replayRecord plays a record to its end or its first illegal turn, then checks its claims.
func replayRecord(rec *ingest.Record) (*replay.Game, *replay.RuleError) {
	supply, _ := game.ParseSupply(rec.Supply.String())
	g, err := replay.NewGame(rec.Size, supply)
	if err != nil {
		return nil, &replay.RuleError{Rule: "size", Message: err.Error()}
	}
	for _, tok := range rec.Moves {
		if err := g.PlayNumbered(tok.Number, tok.Text); err != nil {
			return g, err.(*replay.RuleError)
		}
	}
	result := rec.ClaimedResult()
	if err := g.CheckClaim(replay.Claim{Result: result, Termination: rec.Termination.String(), Score: rec.Score}); err != nil {
		return g, err.(*replay.RuleError)
	}
	return g, nil
}

// matchRule accepts the exact rule, or a rule of the family when the expectation names a
// family (R3, R4, R9).
func matchRule(got replay.Rule, want string) bool {
	return string(got) == want || strings.HasPrefix(string(got), want+".") && (want == "R3" || want == "R4" || want == "R9")
}

func checkVerdicts(t *testing.T, recs []*ingest.Record, want []expected) {
	t.Helper()
	if len(recs) != len(want) {
		t.Fatalf("%d records, %d expected verdicts", len(recs), len(want))
	}
	for i, rec := range recs {
		w := want[i]
		name := fmt.Sprintf("game %d", i+1)
		if w.Title != "" {
			name += " (" + w.Title + ")"
		} else if w.Kind != "" {
			name += " (" + w.Kind + ")"
		}
		g, rerr := replayRecord(rec)
		if !w.Legal {
			if rerr == nil {
				t.Errorf("%s: legal, want %s at turn %v", name, w.Rule, fmtTurn(w.Turn))
				continue
			}
			gotTurn := rerr.Turn
			wantTurn := 0
			if w.Turn != nil {
				wantTurn = *w.Turn
			}
			if !matchRule(rerr.Rule, w.Rule) || gotTurn != wantTurn {
				t.Errorf("%s: got %v at %s, want %s at turn %v", name, rerr, rerr.TurnString(), w.Rule, fmtTurn(w.Turn))
			}
			continue
		}
		if rerr != nil {
			t.Errorf("%s: %v at %s, want legal", name, rerr, rerr.TurnString())
			continue
		}
		if g.Turn() != w.Turns || g.Over() != w.Over {
			t.Errorf("%s: %d turns over=%v, want %d turns over=%v", name, g.Turn(), g.Over(), w.Turns, w.Over)
		}
		if w.Over && g.Result().String() != w.Result {
			t.Errorf("%s: result %s, want %s", name, g.Result(), w.Result)
		}
		for _, c := range []struct {
			what string
			got  [2]int
			want *[2]int
		}{{"score", g.Score(), w.Score}, {"islands", g.Islands(), w.Islands}, {"bridges", g.Bridges(), w.Bridges}} {
			if c.want != nil && c.got != *c.want {
				t.Errorf("%s: %s %v, want %v", name, c.what, c.got, *c.want)
			}
		}
	}
}

func fmtTurn(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

const conformance = "testdata/conformance"

func TestConformanceEdge(t *testing.T) {
	checkVerdicts(t, readRecords(t, filepath.Join(conformance, "edge.ponte")),
		readJSONL[expected](t, filepath.Join(conformance, "edge.expected.jsonl")))
}

func TestConformanceRandomPonte(t *testing.T) {
	checkVerdicts(t, readRecords(t, filepath.Join(conformance, "random/corpus.ponte")),
		readJSONL[expected](t, filepath.Join(conformance, "random/expected.jsonl")))
}

func TestConformanceRandomJSONL(t *testing.T) {
	checkVerdicts(t, readRecords(t, filepath.Join(conformance, "random/corpus.jsonl")),
		readJSONL[expected](t, filepath.Join(conformance, "random/expected.jsonl")))
}

// featureTurn is one turn of features.jsonl.
type featureTurn struct {
	Turn          int    `json:"turn"`
	IslandsFormed int    `json:"islands_formed"`
	Score         [2]int `json:"score"`
	Islands       [2]int `json:"islands"`
	Sandbanks     [2]int `json:"sandbanks"`
	Mobility      [2]int `json:"mobility"`
	Dead          [2]int `json:"dead"`
	DeadCreated   [2]int `json:"dead_created"`
}

func TestConformanceFeatures(t *testing.T) {
	recs := readRecords(t, filepath.Join(conformance, "random/corpus.ponte"))
	all := readJSONL[struct {
		Index int           `json:"index"`
		Turns []featureTurn `json:"turns"`
	}](t, filepath.Join(conformance, "random/features.jsonl"))
	if len(all) == 0 {
		t.Fatal("no features")
	}
	checked := 0
	for _, want := range all {
		rec := recs[want.Index-1]
		supply, _ := game.ParseSupply(rec.Supply.String())
		g, _ := replay.NewGame(rec.Size, supply)
		g2, _ := replay.NewGame(rec.Size, supply)
		var tracker, readTracker replay.FeatureTracker // Play, and PlayTurn on g2
		if len(want.Turns) != len(rec.Moves) {
			t.Errorf("game %d: %d turns of features for %d moves", want.Index, len(want.Turns), len(rec.Moves))
			continue
		}
		for i, tok := range rec.Moves {
			m, err := replay.ParseMove(tok.Text, rec.Size)
			if err != nil {
				t.Fatalf("game %d turn %d: %v", want.Index, i+1, err)
			}
			f, err := tracker.Play(g, m)
			if err != nil {
				t.Fatalf("game %d turn %d: %v", want.Index, i+1, err)
			}
			var read replay.Features
			if m2, err := readTracker.PlayTurn(g2, tok.Number, tok.Text, &read); err != nil || m2 != m || read != f {
				t.Fatalf("game %d turn %d: PlayTurn gives %v, %v and\n%+v, Play\n%+v", want.Index, i+1, m2, err, read, f)
			}
			got := featureTurn{Turn: f.Turn, IslandsFormed: f.IslandsFormed, Score: f.Score, Islands: f.Islands,
				Sandbanks: f.Sandbanks, Mobility: f.Mobility, Dead: f.Dead, DeadCreated: f.DeadCreated}
			if !reflect.DeepEqual(got, want.Turns[i]) {
				t.Errorf("game %d turn %d (%s):\n got %+v\nwant %+v", want.Index, i+1, tok.Text, got, want.Turns[i])
			}
			checked++
		}
	}
	t.Logf("%d games, %d turns of features agree", len(all), checked)
}

// FeatureTracker.PlayTurn reads and plays every token as Game.ReadTurn and then
// FeatureTracker.Play do, legal or not, up to the first error: the same move, error and
// features (the zero Features at the error).
func TestFeaturesPlayTurn(t *testing.T) {
	recs := readRecords(t, filepath.Join(conformance, "random/corpus.ponte"))
	recs = append(recs, readRecords(t, filepath.Join(conformance, "edge.ponte"))...)
	errs := 0
	for gi, rec := range recs {
		supply, _ := game.ParseSupply(rec.Supply.String())
		g, err := replay.NewGame(rec.Size, supply)
		if err != nil {
			continue
		}
		g2, _ := replay.NewGame(rec.Size, supply)
		var a, b replay.FeatureTracker
		for i, tok := range rec.Moves {
			var want replay.Features
			m, err := g.ReadTurn(tok.Number, tok.Text)
			if err == nil {
				want, err = a.Play(g, m)
			}
			got := replay.Features{Turn: -1}
			m2, err2 := b.PlayTurn(g2, tok.Number, tok.Text, &got)
			if m2 != m || got != want || fmt.Sprint(err2) != fmt.Sprint(err) || !reflect.DeepEqual(err2, err) {
				t.Fatalf("record %d turn %d (%q): PlayTurn gives %v, %v,\n%+v; ReadTurn and Play %v, %v,\n%+v", gi+1, i+1, tok.Text, m2, err2, got, m, err, want)
			}
			if err != nil {
				errs++
				break
			}
		}
	}
	if errs == 0 {
		t.Fatal("no illegal turn")
	}
	t.Logf("%d records, %d with an illegal turn", len(recs), errs)
}

// The reference's error kinds must map to the rules the engine reports: a sanity check
// that the expected files were read with the meaning the README gives them.
func TestConformanceKinds(t *testing.T) {
	for _, w := range readJSONL[expected](t, filepath.Join(conformance, "random/expected.jsonl")) {
		if w.Legal || w.Kind == "" {
			continue
		}
		if fam, _, _ := strings.Cut(w.Kind, "."); !strings.HasPrefix(w.Kind, w.Rule) && fam != w.Rule {
			t.Errorf("game %d: kind %s with rule %s", w.Index, w.Kind, w.Rule)
		}
	}
}
