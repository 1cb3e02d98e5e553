package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// openDir opens the folder dir (an error for anything else, without waiting on a FIFO).
func openDir(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// openIn opens the file name of the open folder d, relative to d; a symbolic link is
// not followed, and a FIFO is not waited on.
func openIn(d *os.File, name string) (*os.File, error) {
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: d.Name() + "/" + name, Err: err}
	}
	return os.NewFile(uintptr(fd), d.Name()+"/"+name), nil
}
