package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runPonte runs the command line in-process and returns its output and exit status.
func runPonte(t *testing.T, stdin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestVerifySampleData is the README's first command: its output is a golden file.
func TestVerifySampleData(t *testing.T) {
	out, errOut, status := runPonte(t, "", "verify", "../../sample_data")
	if status != exitFindings {
		t.Errorf("exit status %d, want %d (sample_data holds illegal games)", status, exitFindings)
	}
	golden(t, "verify-sample_data.txt", out+"-- stderr --\n"+errOut)
}

func TestVerifyJSONSampleData(t *testing.T) {
	// The hand-made records only: the self-played archives would make a golden file of
	// thousands of lines that says nothing more.
	out, _, _ := runPonte(t, "", "verify", "--json", "../../sample_data/autumn-league.ponte", "../../sample_data/online-site.jsonl")
	golden(t, "verify-sample_data.jsonl", out)
}

// TestVerifyConformance checks `ponte verify --json` against every expected verdict of the
// reference engine, for the .ponte and the JSON Lines copy of the corpus.
func TestVerifyConformance(t *testing.T) {
	exp := readLines(t, "../../replay/testdata/conformance/random/expected.jsonl")
	for _, corpus := range []string{"corpus.ponte", "corpus.jsonl"} {
		t.Run(corpus, func(t *testing.T) {
			out, _, status := runPonte(t, "", "verify", "--json", "--workers", "3", "../../replay/testdata/conformance/random/"+corpus)
			if status != exitFindings {
				t.Errorf("exit status %d, want 1", status)
			}
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != len(exp) {
				t.Fatalf("%d verdicts, want %d", len(got), len(exp))
			}
			for i := range exp {
				var g struct {
					Index   int
					Legal   bool
					Turns   int
					Over    bool
					Result  *string
					Score   [2]int
					Islands [2]int
					Bridges [2]int
					Error   *struct {
						Rule string
						Turn *int
						Line int
						Col  int
					}
				}
				var w struct {
					Legal   bool
					Rule    string
					Turn    *int
					Turns   int
					Over    bool
					Result  string
					Score   *[2]int
					Islands *[2]int
					Bridges *[2]int
				}
				if err := json.Unmarshal([]byte(got[i]), &g); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(exp[i]), &w); err != nil {
					t.Fatal(err)
				}
				if g.Index != i+1 {
					t.Errorf("line %d has index %d: output out of order", i+1, g.Index)
				}
				if g.Legal != w.Legal {
					t.Errorf("game %d: legal=%v, want %v: %s", i+1, g.Legal, w.Legal, got[i])
					continue
				}
				if !w.Legal {
					r := g.Error.Rule
					if r != w.Rule && !strings.HasPrefix(r, w.Rule+".") || !sameTurn(g.Error.Turn, w.Turn) {
						t.Errorf("game %d: %s, want rule %s turn %v", i+1, got[i], w.Rule, w.Turn)
					}
					if g.Error.Line == 0 || g.Error.Col == 0 {
						t.Errorf("game %d: error without a position: %s", i+1, got[i])
					}
					continue
				}
				if g.Turns != w.Turns || g.Over != w.Over || (w.Score != nil && g.Score != *w.Score) ||
					(w.Islands != nil && g.Islands != *w.Islands) || (w.Bridges != nil && g.Bridges != *w.Bridges) ||
					(w.Over && (g.Result == nil || *g.Result != w.Result)) || (!w.Over && g.Result != nil) {
					t.Errorf("game %d: %s, want %s", i+1, got[i], exp[i])
				}
			}
		})
	}
}

