package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	sqlite3 "modernc.org/sqlite/lib"
)

// fileURI is the SQLite URI of the file at path with the query (SQLite's parameters and
// the driver's): the path as a URI path, '%', '?' and '#' escaped, after "file://" (an
// empty authority) when it is absolute, so that a path beginning with "//" is not read as
// a host ("invalid uri authority").
func fileURI(path, query string) string {
	esc := escapePath(path)
	if strings.HasPrefix(esc, "/") {
		esc = "//" + esc
	}
	return "file:" + esc + "?" + query
}

// escapePath escapes the characters of path that mean something in a SQLite URI's path,
// as url.PathEscape would, but keeps the others (SQLite reads them as they are).
func escapePath(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '%', '?', '#':
			b.WriteString(url.PathEscape(string(c)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dbError is err, an error of SQLite on the database at path, as an error that names the
// path and says in words what went wrong (SQLite's message, with its result code, follows
// in parentheses): not a database, damaged, a read-only file, a read-only folder (where
// SQLite must make the -journal or -wal file), locked (ErrBusy), disk full, and so on. An
// error that holds no SQLite error, or that already went through dbError, is returned as
// it is; so is nil.
func dbError(path string, err error) error {
	if err == nil || sqliteCode(err) == 0 && !errors.Is(err, ErrBusy) {
		return err
	}
	var said *pathError
	if errors.As(err, &said) {
		return err
	}
	return &pathError{path: path, why: sqliteReason(path, sqliteCode(err)), err: err}
}

// pathError is an error of SQLite with the database's path and what it means.
type pathError struct {
	path string
	why  string
	err  error
}

func (e *pathError) Error() string {
	if e.why == "" || errors.Is(e.err, ErrBusy) {
		return e.path + ": " + e.err.Error()
	}
	return e.path + ": " + e.why + " (" + e.err.Error() + ")"
}

func (e *pathError) Unwrap() error { return e.err }

// Is makes a SQLite error of a busy or locked database an ErrBusy.
func (e *pathError) Is(target error) bool {
	c := sqliteCode(e.err) & 0xff
	return target == ErrBusy && (c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED)
}

// sqliteReason says in words what SQLite's result code means for the database at path;
// "" when the driver's message says it as well (a statement's error).
func sqliteReason(path string, code int) string {
	dir := filepath.Dir(path)
	base := filepath.Base(path)
	folder := func(why string) string {
		return fmt.Sprintf("the folder %s cannot be written%s, and SQLite must make %s-journal or %s-wal there to write to the database: move the database to a folder you can write to", dir, why, base, base)
	}
	switch code {
	case sqlite3.SQLITE_READONLY_DIRECTORY:
		return folder("")
	case sqlite3.SQLITE_READONLY_ROLLBACK:
		return fmt.Sprintf("%s-journal, left by a program that stopped while writing, must be rolled back into the database, which cannot be written here", path)
	case sqlite3.SQLITE_READONLY_CANTINIT, sqlite3.SQLITE_READONLY_CANTLOCK:
		return fmt.Sprintf("%s-shm, the shared memory of a database in WAL mode, cannot be made or written", path)
	case sqlite3.SQLITE_READONLY_DBMOVED:
		return "the file was moved or removed while it was open"
	case sqlite3.SQLITE_IOERR_SHORT_READ:
		return "the file is shorter than the database it should hold (cut)"
	}
	switch code & 0xff {
	case sqlite3.SQLITE_READONLY:
		return "the file cannot be written (read-only)"
	case sqlite3.SQLITE_CANTOPEN:
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return "the folder " + dir + " does not exist"
		}
		if _, err := os.Stat(path); err == nil {
			if err := writable(dir); err != nil {
				return folder(" (" + err.Error() + ")")
			}
		}
		return fmt.Sprintf("cannot be opened, or SQLite cannot make its -journal, -wal or -shm file in the folder %s", dir)
	case sqlite3.SQLITE_NOTADB:
		return "not a database: not an SQLite file, or an encrypted one"
	case sqlite3.SQLITE_CORRUPT:
		return "the database is damaged (corrupt)"
	case sqlite3.SQLITE_FULL:
		return "the disk is full"
	case sqlite3.SQLITE_IOERR:
		return "the disk failed to read or write the file"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return "locked: another program is writing to it"
	case sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
		return "permission denied"
	case sqlite3.SQLITE_NOMEM:
		return "out of memory"
	case sqlite3.SQLITE_TOOBIG:
		return "a value is larger than SQLite can store"
	case sqlite3.SQLITE_NOLFS:
		return "the file is larger than the file system allows"
	case sqlite3.SQLITE_PROTOCOL:
		return "another program changed the database's locks while it was read"
	case sqlite3.SQLITE_SCHEMA:
		return "another program changed the database's schema while it was read"
	}
	return ""
}

// fileError is err, an error of the operating system on the file at path, as "path: what:
// cause" (the cause in the system's words, with what it means when they do not say it).
func fileError(path, what string, err error) error {
	cause := unwrapPath(err)
	var errno syscall.Errno
	if errors.As(cause, &errno) && errno == syscall.EPERM {
		return fmt.Errorf("%s: %s: %w (an immutable file or folder, or one this user may not change)", path, what, cause)
	}
	return fmt.Errorf("%s: %s: %w", path, what, cause)
}

// openError is err, the failure to open or create the database at path for writing, with
// what failed: the file, or the folder it would be made in.
func openError(path string, err error) error {
	if _, serr := os.Stat(path); serr == nil {
		return fileError(path, "cannot open the database to write to it", err)
	}
	dir := filepath.Dir(path)
	if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
		return fmt.Errorf("%s: cannot make the database: the folder %s does not exist", path, dir)
	}
	return fileError(path, "cannot make the database in the folder "+dir, err)
}
