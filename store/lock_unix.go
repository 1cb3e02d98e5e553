//go:build unix

package store

import (
	"errors"
	"fmt"
	"github.com/ponte/ponte/internal/outfile"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockFile opens (creating it if needed) the database file and takes an exclusive flock on
// it without waiting: another process holding it makes this an ErrBusy that names the
// holder ("ponte annotate (pid 4242) is writing to it", found by holder). flock locks are
// independent of the POSIX record locks SQLite uses, and the kernel drops them when the
// process ends, however it ends. It says whether it created the file.
//
// A run that made a database and stored nothing removes it while it holds the lock
// (DB.CloseDiscard): a file found gone, or replaced, once the lock is taken is let go and
// the path opened again, so that nothing is ever written to a file no path names.
func lockFile(path string) (*os.File, bool, error) {
	for tries := 0; ; tries++ {
		f, created, err := openCreate(path)
		if err != nil {
			return nil, false, err
		}
		info, err := f.Stat()
		if err == nil && !info.Mode().IsRegular() {
			f.Close()
			return nil, false, fmt.Errorf("%s: %s, not a database", path, outfile.FileType(info.Mode()))
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		if err != nil {
			// Not removed, even if this made it: the process that holds the lock
			// opened it and writes to it.
			if errors.Is(err, syscall.EWOULDBLOCK) {
				who := "another process"
				if name := holder(info); name != "" {
					who = name
				}
				f.Close()
				return nil, false, fmt.Errorf("%w: %s: %s is writing to it", ErrBusy, path, who)
			}
			f.Close()
			return nil, false, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if now, err := os.Stat(path); err == nil && info != nil && os.SameFile(now, info) || tries == 10 {
			return f, created, nil
		}
		f.Close()
	}
}

// openCreate opens the file at path for reading and writing, creating it if there is
// none, and says whether it did.
func openCreate(path string) (*os.File, bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, os.ErrExist) {
		return nil, false, err
	}
	// There is a file (or a link to one, or a dangling link: created through it, as
	// before, but not taken for one this run made).
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	return f, false, err
}

// writable says why this process cannot make files in the folder dir; nil when it can.
func writable(dir string) error {
	return syscall.Access(dir, 2) // W_OK
}

// procDir is where the kernel tells the processes and their locks (a test's seam).
var procDir = "/proc"

// holder names the process that holds the flock on the file of info, by its command line:
// "ponte annotate (pid 4242)". It reads /proc/locks for the processes that hold a flock on
// the file's inode and, of those, takes one that has the file open (/proc/PID/fd), or the
// first when that cannot be read. It is "" when there is no /proc (not Linux) or no holder
// is found: the lock may have been let go meanwhile.
func holder(info os.FileInfo) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	locks, err := os.ReadFile(filepath.Join(procDir, "locks"))
	if err != nil {
		return ""
	}
	pids := flockHolders(string(locks), uint64(st.Ino))
	if len(pids) == 0 {
		return ""
	}
	pid := pids[0]
	for _, p := range pids {
		if hasOpen(p, info) {
			pid = p
			break
		}
	}
	cmdline, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "cmdline"))
	name := commandName(strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00"))
	if err != nil || name == "" {
		return "process " + strconv.Itoa(pid)
	}
	return fmt.Sprintf("%s (pid %d)", name, pid)
}

// flockHolders returns the processes that /proc/locks (its text) says hold a flock on
// the inode ino, in its order. A line is "1: FLOCK  ADVISORY  WRITE 4242 fe:00:9986041 0
// EOF": the lock's kind, the process, and the file as device:inode; a line with "->" is a
// process waiting for the lock, not holding it.
func flockHolders(locks string, ino uint64) []int {
	var pids []int
	for _, line := range strings.Split(locks, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" {
			continue // a POSIX or OFD lock (SQLite's own), a waiter ("->"), or no lock
		}
		file := f[5]
		i := strings.LastIndexByte(file, ':')
		n, err := strconv.ParseUint(file[i+1:], 10, 64)
		if err != nil || n != ino {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// hasOpen says whether process pid has the file of info open (one of /proc/PID/fd).
func hasOpen(pid int, info os.FileInfo) bool {
	dir := filepath.Join(procDir, strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if fi, err := os.Stat(filepath.Join(dir, fd.Name())); err == nil && os.SameFile(fi, info) {
			return true
		}
	}
	return false
}

// groups are ponte's commands that are groups of subcommands: a process running one of
// them is named by two words, "ponte atlas run".
var groups = map[string]bool{"atlas": true}

// commandName names a process by its arguments (argv, as /proc/PID/cmdline holds them):
// ponte by its command ("ponte annotate", the first word that is not a flag) or, for a
// group, its command and subcommand ("ponte atlas run": the first word of letters after
// the group, past a flag's value such as a.db or 5); any other program by the name of
// its file ("sqlite3"). Any program whose file's name begins with "ponte" is ponte (a
// test binary is ponte.test).
func commandName(args []string) string {
	if len(args) == 0 || args[0] == "" {
		return ""
	}
	prog := filepath.Base(args[0])
	if !strings.HasPrefix(prog, "ponte") {
		return prog
	}
	name, group := "ponte", false
	for _, a := range args[1:] {
		if a == "" || strings.HasPrefix(a, "-") || group && !isWord(a) {
			continue // a flag, or a flag's value before the subcommand: --db a.db
		}
		name += " " + a
		if group = groups[a]; !group {
			break
		}
	}
	return name
}

// isWord says whether s is a word of lowercase letters, as a subcommand's name is.
func isWord(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}
