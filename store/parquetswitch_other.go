//go:build !linux

package store

import (
	"errors"
	"os"
	"path/filepath"
)

// openDir opens the folder dir (an error for anything else).
func openDir(dir string) (*os.File, error) {
	info, err := os.Stat(dir)
	if err == nil && !info.IsDir() {
		return nil, &os.PathError{Op: "open", Path: dir, Err: errors.New("not a folder")}
	}
	return os.Open(dir)
}

// openIn opens the file name of the folder d by its path.
func openIn(d *os.File, name string) (*os.File, error) {
	path := filepath.Join(d.Name(), name)
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	return os.Open(path)
}
