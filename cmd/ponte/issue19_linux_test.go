//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
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

// export's --out writes through to what is not a regular file, and renames over a
// regular file only: a symbolic link keeps being a link, its target written; a FIFO's
// reader gets the games; a device stays a device.
func TestExportOutIsNotReplaced(t *testing.T) {
	const league = "../../sample_data/autumn-league.ponte"
	want, _, status := runPonte(t, "", "export", league)
	if status != exitOK || !strings.Contains(want, "[Event") {
		t.Fatalf("export to standard output: exit status %d", status)
	}
	dir := t.TempDir()

	target := filepath.Join(dir, "real.ponte")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.ponte")
	os.Symlink("real.ponte", link)
	if _, errOut, status := runPonte(t, "", "export", "--out", link, league); status != exitOK {
		t.Fatalf("export --out link: exit status %d: %s", status, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != want {
		t.Errorf("the link's target holds %d bytes, want the %d exported", len(got), len(want))
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's permissions are %v, want 0600 as before", fi.Mode().Perm())
	}

	fifo := filepath.Join(dir, "games.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if _, errOut, status := runPonte(t, "", "export", "--out", fifo, league); status != exitOK {
		t.Fatalf("export --out FIFO: exit status %d: %s", status, errOut)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err) // its reader waits for ever
	}
	if b := <-got; string(b) != want {
		t.Errorf("the FIFO's reader got %d bytes, want %d", len(b), len(want))
	}

	if os.Geteuid() == 0 {
		null := filepath.Join(dir, "null")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
			if _, errOut, status := runPonte(t, "", "export", "--out", null, league); status != exitOK {
				t.Errorf("export --out a null device: exit status %d: %s", status, errOut)
			}
			if fi, err := os.Lstat(null); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("the device was replaced: %v %v", fi.Mode(), err)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A command waiting on a FIFO that nobody opens stops at once when interrupted.
func TestInterruptWhileWaiting(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "nobody.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"verify", fifo},
		{"export", "--out", filepath.Join(t.TempDir(), "x.ponte"), fifo},
		{"ingest", "--db", filepath.Join(t.TempDir(), "x.db"), fifo},
		{"selfplay", "--games", "1", "--out", fifo}, // an output FIFO that nobody reads
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errors.New("interrupted"))
		done := make(chan int, 1)
		var errOut strings.Builder
		go func() {
			done <- runContext(ctx, args, strings.NewReader(""), io.Discard, &errOut)
		}()
		select {
		case status := <-done:
			if status != exitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
				t.Errorf("%s: exit status %d: %s", args[0], status, errOut.String())
			}
		case <-time.After(time.Minute): // a guard, not a wait: the command returns at once
			t.Fatalf("%s: still waiting on the FIFO a minute after the interrupt", args[0])
		}
	}
}
