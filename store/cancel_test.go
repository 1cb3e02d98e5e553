package store

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/ponte/ponte/internal/testkit"
)

// An ingest of a pipe that sends nothing stops as soon as its context ends, as
// interrupted (a FIFO that no process opens: ingest.OpenFile, tested in ingest).
func TestIngestCancelWaitingInput(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close() // open, sending nothing
	defer pr.Close()
	d := openTemp(t)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdin := testkit.NewEnteredReader(pr)
	type result struct {
		sum *Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := d.Ingest(ctx, []string{"-"}, Options{Stdin: stdin})
		done <- result{sum, err}
	}()
	<-stdin.Entered() // the read waits for data
	cancel()
	select {
	case r := <-done:
		if r.err != nil || !r.sum.Interrupted || r.sum.Games != 0 {
			t.Errorf("%+v, %v", r.sum, r.err)
		}
	case <-time.After(20 * time.Second): // a guard against a hang, not a synchronisation
		t.Fatal("still waiting after the context ended")
	}
}
