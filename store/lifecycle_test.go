package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// files lists the names in dir.
func files(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// journalMode reads the journal mode the database file records (header bytes 18 and 19:
// 1 rollback, 2 WAL).
func journalMode(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 20 {
		t.Fatalf("%s: %v", path, err)
	}
	switch {
	case b[18] == 1 && b[19] == 1:
		return "rollback"
	case b[18] == 2 && b[19] == 2:
		return "wal"
	}
	return "?"
}

// A database that Open created and in which nothing was stored is removed by
// CloseDiscard with its -wal and -shm files; one in which something was stored, and one
// that was there before Open (even empty), are kept. (Before, a failed or empty ingest
// left a new empty database behind.)
func TestCloseDiscard(t *testing.T) {
	for _, c := range []struct {
		name    string
		before  bool   // the database exists before Open
		ingest  string // a file to ingest, "" for none
		removed bool
	}{
		{"new, nothing stored", false, "", true},
		{"new, a file of no games stored", false, "empty.ponte", false},
		{"new, games stored", false, autumn, false},
		{"there before, empty", true, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "p.db")
			if c.before {
				d, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				d.Close()
			}
			d, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if d.Created() == c.before {
				t.Errorf("Created() = %v", d.Created())
			}
			if c.ingest != "" {
				in := c.ingest
				if in == "empty.ponte" {
					in = filepath.Join(t.TempDir(), in)
					write(t, in, "")
				}
				ingestInto(t, d, Options{}, in)
			}
			if got := files(t, dir); c.ingest != "" && got != "p.db p.db-shm p.db-wal" {
				t.Errorf("while open: %s", got)
			}
			removed, err := d.CloseDiscard()
			if err != nil || removed != c.removed {
				t.Errorf("CloseDiscard: %v, %v; want removed %v", removed, err, c.removed)
			}
			want := "p.db"
			if c.removed {
				want = ""
			}
			if got := files(t, dir); got != want {
				t.Errorf("after CloseDiscard: %q, want %q", got, want)
			}
			if removed, err := d.CloseDiscard(); removed || err != nil {
				t.Errorf("a second CloseDiscard: %v, %v", removed, err)
			}
		})
	}
}

// A file that Open creates and cannot make a database of is removed; a file that was there
// is left as it was.
func TestOpenFailsRemovesWhatItCreated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.db")
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Exec("CREATE TABLE mine (x)"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	before, _ := os.ReadFile(path)
	if d, err := Open(path); err == nil || !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "p.db: not a ponte database: it has the table mine; no games table") {
		t.Fatalf("Open of another program's database: %v", err)
		d.Close()
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) || files(t, dir) != "p.db" {
		t.Errorf("another program's database was changed: %s", files(t, dir))
	}
}

// After Close, a database is in rollback mode with no -wal or -shm beside it, and a reader
// neither needs nor leaves them; while it is written, it is in WAL mode and a reader sees
// what is committed. (Before, every read-only command left ponte.db-wal and -shm behind.)
func TestCloseLeavesNoWAL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := journalMode(t, path); m != "wal" {
		t.Errorf("while open for writing: %s mode", m)
	}
	ingestInto(t, d, Options{}, autumn)
	// A reader while the writer is open.
	r, err := openReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, r, "SELECT count(*) FROM games"); n != 17 {
		t.Errorf("a reader during the write: %d games", n)
	}
	ingestInto(t, d, Options{}, online)
	if n := count(t, r, "SELECT count(*) FROM games"); n != 27 {
		t.Errorf("a reader during the write, after a commit: %d games", n)
	}
	r.Close()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); got != "p.db" {
		t.Errorf("after Close: %s", got)
	}
	if m := journalMode(t, path); m != "rollback" {
		t.Errorf("after Close: %s mode", m)
	}
	for range 2 {
		if got := openCount(path); got != "27 games" {
			t.Errorf("OpenReader: %s", got)
		}
		if got := files(t, dir); got != "p.db" {
			t.Errorf("after a reader: %s", got)
		}
	}
	// A reader opened before the writer's Close keeps the database in WAL mode: Close
	// gives up waiting for it at once, and the next writer's Close finishes the job.
	d, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err = openReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, r, "SELECT count(*) FROM games"); n != 27 {
		t.Errorf("%d games", n)
	}
	start := time.Now()
	d.Close()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close waited %v for a reader", took)
	}
	if n := count(t, r, "SELECT count(*) FROM games"); n != 27 {
		t.Errorf("the reader after the writer's Close: %d games", n)
	}
	r.Close()
	d, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got := files(t, dir); got != "p.db" || journalMode(t, path) != "rollback" {
		t.Errorf("after the next writer: %s, %s mode", got, journalMode(t, path))
	}
}

