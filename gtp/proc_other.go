//go:build !unix

package gtp

import "os/exec"

// setProcessGroup does nothing where process groups are not unix's.
func setProcessGroup(cmd *exec.Cmd) {}
