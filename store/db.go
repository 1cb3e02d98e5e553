package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrBusy is returned when another process is writing to the database: another ponte
// command holding its lock (ingest, annotate, atlas run…: refused at once, the holder named
// as "ponte annotate (pid 4242)" where /proc tells it), or any other writer holding
// SQLite's write lock longer than the busy timeout.
var ErrBusy = errors.New("database is busy")

// busyTimeout is how long a write waits for another connection's write lock, in
// milliseconds. Tests shorten it.
var busyTimeout = 5000

// DB is a ponte database opened for writing: the SQLite file with the schema, and the lock
// that keeps a second ingest out while this one runs.
type DB struct {
	path    string
	db      *sql.DB
	lock    *os.File // held (flock) from Open to Close; closed after the database
	created bool     // Open created the file
	id      string   // the database's identity (meta id)
	closed  bool
	// parquetOnly is the Parquet folder of a temporary database (OpenParquetOnly), which
	// Close removes, with the folder when madeDir and nothing was written to it.
	parquetOnly string
	madeDir     bool
	// stream is the last ingest's Parquet files, written as it stored the games, for
	// WriteParquet to finish (parquetStream).
	stream *parquetStream
	// walBusy is called after each try of enterWAL that found the database busy.
	walBusy func(tries int)
	// replay makes the replays of an upgrade from schema version 1 to 3 (OpenOptions.Replay).
	replay func() ReplayStored
}

// Open opens the database at path for writing, creating it and the schema if needed. It
// takes an exclusive lock on the file that lasts until Close, so that two writers (ingest,
// annotate, analyze) never write to one database at once: if another process holds it, Open returns an error
// wrapping ErrBusy at once. Readers (sqlite3, DuckDB, a report) are never locked out: the
// database is in WAL mode from Open to Close (readers see the last committed transaction
// while it is written), and back in SQLite's default rollback mode after Close, so that
// a reader then needs and leaves no -wal or -shm file.
//
// A file that Open creates and cannot make a database of is removed again; [DB.Created]
// says whether Open created the file, and [DB.CloseDiscard] removes such a file when
// nothing was stored in it.
//
// Whether the file is a ponte database is settled before anything is written to it, by
// reading it only (inspect): another program's SQLite database, or a file that is not
// SQLite's, is refused with an error wrapping ErrForeign that says what it holds, and left
// exactly as it was. An empty file is made a new database.
func Open(path string) (*DB, error) { return open(path, OpenOptions{}, nil) }

// open is OpenWith; walBusy, when not nil, is called after each try of enterWAL that found
// the database busy, with the number of tries so far (a test's seam).
func open(path string, o OpenOptions, walBusy func(tries int)) (*DB, error) {
	lock, created, err := lockFile(path)
	if err != nil {
		if _, ierr := inspect(path); errors.Is(ierr, ErrForeign) {
			return nil, atlasFile(path, ierr) // not ours, whether it can be written or not
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = openError(path, err)
		}
		return nil, err
	}
	fail := func(err error) (*DB, error) {
		lock.Close()
		if created {
			removeFiles(path)
		}
		return nil, err
	}
	file, err := inspect(path)
	if err != nil {
		return fail(atlasFile(path, err))
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return fail(dbError(path, err))
	}
	d := &DB{path: path, db: db, lock: lock, created: created, walBusy: walBusy, replay: o.Replay}
	err = d.init(file)
	if err == nil {
		err = d.enterWAL()
	}
	if err != nil {
		// A plain close: a database that fails its checks is left exactly as it was.
		d.db.Close()
		return fail(dbError(path, err))
	}
	return d, nil
}

// ErrNoDatabase is returned by OpenReader when no file is at the path.
var ErrNoDatabase = errors.New("no such database")

