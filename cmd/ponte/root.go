package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	exitOK      = 0
	exitIllegal = 1 // some game illegal or some input unreadable
	exitUsage   = 2 // a usage error or a path that cannot be read
)

// exitError carries an exit status up to main without printing anything more: the
// command has already said what went wrong.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// streams are the command's standard streams, replaced by buffers in tests.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// newRootCmd builds the ponte command tree.
func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "ponte",
		Short: "Verify, store and study archives of Ponte del Diavolo games",
		Long: `ponte turns archives of Ponte del Diavolo games into verified, queryable data.

It reads the project's .ponte notation and JSON Lines (plain, .gz or .zst, from
files, directories or standard input), replays every game with an exact rules
engine, and says where a record goes wrong: file, line, column, turn and rule.
ponte ingest stores the games, their verdicts and per-turn features in SQLite
and Parquet.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	addLimitFlags(root)
	root.AddCommand(newVerifyCmd(s))
	root.AddCommand(newSelfplayCmd(s))
	root.AddCommand(newIngestCmd(s))
	root.AddCommand(newStatsCmd(s))
	root.AddCommand(newReportCmd(s))
	root.AddCommand(newAnalyzeCmd(s))
	root.AddCommand(newExportCmd(s))
	return root
}

// run executes the command line and returns the exit status.
func run(args []string, in io.Reader, out, errOut io.Writer) int {
	s := &streams{in: in, out: out, err: errOut}
	root := newRootCmd(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(errOut, "ponte:", safeErr(err))
	fmt.Fprintf(errOut, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return exitUsage
}