func sameTurn(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func TestVerifyExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"all legal", []string{"verify", "../../sample_data/club-2025.ponte.gz"}, exitOK, "17 games: 17 legal, 0 illegal, 0 unreadable"},
		{"some illegal", []string{"verify", "../../sample_data/autumn-league.ponte"}, exitFindings, "illegal"},
		{"missing path", []string{"verify", "no/such/file.ponte"}, exitUsage, "no/such/file.ponte"},
		{"no path", []string{"verify"}, exitUsage, "requires at least 1 arg"},
		{"bad flag", []string{"verify", "--frobnicate", "x"}, exitUsage, "unknown flag"},
		{"bad workers", []string{"verify", "--workers", "0", "x"}, exitUsage, "--workers"},
		{"quiet", []string{"verify", "--quiet", "../../sample_data/club-2025.ponte.gz"}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, status := runPonte(t, "", tt.args...)
			if status != tt.status {
				t.Errorf("exit status %d, want %d (stderr %q)", status, tt.status, errOut)
			}
			if !strings.Contains(errOut, tt.stderr) || tt.stderr == "" && errOut != "" {
				t.Errorf("stderr %q, want it to contain %q", errOut, tt.stderr)
			}
		})
	}
}

// "-" reads standard input, in any format and compression.
func TestVerifyStdin(t *testing.T) {
	data, err := os.ReadFile("../../sample_data/online-site.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runPonte(t, string(data), "verify", "-")
	if status != exitFindings || !strings.Contains(errOut, "10 games: 4 legal, 5 illegal, 1 unreadable") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
	if !strings.HasPrefix(out, "-:5:514: game 5: R4.4: turn 42: ") {
		t.Errorf("stdout %q", out)
	}
}

// A file that cannot be read as a whole (here: not a game record) is said on stderr and
// counted; the other files are verified; the exit status is 2.
func TestVerifyUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("shopping list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runPonte(t, "", "verify", notes, "../../sample_data/club-2025.ponte.gz")
	if status != exitUsage {
		t.Errorf("exit status %d, want %d", status, exitUsage)
	}
	for _, want := range []string{notes, "17 games: 17 legal, 0 illegal, 0 unreadable; 1 path could not be read"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not contain %q", errOut, want)
		}
	}
}

// The order of the output never depends on the number of workers.
func TestVerifyWorkersKeepOrder(t *testing.T) {
	one, _, _ := runPonte(t, "", "verify", "--json", "--workers", "1", "../../replay/testdata/conformance", "../../sample_data")
	many, _, _ := runPonte(t, "", "verify", "--json", "--workers", "7", "../../replay/testdata/conformance", "../../sample_data")
	if one != many {
		t.Error("--workers 1 and --workers 7 print different output")
	}
	if n := strings.Count(one, "\n"); n < 300 {
		t.Errorf("only %d verdicts", n)
	}
}

