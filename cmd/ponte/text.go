package main

import (
	"fmt"
	"runtime"

	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
)

// maxWorkers bounds --workers. Each worker holds its goroutine, its buffers and the records
// in flight to it; a million of them took 3 GB before doing anything. No machine ponte runs
// on has more cores than this, and past the cores more workers only cost memory.
const maxWorkers = 256

// defaultWorkers is the default of --workers: the machine's cores, at most maxWorkers.
func defaultWorkers() int { return min(runtime.NumCPU(), maxWorkers) }

// checkWorkers returns the usage error of a --workers value outside 1 … maxWorkers.
func checkWorkers(n int) error {
	if n < 1 || n > maxWorkers {
		return fmt.Errorf("--workers must be from 1 to %d, not %d", maxWorkers, n)
	}
	return nil
}

// safe is termtext.Safe: s fit to print in a command's human output.
func safe(s string) string { return termtext.Safe(s) }

// safeErr is safe of err's message.
func safeErr(err error) string { return termtext.SafeErr(err) }

// plural, seconds, thousands and formatRate write numbers for people.
func plural(n int, one, many string) string { return termtext.Plural(n, one, many) }
func seconds(secs float64) string           { return termtext.Seconds(secs) }
func thousands(n int64) string              { return numtext.Thousands(n) }
func formatRate(r float64) string           { return termtext.Rate(r) }

// notes says, on standard error, which temporary files of killed runs the command's
// output removed.
func notes(s *streams, out *archive.Output, command string) {
	for _, p := range out.Removed() {
		fmt.Fprintf(s.err, "ponte %s: note: removed %s, a temporary file left by a run that was killed\n", command, safe(p))
	}
}
