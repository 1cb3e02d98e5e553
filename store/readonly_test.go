//go:build linux

package store

import (
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// openCount opens the database with OpenReader and says how many games it holds, or why
// it cannot.
func openCount(path string) string {
	db, err := openReadOnly(path)
	if err != nil {
		return "error: " + err.Error()
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%d games", n)
}

// OpenReader says why it cannot open what is not a database it can read.
func TestOpenReaderErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "text.db"), "[Event \"x\"]\n1. a1,b1 *\n")
	write(t, filepath.Join(dir, "empty.db"), "")
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.db"), "missing.db: no such database (make one with ponte ingest)"},
		{dir, ": a folder, not a database"},
		{filepath.Join(dir, "text.db"), `text.db: not a database: not an SQLite file (it begins "[Event \"x\"]\n1. a")`},
		{filepath.Join(dir, "empty.db"), "empty.db: an empty file, not yet a ponte database: make one with ponte ingest --db " + filepath.Join(dir, "empty.db")},
	} {
		if got := openCount(c.path); !strings.HasPrefix(got, "error: ") || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: %q, want an error ending %q", c.path, got, c.want)
		}
	}
}

// A database that cannot be written to, its directory included (read-only media, an
// immutable directory, another user's files), is read all the same. SQLite's reader of a
// WAL database wants to create the -wal and -shm files beside it, and cannot: OpenReader
// then opens it immutable. (Before, it said "not a ponte database: unable to open
// database file".) The tests run as root, which file permissions do not stop, so each way
// is made real another way: an immutable directory (chattr +i stops root too), a
// read-only bind mount in a mount namespace of a child process, and a child process run as
// the user nobody on a database and directory without write permission. Each is skipped
// when this machine does not allow it.
func TestOpenReaderReadOnly(t *testing.T) {
	t.Run("immutable directory", func(t *testing.T) {
		dir := t.TempDir()
		db := filepath.Join(dir, "p.db")
		fixture(t, db)
		// A second database whose -wal holds a transaction not yet in the file.
		walDB := filepath.Join(dir, "wal.db")
		pendingWAL(t, db, walDB)
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Skipf("chattr +i: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
		if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err == nil {
			t.Fatal("the immutable directory can be written to")
		}
		if got := openCount(db); got != "17 games" {
			t.Errorf("read-only database: %s", got)
		}
		got := openCount(walDB)
		if want := "wal.db-wal holds transactions not yet in the database"; !strings.Contains(got, want) {
			t.Errorf("read-only database with a -wal: %s, want %q", got, want)
		}
	})
	t.Run("read-only mount", func(t *testing.T) {
		dir := t.TempDir()
		fixture(t, filepath.Join(dir, "p.db"))
		got := child(t, "mount", dir, &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS})
		if got != "17 games\nwrite: read-only file system\n" {
			t.Errorf("child: %q", got)
		}
	})
	t.Run("user nobody", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("not root: cannot run a child as nobody")
		}
		// The child is this test binary: copied where nobody can run it.
		bin := filepath.Join(t.TempDir(), "store.test")
		copyExec(t, os.Args[0], bin)
		dir := filepath.Join(filepath.Dir(bin), "ro")
		os.Mkdir(dir, 0o755)
		fixture(t, filepath.Join(dir, "p.db"))
		write(t, filepath.Join(dir, "secret.db"), "")
		for _, m := range []struct {
			path string
			mode os.FileMode
		}{{"p.db", 0o444}, {"secret.db", 0}, {"", 0o555}, {"..", 0o755}} {
			os.Chmod(filepath.Join(dir, m.path), m.mode)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		got := childBin(t, bin, "nobody", dir, &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}})
		want := "17 games\nwrite: permission denied\nerror: " + filepath.Join(dir, "secret.db") + ": cannot read the database: permission denied\n"
		if got != want {
			t.Errorf("child: %q, want %q", got, want)
		}
	})
}

// pendingWAL copies the database from to a database to whose -wal file holds a committed
// transaction that is not in the database file.
func pendingWAL(t *testing.T, from, to string) {
	t.Helper()
	copyFile(t, from, to)
	db, err := sql.Open("sqlite", "file:"+to+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("UPDATE games SET duplicates = duplicates + 1"); err != nil {
		t.Fatal(err)
	}
	// Copy the files while the connection is open (closing it would checkpoint).
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, to+suffix, to+".copy"+suffix)
	}
	db.Close()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(to + suffix)
	}
	for _, suffix := range []string{"", "-wal"} {
		if err := os.Rename(to+".copy"+suffix, to+suffix); err != nil {
			t.Fatal(err)
		}
	}
	if info, err := os.Stat(to + "-wal"); err != nil || info.Size() == 0 {
		t.Fatalf("no pending -wal: %v", err)
	}
}

func copyExec(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	for d := filepath.Dir(to); d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // t.TempDir makes private directories
	}
}

// child runs TestOpenReaderChild in a child process of this test binary.
func child(t *testing.T, mode, dir string, attr *syscall.SysProcAttr) string {
	return childBin(t, os.Args[0], mode, dir, attr)
}

func childBin(t *testing.T, bin, mode, dir string, attr *syscall.SysProcAttr) string {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^TestOpenReaderChild$")
	cmd.Env = append(os.Environ(), "PONTE_OPENREADER_CHILD="+mode, "PONTE_OPENREADER_DIR="+dir)
	cmd.SysProcAttr = attr
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "SKIP:") || err != nil && (strings.Contains(err.Error(), "operation not permitted") || strings.Contains(err.Error(), "permission denied")) {
		t.Skipf("child: %v %s", err, out)
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got, _, _ := strings.Cut(string(out), "PASS\n")
	return got
}

// TestOpenReaderChild is the child of TestOpenReaderReadOnly: it opens PONTE_OPENREADER_DIR/p.db
// (after making the directory a read-only bind mount, in mode "mount") and prints what
// it holds, then what writing beside it gives.
func TestOpenReaderChild(t *testing.T) {
	mode := os.Getenv("PONTE_OPENREADER_CHILD")
	if mode == "" {
		t.Skip("the child of TestOpenReaderReadOnly")
	}
	dir := os.Getenv("PONTE_OPENREADER_DIR")
	if mode == "full" || mode == "write" {
		childWrite(mode, dir)
		return
	}
	if mode == "mount" {
		if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
			fmt.Println("SKIP: bind mount:", err)
			return
		}
		if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			fmt.Println("SKIP: read-only remount:", err)
			return
		}
	}
	fmt.Println(openCount(filepath.Join(dir, "p.db")))
	err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	fmt.Printf("write: %v\n", err.(*os.PathError).Err)
	if mode == "nobody" {
		fmt.Println(openCount(filepath.Join(dir, "secret.db")))
	}
}
