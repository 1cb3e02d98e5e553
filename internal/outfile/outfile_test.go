package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsStdout(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"-", true},
		{"/dev/stdout", true},
		{"/dev/fd/1", true},
		{"/proc/self/fd/1", true},
		{"//dev/stdout", true},
		{"/dev/stderr", false},
		{"stdout", false},
		{"out.ponte", false},
	} {
		if got := IsStdout(tc.path); got != tc.want {
			t.Errorf("IsStdout(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// write creates path, writes data and commits.
func write(t *testing.T, path, data string) *File {
	t.Helper()
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, data); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	return f
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestRegularFileIsReplacedWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.ponte")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Atomic() {
		t.Error("a regular file is not written under a temporary name")
	}
	io.WriteString(f, "new")
	if got := readFile(t, path); got != "old" {
		t.Errorf("before Commit the file holds %q, want the old %q", got, "old")
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Errorf("after Commit: %q", got)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("permissions %v, want the replaced file's 0640", fi.Mode().Perm())
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %v, want the file alone", names)
	}
}

func TestAbortLeavesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.ponte")
	os.WriteFile(path, []byte("old"), 0o644)
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "half")
	f.Abort()
	if got := readFile(t, path); got != "old" {
		t.Errorf("after Abort: %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %v after Abort", names)
	}
}

func TestSymlinkTargetIsWritten(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	target := filepath.Join(dir, "real", "games.ponte")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.ponte")
	if err := os.Symlink("real/games.ponte", link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.ponte")
	os.Symlink("link.ponte", chain)
	write(t, chain, "new")
	for _, l := range []string{link, chain} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", l)
		}
	}
	if got := readFile(t, target); got != "new" {
		t.Errorf("the target holds %q", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's permissions are %v, want 0600", fi.Mode().Perm())
	}
	// A dangling link: its target is made.
	dangling := filepath.Join(dir, "dangling.ponte")
	os.Symlink("real/new.ponte", dangling)
	write(t, dangling, "made")
	if got := readFile(t, filepath.Join(dir, "real", "new.ponte")); got != "made" {
		t.Errorf("the dangling link's target holds %q", got)
	}
	// A loop.
	os.Symlink("b", filepath.Join(dir, "a"))
	os.Symlink("a", filepath.Join(dir, "b"))
	if _, err := Create(context.Background(), filepath.Join(dir, "a")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a loop of links: %v", err)
	}
}

func TestRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{"", "no file named"},
		{"-", "standard output"},
		{"/dev/stdout", "standard output"},
		{dir, "it is a folder"},
		{filepath.Join(dir, "missing", "x.ponte"), "no such file or directory"},
	} {
		if _, err := Create(context.Background(), tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Create(%q) = %v, want an error saying %q", tc.path, err, tc.want)
		}
	}
}

func TestStaleTemporaryFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.ponte")
	// A run of this pid that is over (as after a kill, in a container where every run is
	// pid 1), another name's, an odd name, and a folder of the same form.
	stale := filepath.Join(dir, fmt.Sprintf(".games.ponte.ponte-%d-0123abcd.tmp", os.Getpid()))
	other := filepath.Join(dir, fmt.Sprintf(".other.ponte.ponte-%d-0123abcd.tmp", os.Getpid()))
	odd := filepath.Join(dir, ".games.ponte.ponte-x-0123abcd.tmp")
	folder := filepath.Join(dir, fmt.Sprintf(".games.ponte.ponte-%d-fedcba98.tmp", os.Getpid()))
	for _, p := range []string{stale, other, odd} {
		os.WriteFile(p, []byte("half"), 0o644)
	}
	os.Mkdir(folder, 0o755)
	// A run still writing: this process, now.
	busy, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Abort()
	if len(busy.Removed) != 1 || busy.Removed[0] != stale {
		t.Errorf("Removed = %v, want [%s]", busy.Removed, stale)
	}
	f := write(t, path, "whole")
	if len(f.Removed) != 0 {
		t.Errorf("the second Create removed %v, the first's temporary file among them", f.Removed)
	}
	for _, p := range []string{other, odd, folder, busy.tmp} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

func TestWriteFile(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		write func(w io.Writer) error
		err   error
		want  string
	}{
		{"succeeds", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, nil, "new"},
		{"fails half way", func(w io.Writer) error { io.WriteString(w, "ha"); return boom }, boom, "old"},
		{"fails at once", func(io.Writer) error { return boom }, boom, "old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "games.ponte")
			if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
				t.Fatal(err)
			}
			err := WriteFile(context.Background(), path, tc.write)
			if !errors.Is(err, tc.err) {
				t.Fatalf("WriteFile: %v, want %v", err, tc.err)
			}
			if got := readFile(t, path); got != tc.want {
				t.Errorf("the file holds %q, want %q", got, tc.want)
			}
			if names := entries(t, dir); len(names) != 1 {
				t.Errorf("the folder holds %v, want the file alone", names)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("the file's mode is %v (%v), want 0640 kept", fi.Mode(), err)
			}
		})
	}
}

// TestFailedRenameLeavesTheTarget: a Commit whose rename fails (the target became a
// folder that is not empty) reports it, leaves the target and removes the temporary file.
func TestFailedRenameLeavesTheTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := os.MkdirAll(filepath.Join(path, "kept"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit over a folder that is not empty succeeded")
	}
	if fi, err := os.Stat(filepath.Join(path, "kept")); err != nil || !fi.IsDir() {
		t.Errorf("the target folder was changed: %v", err)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %v, want the target alone", names)
	}
}
