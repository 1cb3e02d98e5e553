package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrBusy is returned when another process is writing to the database: another
// `ponte ingest` (refused at once), or any other writer holding SQLite's write lock longer
// than the busy timeout.
var ErrBusy = errors.New("database is busy")

// busyTimeout is how long a write waits for another connection's write lock, in
// milliseconds. Tests shorten it.
var busyTimeout = 5000

// DB is a ponte database opened for writing: the SQLite file with the schema, and the lock
// that keeps a second ingest out while this one runs.
type DB struct {
	path string
	db   *sql.DB
	lock *os.File // held (flock) from Open to Close; closed after the database
}

// Open opens the database at path for writing, creating it and the schema if needed. It
// takes an exclusive lock on the file that lasts until Close, so that two ingests never
// write to one database at once: if another process holds it, Open returns an error
// wrapping ErrBusy at once. Readers (sqlite3, DuckDB, a report) are never locked out.
func Open(path string) (*DB, error) {
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		lock.Close()
		return nil, err
	}
	d := &DB{path: path, db: db, lock: lock}
	if err := d.init(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// OpenReader opens the database at path for reading only, as statistics and reports do:
// it takes no lock (an ingest may be writing at the same time; WAL readers see the last
// committed transaction) and creates nothing. It fails when the file does not exist,
// cannot be read, or is not a ponte database of this schema version, and says which. Its
// connections keep a small page cache (8 MB): readers scan tables in order, so a larger
// one only costs memory (stats read 100,000 games as fast with 8 MB as with 64 MB per
// connection, in 59 MB instead of 276).
//
// A database that cannot be written (on read-only media, in a directory this user cannot
// write to) is read all the same: SQLite's reader of a WAL database needs to create the
// -wal and -shm files beside it, and when it cannot, the database is opened immutable
// (SQLite then takes no locks and reads the file as it is, which is safe as nobody can
// write to it either). It is refused only when a -wal file beside it holds transactions
// that such a reader could not see.
func OpenReader(path string) (*sql.DB, error) {
	f, err := os.Open(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: no such database (make one with ponte ingest)", path)
	case err != nil:
		return nil, fmt.Errorf("%s: cannot read the database: %w", path, unwrapPath(err))
	}
	info, err := f.Stat()
	f.Close()
	if err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s: a directory, not a database", path)
	}
	esc := escapePath(path)
	params := fmt.Sprintf("mode=ro&_pragma=busy_timeout(%d)&_pragma=cache_size(-8000)", busyTimeout)
	db, version, err := openVersion("file:" + esc + "?" + params)
	if err != nil && cannotWrite(err) {
		// No -wal or -shm could be made beside the file: read it as it is.
		if wal, werr := os.Stat(path + "-wal"); werr == nil && wal.Size() > 0 {
			return nil, fmt.Errorf("%s: cannot be read here: %s-wal holds transactions not yet in the database, and SQLite cannot read them without writing beside it (%v); copy the database with its -wal file to a place that can be written, and read it there", path, path, err)
		}
		var err2 error
		if db, version, err2 = openVersion("file:" + esc + "?immutable=1&" + params); err2 == nil {
			err = nil
		}
	}
	if err != nil {
		if isNotDB(err) {
			return nil, fmt.Errorf("%s: not a ponte database: %w", path, err)
		}
		return nil, fmt.Errorf("%s: cannot read the database: %w", path, err)
	}
	switch {
	case version == 1 || version == 2:
		db.Close()
		return nil, fmt.Errorf("%s: a database of schema version %d: run ponte ingest on it once to upgrade it to version %d", path, version, SchemaVersion)
	case version != SchemaVersion:
		db.Close()
		return nil, fmt.Errorf("%s: not a ponte database of schema version %d (it has version %d)", path, SchemaVersion, version)
	}
	return db, nil
}

// openVersion opens the data source name and reads the database's schema version.
func openVersion(dsn string) (*sql.DB, int, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, 0, err
	}
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, 0, err
	}
	return db, version, nil
}

// sqliteCode returns SQLite's extended result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

// cannotWrite reports whether err is SQLite failing to open a file it needs beside the
// database (the -wal or -shm of a WAL database in a directory it cannot write to, on
// read-only media).
func cannotWrite(err error) bool {
	c := sqliteCode(err)
	return c&0xff == sqlite3.SQLITE_CANTOPEN || c&0xff == sqlite3.SQLITE_READONLY
}

// isNotDB reports whether err is SQLite finding a file that is not a database, or a
// database whose pages are not what they should be.
func isNotDB(err error) bool {
	c := sqliteCode(err) & 0xff
	return c == sqlite3.SQLITE_NOTADB || c == sqlite3.SQLITE_CORRUPT
}

// unwrapPath takes the cause out of an *fs.PathError, so that the path is not repeated.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// escapePath escapes the characters of path that mean something in a SQLite URI.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// dsn is the data source name of the file at path. Pragmas go in the DSN, so that every
// pooled connection gets them: WAL (readers never block the writer, a killed writer loses
// only its open transaction), NORMAL synchronous (safe in WAL mode), a busy timeout, and
// BEGIN IMMEDIATE for transactions.
func dsn(path string) string {
	esc := escapePath(path)
	return fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32000)&_txlock=immediate", esc, busyTimeout)
}

