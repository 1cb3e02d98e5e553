package pipeline

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// count yields 0 … n−1, counting in held the items yielded and not yet emitted, and in
// most the most of them at once.
func count(n int, held, most *atomic.Int64) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			h := held.Add(1)
			for m := most.Load(); h > m && !most.CompareAndSwap(m, h); m = most.Load() {
			}
			if !yield(i) {
				return
			}
		}
	}
}

// square is a worker whose items take a varying time, so that batches come back out of
// order.
func square() func(int) int {
	rng := rand.New(rand.NewPCG(1, 2))
	return func(i int) int {
		for range rng.IntN(2000) {
			runtime.KeepAlive(i)
		}
		return i * i
	}
}

// noLeak fails the test if a goroutine of this package outlives Run. A goroutine that
// has returned from its function may not have left yet: it is given the processor until
// it has (runtime.Gosched), a bounded number of times.
func noLeak(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for try := 0; ; try++ {
		stacks := string(buf[:runtime.Stack(buf, true)])
		var left []string
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "ponte/pipeline.(*Pipeline") && !strings.Contains(g, "pipeline.Test") {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
		if try == 10000 {
			t.Fatalf("%d goroutines left after Run:\n%s", len(left), strings.Join(left, "\n\n"))
		}
		runtime.Gosched()
	}
}

// Every item comes out once, in order, its work done; in flight stay at most MaxItems
// items and the batch being filled.
func TestOrderAndItemBound(t *testing.T) {
	for _, tt := range []struct{ workers, batch, maxItems, n int }{
		{1, 1, 0, 100}, {4, 1, 8, 5000}, {3, 64, 0, 20000}, {2, 7, 30, 1000}, {8, 1, 1, 300},
	} {
		var held, most atomic.Int64
		p := Pipeline[int, int]{Workers: tt.workers, Batch: tt.batch, MaxItems: tt.maxItems, NewWorker: square}
		next := 0
		err := p.Run(context.Background(), count(tt.n, &held, &most), func(v int) error {
			if v != next*next {
				t.Fatalf("%+v: %d where %d² was due", tt, v, next)
			}
			next++
			held.Add(-1)
			return nil
		})
		if err != nil || next != tt.n {
			t.Fatalf("%+v: %v after %d items", tt, err, next)
		}
		limit := int64(max(tt.maxItems, tt.batch) + tt.batch)
		if tt.maxItems == 0 {
			limit = int64((2*tt.workers + 3) * tt.batch)
		}
		if most.Load() > limit {
			t.Errorf("%+v: %d items in flight, more than %d", tt, most.Load(), limit)
		}
		noLeak(t)
	}
}

// The bytes in flight stay within MaxBytes, plus the item waiting for room; an item
// larger than MaxBytes passes alone.
func TestByteBound(t *testing.T) {
	for _, tt := range []struct {
		name      string
		size, max int64
	}{
		{"small items", 1 << 10, 64 << 10},
		{"large items", 300 << 10, 1 << 20},
		{"items larger than MaxBytes", 2 << 20, 1 << 20},
	} {
		for _, workers := range []int{1, 4} {
			var held, most atomic.Int64
			p := Pipeline[int, int]{Workers: workers, Batch: 16, MaxBytes: tt.max,
				Size: func(int) int64 { return tt.size }, NewWorker: square}
			n := 0
			err := p.Run(context.Background(), count(500, &held, &most), func(int) error {
				n++
				held.Add(-1)
				return nil
			})
			if err != nil || n != 500 {
				t.Fatalf("%s: %v after %d", tt.name, err, n)
			}
			if limit := max(tt.max, tt.size) + tt.size; most.Load()*tt.size > limit {
				t.Errorf("%s, %d workers: %d bytes in flight, more than %d", tt.name, workers, most.Load()*tt.size, limit)
			}
			if peak := p.PeakBytes(); peak > max(tt.max, tt.size) || peak == 0 {
				t.Errorf("%s, %d workers: peak %d bytes, want 1 to %d", tt.name, workers, peak, max(tt.max, tt.size))
			}
			noLeak(t)
		}
	}
}

