//go:build linux

package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponte/ponte/ingest"
)

// ingestWithin runs an ingest that must end within the limit: a read that never ends
// fails the test instead of hanging it.
func ingestWithin(t *testing.T, limit time.Duration, d *DB, opts Options, paths ...string) *Summary {
	t.Helper()
	type result struct {
		sum *Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := d.Ingest(context.Background(), paths, opts)
		done <- result{sum, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.sum
	case <-time.After(limit):
		t.Fatalf("ingest of %v still running after %v", paths, limit)
	}
	return nil
}

// Inputs that can be read only once (a named FIFO, a pipe named /dev/fd/N as a process
// substitution gives it, standard input) are read once, hashed as they are read: their
// games are stored, their sources row is complete with the hash of what was read, and the
// same content as a file is then "already ingested" with every game in the database.
// (Reading them twice, to hash and then to parse, found them empty the second time: 0
// games, and the file was then skipped as already ingested: its games were never stored.)
func TestIngestStreamsReadOnce(t *testing.T) {
	text, err := os.ReadFile(autumn)
	if err != nil {
		t.Fatal(err)
	}
	hash := fmt.Sprintf("%x", sha256.Sum256(text))
	feed := func(t *testing.T, w io.WriteCloser) {
		go func() {
			w.Write(text)
			w.Close()
		}()
	}
	for _, c := range []struct {
		name  string
		input func(t *testing.T) (path string, opts Options)
	}{
		{"named FIFO", func(t *testing.T) (string, Options) {
			fifo := filepath.Join(t.TempDir(), "games.fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
			go func() {
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err == nil {
					feed(t, w)
				}
			}()
			return fifo, Options{}
		}},
		{"/dev/fd/N of a pipe", func(t *testing.T) (string, Options) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			feed(t, w)
			return fmt.Sprintf("/dev/fd/%d", r.Fd()), Options{}
		}},
		{"/proc/self/fd/N of a pipe", func(t *testing.T) (string, Options) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			feed(t, w)
			return fmt.Sprintf("/proc/self/fd/%d", r.Fd()), Options{}
		}},
		{"standard input, a pipe", func(t *testing.T) (string, Options) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			feed(t, w)
			return "-", Options{Stdin: r}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := openTemp(t)
			defer d.Close()
			path, opts := c.input(t)
			sum := ingestWithin(t, 20*time.Second, d, opts, path)
			if sum.Games != 17 || sum.New != 17 || len(sum.Errors) != 0 {
				t.Fatalf("summary %+v, want 17 new games", sum)
			}
			got := dump(t, d.db, "SELECT path, size, sha256, status, records, new FROM sources")
			if want := fmt.Sprintf("%s | %d | %s | complete | 17 | 17\n", path, len(text), hash); got != want {
				t.Errorf("sources %q, want %q", got, want)
			}
			if n := count(t, d.db, "SELECT count(*) FROM games WHERE source = ?", path); n != 17 {
				t.Errorf("%d games with the source %s, want 17", n, path)
			}
			// The same content as a file: already ingested, and its games are there.
			sum = ingestInto(t, d, Options{}, autumn)
			if sum.Skipped != 1 || sum.Games != 0 {
				t.Errorf("the file after the stream: %+v", sum)
			}
			if n := count(t, d.db, "SELECT count(*) FROM games"); n != 17 {
				t.Errorf("%d games, want 17", n)
			}
			checkWhole(t, d.db)
		})
	}
}

