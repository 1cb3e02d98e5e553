//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A Parquet folder that is not a folder (a FIFO, a device, a symbolic link to a file,
// to a device or to nothing), or that holds a games.parquet or a marker that is not a
// regular file, is refused before anything is written, with what it is, and left as it
// was; a symbolic link to a folder is written into. (Before, a dangling link failed after
// the ingest with "mkdir pq: file exists", and a FIFO in the marker's place hung the
// ingest.)
func TestParquetFolderNotAFolder(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn)
	for _, c := range []struct {
		name string
		make func(t *testing.T, dir string) string // the folder to give
		want string
	}{
		{"a FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pq")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, "pq is a FIFO, not a folder: nothing is written there"},
		{"a link to a device", func(t *testing.T, dir string) string {
			if os.Getuid() != 0 {
				t.Skip("not root: cannot make a device node")
			}
			dev := filepath.Join(dir, "null")
			if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Skip(err)
			}
			p := filepath.Join(dir, "pq")
			os.Symlink(dev, p)
			return p
		}, "pq is a symbolic link to " + "DIR/null, a character device, not a folder"},
		{"a link to a file", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "notes.txt"), "mine\n")
			p := filepath.Join(dir, "pq")
			os.Symlink("notes.txt", p)
			return p
		}, "pq is a symbolic link to notes.txt, a regular file, not a folder"},
		{"a link to nothing", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pq")
			os.Symlink(filepath.Join(dir, "gone"), p)
			return p
		}, "pq is a symbolic link to DIR/gone, which does not exist: nothing is written there"},
		{"a FIFO named games.parquet", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pq")
			os.Mkdir(p, 0o755)
			if err := syscall.Mkfifo(filepath.Join(p, "games.parquet"), 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, "pq holds files that ponte did not write (games.parquet, which is a FIFO)"},
		{"a link named games.parquet", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "mine.parquet"), "mine\n")
			p := filepath.Join(dir, "pq")
			os.Mkdir(p, 0o755)
			os.Symlink("../mine.parquet", filepath.Join(p, "games.parquet"))
			return p
		}, "pq holds files that ponte did not write (games.parquet, which is a symbolic link)"},
		{"a FIFO as the marker", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pq")
			os.Mkdir(p, 0o755)
			if err := syscall.Mkfifo(filepath.Join(p, MarkerName), 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, "pq/" + MarkerName + ": not a marker ponte wrote (a FIFO)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pq := c.make(t, dir)
			before := hashes(t, dir)
			_, err := d.WriteParquet(pq)
			want := strings.ReplaceAll(c.want, "DIR", dir)
			if err == nil || !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), want) {
				t.Errorf("WriteParquet: %v, want ErrParquetDir saying %q", err, want)
			}
			if after := hashes(t, dir); after != before {
				t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
	t.Run("a link to a folder", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "real"), 0o755)
		pq := filepath.Join(dir, "pq")
		os.Symlink("real", pq)
		if _, err := d.WriteParquet(pq); err != nil {
			t.Fatal(err)
		}
		if got := files(t, filepath.Join(dir, "real")); got != MarkerName+" games.parquet tags.parquet turns.parquet" {
			t.Errorf("the linked folder holds %s", got)
		}
	})
}
