package verdict_test

import (
	"errors"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/verdict"
)

// bigRecords yields n legal records of size bytes each (a long comment), counting in
// held the bytes of the records yielded and not yet emitted (emitted subtracts them).
func bigRecords(n, size int, held *atomic.Int64, most *atomic.Int64) iter.Seq2[*ingest.Record, error] {
	comment := strings.Repeat("x", size)
	return func(yield func(*ingest.Record, error) bool) {
		for i := 1; i <= n; i++ {
			rec := bigRecord(i, comment)
			h := held.Add(rec.Bytes())
			for {
				m := most.Load()
				if h <= m || most.CompareAndSwap(m, h) {
					break
				}
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

func bigRecord(i int, comment string) *ingest.Record {
	return &ingest.Record{Source: "big", Index: i, Line: i, Size: 10, Supply: game.Unlimited, Comment: comment,
		Moves: []ingest.Token{{Text: "a1,b1", Line: i, Col: 1}}}
}

// TestCheckBoundsBytesInFlight checks that the records read but not yet emitted stay
// within their limit of bytes (ingest.Limits.MaxInFlight) (plus the one record being handed over), in order, and
// that a record larger than MaxInFlight passes alone.
func TestCheckBoundsBytesInFlight(t *testing.T) {
	t.Parallel()
	const maxInFlight = 4 << 20
	for _, tt := range []struct {
		name    string
		n, size int
	}{
		{"records of 1 MiB", 300, 1 << 20},
		{"records of 100 KiB", 2000, 100 << 10},
		{"records larger than MaxInFlight", 20, 10 << 20},
	} {
		for _, workers := range []int{1, 4} {
			var held, most atomic.Int64
			next := 1
			one := bigRecord(1, strings.Repeat("x", tt.size)).Bytes()
			err := verdict.CheckWithin(bigRecords(tt.n, tt.size, &held, &most), workers, maxInFlight, func(v verdict.Verdict, err error) error {
				if err != nil || v.Index != next || !v.Legal {
					t.Fatalf("%s: verdict %d (%v, legal %v) where %d was due", tt.name, v.Index, err, v.Legal, next)
				}
				next++
				held.Add(-one)
				return nil
			})
			if err != nil || next != tt.n+1 {
				t.Fatalf("%s: %v after %d verdicts", tt.name, err, next-1)
			}
			if limit := max(maxInFlight, one) + one; most.Load() > limit {
				t.Errorf("%s, %d workers: %d bytes in flight, more than %d", tt.name, workers, most.Load(), limit)
			}
		}
	}
}

// TestCheckStopsWhileWaiting checks that Check returns when emit fails while the reader
// waits for bytes in flight.
func TestCheckStopsWhileWaiting(t *testing.T) {
	t.Parallel()
	stop := errors.New("disk full")
	var held, most atomic.Int64
	n := 0
	err := verdict.CheckWithin(bigRecords(1000, 300<<10, &held, &most), 2, 1<<20, func(verdict.Verdict, error) error {
		if n++; n == 5 {
			return stop
		}
		return nil
	})
	if err != stop || n != 5 {
		t.Errorf("err %v after %d verdicts", err, n)
	}
}
