//go:build unix

package gtp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the engine in a process group of its own: Ctrl-C in a terminal
// signals the match, which closes its engines, and not the engines behind its back.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