// A stream whose read fails, or that an interrupted ingest did not read to its end, is not
// complete: the same content as a file is read again and every game is stored.
func TestIngestStreamNotComplete(t *testing.T) {
	text, err := os.ReadFile(autumn)
	if err != nil {
		t.Fatal(err)
	}
	half := text[:len(text)/2]
	t.Run("read error", func(t *testing.T) {
		d := openTemp(t)
		defer d.Close()
		stdin := io.MultiReader(bytes.NewReader(half), iotestErr{syscall.EIO})
		sum := ingestInto(t, d, Options{Stdin: stdin}, "-")
		if len(sum.Errors) != 1 || !strings.Contains(sum.Errors[0], "input/output error") {
			t.Errorf("errors %q, want the read error", sum.Errors)
		}
		if got := dump(t, d.db, "SELECT status, error IS NOT NULL FROM sources"); got != "failed | 1\n" {
			t.Errorf("sources %q, want failed", got)
		}
		sum = ingestInto(t, d, Options{}, autumn)
		if sum.Skipped != 0 || count(t, d.db, "SELECT count(*) FROM games") != 17 {
			t.Errorf("the file after the failed stream: %+v", sum)
		}
		checkWhole(t, d.db)
	})
	t.Run("interrupted", func(t *testing.T) {
		d := openTemp(t)
		defer d.Close()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			// Half, then the rest once the ingest has been told to stop.
			w.Write(half)
			<-ctx.Done()
			w.Write(text[len(half):])
			w.Close()
		}()
		// A record in flight at a time: the first records reach the writer before the
		// stop, which comes once one is stored, while the reader waits for the rest.
		stopOnceStored := func(p Progress) {
			if p.Games > 0 {
				cancel()
			}
		}
		sum, err := d.Ingest(ctx, []string{fmt.Sprintf("/dev/fd/%d", r.Fd())}, Options{CommitGames: 1, Limits: ingest.Limits{MaxInFlight: 1}, Progress: stopOnceStored})
		if err != nil {
			t.Fatal(err)
		}
		if !sum.Interrupted {
			t.Fatalf("not interrupted: %+v", sum)
		}
		if got := dump(t, d.db, "SELECT status, sha256, records > 0 FROM sources"); got != "partial | NULL | 1\n" {
			t.Errorf("sources %q, want partial without a hash, some records stored", got)
		}
		sum = ingestInto(t, d, Options{}, autumn)
		if sum.Skipped != 0 || count(t, d.db, "SELECT count(*) FROM games") != 17 {
			t.Errorf("the file after the interrupted stream: %+v", sum)
		}
		checkWhole(t, d.db)
	})
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

// Devices that are no finite stream are refused at once, before anything is read from
// them, with an error naming them; the other inputs are ingested. /dev/null is an empty
// stream. (Hashing /dev/zero first never ended.)
func TestIngestDevices(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	for _, c := range []struct {
		path  string
		stdin io.Reader
		want  string // the error, "" for none
	}{
		{"/dev/zero", nil, "read /dev/zero: a character device"},
		{"/dev/urandom", nil, "read /dev/urandom: a character device"},
		{"-", zero, "read -: standard input is a character device"},
		{"/dev/null", nil, ""},
	} {
		t.Run(c.path, func(t *testing.T) {
			d := openTemp(t)
			defer d.Close()
			start := time.Now()
			sum := ingestWithin(t, 20*time.Second, d, Options{Stdin: c.stdin}, c.path, autumn)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			if sum.Games != 17 || sum.New != 17 {
				t.Errorf("summary %+v: the other input was not ingested", sum)
			}
			switch {
			case c.want == "" && len(sum.Errors) != 0:
				t.Errorf("errors %q, want none", sum.Errors)
			case c.want != "" && (len(sum.Errors) != 1 || !strings.HasPrefix(sum.Errors[0], c.want)):
				t.Errorf("errors %q, want %q", sum.Errors, c.want)
			}
		})
	}
}

// A zip archive cannot be read from a pipe: it is said, not taken for text.
func TestIngestZipFromPipe(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	zip, err := os.ReadFile("../sample_data/boardspace-2026-03.zip")
	if err != nil {
		t.Fatal(err)
	}
	sum := ingestInto(t, d, Options{Stdin: bytes.NewReader(zip)}, "-")
	if len(sum.Errors) != 1 || !strings.Contains(sum.Errors[0], "a zip archive cannot be read from a pipe") {
		t.Errorf("errors %q", sum.Errors)
	}
}

