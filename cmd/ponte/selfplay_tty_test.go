//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPty opens a pseudo-terminal: the master end, read by the test, and the terminal
// end, given to the command as its standard error.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	var n, unlock uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		t.Skip("no pseudo-terminal:", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		t.Skip("no pseudo-terminal:", e)
	}
	// A new pseudo-terminal has 0 rows and columns; a terminal window has some.
	size := struct{ rows, cols, x, y uint16 }{24, 100, 0, 0}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&size))); e != 0 {
		master.Close()
		t.Skip("no pseudo-terminal:", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Skip("no pseudo-terminal:", err)
	}
	return master, tty
}

// runOnTerminal runs the command line with a pseudo-terminal as its standard error and
// returns the exit status, standard output and everything the terminal was shown.
func runOnTerminal(t *testing.T, args ...string) (status int, stdout, screen string) {
	t.Helper()
	master, tty := openPty(t)
	defer master.Close()
	shown := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, master) // ends with EIO once the terminal end is closed
		shown <- b.String()
	}()
	var out bytes.Buffer
	status = run(args, nil, &out, tty)
	tty.Close()
	return status, out.String(), <-shown
}

// On a terminal, standard error shows a progress bar (games done/total, games/s) before
// the summary; --quiet shows neither. Standard output holds the records only.
func TestSelfplayProgressBar(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprint("quiet=", quiet), func(t *testing.T) {
			args := []string{"selfplay", "--light", "random", "--dark", "random", "--games", "30", "--workers", "2"}
			if quiet {
				args = append(args, "--quiet")
			}
			status, out, got := runOnTerminal(t, args...)
			if status != exitOK {
				t.Fatalf("exit status %d, terminal %q", status, got)
			}
			if strings.Count(out, "[Event ") != 30 || strings.Contains(out, "games/s") {
				t.Errorf("standard output is not the 30 records alone")
			}
			if quiet {
				if got != "" {
					t.Errorf("terminal %q, want nothing", got)
				}
				return
			}
			for _, want := range []string{"30/30 games", "games/s", "30 games (10×10, unlimited): opener random won "} {
				if !strings.Contains(got, want) {
					t.Errorf("terminal %q does not show %q", got, want)
				}
			}
		})
	}
}

// ponte analyze shows the ingest's progress bar on a terminal and nothing of it in a pipe;
// the report's summary goes to standard output either way.
func TestAnalyzeOnTerminal(t *testing.T) {
	dir := t.TempDir()
	args := []string{"analyze", "--no-parquet", "--db", filepath.Join(dir, "t.db"), "--out", filepath.Join(dir, "r"), "../../stats/testdata/fixture.ponte"}
	status, stdout, screen := runOnTerminal(t, args...)
	if status != exitOK || !strings.Contains(screen, "ingest ") || !strings.Contains(screen, "1/1 files") {
		t.Errorf("terminal: exit status %d, screen %q", status, screen)
	}
	if !strings.Contains(stdout, "report: ") {
		t.Errorf("terminal: standard output %q", stdout)
	}
	args[3] = filepath.Join(dir, "p.db")
	stdout, stderr, status := runPonte(t, "", args...)
	if status != exitOK || strings.Contains(stderr, "files") && strings.Contains(stderr, "\r") || !strings.Contains(stdout, "report: ") {
		t.Errorf("pipe: exit status %d, standard error %q", status, stderr)
	}
}