// ponte verify on the records of other sites (ingest/testdata/samples) agrees with every expected verdict and claim of expected.jsonl:
// resigned games are legal with their claim, a false result of the players is R8, and the
// Hex game of a player's export is one note.
func TestVerifyForeignSamples(t *testing.T) {
	const dir = "../../ingest/testdata/samples"
	want := map[string]map[string]any{}
	data, err := os.ReadFile(dir + "/expected.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		want[dir+"/"+e["file"].(string)] = e
	}
	out, errOut, status := runPonte(t, "", "verify", "--json", dir+"/boardspace", dir+"/abstractplay")
	if status != exitFindings || !strings.Contains(errOut, `ap-004.json:1:2: record of the game "Hex" skipped`) ||
		!strings.Contains(errOut, "14 games: 13 legal, 1 illegal, 0 unreadable") {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		e, ok := want[got["source"].(string)]
		if !ok {
			t.Errorf("a verdict for %v, which expected.jsonl does not list", got["source"])
			continue
		}
		seen++
		// expected.jsonl names the site's own id of a game "game_id": ponte's record_id.
		// (boardspace's record_id is its GN, which expected.jsonl does not list.)
		if id, ok := e["game_id"]; ok {
			e["record_id"] = id
		} else {
			e["record_id"] = got["record_id"]
		}
		if _, ok := e["legal"]; !ok { // the boardspace games: legal, nothing claimed
			e["legal"], e["claimed_result"], e["termination"] = true, "*", nil
		}
		rule := any(nil)
		if got["error"] != nil {
			rule = got["error"].(map[string]any)["rule"]
		}
		if fmt.Sprint(rule) != fmt.Sprint(e["rule"]) {
			t.Errorf("%s: rule %v, want %v (%v)", got["source"], rule, e["rule"], e["kind"])
		}
		for _, key := range []string{"legal", "turns", "over", "result", "score", "islands", "bridges", "claimed_result", "termination", "record_id"} {
			if fmt.Sprint(got[key]) != fmt.Sprint(e[key]) {
				t.Errorf("%s: %s %v, want %v", got["source"], key, got[key], e[key])
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d verdicts for the %d files of expected.jsonl", seen, len(want))
	}
}

// A file that holds another game's record besides a Ponte one: the other game is a note on
// standard error, not an error; the Ponte game is verified.
func TestVerifyNotice(t *testing.T) {
	sgf := "(;GM[Hive]VV[1]P0[id \"a\"]P1[id \"b\"]; P0[0 Start P0])\n" +
		"(;GM[PonteDelDiavolo]VV[1]P0[id \"ann\"]P1[id \"bob\"]\n; P0[0 Start P0]\n; P0[1 Tile White_Chip_Pool A 1]TM[100]\n; P0[2 Tile White_Chip_Pool C 3]TM[200]\n; P0[3 Done]TM[300]\n)\n"
	out, errOut, status := runPonte(t, sgf, "verify", "-")
	if status != exitOK || out != "" {
		t.Errorf("exit status %d, output %q", status, out)
	}
	if !strings.Contains(errOut, "ponte verify: note: -:1:1: ") || !strings.Contains(errOut, "1 game: 1 legal, 0 illegal, 0 unreadable") {
		t.Errorf("standard error %q", errOut)
	}
}

// A tag value that cannot be read makes its game illegal, not unreadable: the text output
// has a line for each such tag, after the game's error when that is another one, and the
// game is counted once.
func TestVerifyTagErrors(t *testing.T) {
	const text = `[Date "2026-3-1"]
[Size "6"]
[Result "1-0"]
[Termination "forfeit"]

1. a1,a2 2. f1,f2 3. b1,b2 0-1

[Date "2026-3-1"]
[Size "6"]

1. a1,a2 2. f1,f2 3. b1,b2 4. f4,f5 5. c3,e5 *

[Size "6"]

1. a1,a2 2. f1,f2 *
`
	out, errOut, status := runPonte(t, text, "verify", "-")
	want := `-:1:7: game 1: format: Date "2026-3-1": must be YYYY.MM.DD, ?? for unknown parts
-:4:14: game 1: format: Termination "forfeit": must be normal, resign, time, abandoned or agreement
-:6:28: game 1: format: result token 0-1 differs from the Result tag "1-0": no result is claimed
-:11:40: game 2: R3.2: turn 5: tile on c3 touches Light island b1,b2,a1,a2 diagonally
-:8:7: game 2: format: Date "2026-3-1": must be YYYY.MM.DD, ?? for unknown parts
`
	if out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
	if status != exitFindings || !strings.Contains(errOut, "3 games: 1 legal, 2 illegal, 0 unreadable") {
		t.Errorf("exit status %d, stderr %q", status, errOut)
	}
	out, _, _ = runPonte(t, text, "verify", "--json", "-")
	var v struct {
		Legal, Unreadable bool
		Turns             int
		Score             *[2]int
		Error             struct{ Rule, Message string }
		TagErrors         []map[string]any `json:"tag_errors"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &v); err != nil {
		t.Fatal(err)
	}
	if v.Legal || v.Unreadable || v.Turns != 3 || v.Score == nil || *v.Score != [2]int{1, 0} || v.Error.Rule != "format" ||
		!strings.HasPrefix(v.Error.Message, "Date ") || len(v.TagErrors) != 3 || v.TagErrors[0]["turn"] != nil {
		t.Errorf("game 1: %+v", v)
	}
}
