// Package pipeline runs the items of a stream through parallel workers and hands the
// results back in the stream's order: the one ordered pipeline of ponte, behind verify
// (verdict.Check), ingest (store's reading, replaying and storing), selfplay and match.
//
// A Pipeline reads its source on a goroutine of its own, batches the items, works them
// on Workers goroutines (each with its own state, made by NewWorker), and calls emit on
// the goroutine that called Run, in source order. What is in flight (read and not yet
// emitted) is bounded in items (MaxItems) and in bytes (MaxBytes, by Size), so memory
// stays flat whatever the stream. Run returns when emit returns an error (Stop to end
// early without one: an SPRT that decides), once ctx has ended and what was read is
// emitted, or when every item is emitted; in every case only after each of its
// goroutines has ended.
//
// A command that reads an archive and works on each game (an opening atlas, annotations)
// passes the records as the source, replays on the workers, and adds up or writes in
// emit; see the example. Detached runs a reading loop that a command stops waiting for
// when it is interrupted, even on an input that waits for ever.
package pipeline

import (
	"context"
	"errors"
	"iter"
	"runtime"
	"sync"

	"github.com/ponte/ponte/internal/bug"
)

// Stop is what emit returns to end a run early; Run then returns nil.
var Stop = errors.New("pipeline: stop")

// Pipeline is an ordered worker pipeline from In to Out. Its zero value, with NewWorker
// set, runs one worker per core on single items. It runs once at a time.
type Pipeline[In, Out any] struct {
	// Workers is how many goroutines work on the items; 0 means one per core.
	Workers int
	// Batch is how many items travel together to a worker: more makes the hand-over's
	// cost negligible next to cheap work. 0 means 1.
	Batch int
	// MaxItems bounds the items in flight, read from the source and not yet emitted,
	// besides the batch being filled (in whole batches, at least one); 0 means two
	// batches per worker and two more.
	MaxItems int
	// MaxBytes bounds the bytes in flight, as Size counts them; 0 means no bound. An item
	// larger than MaxBytes passes alone.
	MaxBytes int64
	// Size is an item's cost in bytes for MaxBytes; nil counts nothing.
	Size func(In) int64
	// NewWorker makes the function of one worker, on that worker's goroutine: what the
	// function keeps between items (a replay.Game to reuse) is its own.
	NewWorker func() func(In) Out
	// Arrived, when not nil, is called with each result as its batch comes back from a
	// worker, in any order, on the goroutine that called Run: a progress bar's tick.
	Arrived func(Out)

	peak int64
}

// PeakBytes is the most bytes in flight during the last run, as Size counts them.
func (p *Pipeline[In, Out]) PeakBytes() int64 { return p.peak }

// Run is RunBatches with emit called for each result.
func (p *Pipeline[In, Out]) Run(ctx context.Context, source iter.Seq[In], emit func(Out) error) error {
	return p.RunBatches(ctx, source, func(outs []Out) error {
		for _, o := range outs {
			if err := emit(o); err != nil {
				return err
			}
		}
		return nil
	})
}

type batch[In, Out any] struct {
	seq   int
	in    []In
	out   []Out
	bytes int64
}

