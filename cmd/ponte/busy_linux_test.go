//go:build linux

package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// holdProcess starts a process (the test binary, see TestMain) that holds the database
// of --db in args, with args as its command line, and returns once it says it holds it;
// closing the returned pipe lets it go.
func holdProcess(t *testing.T, args ...string) (*exec.Cmd, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PONTE_TEST_HOLD=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release := func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("holder %q: %v: %s", args, err, errOut.String())
		}
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		stdin.Close()
		cmd.Wait()
		t.Fatalf("holder %q: %q, %v: %s", args, line, err, errOut.String())
	}
	return cmd, release
}

// folderDigest is a digest of every file under dir, names and bytes.
func folderDigest(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Issue 31 finding 13 (and the lock discipline): a writer of a games database (ingest,
// annotate, annotate --merge, analyze) while another process writes it is refused at once,
// exit status 2, with a message that names the holder's command and pid ("database is
// busy: c.db: ponte annotate (pid 4242) is writing to it"; it used to say "another ponte
// ingest" whoever held it), and leaves every file of the database and its Parquet folder
// as they were. The holder is a real process, every pair of writers is tried.
func TestBusyNamesHolder(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "data", "c.db")
	os.Mkdir(filepath.Dir(db), 0o777)
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--db", db, "../../sample_data/autumn-league.ponte"); status != exitOK {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}
	stored := checkWholeGames(t, db)
	const evals = "../../annotate/sample/turn_evals.parquet"
	writers := []struct {
		label, name string
		args        []string
	}{
		{"ingest", "ponte ingest", []string{"ingest", "--db", db, "../../sample_data/club-2025.ponte.gz"}},
		{"annotate", "ponte annotate", []string{"annotate", "--db", db, "--budget", "20", "--workers", "1"}},
		{"annotate-merge", "ponte annotate", []string{"annotate", "--db", db, "--merge", evals}},
		{"analyze", "ponte analyze", []string{"analyze", "--db", db, "--out", filepath.Join(dir, "report"), "../../sample_data/club-2025.ponte.gz"}},
	}
	for _, first := range writers {
		holder, release := holdProcess(t, first.args...)
		before := folderDigest(t, filepath.Dir(db))
		for _, second := range writers {
			t.Run(first.label+"+"+second.label, func(t *testing.T) {
				out, errOut, status := runPonte(t, "", second.args...)
				want := fmt.Sprintf("database is busy: %s: %s (pid %d) is writing to it", db, first.name, holder.Process.Pid)
				if status != exitUsage || out != "" || !strings.Contains(errOut, want) {
					t.Errorf("%q while %q writes: exit status %d, output %q, standard error %q; want 2 and %q",
						second.args, first.args, status, out, errOut, want)
				}
				if after := folderDigest(t, filepath.Dir(db)); after != before {
					t.Errorf("%q while %q writes changed the database's files", second.args, first.args)
				}
			})
		}
		release()
	}
	if _, err := os.Stat(filepath.Join(dir, "report")); err == nil {
		t.Error("a refused analyze wrote its report")
	}
	// Let go, the database is whole and every game stored once: the refused writers stored nothing.
	if n := checkWholeGames(t, db); n != stored {
		t.Errorf("%d games, want the %d of the first ingest", n, stored)
	}
}
