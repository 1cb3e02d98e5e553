package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressTexts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{SizeOf(0), "0 B"},
		{SizeOf(1023), "1023 B"},
		{SizeOf(1536), "1.5 KiB"},
		{SizeOf(19598605), "18.7 MiB"},
		{SizeOf(3 << 30), "3.0 GiB"},
		{SizesOf(8<<20, 19598605), "8.0/18.7 MiB"},
		{SizesOf(0, 512), "0/512 B"},
		{SizesOf(100<<10, 5<<30), "0.0/5.0 GiB"},
		{ShortDuration(0), "0s"},
		{ShortDuration(4400 * time.Millisecond), "4s"},
		{ShortDuration(65 * time.Second), "1m05s"},
		{ShortDuration(3725 * time.Second), "1h02m"},
		{PerSecond(41230, 3*time.Second), "13,743"},
		{PerSecond(7, 2*time.Second), "3.5"},
		{PerSecond(5, 0), "5,000"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// LineWriter passes on whole lines only, whatever the writes.
func TestLineWriter(t *testing.T) {
	var out bytes.Buffer
	var writes []string
	rec := writerFunc(func(p []byte) (int, error) {
		writes = append(writes, string(p))
		return out.Write(p)
	})
	l := &LineWriter{W: rec}
	for _, s := range []string{"a", "b\nc", "d\ne\nf", "", "\n", "tail"} {
		if n, err := l.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	l.Flush()
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
