package ingest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

const corpusDir = "../replay/testdata/conformance/random/"

// TestCorpusFormatsAgree reads the same 150 games in both formats.
func TestCorpusFormatsAgree(t *testing.T) {
	ponte := readFile(t, corpusDir+"corpus.ponte")
	jsonl := readFile(t, corpusDir+"corpus.jsonl")
	if len(ponte) != 150 || len(jsonl) != 150 {
		t.Fatalf("read %d and %d games, want 150", len(ponte), len(jsonl))
	}
	for i := range ponte {
		p, j := ponte[i], jsonl[i]
		if p.Index != i+1 || j.Index != i+1 || p.Format != FormatPonte || j.Format != FormatJSONL {
			t.Fatalf("game %d: index %d %d", i+1, p.Index, j.Index)
		}
		if !slices.Equal(texts(p), texts(j)) {
			t.Errorf("game %d: moves differ", i+1)
		}
		for _, name := range ponteOrder {
			pv, jv := p.Tag(name), j.Tag(name)
			if pv != "" && jv != "" && pv != jv {
				t.Errorf("game %d: tag %s: %q and %q", i+1, name, pv, jv)
			}
		}
		for _, name := range []string{tagSite, tagLight, tagDark, tagSize, tagSupply, tagResult, tagTermination, tagScore} {
			if p.Tag(name) != j.Tag(name) {
				t.Errorf("game %d: tag %s: %q and %q", i+1, name, p.Tag(name), j.Tag(name))
			}
		}
		if p.Size != j.Size || p.Supply != j.Supply || p.Termination != j.Termination ||
			(p.Score == nil) != (j.Score == nil) || p.Score != nil && *p.Score != *j.Score ||
			p.ClaimedResult() != j.ClaimedResult() {
			t.Errorf("game %d: typed values differ", i+1)
		}
	}
}

// TestCorpusPositions checks that every token stands at its line and column.
func TestCorpusPositions(t *testing.T) {
	for _, name := range []string{"corpus.ponte", "corpus.jsonl"} {
		data, err := os.ReadFile(corpusDir + name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for _, r := range readFile(t, corpusDir+name) {
			if r.Line < 1 || !strings.HasPrefix(strings.TrimSpace(lines[r.Line-1]), map[bool]string{true: "[Event", false: "{"}[name == "corpus.ponte"]) {
				t.Errorf("%s game %d: starts at line %d: %q", name, r.Index, r.Line, lines[r.Line-1])
			}
			for _, m := range r.Moves {
				at := lines[m.Line-1][m.Col-1:]
				if name == "corpus.jsonl" {
					at = strings.TrimPrefix(at, `"`)
				}
				if !strings.HasPrefix(at, m.Text) {
					t.Errorf("%s game %d: %q at %d:%d holds %.10q", name, r.Index, m.Text, m.Line, m.Col, at)
				}
			}
		}
	}
}

// TestEdgeCases reads the hand-written edge cases: notation is fine in all of
// them (their faults are for the rules engine).
func TestEdgeCases(t *testing.T) {
	recs := readFile(t, "../replay/testdata/conformance/edge.ponte")
	if len(recs) != 28 {
		t.Fatalf("read %d games, want 28", len(recs))
	}
	if r := recs[25]; r.Tag("Annotator") != "cell off the board" || !slices.Equal(texts(r), []string{"a1,g1"}) || r.Size != 6 {
		t.Errorf("game 26: %+v", r)
	}
}
