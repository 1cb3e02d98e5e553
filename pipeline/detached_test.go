package pipeline

import (
	"context"
	"errors"
	"testing"
)

// TestDetached: a loop that waits for ever does not hold Run past ctx's end, and no step
// of it runs after.
func TestDetached(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var d Detached
	started, release, ended := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	steps := 0
	go func() { <-started; cancel() }()
	err := d.Run(ctx, func() error {
		if err := d.Step(func() error { steps++; return nil }); err != nil {
			return err
		}
		close(started)
		<-release // an input that sends nothing
		err := d.Step(func() error { steps++; return nil })
		ended <- err
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	close(release)
	if err := <-ended; !errors.Is(err, ErrAbandoned) {
		t.Errorf("a step after Run returned: %v, want ErrAbandoned", err)
	}
	if steps != 1 {
		t.Errorf("%d steps ran, want 1", steps)
	}
}

// TestDetachedReturnsTheLoopsError: a loop that ends returns its error.
func TestDetachedReturnsTheLoopsError(t *testing.T) {
	var d Detached
	boom := errors.New("boom")
	if err := d.Run(context.Background(), func() error { return d.Step(func() error { return boom }) }); err != boom {
		t.Errorf("Run: %v, want boom", err)
	}
}
