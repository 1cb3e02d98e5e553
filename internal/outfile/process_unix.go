//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// ProcessAlive reports whether a process with the id pid is running (signal 0 checks
// without sending anything; EPERM: it runs, as another user).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// openReader opens the FIFO path for reading without waiting for a writer.
func openReader(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
