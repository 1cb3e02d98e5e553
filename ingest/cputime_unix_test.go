//go:build unix

package ingest

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, its goroutines and the garbage collector
// together, for the benchmarks' cpu-ms/op: on a machine shared with other work, wall time
// measures the load as much as the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