// init creates the schema in a new database and checks the version of an existing one.
func (d *DB) init() error {
	ctx := context.Background()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return wrapBusy(err)
	}
	defer conn.Close()
	var version int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		if isNotDB(err) {
			return fmt.Errorf("%s: not a database SQLite can read (%v): give another --db, or move this file aside", d.path, err)
		}
		return wrapBusy(err)
	}
	switch version {
	case SchemaVersion:
		return d.check(ctx, conn)
	case 1, 2:
		if err := d.check(ctx, conn); err != nil {
			return err
		}
		return d.upgrade(ctx, conn, version)
	case 0:
	default:
		return fmt.Errorf("%s: schema version %d, this ponte knows version %d", d.path, version, SchemaVersion)
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'").Scan(&n); err != nil {
		return wrapBusy(err)
	}
	if n > 0 {
		return fmt.Errorf("%s: not a ponte database (it holds other tables)", d.path)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, schemaSQL()+fmt.Sprintf("PRAGMA user_version = %d;\n", SchemaVersion)); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	return nil
}

// ErrCorrupt is returned by Open for a database that fails SQLite's quick_check: adding to
// it could lose what it holds, or what is added.
var ErrCorrupt = errors.New("database is damaged")

// check runs SQLite's quick_check on an existing database (it reads every page once: about
// a second per few hundred MB) and returns an error wrapping ErrCorrupt, with the first
// problems it names and how to recover, when it fails.
func (d *DB) check(ctx context.Context, conn *sql.Conn) error {
	var problems []string
	rows, err := conn.QueryContext(ctx, "PRAGMA quick_check(3)")
	if err == nil {
		for rows.Next() {
			var p string
			if err = rows.Scan(&p); err != nil {
				break
			}
			for _, line := range strings.Split(p, "\n") {
				if line != "" && !strings.HasPrefix(line, "*** in database") {
					problems = append(problems, line)
				}
			}
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	switch {
	case err != nil && !isNotDB(err):
		return wrapBusy(err)
	case err != nil:
		problems = []string{err.Error()}
	case len(problems) == 1 && problems[0] == "ok":
		return nil
	}
	return fmt.Errorf("%w: %s fails SQLite's quick_check: %s; nothing was added to it: move it aside and ingest again, or recover what it holds with `sqlite3 %s .recover | sqlite3 recovered.db`",
		ErrCorrupt, d.path, strings.Join(problems, "; "), d.path)
}

// upgrade brings a database of schema version 1 or 2 to SchemaVersion in place, in one
// transaction (a failure leaves it as it was):
//   - version 2 added turns.think_ms, NULL for the turns stored before;
//   - version 3 made the scores, islands, bridges and margin of games nullable (NULL for
//     an unreadable record, which has none) and added games.tag_errors (NULL for the games
//     stored before: older versions refused a record with such a slip as unreadable).
//
// SQLite cannot drop a NOT NULL constraint, so games is rebuilt the way SQLite documents
// (create the new table, copy, drop the old one, rename the new one, create its indexes
// again); the ids are kept, so turns and tags still refer to their games.
func (d *DB) upgrade(ctx context.Context, conn *sql.Conn, version int) error {
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrapBusy(err)
	}
	if err := upgradeTx(ctx, conn, version); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("%s: upgrading schema version %d to %d: %w", d.path, version, SchemaVersion, wrapBusy(err))
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	return nil
}

func upgradeTx(ctx context.Context, conn *sql.Conn, version int) error {
	var stmts []string
	if version < 2 {
		stmts = append(stmts, "ALTER TABLE turns ADD COLUMN think_ms INTEGER")
	}
	// The indexes made with CREATE INDEX go with the table; its UNIQUE index is made again
	// by its CREATE TABLE.
	rows, err := conn.QueryContext(ctx, "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'games' AND sql IS NOT NULL")
	if err != nil {
		return err
	}
	var indexes []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			rows.Close()
			return err
		}
		indexes = append(indexes, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	v3 := gamesTable
	v3.name = "games_v3"
	var cols []string // the columns of version 2, in the new table's order
	for _, c := range gamesTable.columns {
		if c.name != "tag_errors" {
			cols = append(cols, c.name)
		}
	}
	names := strings.Join(cols, ", ")
	stmts = append(stmts,
		strings.Replace(v3.create(), "IF NOT EXISTS ", "", 1),
		"INSERT INTO games_v3 ("+names+") SELECT "+names+" FROM games ORDER BY id",
		`UPDATE games_v3 SET score_light = NULL, score_dark = NULL, islands_light = NULL, islands_dark = NULL,
			bridges_light = NULL, bridges_dark = NULL, margin = NULL WHERE unreadable`,
		"DROP TABLE games",
		"ALTER TABLE games_v3 RENAME TO games",
	)
	stmts = append(stmts, indexes...)
	stmts = append(stmts, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// Path returns the path the database was opened with.
func (d *DB) Path() string { return d.path }

// Close closes the database, then releases the lock. (Closing another descriptor of the
// file would drop SQLite's own POSIX locks: the lock file is closed last.)
func (d *DB) Close() error {
	err := d.db.Close()
	if d.lock != nil {
		d.lock.Close()
		d.lock = nil
	}
	return err
}

// wrapBusy turns SQLite's SQLITE_BUSY into an error wrapping ErrBusy.
func wrapBusy(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY {
		return fmt.Errorf("%w: another program is writing to it (%v)", ErrBusy, err)
	}
	return err
}
