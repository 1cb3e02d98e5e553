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
		if err != nil {
			panic(err) // a command without its help: a bug the tests catch
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
	refuseUnknown(root)
	root.SetHelpCommand(newHelpCmd())
	return root
}

// refuseUnknown makes every group of subcommands in the tree of cmd (a command that runs
// none of its own: the root, ponte atlas) refuse an unknown subcommand as a usage error,
// exit status 2 (cobra would print a group's help and exit 0); a group given no
// subcommand prints its help.
func refuseUnknown(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		refuseUnknown(c)
	}
	if !cmd.HasSubCommands() || cmd.Runnable() {
		return
	}
	cmd.Args = cobra.ArbitraryArgs
	cmd.DisableFlagsInUseLine = true // its usage: "ponte atlas" (the help) and "ponte atlas [command]"
	cmd.RunE = func(c *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return c.Help()
		case args[0] == "help" && c.HasParent(): // ponte atlas help [run]
			return helpOf(c, args[1:])
		}
		return unknownCommand(c, args[0])
	}
}

// helpOf prints the help of the command that args name under cmd, or says that they name
// none (a usage error).
func helpOf(cmd *cobra.Command, args []string) error {
	target, rest, err := cmd.Find(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return unknownCommand(target, rest[0])
	}
	return target.Help()
}

// unknownCommand is the usage error of a word that names no subcommand of cmd, with the
// subcommands it may have meant: unknown command "rnu" for "ponte atlas": did you mean run?
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own distance
	}
	if near := cmd.SuggestionsFor(word); len(near) > 0 {
		msg += ": did you mean " + strings.Join(near, " or ") + "?"
	}
	return errors.New(msg)
}

// newHelpCmd is ponte help [COMMAND...]: the help of a command, and a usage error, exit
// status 2, for a word that names none (cobra's own prints the root's help and exits 0).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "ponte help COMMAND prints the help of a command, as ponte COMMAND --help does.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error { return helpOf(c.Root(), args) },
	}
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
