//go:build linux

package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A database is opened at the path given, whatever characters it holds: one that begins
// with "//" (before: "invalid uri authority"), or holds '?', '#' or '%' (which mean
// something in the URI given to SQLite). Open writes it there and nowhere else, and
// OpenReader reads it back.
func TestDatabasePathsAsGiven(t *testing.T) {
	for _, name := range []string{"q?x#y.db", "50%.db", "%41.db", "a b&c=d;e.db", "x.db?mode=ro"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			d, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			ingestInto(t, d, Options{}, autumn)
			d.Close()
			if got := files(t, dir); got != name {
				t.Errorf("files %q, want %q alone", got, name)
			}
			if got := openCount(path); got != "17 games" {
				t.Errorf("OpenReader: %s", got)
			}
		})
	}
	t.Run("double slash", func(t *testing.T) {
		dir := t.TempDir()
		if !filepath.IsAbs(dir) {
			t.Skip("the temporary folder is not absolute")
		}
		path := "/" + filepath.Join(dir, "p.db") // //tmp/…/p.db: the same file as /tmp/…/p.db
		d, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ingestInto(t, d, Options{}, autumn)
		d.Close()
		if got := files(t, dir); got != "p.db" {
			t.Errorf("files %q, want p.db alone", got)
		}
		if got := openCount(path); got != "17 games" {
			t.Errorf("OpenReader: %s", got)
		}
	})
}

// chattr sets an attribute (+i: immutable, which stops root too) on path for the test, or
// skips the test where it cannot.
func chattr(t *testing.T, attr, path string) {
	t.Helper()
	if out, err := exec.Command("chattr", attr, path).CombinedOutput(); err != nil {
		t.Skipf("chattr %s: %v %s", attr, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", strings.Replace(attr, "+", "-", 1), path).Run() })
}

// Every error of a database names its path and says why in words, with SQLite's message
// after it. (Before: "file is not a database (26)", "unable to open database file (14)",
// "open ro/p.db: operation not permitted", "COMMIT…: database or disk is full (13)",
// without the path or the reason.)
func TestDatabaseErrorsSayWhy(t *testing.T) {
	t.Run("not a database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "p.db")
		write(t, path, "hello\n")
		_, err := Open(path)
		if want := path + `: not a database: not an SQLite file (it begins "hello\n")`; err == nil || err.Error() != want {
			t.Errorf("Open: %v, want %s", err, want)
		}
	})
	t.Run("a FIFO", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "p.db")
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skip(err)
		}
		// Held open for writing, so that no open of it for reading waits.
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		want := path + ": a FIFO, not a database"
		if _, err := Open(path); err == nil || err.Error() != want {
			t.Errorf("Open: %v, want %s", err, want)
		}
		if _, err := OpenReader(path); err == nil || err.Error() != want {
			t.Errorf("OpenReader: %v, want %s", err, want)
		}
	})
	t.Run("no folder", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "none", "p.db")
		_, err := Open(path)
		if want := path + ": cannot make the database: the folder " + filepath.Dir(path) + " does not exist"; err == nil || err.Error() != want {
			t.Errorf("Open: %v, want %s", err, want)
		}
	})
	t.Run("read-only folder", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "p.db")
		fixture(t, path)
		chattr(t, "+i", dir)
		_, err := Open(path)
		want := path + ": the folder " + dir + " cannot be written (operation not permitted), and SQLite must make p.db-journal or p.db-wal there to write to the database: move the database to a folder you can write to ("
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Open: %v, want %s…", err, want)
		}
		_, err = Open(filepath.Join(dir, "new.db"))
		want = filepath.Join(dir, "new.db") + ": cannot make the database in the folder " + dir + ": operation not permitted"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Open of a new database: %v, want %s…", err, want)
		}
	})
	t.Run("read-only file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "p.db")
		fixture(t, path)
		chattr(t, "+i", path)
		_, err := Open(path)
		want := path + ": cannot open the database to write to it: operation not permitted"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Open: %v, want %s…", err, want)
		}
	})
	t.Run("disk full", func(t *testing.T) {
		dir := t.TempDir()
		samples, err := filepath.Abs("../sample_data")
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("PONTE_SAMPLES", samples)
		got := child(t, "full", dir, &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS})
		want := filepath.Join(dir, "p.db") + ": the disk is full ("
		if !strings.HasPrefix(got, want) {
			t.Errorf("ingest into a full disk: %q, want %q…", got, want)
		}
	})
	t.Run("read-only folder, as a user", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("not root: cannot run a child as nobody")
		}
		bin := filepath.Join(t.TempDir(), "store.test")
		copyExec(t, os.Args[0], bin)
		dir := filepath.Join(filepath.Dir(bin), "ro")
		os.Mkdir(dir, 0o755)
		fixture(t, filepath.Join(dir, "p.db"))
		os.Chmod(filepath.Join(dir, "p.db"), 0o666)
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		got := childBin(t, bin, "write", dir, &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}})
		want := filepath.Join(dir, "p.db") + ": the folder " + dir + " cannot be written"
		if !strings.HasPrefix(got, want) || !strings.Contains(got, "SQLite must make p.db-journal or p.db-wal there") {
			t.Errorf("child: %q, want %q…", got, want)
		}
	})
}

// childWrite is the child of TestDatabaseErrorsSayWhy: mode "full" ingests into a
// database on a file system of 256 KiB mounted on dir, mode "write" into dir/p.db; each
// prints the error.
func childWrite(mode, dir string) {
	if mode == "full" {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
			fmt.Println("SKIP: mount tmpfs:", err)
			return
		}
	}
	d, err := Open(filepath.Join(dir, "p.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	_, err = d.Ingest(context.Background(), []string{os.Getenv("PONTE_SAMPLES")}, Options{})
	fmt.Println(err)
}
