//go:build !unix

package store

import "os"

// lockFile opens (creating it if needed) the database file. Without flock, a second
// ingest is kept out by SQLite's own write lock and its busy timeout only.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
}
