package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
// committed transaction) and creates nothing. It fails when the file does not exist or is
// not a ponte database of this schema version. Its connections keep a small page cache
// (8 MB): readers scan tables in order, so a larger one only costs memory (stats read
// 100,000 games as fast with 8 MB as with 64 MB per connection, in 59 MB instead of 276).
func OpenReader(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database: %w (make one with ponte ingest)", err)
	}
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	db, err := sql.Open("sqlite", fmt.Sprintf("file:%s?mode=ro&_pragma=busy_timeout(%d)&_pragma=cache_size(-8000)", esc, busyTimeout))
	if err != nil {
		return nil, err
	}
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: not a ponte database: %w", path, err)
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

// dsn is the data source name of the file at path. Pragmas go in the DSN, so that every
// pooled connection gets them: WAL (readers never block the writer, a killed writer loses
// only its open transaction), NORMAL synchronous (safe in WAL mode), a busy timeout, and
// BEGIN IMMEDIATE for transactions.
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
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
		return wrapBusy(err)
	}
	switch version {
	case SchemaVersion:
		return nil
	case 1, 2:
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
