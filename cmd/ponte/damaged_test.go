package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `ponte verify` of a .gz whose second member fails its CRC gives no verdict of a record
// of that member: it reports the member as an error (exit 2) that says where it starts,
// which games were left out and the last good game.
func TestVerifyDamagedMember(t *testing.T) {
	member := func(first int) []byte {
		var text strings.Builder
		for i := first; i < first+50; i++ {
			fmt.Fprintf(&text, "[Event \"e%d\"]\n\n1. a%d,b%d *\n\n", i, i%9+1, i%9+1)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
		zw.Write([]byte(text.String()))
		zw.Close()
		return buf.Bytes()
	}
	m1, m2 := member(0), member(50)
	data := append(append([]byte{}, m1...), m2...)
	data[len(m1)+len(m2)/2] ^= 0x20 // a letter of the second member changes case
	path := filepath.Join(t.TempDir(), "x.ponte.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runPonte(t, "", "verify", "--json", path)
	if status != exitUsage {
		t.Errorf("exit status %d, want %d", status, exitUsage)
	}
	if n := strings.Count(out, "\n"); n < 49 || n > 50 || strings.Contains(out, `"e50"`) {
		t.Errorf("%d verdicts, want those of the first member only:\n%s", n, out)
	}
	if !strings.Contains(errOut, fmt.Sprintf("damaged gzip member 2 (from byte %d): gzip: invalid checksum", len(m1))) ||
		!strings.Contains(errOut, "left out") || !strings.Contains(errOut, "the last good game is game ") {
		t.Errorf("stderr %q", errOut)
	}
}
