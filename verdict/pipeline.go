package verdict

import (
	"context"
	"iter"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/replay"
)

// batchSize is how many records travel together to a worker: enough to make the channel
// traffic negligible next to the replay, few enough to keep memory small.
const batchSize = 64

// itemBytes is what an item costs besides its record (ingest.Record.Bytes): its verdict.
const itemBytes = 512

type item struct {
	rec *ingest.Record
	err error
}

type checked struct {
	v   Verdict
	err error // the stream's error, when not a *ingest.ParseError
}

// Check replays the records of a stream on workers goroutines (0 means one per core) and
// calls emit for each in input order: with its verdict, or with the stream's error when the
// stream yields one that is not a *ingest.ParseError (a path that cannot be read, say;
// the Verdict is then zero). A *ingest.ParseError becomes an Unreadable verdict. The records
// in flight (read but not yet emitted) are bounded in bytes by ingest.DefaultMaxInFlight (one record
// larger than that passes alone) and in number, so memory stays flat for any archive and
// any record. If emit returns an error, Check stops reading and returns it.
//
// The records are Check's once given: as soon as a record's verdict is made, Check
// releases it (ingest.Record.Release), so that the Reader that read it fills it again
// and verify reads without allocating. A caller that keeps a record it gives to Check
// gives a copy of it (c := *rec; yield(&c, err)), which Release leaves alone.
func Check(records iter.Seq2[*ingest.Record, error], workers int, emit func(Verdict, error) error) error {
	return CheckWithin(records, workers, ingest.DefaultMaxInFlight, emit)
}

// CheckWithin is Check with the records in flight bounded by maxInFlight bytes
// (ingest.Limits.MaxInFlight, ponte's --max-in-flight) instead of the default.
func CheckWithin(records iter.Seq2[*ingest.Record, error], workers int, maxInFlight int64, emit func(Verdict, error) error) error {
	p := pipeline.Pipeline[item, checked]{
		Workers:  workers,
		Batch:    batchSize,
		MaxBytes: maxInFlight,
		Size: func(it item) int64 {
			n := int64(itemBytes)
			if it.rec != nil {
				n += it.rec.Bytes()
			}
			return n
		},
		NewWorker: func() func(item) checked {
			var g replay.Game
			var vals []values // what the verdicts' pointers point to, a batch's at a time
			return func(it item) checked {
				if len(vals) == 0 {
					vals = make([]values, batchSize)
				}
				var c checked
				if it.err == nil {
					c.v, _ = analyze(it.rec, &g, nil, nil, &vals[0])
					vals = vals[1:]
				} else if pe := asParseError(it.err); pe != nil {
					c.v = unreadable(it.rec, pe, &vals[0])
					vals = vals[1:]
				} else {
					c.err = it.err
				}
				if it.rec != nil {
					it.rec.Release() // the verdict holds nothing of it
				}
				return c
			}
		},
	}
	source := func(yield func(item) bool) {
		for rec, err := range records {
			if !yield(item{rec, err}) {
				return
			}
		}
	}
	return p.Run(context.Background(), source, func(c checked) error { return emit(c.v, c.err) })
}
