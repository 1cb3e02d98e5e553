package interrupt

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
)

// The first SIGINT or SIGTERM ends the context with a *Signal that says which; stop ends
// it without one.
func TestContext(t *testing.T) {
	for _, tc := range []struct {
		sig        syscall.Signal
		terminated bool
	}{
		{syscall.SIGINT, false},
		{syscall.SIGTERM, true},
	} {
		ctx, stop := Context(context.Background())
		if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		sig, ok := errors.AsType[*Signal](context.Cause(ctx))
		if !ok || sig.Sig != tc.sig || sig.Terminated() != tc.terminated {
			t.Errorf("%v: cause %v", tc.sig, context.Cause(ctx))
		}
		stop()
	}
	ctx, stop := Context(context.Background())
	stop()
	if _, ok := errors.AsType[*Signal](context.Cause(ctx)); ok || ctx.Err() == nil {
		t.Errorf("stopped: %v, cause %v", ctx.Err(), context.Cause(ctx))
	}
}
