package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// runPonteCtx runs the command line with the context ctx, as run does with the context
// that Ctrl-C cancels.
func runPonteCtx(t *testing.T, ctx context.Context, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = runContext(ctx, args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), status
}

// TestExitStatus is the exit-status contract, command by command: 0 done (illegal games
// are findings, reported, not failures), 1 verify's findings alone, 2 a usage error or a
// path, database or folder that cannot be used, 130 interrupted (Ctrl-C, after saying
// so). The interrupt is a context cancelled before the command starts, as the first
// Ctrl-C cancels it; TestSelfplayInterrupt and the ingest kill tests send real signals.
func TestExitStatus(t *testing.T) {
	const (
		legal   = "../../sample_data/club-2025.ponte.gz"  // every game legal
		illegal = "../../sample_data/autumn-league.ponte" // illegal and unreadable games
		missing = "../../sample_data/no-such-file.ponte"
	)
	dir := t.TempDir()
	db := fixtureDB(t) // 14 games, 2 of them illegal
	none := filepath.Join(dir, "none.db")
	tmp := func(name string) string { return filepath.Join(t.TempDir(), name) }
	for _, c := range []struct {
		name string
		args []string
		want int
		says string // on standard error
	}{
		{"verify done", []string{"verify", legal}, exitOK, "17 games: 17 legal"},
		{"verify findings", []string{"verify", illegal}, exitFindings, "illegal"},
		{"verify usage", []string{"verify", "--bogus", legal}, exitUsage, "ponte verify: unknown flag: --bogus"},
		{"verify path", []string{"verify", missing}, exitUsage, "no-such-file.ponte"},
		{"verify empty", []string{"verify", "-q", t.TempDir()}, exitUsage, "ponte verify: no game record in "},
		{"ingest done", []string{"ingest", "--db", tmp("a.db"), legal}, exitOK, "17 legal"},
		{"ingest findings", []string{"ingest", "--db", tmp("b.db"), illegal}, exitOK, "illegal"},
		{"ingest usage", []string{"ingest", "--workers", "0", "--db", tmp("c.db"), legal}, exitUsage, "ponte ingest: --workers must be from 1"},
		{"ingest path", []string{"ingest", "--db", tmp("d.db"), missing}, exitUsage, "no-such-file.ponte"},
		{"analyze findings", []string{"analyze", "--no-parquet", "--db", tmp("e.db"), "--out", tmp("r"), illegal}, exitOK, "illegal"},
		{"analyze usage", []string{"analyze", "--pages", "-1", "--db", tmp("f.db"), illegal}, exitUsage, "ponte analyze: --pages must be from 0 to 1048576, not -1"},
		{"analyze path", []string{"analyze", "--db", tmp("g.db"), "--out", tmp("r"), missing}, exitUsage, "no-such-file.ponte"},
		{"stats done", []string{"stats", "--db", db}, exitOK, ""},
		{"stats usage", []string{"stats", "--db", db, "--population", "robots"}, exitUsage, "ponte stats: --population"},
		{"stats database", []string{"stats", "--db", none}, exitUsage, "none.db"},
		{"report done", []string{"report", "--db", db, "--out", tmp("r")}, exitOK, ""},
		{"report usage", []string{"report", "--db", db, "--size", "99"}, exitUsage, "ponte report: --size"},
		{"report database", []string{"report", "--db", none, "--out", tmp("r")}, exitUsage, "none.db"},
		{"export done", []string{"export", "--db", db, "--out", tmp("x.ponte")}, exitOK, "games written"},
		{"export findings", []string{"export", "--out", tmp("y.ponte"), illegal}, exitOK, "1 not written"},
		{"export usage", []string{"export", "--format", "sgf", illegal}, exitUsage, `ponte export: --format "sgf"`},
		{"export database", []string{"export", "--db", none}, exitUsage, "none.db"},
		{"selfplay done", []string{"selfplay", "--games", "2", "--size", "6", "--out", tmp("s.ponte")}, exitOK, "2 games"},
		{"selfplay usage", []string{"selfplay", "--light", "alphazero"}, exitUsage, `ponte selfplay: --light: unknown bot "alphazero"`},
		{"unknown command", []string{"verfiy"}, exitUsage, `ponte: unknown command "verfiy"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, status := runPonte(t, "", c.args...)
			if status != c.want || !strings.Contains(errOut, c.says) {
				t.Errorf("%q: exit status %d, want %d; standard error %q, want it to hold %q", c.args, status, c.want, errOut, c.says)
			}
		})
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"verify", legal},
		{"ingest", "--db", tmp("i.db"), legal},
		{"analyze", "--db", tmp("j.db"), "--out", tmp("r"), legal},
		{"stats", "--db", db},
		{"report", "--db", db, "--out", tmp("r")},
		{"export", "--db", db, "--out", tmp("z.ponte")},
		{"export", "--out", tmp("z.ponte"), legal},
		{"selfplay", "--games", "3", "--size", "6", "--out", tmp("t.ponte")},
	} {
		t.Run("interrupted "+args[0], func(t *testing.T) {
			_, errOut, status := runPonteCtx(t, cancelled, args...)
			if status != exitInterrupted || !strings.Contains(errOut, "ponte "+args[0]+": interrupted") {
				t.Errorf("%q: exit status %d, want %d; standard error %q", args, status, exitInterrupted, errOut)
			}
		})
	}
}

// analyze without paths reads sample_data; where there is none it says what to do, and
// leaves nothing behind.
func TestAnalyzeOutsideTheRepository(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, errOut, status := runPonte(t, "", "analyze")
	entries, _ := os.ReadDir(dir)
	if status != exitUsage || errOut != "ponte analyze: no sample_data folder here: run it in the ponte repository, or name your archives: ponte analyze PATH...\n" || len(entries) != 0 {
		t.Errorf("exit status %d, %q, %d files left", status, errOut, len(entries))
	}
}

// A panic in a command is a bug: reported as one, with its own exit status, never 2.
// --pages 0 writes a report without game pages: the index alone, its tables without
// links; --games, its old name, still works and says it is deprecated.
func TestReportPages(t *testing.T) {
	db := fixtureDB(t)
	for _, c := range []struct {
		args  []string
		pages int
		says  string
	}{
		{[]string{"--pages", "0"}, 0, ""},
		{[]string{"--pages", "2"}, 2, ""},
		{[]string{"--games", "3"}, 3, "ponte report: note: --games is now --pages"},
	} {
		out := filepath.Join(t.TempDir(), "r")
		_, errOut, status := runPonte(t, "", append([]string{"report", "--quiet", "--db", db, "--out", out}, c.args...)...)
		entries, err := os.ReadDir(filepath.Join(out, "games"))
		if status != exitOK || err != nil || len(entries) != c.pages || !strings.Contains(errOut, c.says) {
			t.Errorf("report %q: exit status %d, %d pages (%v), standard error %q; want %d pages", c.args, status, len(entries), err, errOut, c.pages)
		}
	}
}

func TestExitStatusBug(t *testing.T) {
	var out, errOut bytes.Buffer
	s := &streams{ctx: context.Background(), in: strings.NewReader(""), out: &checkedWriter{w: &out}, err: &errOut}
	root := newRootCmd(s)
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var games []int
		_ = games[3] // an index out of range: the kind of bug a test should have caught
		return nil
	}})
	if status := execute(s, root, []string{"boom"}); status != exitInternal {
		t.Errorf("exit status %d, want %d", status, exitInternal)
	}
	for _, want := range []string{"ponte: internal error: runtime error: index out of range [3] with length 0", "This is a bug in ponte", "exit_test.go"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("standard error lacks %q:\n%s", want, errOut.String())
		}
	}
}