// A database has an identity from its making, kept across Opens and a move; a database
// made before identities (a version 3 one without the meta table) gets one when first
// opened for writing, its schema version unchanged, and its readers need none.
func TestDatabaseID(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id := d.ID()
	d.Close()
	if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Errorf("id %q: want 32 hex digits", id)
	}
	moved := filepath.Join(dir, "moved.db")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	d, err = Open(moved)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID() != id {
		t.Errorf("id %q after a move, was %q", d.ID(), id)
	}
	d.Close()
	other := openTemp(t)
	if other.ID() == id {
		t.Error("two databases with one id")
	}
	other.Close()

	// A database of before the meta table.
	db, err := sql.Open("sqlite", "file:"+moved)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DROP TABLE meta"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := openCount(moved); got != "0 games" {
		t.Errorf("OpenReader without meta: %s", got)
	}
	d, err = Open(moved)
	if err != nil {
		t.Fatal(err)
	}
	newID := d.ID()
	d.Close()
	if len(newID) != 32 || newID == id {
		t.Errorf("id %q given to a database without one", newID)
	}
	r, err := openReadOnly(moved)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := dump(t, r, "SELECT key, value FROM meta"); got != "id | "+newID+"\n" {
		t.Errorf("meta: %q", got)
	}
	if v := count(t, r, "PRAGMA user_version"); v != SchemaVersion {
		t.Errorf("user_version %d", v)
	}
}

func TestParquetDirFor(t *testing.T) {
	for db, want := range map[string]string{
		"ponte.db":          "ponte.parquet",
		"big.db":            "big.parquet",
		"club/a.b.sqlite":   "club/a.b.parquet",
		"/data/games":       "/data/games.parquet",
		".db":               ".db.parquet",
		"results.parquet":   "results.parquet.parquet",
		"../x/ponte.db":     "../x/ponte.parquet",
		"archive.2025.db":   "archive.2025.parquet",
		"dir.with.dots/pdb": "dir.with.dots/pdb.parquet",
	} {
		if got := ParquetDirFor(db); got != filepath.FromSlash(want) {
			t.Errorf("ParquetDirFor(%q) = %q, want %q", db, got, want)
		}
	}
}

// The Parquet folder belongs to the database it was written from: its marker names the
// database and its identity. Another database's folder, a folder holding files ponte did
// not write, and Parquet files of an older ponte that are not this database's are
// refused, and left as they were; a moved database keeps its folder. (Before, every
// database of a directory wrote ./parquet, and the last ingest overwrote the files of
// another database silently.)
func TestClaimParquet(t *testing.T) {
	root := t.TempDir()
	newDB := func(name string, paths ...string) *DB {
		t.Helper()
		d, err := Open(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		if len(paths) > 0 {
			ingestInto(t, d, Options{}, paths...)
		}
		return d
	}
	big := newDB("big.db", autumn, online)
	small := newDB("small.db", club)
	bigDir := filepath.Join(root, "big.parquet")
	if _, err := big.WriteParquet(bigDir); err != nil {
		t.Fatal(err)
	}
	snapshot := func(dir string) string {
		var b strings.Builder
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			b.WriteString(e.Name() + ":" + string(data) + "\n")
		}
		return b.String()
	}
	var m marker
	b, err := os.ReadFile(filepath.Join(bigDir, MarkerName))
	if err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("marker: %v %s", err, b)
	}
	if m.Database != filepath.Join(root, "big.db") || m.DatabaseID != big.ID() || m.Written == "" || m.Note == "" {
		t.Errorf("marker %+v", m)
	}

	// Another database: refused, naming the other, the folder untouched.
	before := snapshot(bigDir)
	for _, try := range []func() error{
		func() error { return small.ClaimParquet(bigDir) },
		func() error { _, err := small.WriteParquet(bigDir); return err },
	} {
		err := try()
		if !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "holds the Parquet files of another database, "+filepath.Join(root, "big.db")) ||
			!strings.Contains(err.Error(), "--parquet DIR, or remove "+bigDir+" first") {
			t.Errorf("small.db into big.db's folder: %v", err)
		}
	}
	if snapshot(bigDir) != before {
		t.Error("big.db's folder was changed")
	}
	if err := big.ClaimParquet(bigDir); err != nil {
		t.Errorf("big.db's own folder: %v", err)
	}
	if ok, err := small.ParquetCurrent(bigDir); ok || err != nil {
		t.Errorf("ParquetCurrent of another database's folder: %v, %v", ok, err)
	}

	// Folders that any database may take: none, empty, hidden files only.
	for _, dir := range []string{filepath.Join(root, "none"), t.TempDir()} {
		if err := small.ClaimParquet(dir); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	hidden := t.TempDir()
	write(t, filepath.Join(hidden, ".DS_Store"), "x")
	write(t, filepath.Join(hidden, ".games.parquet.0123abcd.tmp"), "PAR1")
	if _, err := small.WriteParquet(hidden); err != nil {
		t.Errorf("a folder of hidden files: %v", err)
	}

	// Files that are not ponte's: refused, whoever's folder it is.
	foreign := t.TempDir()
	for _, name := range []string{"notes.txt", "a.csv", "b.csv", "c.csv"} {
		write(t, filepath.Join(foreign, name), "x")
	}
	os.Mkdir(filepath.Join(foreign, "sub"), 0o777)
	if err := small.ClaimParquet(foreign); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "holds files that ponte did not write (a.csv, b.csv, c.csv, and 2 more)") {
		t.Errorf("a folder of other files: %v", err)
	}
	write(t, filepath.Join(bigDir, "mine.txt"), "x")
	if err := big.ClaimParquet(bigDir); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "(mine.txt)") {
		t.Errorf("the database's own folder with another file: %v", err)
	}
	os.Remove(filepath.Join(bigDir, "mine.txt"))

	// Not a folder; a marker that cannot be read.
	if err := small.ClaimParquet(filepath.Join(root, "big.db")); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "big.db is a regular file, not a folder") {
		t.Errorf("a file: %v", err)
	}
	bad := t.TempDir()
	write(t, filepath.Join(bad, MarkerName), "{}")
	if err := small.ClaimParquet(bad); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "not a marker ponte wrote") {
		t.Errorf("a bad marker: %v", err)
	}

	// Files of an older ponte (no marker): adopted when current for the database, else
	// refused.
	legacy := t.TempDir()
	for _, name := range parquetFiles {
		copyFile(t, filepath.Join(bigDir, name), filepath.Join(legacy, name))
	}
	before = snapshot(legacy)
	if err := small.ClaimParquet(legacy); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "do not say which database they were written from") {
		t.Errorf("an older ponte's files of another database: %v", err)
	}
	if snapshot(legacy) != before {
		t.Error("an older ponte's files were changed")
	}
	if err := big.ClaimParquet(legacy); err != nil {
		t.Errorf("an older ponte's files of this database: %v", err)
	}
	if ok, err := big.ParquetCurrent(legacy); !ok || err != nil {
		t.Errorf("adopted files: current %v, %v", ok, err)
	}

	// A database moved keeps its folder, whose marker follows it.
	big.Close()
	if err := os.Rename(filepath.Join(root, "big.db"), filepath.Join(root, "moved.db")); err != nil {
		t.Fatal(err)
	}
	moved := newDB("moved.db")
	if err := moved.ClaimParquet(bigDir); err != nil {
		t.Errorf("the moved database's folder: %v", err)
	}
	b, _ = os.ReadFile(filepath.Join(bigDir, MarkerName))
	if json.Unmarshal(b, &m); m.Database != filepath.Join(root, "moved.db") {
		t.Errorf("marker after the move: %+v", m)
	}
	if ok, err := moved.ParquetCurrent(bigDir); !ok || err != nil {
		t.Errorf("the moved database's files: current %v, %v", ok, err)
	}

	// A new database at the path of one whose files are there: another database.
	moved.Close()
	os.Rename(filepath.Join(root, "moved.db"), filepath.Join(root, "elsewhere.db"))
	again := newDB("moved.db")
	if err := again.ClaimParquet(bigDir); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "an earlier database at this same path") {
		t.Errorf("a new database at the old one's path: %v", err)
	}
	entries, _ := os.ReadDir(hidden)
	if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == ".DS_Store" }) {
		t.Error("a hidden file was removed")
	}
}

