package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/internal/bug"
)

// Exit statuses: one contract for every command (README, "Exit status").
const (
	exitOK = 0 // done: findings such as illegal games are reported, not failures
	// exitFindings is verify's alone: it found illegal or unreadable games, its job.
	exitFindings = 1
	// exitUsage is a usage error, or a path, database or folder that cannot be used.
	exitUsage = 2
	// exitInternal is a bug: a panic recovered and reported (bug.ExitStatus).
	exitInternal = bug.ExitStatus
	// exitInterrupted is Ctrl-C (SIGINT), after the command printed what was done: the
	// shells' 128 + 2.
	exitInterrupted = 130
	// exitTerminated is SIGTERM (timeout, systemd, docker stop), handled as SIGINT: 128 + 15.
	exitTerminated = 143
)

// exitError carries an exit status up to main without printing anything more: the
// command has already said what went wrong.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// interrupted is the exit error of a command stopped by Ctrl-C or SIGTERM, after it said
// so; execute turns it into the signal's status (130 or 143).
var interrupted = &exitError{exitInterrupted}

// unreadPaths is the exit error of a command that said each path it could not read as it
// met it, and went on with the others: exit status 2 once it is done.
var unreadPaths = &exitError{exitUsage}

// findings is verify's exit error when it found illegal or unreadable games: status 1.
var findings = &exitError{exitFindings}

// failure is a command's error with its exit status: the command returns it, and
// exitStatus alone prints it ("ponte CMD: MESSAGE") and maps it to the status.
type failure struct {
	code int
	err  error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// usage is err as a usage error: a flag, path, database or folder that cannot be used
// (exit status 2).
func usage(err error) error { return &failure{exitUsage, err} }

// usagef is usage(fmt.Errorf(format, a...)).
func usagef(format string, a ...any) error { return usage(fmt.Errorf(format, a...)) }

// internalError is err as a bug in ponte (exit status 3).
func internalError(err error) error { return &failure{exitInternal, err} }

// exitStatus prints the error err of the command cmd, once, and maps it to the exit
// status: nil → 0; an exitError (already said) → its code; a failure → its code; the
// end of the context by a signal → 130 or 143; anything else is cobra's usage error → 2.
func exitStatus(s *streams, cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	if ee, ok := errors.AsType[*exitError](err); ok {
		if ee.code == exitInterrupted {
			return interruptStatus(s.ctx)
		}
		return ee.code
	}
	if f, ok := errors.AsType[*failure](err); ok {
		fmt.Fprintf(s.err, "%s: %s\n", cmd.CommandPath(), safeErr(f.err))
		return f.code
	}
	if errors.Is(err, context.Canceled) && s.ctx.Err() != nil {
		fmt.Fprintf(s.err, "%s: interrupted\n", cmd.CommandPath())
		return interruptStatus(s.ctx)
	}
	// A usage error: the command's name first, as the command's own errors have it.
	fmt.Fprintf(s.err, "%s: %s\n", cmd.CommandPath(), safeErr(err))
	fmt.Fprintf(s.err, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return exitUsage
}

// botBug is the error of a bot that played an illegal turn or failed: a bug in ponte
// (exit status 3).
func botBug(err error) error {
	return internalError(fmt.Errorf("%w (a bug in the bot: please report it)", err))
}
