//go:build !unix

package store

import (
	"errors"
	"os"
)

// lockFile opens (creating it if needed) the database file, and says whether it created
// it. Without flock, a second ingest is kept out by SQLite's own write lock and its busy
// timeout only.
func lockFile(path string) (*os.File, bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, os.ErrExist) {
		return nil, false, err
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	return f, false, err
}

// writable says why this process cannot make files in the folder dir: not known here.
func writable(dir string) error { return nil }
