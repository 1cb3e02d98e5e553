package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ponte/ponte/stats"
)

// The names of compressions that are not written are refused; "" and a folder too.
func TestOutNames(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--out", filepath.Join(dir, "x.zip"), "../../sample_data/autumn-league.ponte"}, "ponte does not write .zip files"},
		{[]string{"export", "--out", filepath.Join(dir, "x.ponte.xz"), "../../sample_data/autumn-league.ponte"}, "ponte does not write .xz files"},
		{[]string{"selfplay", "--games", "1", "--out", filepath.Join(dir, "x.jsonl.bz2")}, "ponte does not write .bz2 files"},
		{[]string{"report", "--db", filepath.Join(dir, "none.db"), "--out", ""}, "--out must name a folder"},
	} {
		_, errOut, status := runPonte(t, "", c.args...)
		if status != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit status %d, standard error %q, want %d and %q", c.args, status, errOut, exitUsage, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written: %v", entries)
	}
}

// report --out . writes into the current folder and keeps what else it holds.
func TestReportIntoCurrentFolder(t *testing.T) {
	db := fixtureDB(t)
	t.Chdir(t.TempDir())
	if _, errOut, status := runPonte(t, "", "report", "--db", db, "--out", ".", "--pages", "2"); status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	os.WriteFile("notes.txt", []byte("mine"), 0o644)
	out, errOut, status := runPonte(t, "", "report", "--db", db, "--out", ".", "--pages", "2")
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "kept 1 file in . that ponte did not write: notes.txt") {
		t.Errorf("standard output does not name notes.txt:\n%s", out)
	}
	if b, _ := os.ReadFile("notes.txt"); string(b) != "mine" {
		t.Errorf("notes.txt holds %q", b)
	}
	if _, err := os.Stat("index.html"); err != nil {
		t.Error(err)
	}
}

// failingWriter accepts n bytes, then fails as a full disk does.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, syscall.ENOSPC
	}
	w.n -= len(p)
	return len(p), nil
}

// A failed write to standard output exits 2 and says so, without a usage hint.
func TestStdoutWriteError(t *testing.T) {
	db := fixtureDB(t)
	for _, args := range [][]string{
		{"stats", "--db", db},
		{"stats", "--db", db, "--json"},
		{"export", "--db", db},
		{"verify", "../../sample_data/autumn-league.ponte"},
	} {
		var errOut strings.Builder
		status := runContext(context.Background(), args, strings.NewReader(""), &failingWriter{n: 100}, &errOut)
		if status != exitUsage || !strings.Contains(errOut.String(), "cannot write standard output: no space left on device") ||
			strings.Contains(errOut.String(), "--help") {
			t.Errorf("%q: exit status %d, standard error %q", args, status, errOut.String())
		}
	}
}

// --from and --to must be days that exist, --from not after --to.
func TestDateFilters(t *testing.T) {
	db := fixtureDB(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "2026-13-45"}, `--from "2026-13-45": no such day`},
		{[]string{"--to", "2025-02-30"}, `--to "2025-02-30": no such day`},
		{[]string{"--from", "2026-05-01", "--to", "2026-04-01"}, "--from 2026-05-01 is after --to 2026-04-01"},
	} {
		for _, cmd := range []string{"stats", "export", "report"} {
			_, errOut, status := runPonte(t, "", append([]string{cmd, "--db", db}, c.args...)...)
			if status != exitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("%s %q: exit status %d, standard error %q", cmd, c.args, status, errOut)
			}
		}
	}
	if _, errOut, status := runPonte(t, "", "stats", "--db", db, "--from", "2024-02-29", "--to", "2024-02-29"); status != exitOK {
		t.Errorf("a leap day: exit status %d: %s", status, errOut)
	}
}

// stats --ratings cuts a long name in its text table; --json keeps it whole.
func TestRatingsLongName(t *testing.T) {
	long := strings.Repeat("Ω", 5000)
	text, err := os.ReadFile("../../stats/testdata/fixture.ponte")
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "long.ponte")
	os.WriteFile(archive, []byte(strings.ReplaceAll(string(text), `"greedy"`, `"`+long+`"`)), 0o644)
	db := filepath.Join(t.TempDir(), "p.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, archive); status != exitOK {
		t.Fatalf("ingest: %d %s", status, errOut)
	}
	out, errOut, status := runPonte(t, "", "stats", "--db", db, "--ratings", "--population", "all")
	if status != exitOK {
		t.Fatalf("stats: %d %s", status, errOut)
	}
	if !strings.Contains(out, strings.Repeat("Ω", stats.MaxNameColumn-1)+"…") {
		t.Errorf("the long name is not shown cut:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 200 {
			t.Errorf("a line of %d characters: %.80q…", n, line)
			break
		}
	}
	js, _, _ := runPonte(t, "", "stats", "--db", db, "--ratings", "--population", "all", "--json")
	if !strings.Contains(js, long) {
		t.Error("--json does not hold the whole name")
	}
}

// A second `ponte analyze .` does not read the report, the database or the Parquet files
// of the first; nor do verify and export.
func TestOwnOutputsNotRead(t *testing.T) {
	t.Chdir(t.TempDir())
	text, err := os.ReadFile(sampleLeague)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("league.ponte", text, 0o644)
	for i := range 2 {
		_, errOut, status := runPonte(t, "", "analyze", "--quiet", ".")
		if status != exitOK || strings.Contains(errOut, "unknown record format") {
			t.Fatalf("run %d: exit status %d: %s", i+1, status, errOut)
		}
	}
	_, errOut, status := runPonte(t, "", "verify", ".")
	for _, want := range []string{
		"ponte verify: note: ponte-report: a report ponte wrote",
		"ponte verify: note: ponte.db: a SQLite database",
		"ponte verify: note: ponte.parquet: the Parquet files ponte wrote",
		"17 games: 5 legal, 11 illegal, 1 unreadable\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("verify .: standard error lacks %q:\n%s", want, errOut)
		}
	}
	if status != exitFindings || strings.Contains(errOut, "could not be read") {
		t.Errorf("verify .: exit status %d: %s", status, errOut)
	}
	_, errOut, status = runPonte(t, "", "export", "--out", "all.ponte", ".")
	if status != exitOK || !strings.Contains(errOut, "16 games written to all.ponte (ponte); 1 not written\n") {
		t.Errorf("export .: exit status %d: %s", status, errOut)
	}
}
