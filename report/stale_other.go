//go:build !unix

package report

import "os"

// processAlive reports whether a process with the id pid is running. Where the system
// cannot say (os.FindProcess succeeds for any pid), the process is taken to be running,
// so that a folder is never removed under a live run.
func processAlive(pid int) bool {
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
