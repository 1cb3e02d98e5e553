package store

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/ponte/ponte/internal/outfile"
	"io"
	"os"
	"slices"
	"strings"
)

// ErrForeign is returned (wrapped, with what the file holds) by Open and OpenReader for a
// file that is not a ponte database: another program's SQLite database, or a file that is
// not SQLite's at all. Nothing is written to it.
var ErrForeign = errors.New("not a ponte database")

// applicationID is the SQLite application_id of a ponte database ("Pont" in ASCII), in
// the file's header: set when ponte makes the database, and when it first opens for
// writing one made before ponte set it. Another program's database has its own, or 0.
const applicationID = 0x506f6e74

// sqliteMagic begins every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// dbFile is what inspect found at a path.
type dbFile struct {
	fresh   bool // an empty file (0 bytes): a new database
	version int  // the schema version (user_version)
	appID   int32
}

// inspect looks at the file at path, without writing anything to it or beside it, and
// says whether it is a ponte database (or an empty file, which a writer makes one of).
// It reads the header of the file itself, then, when the header does not settle it, the
// names of the tables and their columns with a read-only connection: one that reads the
// file as it is (immutable) when the file is in WAL mode and there is no write-ahead log
// beside it, so that no -wal or -shm file is made beside another program's database.
//
// A ponte database has ponte's application_id, or (made before ponte set one) the tables
// of its schema version with their columns: games, sources, the turns and the tags, and
// in version 5 game_turns and game_tags. Tables and views of the user's beside them are
// allowed. Anything else is an error wrapping ErrForeign that says what the file holds;
// a file that does not exist is an error wrapping ErrNoDatabase.
func inspect(path string) (dbFile, error) {
	// Looked at before it is opened: opening a FIFO waits for a writer.
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return dbFile{}, fmt.Errorf("%s: %w (make one with ponte ingest)", path, ErrNoDatabase)
	case err != nil:
		return dbFile{}, fileError(path, "cannot read the database", err)
	case info.IsDir():
		return dbFile{}, fmt.Errorf("%s: a folder, not a database", path)
	case !info.Mode().IsRegular():
		return dbFile{}, fmt.Errorf("%s: %s, not a database", path, outfile.FileType(info.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return dbFile{}, fileError(path, "cannot read the database", err)
	}
	var head [100]byte
	n, err := io.ReadFull(f, head[:])
	f.Close()
	switch {
	case n == 0 && (err == io.EOF || err == nil):
		return dbFile{fresh: true}, nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return dbFile{}, fileError(path, "cannot read the database", err)
	case n < len(head) || string(head[:16]) != sqliteMagic:
		return dbFile{}, &notSQLite{fmt.Sprintf("%s: not a database: not an SQLite file (it begins %q)", path, head[:min(n, 16)])}
	}
	file := dbFile{
		version: int(int32(binary.BigEndian.Uint32(head[60:]))),
		appID:   int32(binary.BigEndian.Uint32(head[68:])),
	}
	if file.appID != 0 && file.appID != applicationID {
		return dbFile{}, fmt.Errorf("%s: %w: another program's SQLite database (its application_id is %#08x, ponte's is %#08x)", path, ErrForeign, uint32(file.appID), applicationID)
	}
	wal := head[18] == 2
	tables, views, version, appID, err := schemaOf(path, wal)
	if err != nil {
		return dbFile{}, err
	}
	file.version, file.appID = version, appID
	if why := notPonte(tables, views, version); why != "" {
		if appID == applicationID {
			return dbFile{}, fmt.Errorf("%s: a ponte database that was edited: %s; give another database", path, why)
		}
		return dbFile{}, fmt.Errorf("%s: %w: %s", path, ErrForeign, why)
	}
	if version > SchemaVersion {
		return dbFile{}, fmt.Errorf("%s: a ponte database of schema version %d, made by a newer ponte: this one knows version %d", path, version, SchemaVersion)
	}
	return file, nil
}

// notSQLite is the error of a file that is not SQLite's at all: an ErrForeign.
type notSQLite struct{ msg string }

func (e *notSQLite) Error() string        { return e.msg }
func (e *notSQLite) Is(target error) bool { return target == ErrForeign }

// schemaOf reads, with a connection that writes nothing, the tables of the database at
// path with their columns, the names of its views, its user_version and application_id.
//
// A database in WAL mode (wal) is read as its file is (immutable), without its -wal file:
// SQLite's reader of a -wal makes a -shm file beside it, which it cannot remove, and
// ponte writes its schema, its version and its application_id in rollback mode only, so
// that what settles whether a database is ponte's is always in the file. When the file
// cannot be read so (a checkpoint writing to it at that moment), it is read with its -wal.
func schemaOf(path string, wal bool) (tables map[string][]string, views []string, version int, appID int32, err error) {
	params := fmt.Sprintf("&_pragma=busy_timeout(%d)", busyTimeout)
	var db *sql.DB
	if wal {
		db, version, err = openVersion(fileURI(path, "immutable=1"+params))
		if err == nil {
			tables, views, appID, err = tablesOf(db)
			db.Close()
			if err == nil {
				return tables, views, version, appID, nil
			}
		}
	}
	db, version, err = openVersion(fileURI(path, "mode=ro"+params))
	if err != nil && cannotWrite(err) {
		// The -wal holds transactions, and SQLite cannot make the -shm to read them.
		return nil, nil, 0, 0, fmt.Errorf("%s: cannot be read here: %s-wal holds transactions not yet in the database, and SQLite cannot read them without writing beside it (%v); copy the database with its -wal file to a place that can be written, and read it there", path, path, err)
	}
	if err != nil {
		return nil, nil, 0, 0, dbError(path, err)
	}
	defer db.Close()
	tables, views, appID, err = tablesOf(db)
	if err != nil {
		return nil, nil, 0, 0, dbError(path, err)
	}
	return tables, views, version, appID, nil
}

// tablesOf reads the tables of db with their columns, the names of its views and its
// application_id.
func tablesOf(db *sql.DB) (tables map[string][]string, views []string, appID int32, err error) {
	if err := db.QueryRow("PRAGMA application_id").Scan(&appID); err != nil {
		return nil, nil, 0, err
	}
	rows, err := db.Query("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")
	if err != nil {
		return nil, nil, 0, err
	}
	tables = map[string][]string{}
	for rows.Next() {
		var typ, name string
		if err := rows.Scan(&typ, &name); err != nil {
			rows.Close()
			return nil, nil, 0, err
		}
		if typ == "view" {
			views = append(views, name)
		} else {
			tables[name] = nil
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, 0, err
	}
	// The columns of each table, one query each: a table SQLite cannot describe (a virtual
	// table of a module it lacks) has none.
	for name := range tables {
		rows, err := db.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", name)
		if err != nil {
			continue
		}
		var cols []string
		for rows.Next() {
			var col string
			if rows.Scan(&col) == nil {
				cols = append(cols, col)
			}
		}
		rows.Close()
		tables[name] = cols
	}
	return tables, views, appID, nil
}

// notPonte says why a database of the tables and views given, of the schema version, is
// not a ponte database; "" when it is one.
func notPonte(tables map[string][]string, views []string, version int) string {
	if len(tables) == 0 && len(views) == 0 {
		return "an SQLite database with no tables (made by another program)"
	}
	if _, ok := tables[gamesTable.name]; !ok {
		return "it has " + listNames(tables, views) + "; no games table"
	}
	// The columns every version has; versions 5 and 6's tables in full.
	need := []*table{ptr(gamesV2Columns()), &sourcesTable}
	switch version {
	case SchemaVersion:
		need = []*table{&gamesTable, &gameTurnsTable, &gameTagsTable, &sourcesTable}
	case 5:
		need = []*table{ptr(gamesV5()), &gameTurnsTable, &gameTagsTable, &sourcesTable}
	}
	for _, t := range need {
		cols, ok := tables[t.name]
		if !ok {
			return "it has " + listNames(tables, views) + "; no " + t.name + " table"
		}
		var missing []string
		for _, c := range t.columns {
			if !slices.Contains(cols, c.name) {
				missing = append(missing, c.name)
			}
		}
		if len(missing) > 0 {
			return fmt.Sprintf("its table %s has the columns %s, not ponte's (no %s)", t.name, cut(cols, 8), cut(missing, 5))
		}
	}
	for _, name := range []string{turnsTable.name, tagsTable.name} {
		if _, ok := tables[name]; !ok && !slices.Contains(views, name) {
			return "it has " + listNames(tables, views) + "; no " + name + " table or view"
		}
	}
	return ""
}

func ptr[T any](v T) *T { return &v }

// gamesV2Columns is the games table with the columns every schema version has.
func gamesV2Columns() table {
	t := gamesV3()
	t.columns = slices.DeleteFunc(t.columns, func(c column) bool { return c.name == "tag_errors" })
	return t
}

// listNames says the tables and views of a database: "tables a, b and views c".
func listNames(tables map[string][]string, views []string) string {
	var names []string
	for name := range tables {
		names = append(names, name)
	}
	slices.Sort(names)
	s := ""
	switch len(names) {
	case 0:
		s = "no tables"
	case 1:
		s = "the table " + names[0]
	default:
		s = "the tables " + cut(names, 8)
	}
	switch len(views) {
	case 0:
	case 1:
		s += " and the view " + views[0]
	default:
		s += " and the views " + cut(views, 8)
	}
	return s
}

// cut joins names with commas, the first n of them and how many more.
func cut(names []string, n int) string {
	if len(names) > n {
		return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
	}
	return strings.Join(names, ", ")
}
