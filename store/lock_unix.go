//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile opens (creating it if needed) the database file and takes an exclusive flock on
// it without waiting: another ingest holding it makes this an ErrBusy. flock locks are
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
			return nil, false, fmt.Errorf("%s: %s, not a database", path, fileType(info.Mode()))
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
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, false, fmt.Errorf("%w: %s: another ponte ingest is writing to it", ErrBusy, path)
			}
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
