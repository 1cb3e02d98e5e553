package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProgressTexts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{sizeOf(0), "0 B"},
		{sizeOf(1023), "1023 B"},
		{sizeOf(1536), "1.5 KiB"},
		{sizeOf(19598605), "18.7 MiB"},
		{sizeOf(3 << 30), "3.0 GiB"},
		{sizesOf(8<<20, 19598605), "8.0/18.7 MiB"},
		{sizesOf(0, 512), "0/512 B"},
		{sizesOf(100<<10, 5<<30), "0.0/5.0 GiB"},
		{shortDuration(0), "0s"},
		{shortDuration(4400 * time.Millisecond), "4s"},
		{shortDuration(65 * time.Second), "1m05s"},
		{shortDuration(3725 * time.Second), "1h02m"},
		{perSecond(41230, 3*time.Second), "13,743"},
		{perSecond(7, 2*time.Second), "3.5"},
		{perSecond(5, 0), "5,000"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// lineWriter passes on whole lines only, whatever the writes.
func TestLineWriter(t *testing.T) {
	var out bytes.Buffer
	var writes []string
	rec := writerFunc(func(p []byte) (int, error) {
		writes = append(writes, string(p))
		return out.Write(p)
	})
	l := &lineWriter{w: rec}
	for _, s := range []string{"a", "b\nc", "d\ne\nf", "", "\n", "tail"} {
		if n, err := l.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	l.flush()
	if out.String() != "ab\ncd\ne\nf\ntail\n" {
		t.Errorf("passed on %q", out.String())
	}
	for _, w := range writes {
		if !strings.HasSuffix(w, "\n") {
			t.Errorf("write %q is not whole lines (all: %q)", w, writes)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

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
