//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// enginesRunning lists the processes whose command line holds marker.
func enginesRunning(t *testing.T, marker string) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var found []string
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && bytes.Contains(b, []byte(marker)) && bytes.Contains(b, []byte("\x00gtp\x00")) {
			found = append(found, d)
		}
	}
	return found
}

// waitFor checks cond every few milliseconds until it holds, or fails after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(time.Minute)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("no %s within a minute", what)
		}
	}
}

// A match with engines stopped by Ctrl-C (SIGINT to the match alone, as kill -INT sends
// it) closes them and exits 130; killed outright, its engines end with their input.
// Either way no engine is left running.
func TestMatchGTPNoOrphans(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			marker := fmt.Sprintf("%d", 900_000_000+os.Getpid()*10+int(sig))
			line := engineLine(t, "--bot sage-200 --seed "+marker)
			cmd := exec.Command(os.Args[0], "match", line, "sage-20", "--games", "200", "--size", "8", "--workers", "2", "-q")
			cmd.Env = append(os.Environ(), "PONTE_TEST_MAIN=1")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "engine", func() bool { return len(enginesRunning(t, marker)) > 0 })
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if sig == syscall.SIGINT {
				if cmd.ProcessState.ExitCode() != exitInterrupted || !strings.Contains(errOut.String(), "interrupted after") {
					t.Errorf("exit %v: %s %s", err, out.String(), errOut.String())
				}
				if left := enginesRunning(t, marker); len(left) > 0 {
					t.Errorf("engines left after the match: %v", left)
				}
				return
			}
			waitFor(t, "end of the engines", func() bool { return len(enginesRunning(t, marker)) == 0 })
		})
	}
}

// An engine that dies at its first genmove stops the match with exit status 3 and an
// error naming the engine, the turn and the end of its standard error.
func TestMatchGTPEngineDies(t *testing.T) {
	script := filepath.Join(t.TempDir(), "engine.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
while read -r line; do
  case "$line" in
    protocol_version) printf '= 2\n\n' ;;
    list_commands) printf '= boardsize\nclear_board\nplay\ngenmove\n\n' ;;
    genmove*) echo "out of cheese" >&2; exit 1 ;;
    *) printf '=\n\n' ;;
  esac
done
`), 0o755)
	out, errOut, status := runPonte(t, "", "match", "gtp:sh "+script, "greedy", "--games", "2", "--size", "6")
	if status != exitInternal || out != "" ||
		!strings.Contains(errOut, "ponte match: game 1: engine gtp:sh "+script+" at turn 3: genmove dark: the engine ended before it answered (exit status 1); its standard error ends: \"out of cheese\"") {
		t.Errorf("exit %d: %q %q", status, out, errOut)
	}
}
