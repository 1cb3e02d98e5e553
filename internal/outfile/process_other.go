//go:build !unix

package outfile

import (
	"errors"
	"os"
)

// ProcessAlive reports whether a process with the id pid is running. Where the system
// cannot say (os.FindProcess succeeds for any pid), the process is taken to be running,
// so that a file is never removed under a live run.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// openReader is not needed where there are no FIFOs.
func openReader(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