// RunBatches reads source, works its items on the workers and calls emit with the
// results of each batch in source order, on the calling goroutine; emit must not keep
// the slice.
//
// When emit returns an error, RunBatches stops at once: it reads no more, drops what is
// in flight and returns the error (nil for Stop). When ctx ends, it reads no more of
// the source, but the items read are still worked and emitted (Ctrl-C keeps what is
// finished), and it returns ctx's error; an emit that should stop at once checks ctx
// itself. Otherwise it returns nil once every item is emitted (a source that ends on
// ctx's end without a word looks read to its end).
//
// The source is ranged over on a goroutine of the pipeline's, and must end soon after
// its yield returns false; a source that can wait for ever (a pipe) watches ctx too.
// RunBatches returns only once the source, the workers and every goroutine of its own
// have ended. A panic on one of them is a bug (internal/bug).
func (p *Pipeline[In, Out]) RunBatches(ctx context.Context, source iter.Seq[In], emit func([]Out) error) error {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	size := max(1, p.Batch)
	slotsN := 2*workers + 2
	if p.MaxItems > 0 {
		slotsN = max(1, p.MaxItems/size)
	}
	p.peak = 0

	// Each channel holds every batch in flight, so that no send on them waits: only the
	// slots do.
	jobs := make(chan *batch[In, Out], slotsN)
	results := make(chan *batch[In, Out], slotsN)
	slots := make(chan struct{}, slotsN)
	free := make(chan *batch[In, Out], slotsN)
	quit := make(chan struct{}) // closed when emit stops the run
	bud := &budget{max: p.MaxBytes, freed: make(chan struct{}, 1)}
	done := ctx.Done()

	var whole bool // the source was read to its end
	go func() {
		defer bug.Recover()
		defer close(jobs)
		var cur *batch[In, Out]
		seq := 0
		send := func() bool {
			select {
			case slots <- struct{}{}:
			case <-quit:
				return false
			}
			cur.seq = seq
			seq++
			jobs <- cur
			cur = nil
			return true
		}
		cut := false // ctx ended the reading
		for v := range source {
			select {
			case <-done:
				cut = true
			default:
			}
			if cut {
				break
			}
			var n int64
			if p.MaxBytes > 0 && p.Size != nil {
				n = p.Size(v)
			}
			for n > 0 && !bud.take(n) {
				// Over budget: the batch being filled may hold what is in flight, so it
				// goes first; then the item waits for the bytes that emitted ones give back.
				if cur != nil && len(cur.in) > 0 {
					if !send() {
						return
					}
					continue
				}
				select {
				case <-bud.freed:
				case <-quit:
					return
				}
			}
			if cur == nil {
				select {
				case cur = <-free:
				default:
					cur = &batch[In, Out]{in: make([]In, 0, size), out: make([]Out, 0, size)}
				}
			}
			cur.in = append(cur.in, v)
			cur.bytes += n
			if len(cur.in) == size && !send() {
				return
			}
		}
		if cur != nil && len(cur.in) > 0 && !send() {
			return
		}
		whole = !cut
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer bug.Recover()
			var work func(In) Out
			for b := range jobs {
				select {
				case <-quit: // stopped: the batches are only given back
				default:
					if work == nil {
						work = p.NewWorker()
					}
					for _, v := range b.in {
						b.out = append(b.out, work(v))
					}
				}
				results <- b
			}
		})
	}
	go func() {
		defer bug.Recover()
		wg.Wait()
		close(results)
	}()

	release := func(b *batch[In, Out]) {
		bud.give(b.bytes)
		clear(b.in)
		clear(b.out)
		b.in, b.out, b.bytes = b.in[:0], b.out[:0], 0
		select {
		case free <- b:
		default:
		}
		<-slots
	}
	order := newReorder[*batch[In, Out]]()
	var err error
	for b := range results { // to the end: then every goroutine has ended
		if err != nil {
			release(b)
			continue
		}
		if p.Arrived != nil {
			for _, o := range b.out {
				p.Arrived(o)
			}
		}
		order.add(b.seq, b)
		for err == nil {
			q, ok := order.next()
			if !ok {
				break
			}
			if err = emit(q.out); err != nil {
				close(quit)
			}
			release(q)
		}
	}
	p.peak = bud.peak
	switch {
	case errors.Is(err, Stop):
		return nil
	case err == nil && !whole:
		return ctx.Err() // ctx ended the reading
	}
	return err
}

// budget counts the bytes in flight against max.
type budget struct {
	mu    sync.Mutex
	used  int64
	max   int64
	peak  int64
	freed chan struct{} // a token after each give: wakes the waiting reader
}

// take takes n bytes if they fit or nothing is held, else reports false.
func (b *budget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used > 0 && b.used+n > b.max {
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return true
}

// give gives n bytes back.
func (b *budget) give(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	select {
	case b.freed <- struct{}{}:
	default:
	}
}
