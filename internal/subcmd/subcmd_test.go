package subcmd

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/ponte/ponte/internal/interrupt"
)

// TestRun checks each exit status and what is said on standard error.
func TestRun(t *testing.T) {
	cmds := map[string]Func{
		"ok": func(_ context.Context, args []string, out io.Writer) error {
			fmt.Fprint(out, strings.Join(args, " "))
			return nil
		},
		"help": func(context.Context, []string, io.Writer) error { return flag.ErrHelp },
		"fail": func(context.Context, []string, io.Writer) error { return errors.New("x.csv:3: loss: bad") },
		"wait": func(ctx context.Context, _ []string, _ io.Writer) error { <-ctx.Done(); return ctx.Err() },
	}
	stopped := func(sig syscall.Signal) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(&interrupt.Signal{Sig: sig})
		return ctx
	}
	for _, c := range []struct {
		ctx            context.Context
		args           []string
		code           int
		wantOut, wantE string
	}{
		{context.Background(), []string{"ok", "a", "b"}, 0, "a b", ""},
		{context.Background(), []string{"help"}, 0, "", ""},
		{context.Background(), []string{"fail"}, 2, "", "tool: x.csv:3: loss: bad\n"},
		{context.Background(), []string{"nosuch"}, 2, "", "usage: tool ok|help|fail|wait\n"},
		{context.Background(), nil, 2, "", "usage: tool ok|help|fail|wait\n"},
		{stopped(syscall.SIGINT), []string{"wait"}, 130, "", "tool: stopped: context canceled\n"},
		{stopped(syscall.SIGTERM), []string{"wait"}, 143, "", "tool: stopped: context canceled\n"},
	} {
		var out, errOut bytes.Buffer
		code := Run(c.ctx, "tool", "usage: tool ok|help|fail|wait\n", c.args, cmds, &out, &errOut)
		if code != c.code || out.String() != c.wantOut || errOut.String() != c.wantE {
			t.Errorf("%q: status %d, out %q, err %q; want %d, %q, %q", c.args, code, out.String(), errOut.String(), c.code, c.wantOut, c.wantE)
		}
	}
}
