package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foreignDB makes another program's SQLite database at path with the statements, run on
// one connection (the last one to close checkpoints a WAL database into its file).
func foreignDB(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// hashes says what dir holds, by name, every folder below it included: the SHA-256 of
// each regular file, the target of each symbolic link, the kind of anything else (whose
// content is not read: a FIFO would never end).
func hashes(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name, _ := filepath.Rel(dir, path)
		switch {
		case e.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			b.WriteString(name + " " + hex.EncodeToString(sum[:8]) + "\n")
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			b.WriteString(name + " -> " + target + "\n")
		default:
			b.WriteString(name + " " + e.Type().String() + "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Another program's SQLite database is never written to, whatever it holds: Open (what
// ingest and analyze use) and OpenReader (stats, report, export) refuse it with an error
// wrapping ErrForeign that says what it holds, and every file of its folder is left byte
// for byte as it was, with no file added beside it. (Before, one whose user_version
// happened to be 5 got a table meta added; OpenReader let stats meet "no such column:
// legal".)
func TestForeignDatabaseUntouched(t *testing.T) {
	for _, c := range []struct {
		name  string
		make  func(t *testing.T, path string)
		wants string // in both errors
	}{
		{"user_version 5, other tables", func(t *testing.T, path string) {
			foreignDB(t, path, "CREATE TABLE notes (a, b)", "CREATE TABLE people (name)",
				"INSERT INTO notes VALUES (1, 2)", "PRAGMA user_version = 5")
		}, "not a ponte database: it has the tables notes, people; no games table"},
		{"a games table of other columns", func(t *testing.T, path string) {
			foreignDB(t, path, "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, legal INTEGER)",
				"INSERT INTO games (title) VALUES ('chess')", "PRAGMA user_version = 5")
		}, "not a ponte database: its table games has the columns id, title, legal, not ponte's (no game_id, source_id, source, file_index, line and"},
		{"a games table of other columns, user_version 4", func(t *testing.T, path string) {
			foreignDB(t, path, "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)", "PRAGMA user_version = 4")
		}, "not a ponte database: its table games has the columns id, title, not ponte's"},
		{"an empty SQLite database", func(t *testing.T, path string) {
			foreignDB(t, path, "CREATE TABLE t (x)", "DROP TABLE t")
		}, "not a ponte database: an SQLite database with no tables (made by another program)"},
		{"another program's application_id", func(t *testing.T, path string) {
			foreignDB(t, path, "PRAGMA application_id = 1196444487", "CREATE TABLE gpkg_contents (table_name)", "PRAGMA user_version = 5")
		}, "not a ponte database: another program's SQLite database (its application_id is 0x47504b47, ponte's is 0x506f6e74)"},
		{"WAL mode", func(t *testing.T, path string) {
			foreignDB(t, path, "PRAGMA journal_mode = WAL", "CREATE TABLE notes (a, b)", "INSERT INTO notes VALUES (1, 2)",
				"PRAGMA user_version = 5")
		}, "not a ponte database: it has the table notes; no games table"},
		{"WAL mode, a -wal not yet in the file", func(t *testing.T, path string) {
			src := path + ".src"
			foreignDB(t, src, "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, duplicates INTEGER)",
				"INSERT INTO games (title, duplicates) VALUES ('chess', 0)", "PRAGMA user_version = 5")
			pendingWAL(t, src, path)
			os.Remove(src)
		}, "not a ponte database: its table games has the columns id, title, duplicates, not ponte's"},
		{"not SQLite", func(t *testing.T, path string) {
			write(t, path, "name,rating\nAda,1500\n")
		}, `not a database: not an SQLite file (it begins "name,rating\nAda,")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			c.make(t, path)
			before := hashes(t, dir)
			d, err := Open(path)
			if err == nil {
				d.Close()
				t.Fatal("Open: no error")
			}
			if !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), path+": "+c.wants) {
				t.Errorf("Open: %v\nwant an ErrForeign saying %q", err, c.wants)
			}
			if after := hashes(t, dir); after != before {
				t.Errorf("Open changed the folder:\n%s\nwas\n%s", after, before)
			}
			db, err := OpenReader(path)
			if err == nil {
				db.Close()
				t.Fatal("OpenReader: no error")
			}
			if !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), path+": "+c.wants) {
				t.Errorf("OpenReader: %v\nwant an ErrForeign saying %q", err, c.wants)
			}
			if after := hashes(t, dir); after != before {
				t.Errorf("OpenReader changed the folder:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// A ponte database made before ponte set an application_id (its tables say it is
// ponte's) is opened, and gets the id; one with ponte's id and a table of its own beside
// ponte's is opened as well.
func TestPonteDatabaseRecognized(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	foreignDB(t, path, "PRAGMA application_id = 0", "CREATE TABLE my_notes (game, note)")
	if f, err := inspect(path); err != nil || f.appID != 0 || f.version != SchemaVersion {
		t.Fatalf("inspect: %+v, %v", f, err)
	}
	db, err := OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if d, err = Open(path); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if f, err := inspect(path); err != nil || f.appID != applicationID {
		t.Fatalf("inspect after Open: %+v, %v, want the application_id %#x", f, err, applicationID)
	}
}
