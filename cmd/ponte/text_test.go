package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestSafe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"sample_data/league.ponte", "sample_data/league.ponte"},
		{"Ærøskøbing – 大会.ponte", "Ærøskøbing – 大会.ponte"},
		{"a\x1b[31mred\x1b[0m", `a\x1b[31mred\x1b[0m`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\a`},
		{"two\nlines\r\ttab", `two\nlines\r\ttab`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"\u202eevil\u2066x\u2069\u200f", `\u202eevil\u2066x\u2069\u200f`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`},
		{"kept \uFFFD", "kept \uFFFD"},
		{`back\x1bslash`, `back\x1bslash`},
	} {
		if got := safe(tc.in); got != tc.want {
			t.Errorf("safe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { safe("sample_data/club-2025.ponte.gz") }); n != 0 {
		t.Errorf("safe of a plain name allocates %v times", n)
	}
}

// hostileName is a file name with what a terminal acts on: an OSC that retitles the window,
// colours, a right-to-left override, a newline that would forge a line.
const hostileName = "evil\x1b]0;pwned\x07\x1b[31mred\u202e\nfake.ponte"

// escapedName is how the human outputs print it.
const escapedName = `evil\x1b]0;pwned\a\x1b[31mred\u202e\nfake.ponte`

// hostileDir makes a folder holding hostileName, with an illegal game and a record that
// cannot be read, and a copy of the Abstract Play export (whose record of another game is
// a note) under a hostile name too.
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	records := `[Light "a"]
[Dark "b"]
[Size "10"]
[Result "*"]

1. d4,e5 2. d4,e5 *

[Size "x"]

1. d4,e5 *
`
	if err := os.WriteFile(filepath.Join(dir, hostileName), []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	ap, err := os.ReadFile("../../sample_data/abstractplay-export.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ap\x1b[2J.json"), ap, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// noRawControls fails the test if out holds a byte a terminal would act on (a newline
// ends a line and is fine) or a bidi override.
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		if c := out[i]; (c < 0x20 && c != '\n') || c == 0x7f {
			t.Errorf("%s holds the byte %#x raw: %q", what, c, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
	if strings.ContainsRune(out, '\u202e') {
		t.Errorf("%s holds U+202E raw", what)
	}
}

// TestHostileNames: the human outputs of verify, export, stats and report print a file name
// that holds escape sequences with them escaped, one line per message; --json keeps the
// name exact.
func TestHostileNames(t *testing.T) {
	dir := hostileDir(t)
	path := filepath.Join(dir, hostileName)

	out, errOut, status := runPonte(t, "", "verify", dir)
	if status != exitFindings {
		t.Fatalf("verify: status %d, stderr %q", status, errOut)
	}
	noRawControls(t, "verify's output", out)
	noRawControls(t, "verify's errors", errOut)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, safe(path)) {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], safe(path)+":6:13: game 1: R3: turn 2:") ||
		!strings.HasPrefix(lines[1], safe(path)+":8:7: game 2: format:") || !strings.Contains(lines[0], escapedName) {
		t.Errorf("verify's lines of %s:\n%s", escapedName, out)
	}
	if !strings.Contains(errOut, `ponte verify: note: `+safe(dir)+`/ap\x1b[2J.json:`) {
		t.Errorf("verify's note does not name the file escaped:\n%s", errOut)
	}

	out, _, _ = runPonte(t, "", "verify", "--json", path)
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var v struct{ Source string }
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Source != path {
			t.Errorf("--json source %q, want %q", v.Source, path)
		}
		n++
	}
	if n != 2 || !strings.Contains(out, `\u001b]0;pwned\u0007`) {
		t.Errorf("verify --json: %d lines, want 2, with the name JSON-escaped:\n%s", n, out)
	}

	_, errOut, _ = runPonte(t, "", "export", "--out", filepath.Join(t.TempDir(), "x.ponte"), path)
	noRawControls(t, "export's errors", errOut)
	if !strings.Contains(errOut, "ponte export: not written, cannot be read: "+safe(path)+":8:7: game 2:") {
		t.Errorf("export's errors:\n%s", errOut)
	}

	db := filepath.Join(t.TempDir(), "db\x1b[31m\u202e.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, path); status == exitUsage {
		t.Fatalf("ingest: %s", errOut)
	}
	out, errOut, status = runPonte(t, "", "stats", "--db", db)
	if status != exitOK {
		t.Fatalf("stats: status %d: %s", status, errOut)
	}
	noRawControls(t, "stats' output", out)
	if !strings.HasPrefix(out, safe(db)+": all games\n") {
		t.Errorf("stats' first line: %q", strings.SplitN(out, "\n", 2)[0])
	}
	report := filepath.Join(t.TempDir(), "r\x1b[1m")
	out, errOut, status = runPonte(t, "", "report", "--db", db, "--out", report)
	if status != exitOK {
		t.Fatalf("report: status %d: %s", status, errOut)
	}
	noRawControls(t, "report's output", out)
	if !strings.Contains(out, `r\x1b[1m/index.html`) {
		t.Errorf("report's summary: %q", out)
	}
	_, errOut, _ = runPonte(t, "", "stats", "--db", db+"\x1b[5m")
	noRawControls(t, "stats' error", errOut)
	_, errOut, _ = runPonte(t, "", "verify", "--\x1b[31mflag", path)
	noRawControls(t, "a usage error", errOut)
	if !strings.Contains(errOut, `unknown flag: --\x1b[31mflag`) {
		t.Errorf("usage error: %q", errOut)
	}
}

// TestWorkersCap: --workers past maxWorkers, or below 1, is a usage error in every command
// that has it, before any work; maxWorkers itself is fine.
func TestWorkersCap(t *testing.T) {
	if defaultWorkers() < 1 || defaultWorkers() > maxWorkers || defaultWorkers() > runtime.NumCPU() {
		t.Errorf("defaultWorkers() = %d", defaultWorkers())
	}
	file := "../../stats/testdata/fixture.ponte"
	for _, args := range [][]string{
		{"verify", file},
		{"selfplay", "--games", "1", "--out", filepath.Join(t.TempDir(), "x.ponte")},
	} {
		for _, n := range []string{"1000000", "257", "0", "-3"} {
			cmdline := append([]string{args[0], "--workers", n}, args[1:]...)
			_, errOut, status := runPonte(t, "", cmdline...)
			if status != exitUsage || !strings.Contains(errOut, "ponte "+args[0]+": --workers must be from 1 to 256, not "+n+"\n") {
				t.Errorf("%q: status %d, %q", cmdline, status, errOut)
			}
		}
		cmdline := append([]string{args[0], "--workers", "256"}, args[1:]...)
		if _, errOut, status := runPonte(t, "", cmdline...); status == exitUsage {
			t.Errorf("%q: %s", cmdline, errOut)
		}
	}
}
