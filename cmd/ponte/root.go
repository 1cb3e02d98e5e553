package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/buildinfo"
	"github.com/ponte/ponte/internal/cmdutil"
	"github.com/ponte/ponte/internal/interrupt"
)

// streams are the command's standard streams, replaced by buffers in tests, and its
// context, cancelled by the first SIGINT (Ctrl-C) or SIGTERM (a second one kills at once).
type streams struct {
	ctx context.Context
	in  io.Reader
	// out is standard output: every write to it is checked (checkedWriter), and a failed
	// one makes the command's exit status 2 whatever it returned.
	out *checkedWriter
	err io.Writer
	// limits are those of the limit flags of a command that reads records, set before it
	// runs (addLimitFlags); the defaults for any other.
	limits ingest.Limits
}

// interruptStatus is the exit status of a command that the end of ctx stopped: 143 for
// SIGTERM, else 130.
func interruptStatus(ctx context.Context) int {
	if sig, ok := errors.AsType[*interrupt.Signal](context.Cause(ctx)); ok && sig.Terminated() {
		return exitTerminated
	}
	return exitInterrupted
}

// checkedWriter is standard output: it remembers the first write that failed (a full
// disk, a closed pipe) and fails every later one, so that the command stops writing and
// execute says so and exits 2.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// help is the long help of the command name, help/NAME.txt: a text people read, kept
// beside the code as text. {{formats}} stands for help/formats.txt, which names every
// format and container the commands read, and {{selfplay}} for game.SelfPlaySite.
func help(name string) string {
	text := func(name string) string {
		b, err := helpFiles.ReadFile("help/" + name + ".txt")
		if err != nil { // a bug, which TestEveryHelpFile catches
			return "no help: help/" + name + ".txt is missing"
		}
		return strings.TrimSuffix(string(b), "\n")
	}
	return strings.NewReplacer("{{formats}}", text("formats"), "{{selfplay}}", game.SelfPlaySite).Replace(text(name))
}

//go:embed help/*.txt
var helpFiles embed.FS

// newRootCmd builds the ponte command tree.
func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "ponte",
		Short:         "Verify, store and study archives of Ponte del Diavolo games",
		Long:          help("ponte"),
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("ponte {{.Version}}\n")
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newVerifyCmd(s))
	root.AddCommand(newSelfplayCmd(s))
	root.AddCommand(newIngestCmd(s))
	root.AddCommand(newStatsCmd(s))
	root.AddCommand(newReportCmd(s))
	root.AddCommand(newAnalyzeCmd(s))
	root.AddCommand(newAnnotateCmd(s))
	root.AddCommand(newExportCmd(s))
	root.AddCommand(newMatchCmd(s))
	root.AddCommand(newGTPCmd(s))
	root.AddCommand(newBotsCmd(s))
	root.AddCommand(newAtlasCmd(s))
	addCompletions(root)
	cmdutil.RefuseUnknown(root)
	root.SetHelpCommand(cmdutil.HelpCommand())
	return root
}

// version is what ponte --version prints (buildinfo.Version).
var version = buildinfo.Version

// stopped reports whether Ctrl-C or SIGTERM stopped the command, and then says so on standard error,
// with what was done: "ponte stats: interrupted".
func (s *streams) stopped(command, done string) bool {
	if s.ctx.Err() == nil {
		return false
	}
	fmt.Fprintf(s.err, "ponte %s: interrupted%s\n", command, done)
	return true
}

// run executes the command line and returns the exit status. The first SIGINT (Ctrl-C)
// or SIGTERM cancels the commands' context: each stops, says what it did, keeps what is
// finished, and exits 130 (SIGINT) or 143 (SIGTERM); a second one kills at once.
func run(args []string, in io.Reader, out, errOut io.Writer) int {
	ctx, stop := interrupt.Context(context.Background())
	defer stop()
	return runContext(ctx, args, in, out, errOut)
}

// runContext executes the command line with the context ctx.
func runContext(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	s := &streams{ctx: ctx, in: in, out: &checkedWriter{w: out}, err: errOut, limits: ingest.DefaultLimits()}
	return execute(s, newRootCmd(s), args)
}

// execute runs the command tree root on args and returns the exit status. A panic of the
// command's goroutine is reported as a bug, exit status 3; the goroutines the commands
// start report their own (bug.Recover).
func execute(s *streams, root *cobra.Command, args []string) (status int) {
	defer func() {
		if v := recover(); v != nil {
			bug.Report(s.err, v, debug.Stack())
			status = exitInternal
		}
	}()
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if s.out.err != nil { // whatever the command said: what it wrote did not all arrive
		fmt.Fprintf(s.err, "%s: cannot write standard output: %s\n", cmd.CommandPath(), safeErr(s.out.err))
		return exitUsage
	}
	return exitStatus(s, cmd, err)
}
