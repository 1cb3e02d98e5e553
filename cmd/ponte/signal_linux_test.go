//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitingOnPipe starts ponte ARGS... whose input is the FIFO fifo, and returns once it
// has opened the FIFO, with the FIFO's writer, which sends nothing: the command then
// waits on a pipe that sends nothing.
func waitingOnPipe(t *testing.T, fifo string, args ...string) (*exec.Cmd, *os.File) {
	t.Helper()
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := ponteProcess(t, args...)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the command opened it
	if err != nil {
		t.Fatal(err)
	}
	return cmd, w
}

// SIGTERM is handled as SIGINT, with its own status: the command stops at once, even
// on a pipe that sends nothing, says what it did, cleans up (a new database that holds
// nothing is removed) and exits 143; SIGINT exits 130.
func TestSignalsWhileWaiting(t *testing.T) {
	for _, c := range []struct {
		name   string
		sig    syscall.Signal
		status int
		args   func(dir string) []string
		want   string
		gone   string // a file that must not be left
	}{
		{"verify TERM", syscall.SIGTERM, exitTerminated, func(string) []string { return []string{"verify"} },
			"ponte verify: interrupted; verified so far: 0 games", ""},
		{"verify INT", syscall.SIGINT, exitInterrupted, func(string) []string { return []string{"verify"} },
			"ponte verify: interrupted; verified so far: 0 games", ""},
		{"ingest TERM", syscall.SIGTERM, exitTerminated, func(dir string) []string {
			return []string{"ingest", "--db", filepath.Join(dir, "new.db")}
		}, "ponte ingest: interrupted", "new.db"},
		{"export TERM", syscall.SIGTERM, exitTerminated, func(dir string) []string {
			return []string{"export", "--out", filepath.Join(dir, "out.ponte")}
		}, "ponte export: interrupted; nothing written", "out.ponte"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "input.fifo")
			cmd, w := waitingOnPipe(t, fifo, append(c.args(dir), fifo)...)
			defer w.Close()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			var err error
			select {
			case err = <-waited:
			case <-time.After(time.Minute): // a guard, not a wait: the command stops at once
				cmd.Process.Kill()
				<-waited
				t.Fatalf("still running a minute after SIG%v", c.sig)
			}
			errOut := cmd.Stderr.(*bytes.Buffer).String()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.status {
				t.Fatalf("exit %v, want status %d; standard error %q", err, c.status, errOut)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("standard error %q lacks %q", errOut, c.want)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "input.fifo" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// The temporary file of an export that was killed is removed by the next export to the
// same file, with a note.
func TestKilledExportLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ponte")
	cmd, w := waitingOnPipe(t, filepath.Join(dir, "input.fifo"), "export", "--out", out, filepath.Join(dir, "input.fifo"))
	cmd.Process.Kill()
	cmd.Wait()
	w.Close()
	hidden := func() (names []string) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
		return names
	}
	left := hidden()
	if len(left) != 1 {
		t.Fatalf("the killed export left %q, want its temporary file", left)
	}
	_, errOut, status := runPonte(t, "", "export", "--out", out, "../../sample_data/autumn-league.ponte")
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	if !strings.Contains(errOut, "note: removed "+filepath.Join(dir, left[0])+", a temporary file left by a run that was killed") {
		t.Errorf("standard error does not name the file removed: %s", errOut)
	}
	if h := hidden(); len(h) != 0 {
		t.Errorf("left after the next export: %q", h)
	}
}
