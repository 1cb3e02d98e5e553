// Package outfile is ponte's one atomic write: every file ponte writes goes through it
// (File), every folder ponte replaces whole too (Folder, and InstallFolder for a folder
// whose name must stay), and no other package renames a file into place
// (internal/docscheck's TestOneAtomicWrite).
//
// A path where nothing is, or where a regular file is, is written under a temporary name
// in the target's folder, synced, renamed over it once complete (Commit) and the folder
// synced, so that a reader never meets half a file, a failed run leaves the old one whole
// and a crash after Commit keeps the new one. Anything else is written through: a
// device such as /dev/null, a FIFO, a terminal. A symbolic link is followed and its target
// written, so the link stays a link. "-" and the names of standard output
// (/dev/stdout, /dev/fd/1, /proc/self/fd/1) are standard output itself, for the caller
// to write (IsStdout).
//
// The temporary file is named ".NAME.ponte-PID-RANDOM.tmp" (PID: the writing process);
// Create removes those that runs since killed left beside the same NAME.
package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// IsStdout reports whether path names standard output: "-", /dev/stdout, /dev/fd/1 or
// /proc/self/fd/1. Renaming a file over such a name would replace the link, not write
// to standard output.
func IsStdout(path string) bool {
	switch filepath.Clean(path) {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return path == "-"
}

// File is an output file being written: a temporary file beside its target, renamed over
// it by Commit, or the target itself when it is not a regular file.
type File struct {
	f      *os.File
	path   string // as given
	target string // the file written: path, or the final target of its links
	tmp    string // the temporary file; "" when written through
	done   bool
	// Removed names the temporary files of killed runs that Create removed.
	Removed []string
}

// maxLinks is the most symbolic links followed, as the kernel's MAXSYMLINKS.
const maxLinks = 40

// Create opens the output file path (see the package's comment). It is an error when
// path is "", names standard output (the caller writes there), or is a folder. ctx stops
// an open that waits, as opening a FIFO for writing waits for a reader.
func Create(ctx context.Context, path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no file named")
	}
	if IsStdout(path) {
		return nil, fmt.Errorf("%s is standard output: write to it directly", path)
	}
	target, fi, through, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	o := &File{path: path, target: target}
	switch {
	case fi != nil && fi.IsDir():
		return nil, fmt.Errorf("cannot write %s: it is a folder", path)
	case through || (fi != nil && !fi.Mode().IsRegular()):
		if o.f, err = openThrough(ctx, target, fi); err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		return o, nil
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	o.Removed = removeStale(dir, base)
	for range 100 {
		o.tmp = filepath.Join(dir, fmt.Sprintf(".%s.ponte-%d-%08x.tmp", base, os.Getpid(), rand.Uint32()))
		o.f, err = os.OpenFile(o.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	inUse.Store(o.tmp, true)
	if fi != nil { // the file replaced keeps its permissions
		if err := o.f.Chmod(fi.Mode().Perm()); err != nil {
			o.Abort()
			return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
	}
	return o, nil
}

// resolve follows the symbolic links of path to the file they name, and returns it, its
// information (nil when nothing is there) and whether it must be written through: a link
// into /proc or /dev/fd, which the kernel alone can follow (the file descriptors of a
// process).
func resolve(path string) (target string, fi fs.FileInfo, through bool, err error) {
	for range maxLinks {
		if magic(path) {
			fi, err := os.Stat(path)
			return path, fi, true, err
		}
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return path, nil, false, nil
		case err != nil:
			return "", nil, false, err
		case fi.Mode()&fs.ModeSymlink == 0:
			return path, fi, false, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", nil, false, errors.New("too many levels of symbolic links")
}

// magic reports whether path is under /proc or /dev/fd, whose links name open files.
func magic(path string) bool {
	p := filepath.Clean(path)
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/fd/")
}

// openThrough opens target, not a regular file (or a link the kernel follows), to write
// through it. A FIFO's open waits for a reader: when ctx ends first, the FIFO is opened
// for reading here, which ends the wait, and the error is ctx's.
func openThrough(ctx context.Context, target string, fi fs.FileInfo) (*os.File, error) {
	const flags = os.O_WRONLY | os.O_APPEND // never O_TRUNC: a link to a file keeps it
	if fi == nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(target, flags, 0)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(target, flags, 0)
		ch <- opened{f, err}
	}()
	select {
	case r := <-ch:
		return r.f, r.err
	case <-ctx.Done():
	}
	if r, err := openReader(target); err == nil {
		res := <-ch
		if res.f != nil {
			res.f.Close()
		}
		r.Close()
	}
	// Else the writer's open stays blocked, on a FIFO that cannot be opened for reading:
	// it is left to the process's end.
	return nil, ctx.Err()
}

// Name is the path as given.
func (o *File) Name() string { return o.path }

// Atomic reports whether the file is written under a temporary name and renamed by Commit.
func (o *File) Atomic() bool { return o.tmp != "" }

// Write writes p to the file.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil {
		err = fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	return n, err
}

// Commit completes the file: syncs it, closes it, renames it over its target and syncs
// the target's folder (so the rename outlives a crash), or closes the file written
// through.
func (o *File) Commit() error {
	if o.done {
		return errors.New("outfile: Commit after Commit or Abort")
	}
	o.done = true
	var err error
	if o.tmp != "" {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && o.tmp != "" {
		err = os.Rename(o.tmp, o.target)
		if err == nil {
			err = syncDir(filepath.Dir(o.target))
		}
	}
	if o.tmp != "" {
		if err != nil {
			os.Remove(o.tmp)
		}
		inUse.Delete(o.tmp)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	return nil
}

// Abort closes the file and removes the temporary file, leaving the target as it was
// (what was written through stays written). It does nothing after Commit.
func (o *File) Abort() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
		inUse.Delete(o.tmp)
	}
}

// WriteFile writes path whole with write (see Create): the target is replaced only when
// write and Commit succeed, and left as it was otherwise.
func WriteFile(ctx context.Context, path string, write func(w io.Writer) error) error {
	f, err := Create(ctx, path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// syncDir syncs the folder dir, so that a rename in it is on disk. A file system that
// cannot sync a folder (EINVAL, as some network ones) is not an error: it keeps no more.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// inUse are the temporary files this process is writing now.
var inUse sync.Map

// removeStale removes the temporary files in dir that runs writing base left when they
// were killed, and returns their paths: regular files named as Create names them whose
// process is over (or is this one, not writing it: a killed run with the same pid, as in a
// container where every run is pid 1). Removing leftovers is a courtesy: a file that
// cannot be removed is left.
func removeStale(dir, base string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	re := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.ponte-([0-9]+)-[0-9a-f]{8}\.tmp$`)
	var removed []string
	for _, e := range entries {
		m := re.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		pid, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		if _, busy := inUse.Load(path); busy || (pid != os.Getpid() && ProcessAlive(pid)) {
			continue
		}
		if os.Remove(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed
}

// unwrapPath drops the *fs.PathError around err: the messages name the path themselves.
func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}
