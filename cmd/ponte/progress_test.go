package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// In a pipe, verify, report and analyze draw no bar: standard error holds their messages
// alone, without a carriage return or a control sequence.
func TestNoProgressInPipe(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	for _, args := range [][]string{
		{"verify", "../../sample_data"},
		{"analyze", "--db", db, "--out", filepath.Join(dir, "r1"), "../../sample_data"},
		{"report", "--db", db, "--out", filepath.Join(dir, "r2")},
	} {
		_, errOut, status := runPonte(t, "", args...)
		if status != exitOK && status != exitFindings || strings.ContainsAny(errOut, "\r\x1b") ||
			strings.Contains(errOut, "game pages") || strings.Contains(errOut, "statistics ") || strings.Contains(errOut, "MiB") {
			t.Errorf("%s: exit status %d, standard error %q", args[0], status, errOut)
		}
	}
}
