package verdict

import (
	"iter"
	"runtime"
	"sync"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/inorder"
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

type batch struct {
	seq   int
	items []item
	out   []Verdict
	bytes int64 // of its records, by ingest.Record.Bytes
}

// budget bounds the bytes of the records read but not yet emitted to a limit (MaxInFlight),
// letting one record through alone whatever its size.
type budget struct {
	mu      sync.Mutex
	cond    sync.Cond
	used    int64
	max     int64
	stopped bool
}

// take takes n bytes without waiting, if they are free.
func (b *budget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used > 0 && b.used+n > b.max {
		return false
	}
	b.used += n
	return true
}

// wait takes n bytes, waiting until they are free or nothing is in flight; false once
// stopped.
func (b *budget) wait(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.stopped && b.used > 0 && b.used+n > b.max {
		b.cond.Wait()
	}
	b.used += n
	return !b.stopped
}

// give gives back n bytes.
func (b *budget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// stop wakes and fails every wait.
func (b *budget) stop() {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.cond.Broadcast()
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
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan *batch, workers)
	results := make(chan *batch, workers)
	slots := make(chan struct{}, 2*workers+2) // batches in flight
	stop := make(chan struct{})
	bud := &budget{max: maxInFlight}
	bud.cond.L = &bud.mu

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer bug.Recover()
			defer wg.Done()
			var g replay.Game
			for b := range jobs {
				b.out = make([]Verdict, len(b.items))
				vals := make([]values, len(b.items)) // what the verdicts' pointers point to
				for i, it := range b.items {
					if it.err == nil {
						b.out[i], _ = analyze(it.rec, &g, nil, nil, &vals[i])
					} else if pe := asParseError(it.err); pe != nil {
						b.out[i] = unreadable(it.rec, pe, &vals[i])
					}
					if it.rec != nil {
						it.rec.Release() // the verdict holds nothing of it
					}
				}
				results <- b
			}
		}()
	}
	go func() {
		defer bug.Recover()
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
			n := int64(itemBytes)
			if rec != nil {
				n += rec.Bytes()
			}
			if !bud.take(n) {
				// Over budget: what is held goes to the workers, and the record waits for
				// the bytes that the emitted records give back.
				if len(cur.items) > 0 && !send() {
					return
				}
				if !bud.wait(n) {
					return
				}
			}
			cur.items = append(cur.items, item{rec, err})
			cur.bytes += n
			if len(cur.items) == batchSize && !send() {
				return
			}
		}
		if len(cur.items) > 0 {
			send()
		}
	}()
	go func() {
		defer bug.Recover()
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
				var err error
				if it.err != nil && asParseError(it.err) == nil {
					err = it.err
				}
				if failed == nil {
					if e := emit(p.out[i], err); e != nil {
						failed = e
						close(stop)
						bud.stop()
					}
				}
				p.items[i] = item{} // emitted: no longer held
			}
			bud.give(p.bytes)
			<-slots
		}
	}
	return failed
}