// OpenReader opens the database at path for reading only, as statistics and reports do:
// it takes no lock (an ingest may be writing at the same time; WAL readers see the last
// committed transaction) and creates nothing. It fails when the file does not exist,
// cannot be read, or is not a ponte database of this schema version, and says which:
// whether the file is ponte's is settled first, as Open does (inspect), so that another
// program's database is refused with what it holds, and gets no -wal or -shm file. Its
// connections keep a small page cache (500 pages, 8 MB of a new database's): readers scan
// tables in order, so a larger one only costs memory (stats read 100,000 games as fast
// with 8 MB as with 64 MB per connection, in 59 MB instead of 276).
//
// A database at rest is in rollback mode ([DB.Close] leaves it so): it is read with a
// shared lock and nothing is created beside it. A database being written is in WAL mode:
// the reader uses the -wal and -shm files of the writer, which the writer removes when it
// closes. (A database in WAL mode with no writer, as ponte left them before, gets -wal
// and -shm files from a reader, which SQLite's reader leaves behind: the next ingest into
// it puts it back in rollback mode.)
//
// A database that cannot be written (on read-only media, in a directory this user cannot
// write to) is read all the same: SQLite's reader of a WAL database needs to create the
// -wal and -shm files beside it, and when it cannot, the database is opened immutable
// (SQLite then takes no locks and reads the file as it is, which is safe as nobody can
// write to it either). It is refused only when a -wal file beside it holds transactions
// that such a reader could not see.
func OpenReader(path string) (*Reader, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return nil, err
	}
	return &Reader{db: db}, nil
}

