//go:build unix

package report

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the id pid is running (signal 0 checks
// without sending anything; EPERM: it runs, as another user).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
