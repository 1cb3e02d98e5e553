package ingest

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// An Abstract Play record known to be too large costs nothing more per line: a record
// of 400,000 short lines (a pretty-printed export at its worst) past the limit reads in
// a few MiB (it took 20 MiB), whatever its length, and the record after it is read.
func TestAbstractPlayOversizedRecordFlat(t *testing.T) {
	for _, unit := range []string{"\n", "1,\n", "\r"} {
		head := `[{"header":{"game":{"name":"Ponte del Diavolo"}},"x":[` + "\n"
		body := &repeatReader{unit: unit, left: 400_000 * len(unit)}
		tail := "0]},\n" + `{"header":{"game":{"name":"Ponte del Diavolo"},"players":[{"name":"a"},{"name":"b"}]},"moves":[["a1,b1"]]}]` + "\n"
		rd := NewReader(io.MultiReader(strings.NewReader(head), body, strings.NewReader(tail)), "t")
		rd.Limits.MaxRecordBytes = 64 << 10
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rec, err := rd.Read()
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrTooLarge) || rec == nil {
			t.Fatalf("%q: the large record: %v", unit, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("%q: reading a record of 400,000 lines allocated %d MiB", unit, alloc>>20)
		}
		if rec, err = rd.Read(); err != nil || len(rec.Moves) != 1 {
			t.Errorf("%q: the record after it: %v", unit, err)
		}
	}
}