// openReadOnly is OpenReader's database handle.
func openReadOnly(path string) (*sql.DB, error) {
	file, err := inspect(path)
	if err != nil {
		return nil, atlasFile(path, err)
	}
	switch {
	case file.fresh:
		return nil, fmt.Errorf("%s: an empty file, not yet a ponte database: make one with ponte ingest --db %s", path, path)
	case file.version < SchemaVersion:
		return nil, fmt.Errorf("%s: a database of schema version %d: run ponte ingest on it once to upgrade it to version %d", path, file.version, SchemaVersion)
	}
	params := fmt.Sprintf("mode=ro&_pragma=busy_timeout(%d)&_pragma=cache_size(500)", busyTimeout)
	db, version, err := openVersion(fileURI(path, params))
	if err != nil && cannotWrite(err) {
		// No -wal or -shm could be made beside the file: read it as it is.
		if wal, werr := os.Stat(path + "-wal"); werr == nil && wal.Size() > 0 {
			return nil, fmt.Errorf("%s: cannot be read here: %s-wal holds transactions not yet in the database, and SQLite cannot read them without writing beside it (%v); copy the database with its -wal file to a place that can be written, and read it there", path, path, err)
		}
		var err2 error
		if db, version, err2 = openVersion(fileURI(path, "immutable=1&"+params)); err2 == nil {
			err = nil
		}
	}
	if err != nil {
		return nil, dbError(path, err)
	}
	if version != SchemaVersion { // changed since inspect looked
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

// pageSize is the page size of a new database, in bytes.
const pageSize = 16384

// walCheckpointPages is how many pages the write-ahead log grows to before the writer
// copies it into the database (SQLite's wal_autocheckpoint; its default is 1,000). Each
// such checkpoint waits for the disk (fsync) while the writer, which sets an ingest's
// pace, stands still: 16,384 pages (256 MB of a new database's 16 KB pages) made the
// checkpoints of a million-game ingest 16 instead of 250 and the ingest 20% faster
// (79 s to 63 s without Parquet), for a log that peaks at 256 MB and is removed at Close.
const walCheckpointPages = 16384

// dsn is the data source name of the file at path. Pragmas go in the DSN, so that every
// pooled connection gets them: NORMAL synchronous (safe in WAL mode), a busy timeout, a
// cache of 2,000 pages (32 MB of a new database's pages; given in pages, as SQLite turns
// a size in KiB into pages when the connection opens, before it knows the file's page
// size, as if it were 4 KB), checkpoints every walCheckpointPages, and BEGIN IMMEDIATE
// for transactions. WAL mode is not among them: it is a mode of the file,
// not of a connection, which Open sets once the database has passed its checks
// (enterWAL), so that a database refused is left exactly as it was.
func dsn(path string) string {
	return fileURI(path, fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=cache_size(2000)&_pragma=wal_autocheckpoint(%d)&_txlock=immediate", busyTimeout, walCheckpointPages))
}

// walAttempts is how many times enterWAL tries, each time for the busy timeout.
var walAttempts = 12

// enterWAL puts the database in WAL mode for the time it is written: readers never block
// the writer, and a killed writer loses only its open transaction. Every connection of
// the pool opened from then on finds the file in WAL mode.
//
// In rollback mode a reader holds a shared lock while a statement of its runs, and the
// switch waits for the statements under way (new ones wait for it). A statement may run
// longer than the busy timeout (the statistics of a large database): enterWAL tries
// again, walAttempts times, letting the readers waiting meanwhile go on between tries, so
// that an ingest started while a report runs waits for its turn instead of failing.
func (d *DB) enterWAL() error {
	var mode string
	var err error
	for try := range walAttempts {
		if err = d.db.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode); sqliteCode(err)&0xff != sqlite3.SQLITE_BUSY {
			break
		}
		if d.walBusy != nil {
			d.walBusy(try + 1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		if sqliteCode(err)&0xff == sqlite3.SQLITE_BUSY {
			return fmt.Errorf("%w: %s: another program is reading or writing it (%v)", ErrBusy, d.path, err)
		}
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("%s: cannot be put in WAL mode (journal mode %q)", d.path, mode)
	}
	return nil
}

// init creates the schema in a new database (an empty file), and checks and upgrades an
// existing one, which inspect found to be ponte's (file).
func (d *DB) init(file dbFile) error {
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
	switch {
	case version != file.version && !(file.fresh && version == 0): // changed since inspect looked
		return fmt.Errorf("%s: changed by another program while ponte opened it (schema version %d, then %d): nothing was written to it", d.path, file.version, version)
	case version == SchemaVersion:
		if err := d.check(ctx, conn); err != nil {
			return err
		}
		return d.identify(ctx, conn, file)
	case version >= 1 && version < SchemaVersion:
		if err := d.check(ctx, conn); err != nil {
			return err
		}
		if err := d.upgrade(ctx, conn, version); err != nil {
			return err
		}
		return d.identify(ctx, conn, file)
	case !file.fresh:
		return fmt.Errorf("%s: %w: schema version %d", d.path, ErrForeign, version)
	}
	// Pages of 16 KB: a game's turns (game_turns, about 3 KB) fill them with less waste
	// than SQLite's default 4 KB, and an ingest writes a fourth as many pages (a database
	// 17% smaller, 11% less CPU). Settable until the first write only.
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d", pageSize)); err != nil {
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, schemaSQL()+fmt.Sprintf("PRAGMA user_version = %d;\nPRAGMA application_id = %d;\n", SchemaVersion, applicationID)); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	if err := d.newID(ctx, conn); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	return nil
}

// identify reads the database's identity from its meta table. A database made before
// there was one (schema version 3 and older) gets the table and a new identity here, and
// one made before ponte set its application_id (file, as inspect found it) gets it, in
// one transaction: the only changes of this upgrade, which readers of every version
// ignore, so the schema version stays the same.
func (d *DB) identify(ctx context.Context, conn *sql.Conn, file dbFile) error {
	err := conn.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'id'").Scan(&d.id)
	if err == nil && file.appID == applicationID {
		return nil
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrapBusy(err)
	}
	if d.id == "" {
		if err := d.newID(ctx, conn); err != nil {
			conn.ExecContext(ctx, "ROLLBACK")
			return fmt.Errorf("%s: adding the table meta: %w", d.path, wrapBusy(err))
		}
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	return nil
}

// newID makes the meta table if needed and stores a new random identity in it, in the
// connection's transaction.
func (d *DB) newID(ctx context.Context, conn *sql.Conn) error {
	var b [16]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	if _, err := conn.ExecContext(ctx, metaSQL); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES ('id', ?)", id); err != nil {
		return err
	}
	d.id = id
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

// Path returns the path the database was opened with.
func (d *DB) Path() string { return d.path }

// ID returns the database's identity: 32 random hex digits given when it was made (or when
// a database made before identities was first opened by this version), kept in its meta
// table. It survives a move or a rename of the file; a copy has the same.
func (d *DB) ID() string { return d.id }

// Created reports whether Open created the database's file: there was none at its path.
func (d *DB) Created() bool { return d.created }

// Empty reports whether nothing is stored in the database: no game and no source file.
func (d *DB) Empty() (bool, error) {
	var empty bool
	err := d.db.QueryRow("SELECT NOT EXISTS (SELECT 1 FROM games) AND NOT EXISTS (SELECT 1 FROM sources)").Scan(&empty)
	return empty, dbError(d.path, wrapBusy(err))
}

// Close closes the database, puts it back in rollback mode (leaveWAL), then releases the
// lock. (Closing another descriptor of the file would drop SQLite's own POSIX locks: the
// lock file is closed last.)
func (d *DB) Close() error {
	d.dropStream()
	if d.parquetOnly != "" {
		return d.closeParquetOnly()
	}
	if d.closed {
		return nil
	}
	d.closed = true
	err := d.db.Close()
	if err == nil {
		d.leaveWAL()
	}
	d.lock.Close()
	return err
}

// CloseDiscard closes the database and, when Open created its file and nothing is stored
// in it (Empty), removes the file with its -wal, -shm and -journal files: a run that
// failed or stored nothing leaves no new empty database behind. A database that was there
// before Open is never removed. It reports whether the files were removed.
func (d *DB) CloseDiscard() (removed bool, err error) {
	d.dropStream()
	if d.parquetOnly != "" {
		open := !d.closed
		err := d.closeParquetOnly()
		return open && err == nil, err
	}
	if d.closed {
		return false, nil
	}
	if !d.created {
		return false, d.Close()
	}
	if empty, err := d.Empty(); err != nil || !empty {
		return false, d.Close()
	}
	d.closed = true
	err = d.db.Close()
	// Removed while the lock is held: an ingest that opened the file meanwhile finds it
	// gone once it has the lock, and makes another (lockFile).
	rerr := removeFiles(d.path)
	d.lock.Close()
	if err == nil {
		err = rerr
	}
	return rerr == nil, err
}

// removeFiles removes the database at path with its -wal, -shm and -journal files.
func removeFiles(path string) error {
	var first error
	for _, suffix := range []string{"-wal", "-shm", "-journal", ""} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// walTimeout is how long, in milliseconds, Close waits for readers to let the database
// leave WAL mode.
const walTimeout = 200

// leaveWAL puts the closed database back in rollback mode, best effort. The last of the
// writer's connections to close has checkpointed the write-ahead log and removed the -wal
// and -shm files, but the file still says WAL mode: a reader would make them again and
// leave them behind (a read-only connection cannot remove them). In rollback mode a
// reader creates nothing. Leaving WAL mode needs the database to itself: while a reader
// has it open, this gives up after walTimeout, and the next writer's Close does it.
func (d *DB) leaveWAL() {
	db, err := sql.Open("sqlite", fileURI(d.path, fmt.Sprintf("_pragma=busy_timeout(%d)", walTimeout)))
	if err != nil {
		return
	}
	defer db.Close()
	var version int
	var mode string
	// Reading first makes SQLite see the file's mode (WAL), which the pragma then changes.
	if db.QueryRow("PRAGMA user_version").Scan(&version) == nil {
		db.QueryRow("PRAGMA journal_mode = DELETE").Scan(&mode)
	}
}

// wrapBusy turns SQLite's SQLITE_BUSY into an error wrapping ErrBusy.
func wrapBusy(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY {
		return fmt.Errorf("%w: another program is writing to it (%v)", ErrBusy, err)
	}
	return err
}
