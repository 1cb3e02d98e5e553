// Package bug turns a panic, which is a bug in ponte, into a report on standard error and
// an exit status of its own, ExitStatus, so that a crash is never taken for a usage error
// (Go's runtime exits 2 on a panic, the status of a usage error) or for findings.
//
// Every goroutine that ponte starts defers Recover first; the command line's own goroutine
// recovers in its run function and reports with Report.
package bug

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// ExitStatus is the exit status of a bug: a panic recovered.
const ExitStatus = 3

// exit and output are replaced in tests.
var (
	exit   = os.Exit
	output = io.Writer(os.Stderr)
	once   sync.Once
)

// Report writes the report of the panic value v, with the stack of the goroutine that
// panicked, to w.
func Report(w io.Writer, v any, stack []byte) {
	fmt.Fprintf(w, "ponte: internal error: %v\n"+
		"This is a bug in ponte, not in your data. Please report it with the text below and the command you ran.\n\n%s", v, stack)
}

// Recover, deferred at the top of a goroutine, reports a panic of that goroutine on standard
// error and ends the program with ExitStatus. The first panic is reported; another one in a
// second goroutine at the same moment waits for the exit.
func Recover() {
	v := recover()
	if v == nil {
		return
	}
	stack := debug.Stack()
	once.Do(func() {
		Report(output, v, stack)
		exit(ExitStatus)
	})
	select {} // the first panic's exit ends the program
}
