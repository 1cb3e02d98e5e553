//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time of the process so far, user and system, every thread's
// (getrusage); 0 when it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
