package ingest

import (
	"bytes"
	"os"
	"sync/atomic"
	"testing"
)

// TestOpenCounted: OpenCounted counts the bytes read of the inputs as they are on disk:
// the whole of a plain or compressed file (its compressed bytes), the entries' compressed
// data of a zip archive (less than its size: not the directory), all of standard input;
// the records are those OpenFrom reads.
func TestOpenCounted(t *testing.T) {
	league, err := os.ReadFile("../sample_data/autumn-league.ponte")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		exact bool // the count is the size; else at most the size, and most of it
	}{
		{"../sample_data/autumn-league.ponte", true},
		{"../sample_data/club-2025.ponte.gz", true},
		{"../sample_data/selfplay-10x10-greedy.ponte.zst", true},
		{"../sample_data/boardspace-2026-03.zip", false},
		{"-", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			var read atomic.Int64
			var counted, plain int
			var seen []int64 // the count at each record
			err := OpenCounted([]string{tc.path}, bytes.NewReader(league), &read, func(rec *Record, err error) error {
				counted++
				seen = append(seen, read.Load())
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := OpenFrom([]string{tc.path}, bytes.NewReader(league), func(*Record, error) error { plain++; return nil }); err != nil {
				t.Fatal(err)
			}
			if counted != plain || counted == 0 {
				t.Errorf("%d records, OpenFrom reads %d", counted, plain)
			}
			size := int64(len(league))
			if tc.path != "-" {
				info, err := os.Stat(tc.path)
				if err != nil {
					t.Fatal(err)
				}
				size = info.Size()
			}
			n := read.Load()
			if tc.exact && n != size || !tc.exact && (n > size || n < size/2) {
				t.Errorf("%d bytes counted of %d", n, size)
			}
			for i := 1; i < len(seen); i++ {
				if seen[i] < seen[i-1] {
					t.Fatalf("the count goes back: %v", seen)
				}
			}
		})
	}
	// nil counts nothing, and reads the same.
	n := 0
	if err := OpenCounted([]string{"../sample_data/autumn-league.ponte"}, nil, nil, func(*Record, error) error { n++; return nil }); err != nil || n == 0 {
		t.Errorf("nil count: %d records, %v", n, err)
	}
}
