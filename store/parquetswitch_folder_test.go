package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/outfile"
)

// writeState switches dir to a state whose files hold text.
func writeState(t *testing.T, dir, text string, names ...string) error {
	t.Helper()
	sw, err := newSwitch(dir)
	if err != nil {
		return err
	}
	defer sw.Abort()
	for _, name := range names {
		if err := os.WriteFile(sw.Path(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Carry(names...); err != nil {
		return err
	}
	return sw.Commit()
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// issue 31 finding 1: the switch of a folder, case by case: a first state made where
// there was none; the files not rewritten carried (a file of the user's among them), a
// folder inside refused with nothing changed; a symbolic link to the folder kept, its
// target switched; a reader that opened the folder reads its state through a switch; a
// folder left aside by a run killed between the two renames put back by the next open;
// staging folders of runs still going left alone.
func TestParquetSwitchFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pq")
	if err := writeState(t, dir, "1", "games.parquet", "turns.parquet"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".mine"), []byte("the user's"), 0o644)
	if err := writeState(t, dir, "2", "games.parquet"); err != nil {
		t.Fatal(err)
	}
	if g, tu, m := readText(t, filepath.Join(dir, "games.parquet")), readText(t, filepath.Join(dir, "turns.parquet")), readText(t, filepath.Join(dir, ".mine")); g != "2" || tu != "1" || m != "the user's" {
		t.Errorf("after the second state: games %q, turns %q (carried), .mine %q", g, tu, m)
	}

	// A reader that opened the folder reads the state it opened.
	v, err := openFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeState(t, dir, "3", "games.parquet", "turns.parquet"); err != nil {
		t.Fatal(err)
	}
	if f, err := v.open("turns.parquet"); err == nil {
		b := make([]byte, 8)
		n, _ := f.Read(b)
		f.Close()
		if string(b[:n]) != "2" && string(b[:n]) != "1" {
			t.Errorf("a reader of the folder opened before the switch read %q", b[:n])
		}
	} // else the old state is removed: the reader finds nothing, never the new state's file
	v.close()

	// A folder inside cannot be carried: refused, nothing changed.
	os.Mkdir(filepath.Join(dir, ".sub"), 0o777)
	if err := writeState(t, dir, "4", "games.parquet"); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), ".sub") {
		t.Errorf("a folder inside: %v", err)
	}
	if g := readText(t, filepath.Join(dir, "games.parquet")); g != "3" {
		t.Errorf("after a refused switch games holds %q", g)
	}
	os.Remove(filepath.Join(dir, ".sub"))

	// A link to the folder stays a link; its target switches.
	link := filepath.Join(root, "link")
	os.Symlink("pq", link)
	if err := writeState(t, link, "5", "games.parquet"); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer one: %v", err)
	}
	if g := readText(t, filepath.Join(dir, "games.parquet")); g != "5" {
		t.Errorf("through the link games holds %q", g)
	}

	// Killed between the two renames: no folder; the next open puts the old one back.
	defer func() { noExchange, switchStep = false, nil }()
	noExchange = true
	switchStep = func(s string) {
		if s == "aside" {
			panic("killed")
		}
	}
	func() {
		defer func() { recover() }()
		writeState(t, dir, "6", "games.parquet")
	}()
	switchStep = nil
	outfile.ForgetFolders() // as for a process that is over
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("killed between the renames, the folder is there: %v", err)
	}
	if _, _, _, err := parquetFolder(dir); err != nil {
		t.Fatal(err)
	}
	if g := readText(t, filepath.Join(dir, "games.parquet")); g != "5" {
		t.Errorf("put back, games holds %q, want the old state's", g)
	}
	if left := hiddenFiles(t, dir); len(left) > 0 {
		t.Errorf("left: %v", left)
	}

	// A staging folder of a run still going (pid 1 here) is left alone; one of a run that
	// is over is removed.
	live := filepath.Join(root, fmt.Sprintf(".pq.ponte-stage-%d-0123abcd", 1))
	dead := filepath.Join(root, ".pq.ponte-stage-2147483646-0123abcd")
	os.Mkdir(live, 0o777)
	os.Mkdir(dead, 0o777)
	if _, err := SweepParquetDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the staging folder of a run going on is removed: %v", err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("the staging folder of a run that is over is left")
	}
}