// The records between the reader and the writer are bounded in bytes: with a budget of a
// few KB, no more than the budget (or one record, when a record is larger) is ever held,
// and the database is the same as with the default budget.
func TestIngestInFlightBytes(t *testing.T) {
	paths := []string{"../sample_data", "../ingest/testdata/samples"}
	ref := openTemp(t)
	defer ref.Close()
	sum := ingestInto(t, ref, Options{}, paths...)
	want := snapshot(t, ref.db)
	if sum.peakInFlight > ingest.DefaultMaxInFlight {
		t.Errorf("peak %d bytes in flight, above the default budget %d", sum.peakInFlight, ingest.DefaultMaxInFlight)
	}

	var largest int64
	ingest.Open(paths, func(rec *ingest.Record, err error) error {
		if rec != nil {
			largest = max(largest, rec.Bytes())
		}
		return nil
	})
	for _, budget := range []int64{1, 4 << 10, 64 << 10} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			d := openTemp(t)
			defer d.Close()
			sum := ingestWithin(t, 60*time.Second, d, Options{Workers: 4, Limits: ingest.Limits{MaxInFlight: budget}}, paths...)
			if lim := max(budget, largest); sum.peakInFlight > lim || sum.peakInFlight == 0 {
				t.Errorf("peak %d bytes in flight, want at most %d (budget %d, largest record %d)", sum.peakInFlight, lim, budget, largest)
			}
			if got := snapshot(t, d.db); got != want {
				t.Errorf("the database differs from one ingested with the default budget")
			}
		})
	}
}

// The database, its -wal and -shm files and the Parquet output are not read as input, by
// whatever path they are named; each is said in a notice. The rest is read.
func TestIngestSkipsOwnOutputs(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(filepath.Join(dir, "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	copyFile(t, autumn, filepath.Join(dir, "games.ponte"))
	pq := filepath.Join(dir, "out")
	if _, err := d.WriteParquet(pq); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(pq, ".games.parquet.0123abcd.tmp"), "PAR1")
	copyFile(t, online, filepath.Join(pq, "notes.jsonl")) // not an output: read
	if err := os.Symlink(filepath.Join(dir, "ponte.db"), filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	sum := ingestInto(t, d, Options{ParquetDir: pq}, dir, filepath.Join(pq, ".games.parquet.0123abcd.tmp"), dir+"/../"+filepath.Base(dir)+"/ponte.db")
	if len(sum.Errors) != 0 || sum.Files != 2 || sum.Games != 27 {
		t.Errorf("summary %+v, want 2 files read (games.ponte, out/notes.jsonl), 27 games", sum)
	}
	var notes []string
	for _, n := range sum.Notices {
		notes = append(notes, strings.TrimPrefix(n, dir+"/"))
	}
	want := []string{
		"link.db: the database being written, not read",
		"out/games.parquet: the Parquet output of the database being written, not read",
		"out/tags.parquet: the Parquet output of the database being written, not read",
		"out/turns.parquet: the Parquet output of the database being written, not read",
		"ponte.db: the database being written, not read",
		"ponte.db-shm: the shared-memory index of the database being written, not read",
		"ponte.db-wal: the write-ahead log of the database being written, not read",
		"out/.games.parquet.0123abcd.tmp: a temporary file of the Parquet output, not read",
		"../" + filepath.Base(dir) + "/ponte.db: the database being written, not read",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

// RemoveStaleTemps removes the temporary files of WriteParquet older than the run, and
// nothing else.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	old := start.Add(-time.Hour)
	files := []struct {
		name    string
		mtime   time.Time
		removed bool
	}{
		{".games.parquet.0123abcd.tmp", old, true},
		{".turns.parquet.deadbeef.tmp", old, true},
		{".turns.parquet.deadbeef.tmp.keep", old, false},
		{".turns.parquet.DEADBEEF.tmp", old, false},
		{".turns.parquet.0123456.tmp", old, false},
		{"games.parquet", old, false},
		{".other.parquet.0123abcd.tmp", old, false},
		{".games.parquet.0123abce.tmp", start.Add(time.Second), false}, // being written now
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		write(t, p, "PAR1")
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, ".games.parquet.00000000.tmp"), 0o777) // not a file
	os.Symlink(filepath.Join(dir, "games.parquet"), filepath.Join(dir, ".games.parquet.11111111.tmp"))
	removed, err := RemoveStaleTemps(dir, start)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, ".games.parquet.0123abcd.tmp"), filepath.Join(dir, ".turns.parquet.deadbeef.tmp")}; strings.Join(removed, ",") != strings.Join(want, ",") {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != f.removed {
			t.Errorf("%s: removed %v, want %v", f.name, gone, f.removed)
		}
	}
	for _, name := range []string{".games.parquet.00000000.tmp", ".games.parquet.11111111.tmp"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if removed, err := RemoveStaleTemps(filepath.Join(dir, "none"), start); err != nil || len(removed) != 0 {
		t.Errorf("a directory that does not exist: %v, %v", removed, err)
	}
}