// A writer that starts while a reader is in the middle of a long statement (the database
// at rest, in rollback mode) waits for it, however long past the busy timeout, and the
// reader goes on: neither fails.
func TestOpenWaitsForALongRead(t *testing.T) {
	defer func(ms int) { busyTimeout = ms }(busyTimeout)
	path := filepath.Join(t.TempDir(), "p.db")
	fixture(t, path)
	busyTimeout = 100
	r, err := openReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// A read transaction stands for a statement that runs long: it holds the shared lock.
	tx, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, r, "SELECT count(*) FROM games"); n != 17 {
		t.Fatalf("%d games", n)
	}
	var held int
	if err := tx.QueryRow("SELECT count(*) FROM turns").Scan(&held); err != nil {
		t.Fatal(err)
	}
	// The statement ends after three busy timeouts of the writer's.
	tries := 0
	d, err := open(path, OpenOptions{}, func(try int) {
		if tries = try; tries == 3 {
			tx.Commit()
		}
	})
	if err != nil {
		t.Fatalf("Open while a reader reads: %v", err)
	}
	defer d.Close()
	if tries != 3 {
		t.Errorf("Open found the database busy %d times, want 3: it did not wait for the reader", tries)
	}
	ingestInto(t, d, Options{}, online)
	if n := count(t, r, "SELECT count(*) FROM games"); n != 27 {
		t.Errorf("the reader after the writer: %d games", n)
	}
}

// TestWriterCheckpointsRarely: the writer's connections checkpoint the write-ahead log
// every walCheckpointPages, not SQLite's default 1,000 pages (each checkpoint waits for
// the disk while the ingest stands still).
func TestWriterCheckpointsRarely(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var pages int
	if err := d.db.QueryRow("PRAGMA wal_autocheckpoint").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if pages != walCheckpointPages {
		t.Errorf("wal_autocheckpoint = %d, want %d", pages, walCheckpointPages)
	}
}
