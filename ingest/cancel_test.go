package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ponte/ponte/internal/testkit"
)

// TestOpenContextCancel: an open of a FIFO that no process writes, and a read of a pipe
// that sends nothing, end as soon as the context does.
func TestOpenContextCancel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close() // open, sending nothing
	defer pr.Close()
	for name, paths := range map[string][]string{"fifo": {fifo}, "pipe": {"-"}} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		stdin := testkit.NewEnteredReader(pr)
		go func() {
			done <- OpenContext(ctx, paths, stdin, nil, func(*Record, error) error { return nil })
		}()
		if name == "pipe" {
			<-stdin.Entered() // the read waits for data
		}
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want context.Canceled", name, err)
			}
		case <-time.After(20 * time.Second): // a guard against a hang, not a synchronisation
			t.Fatalf("%s: still waiting after the context ended", name)
		}
	}
}
