//go:build unix

package atlas

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time of the process so far, user and system, every thread's
// (getrusage); 0 when it cannot be read.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