// emit stops the run at once, with Stop (nil from Run) or an error (returned): nothing
// is emitted after, and every goroutine ends, whether the source waits for room in items
// or in bytes.
func TestStop(t *testing.T) {
	disk := errors.New("disk full")
	for _, bytes := range []int64{0, 100} {
		for _, tt := range []struct {
			name string
			stop error
			want error
		}{
			{"Stop", Stop, nil},
			{"error", disk, disk},
		} {
			var held, most atomic.Int64
			p := Pipeline[int, int]{Workers: 2, Batch: 4, MaxItems: 8, MaxBytes: bytes,
				Size: func(int) int64 { return 10 }, NewWorker: square}
			n := 0
			err := p.Run(context.Background(), count(1e6, &held, &most), func(v int) error {
				if n++; n == 50 {
					return tt.stop
				}
				if n > 50 {
					t.Fatalf("%s: item %d emitted after the stop", tt.name, n)
				}
				return nil
			})
			if err != tt.want || n != 50 {
				t.Errorf("%s (bytes %d): %v after %d items, want %v after 50", tt.name, bytes, err, n, tt.want)
			}
			noLeak(t)
		}
	}
}

// When the context ends, the source is read no more, what was read is emitted in order
// (every item yielded but the one read as the end was seen), and Run returns the
// context's error.
func TestCancel(t *testing.T) {
	for _, bytes := range []int64{0, 100} {
		ctx, cancel := context.WithCancel(context.Background())
		var held, most atomic.Int64
		p := Pipeline[int, int]{Workers: 2, Batch: 4, MaxItems: 16, MaxBytes: bytes,
			Size: func(int) int64 { return 10 }, NewWorker: square}
		next := 0
		err := p.Run(ctx, count(1e6, &held, &most), func(v int) error {
			if v != next*next {
				t.Fatalf("%d where %d² was due", v, next)
			}
			if next++; next == 50 {
				cancel()
			}
			held.Add(-1)
			return nil
		})
		if !errors.Is(err, context.Canceled) || next < 50 || next > 50+16+4 || held.Load() > 1 {
			t.Errorf("bytes %d: %v after %d items, %d read and not emitted", bytes, err, next, held.Load())
		}
		noLeak(t)
	}
}

// A context that ends while the source waits for ever (a pipe that sends nothing) ends
// the run once the source, watching it, returns: its last item (the read's error) comes
// after the end, and is not emitted.
func TestCancelWhileTheSourceWaits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	source := func(yield func(int) bool) {
		for i := range 10 {
			if !yield(i) {
				return
			}
		}
		<-ctx.Done() // the read that never ends
		yield(-1)    // its error
	}
	p := Pipeline[int, int]{Workers: 2, NewWorker: square}
	var got []int
	err := p.Run(ctx, source, func(v int) error {
		if got = append(got, v); len(got) == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || len(got) != 10 {
		t.Errorf("%v after %v", err, got)
	}
	noLeak(t)
}

// A context that ends after the source was read to its end is no error.
func TestCancelAfterTheLast(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var held, most atomic.Int64
	p := Pipeline[int, int]{Workers: 3, NewWorker: square}
	n := 0
	err := p.Run(ctx, count(100, &held, &most), func(int) error {
		if n++; n == 100 {
			cancel()
		}
		return nil
	})
	if err != nil || n != 100 {
		t.Errorf("%v after %d items", err, n)
	}
	noLeak(t)
}

// Arrived sees every result, on the calling goroutine (no lock needed), before it is
// emitted; RunBatches hands over whole batches.
func TestArrivedAndBatches(t *testing.T) {
	arrived := map[int]bool{}
	var held, most atomic.Int64
	p := Pipeline[int, int]{Workers: 4, Batch: 10, NewWorker: square,
		Arrived: func(v int) { arrived[v] = true }}
	next := 0
	err := p.RunBatches(context.Background(), count(1005, &held, &most), func(vs []int) error {
		if len(vs) != 10 && (len(vs) != 5 || next != 1000) {
			t.Fatalf("a batch of %d at %d", len(vs), next)
		}
		for _, v := range vs {
			if !arrived[v] || v != next*next {
				t.Fatalf("%d emitted (arrived %v) where %d² was due", v, arrived[v], next)
			}
			next++
		}
		return nil
	})
	if err != nil || next != 1005 || len(arrived) != 1005 {
		t.Errorf("%v: %d emitted, %d arrived", err, next, len(arrived))
	}
}

// Items that the reorder buffer gets in any order come out in sequence.
func TestReorder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := newReorder[int]()
	var out []int
	for _, s := range rng.Perm(500) {
		r.add(s, 10*s)
		for v, ok := r.next(); ok; v, ok = r.next() {
			out = append(out, v)
		}
	}
	if len(out) != 500 || len(r.pending) != 0 {
		t.Fatalf("%d out, %d held", len(out), len(r.pending))
	}
	for i, v := range out {
		if v != 10*i {
			t.Fatalf("item %d is %d", i, v)
		}
	}
}
