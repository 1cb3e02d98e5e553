// Package subcmd runs a research command made of subcommands (annotate/truthset,
// annotate/value/vnet) with the exit statuses of ponte's commands: 0 done or --help, 2 an
// error (named on standard error after the command's name), 130 stopped by SIGINT, 143 by
// SIGTERM (what is finished kept).
package subcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ponte/ponte/internal/interrupt"
)

// Func is a subcommand: its arguments after its name, and where it writes its output.
type Func func(ctx context.Context, args []string, out io.Writer) error

// Main runs the subcommand named by the first argument of the process and exits with its
// status; the first SIGINT or SIGTERM ends its context.
func Main(name, usage string, cmds map[string]Func) {
	ctx, stop := interrupt.Context(context.Background())
	code := Run(ctx, name, usage, os.Args[1:], cmds, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the subcommand named by args[0] of cmds and returns the exit status: 2 with
// usage on errOut when there is none of that name.
func Run(ctx context.Context, name, usage string, args []string, cmds map[string]Func, out, errOut io.Writer) int {
	var cmd Func
	if len(args) > 0 {
		cmd = cmds[args[0]]
	}
	if cmd == nil {
		fmt.Fprint(errOut, usage)
		return 2
	}
	err := cmd(ctx, args[1:], out)
	var sig *interrupt.Signal
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(context.Cause(ctx), &sig):
		fmt.Fprintln(errOut, name+": stopped:", err)
		if sig.Terminated() {
			return 143
		}
		return 130
	}
	fmt.Fprintln(errOut, name+":", err)
	return 2
}
