//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Issue 31 finding 13: a second writer was told "another ponte ingest is writing to it"
// whoever held the database. The holder is found in /proc/locks by the flock's inode: only
// FLOCK lines that hold the lock (not POSIX locks, not waiters) of that inode count.
func TestHolder(t *testing.T) {
	const locks = `1: POSIX  ADVISORY  WRITE 111 fe:00:77 1073741824 1073742335
2: FLOCK  ADVISORY  WRITE 4242 fe:00:77 0 EOF
2: -> FLOCK  ADVISORY  WRITE 5151 fe:00:77 0 EOF
3: FLOCK  ADVISORY  WRITE 999 fe:00:770 0 EOF
4: OFDLCK ADVISORY  READ  -1 00:06:77 0 EOF
5: FLOCK  ADVISORY  WRITE 31 08:01:12 0 EOF
6: FLOCK  ADVISORY  WRITE 32 00:2a:77 0 EOF
garbage
7: FLOCK  ADVISORY  WRITE x fe:00:77 0 EOF
`
	for _, c := range []struct {
		ino  uint64
		want []int
	}{
		{77, []int{4242, 32}}, // one inode on two devices: both, in order
		{770, []int{999}},
		{12, []int{31}},
		{7, nil},
		{1073741824, nil},
	} {
		if got := flockHolders(locks, c.ino); !slices.Equal(got, c.want) {
			t.Errorf("inode %d: %v, want %v", c.ino, got, c.want)
		}
	}
	if got := flockHolders("", 77); got != nil {
		t.Errorf("no locks: %v", got)
	}
}

// Issue 31 finding 13: the holder is named by its command, and a command of a group by its
// first two words ("ponte atlas run").
func TestCommandName(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"/usr/local/bin/ponte", "annotate", "--db", "c.db"}, "ponte annotate"},
		{[]string{"ponte", "ingest", "--db=c.db", "x.ponte"}, "ponte ingest"},
		{[]string{"./ponte", "--quiet", "ingest", "x.ponte"}, "ponte ingest"},
		{[]string{"/tmp/go-build1/b001/ponte.test", "annotate", "--merge", "a.parquet"}, "ponte annotate"},
		{[]string{"ponte", "atlas", "run", "--db", "a.db"}, "ponte atlas run"},
		{[]string{"ponte", "atlas", "--db", "a.db", "merge", "b.db"}, "ponte atlas merge"},
		{[]string{"ponte", "atlas", "--size", "5"}, "ponte atlas"},
		{[]string{"ponte", "atlas"}, "ponte atlas"},
		{[]string{"ponte"}, "ponte"},
		{[]string{"/usr/bin/sqlite3", "c.db"}, "sqlite3"},
		{[]string{"flock", "c.db", "sleep", "9"}, "flock"},
		{nil, ""},
		{[]string{""}, ""},
	} {
		if got := commandName(c.args); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

// Issue 31 finding 13: a second lockFile of a held file is ErrBusy naming the holder, here
// this very process (the test binary: not ponte, named by its file); without /proc (not
// Linux), "another process".
func TestBusyHolderNamed(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Skip("no /proc/locks:", err)
	}
	path := filepath.Join(t.TempDir(), "c.db")
	f, _, err := lockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	self := filepath.Base(os.Args[0])
	for _, c := range []struct {
		proc, want string
	}{
		{"/proc", fmt.Sprintf("%s: %s: %s (pid %d) is writing to it", ErrBusy, path, self, os.Getpid())},
		{t.TempDir(), fmt.Sprintf("%s: %s: another process is writing to it", ErrBusy, path)},
	} {
		procDir = c.proc
		g, _, err := lockFile(path)
		procDir = "/proc"
		if g != nil {
			g.Close()
		}
		if !errors.Is(err, ErrBusy) || err.Error() != c.want {
			t.Errorf("/proc at %s: %v, want %q", c.proc, err, c.want)
		}
	}
}
