package verdict

import (
	"errors"
	"iter"
	"runtime"
	"sync"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/inorder"
	"github.com/ponte/ponte/replay"
)

// batchSize is how many records travel together to a worker: enough to make the channel
// traffic negligible next to the replay, few enough to keep memory small.
const batchSize = 64

type item struct {
	rec *ingest.Record
	err error
}

type batch struct {
	seq   int
	items []item
	out   []Verdict
}

// Check replays the records of a stream on workers goroutines (0 means one per core) and
// calls emit for each in input order: with its verdict, or with the stream's error when the
// stream yields one that is not a *ingest.ParseError (a path that cannot be read, say;
// the Verdict is then zero). A *ingest.ParseError becomes an Unreadable verdict. Records in
// flight are bounded, so memory stays flat for any archive. If emit returns an error,
// Check stops reading and returns it.
func Check(records iter.Seq2[*ingest.Record, error], workers int, emit func(Verdict, error) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan *batch, workers)
	results := make(chan *batch, workers)
	slots := make(chan struct{}, 2*workers+2) // batches in flight
	stop := make(chan struct{})

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var g replay.Game
			for b := range jobs {
				b.out = make([]Verdict, len(b.items))
				vals := make([]values, len(b.items)) // what the verdicts' pointers point to
				for i, it := range b.items {
					var pe *ingest.ParseError
					switch {
					case it.err == nil:
						b.out[i], _ = analyze(it.rec, &g, nil, nil, &vals[i])
					case errors.As(it.err, &pe):
						b.out[i] = unreadable(it.rec, pe, &vals[i])
					}
				}
				results <- b
			}
		}()
	}
	go func() {
		defer close(jobs)
		seq := 0
		cur := &batch{}
		send := func() bool {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return false
			}
			cur.seq = seq
			seq++
			jobs <- cur
			cur = &batch{items: make([]item, 0, batchSize)}
			return true
		}
		for rec, err := range records {
			cur.items = append(cur.items, item{rec, err})
			if len(cur.items) == batchSize && !send() {
				return
			}
		}
		if len(cur.items) > 0 {
			send()
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	order := inorder.New[*batch](0)
	var failed error
	for b := range results {
		if failed != nil {
			<-slots
			continue
		}
		order.Add(b.seq, b)
		for {
			p, ok := order.Next()
			if !ok {
				break
			}
			for i, it := range p.items {
				var pe *ingest.ParseError
				var err error
				if it.err != nil && !errors.As(it.err, &pe) {
					err = it.err
				}
				if failed == nil {
					if e := emit(p.out[i], err); e != nil {
						failed = e
						close(stop)
					}
				}
			}
			<-slots
		}
	}
	return failed
}
