package pipeline_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// A command that works on every game of an archive (an opening atlas, annotations):
// the records are the source, each worker replays them on a replay.Game of its own, and
// emit, on the calling goroutine, sees the results in the archive's order and adds them
// up without a lock. The records in flight are bounded in bytes by ingest.DefaultMaxInFlight.
func Example() {
	archive := "[Size \"6\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 *\n\n" +
		"[Size \"6\"]\n\n1. a1,a2 2. swap 3. c3,c4 4. a1,a2 *\n\n" +
		"[Size \"6\"]\n\n1. b5,c5 *\n"
	ctx := context.Background()
	records := func(yield func(*ingest.Record) bool) {
		r := ingest.NewReader(strings.NewReader(archive), "games.ponte")
		for {
			rec, err := r.Read()
			if err == io.EOF || !yield(rec) { // a real source passes its errors on too
				return
			}
		}
	}
	p := pipeline.Pipeline[*ingest.Record, verdict.Verdict]{
		Workers:  4,
		Batch:    64, // replaying a game is cheap: hand them over 64 at a time
		MaxBytes: ingest.DefaultMaxInFlight,
		Size:     (*ingest.Record).Bytes,
		NewWorker: func() func(*ingest.Record) verdict.Verdict {
			var g replay.Game // one per worker, reused for each game
			return func(rec *ingest.Record) verdict.Verdict { return verdict.Of(rec, &g) }
		},
	}
	turns := 0
	err := p.Run(ctx, records, func(v verdict.Verdict) error {
		turns += v.Turns
		fmt.Printf("game %d: %d turns, legal %v\n", v.Index, v.Turns, v.Legal)
		if !v.Legal {
			return pipeline.Stop // stop at the first illegal game: nil from Run
		}
		return nil
	})
	fmt.Println(turns, "turns;", err)
	// Output:
	// game 1: 3 turns, legal true
	// game 2: 3 turns, legal false
	// 6 turns; <nil>
}
