// Package inputs reads the records of the paths a command is given (files, folders read
// recursively, standard input), as an iterator, leaving out ponte's own outputs met in
// the walk of a folder: a report, a database and its files, its Parquet files, each said
// in a note instead (a notice, ingest.ErrSkipped).
package inputs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/report"
	"github.com/ponte/ponte/store"
)

// sqliteHeader is how a SQLite database file begins.
var sqliteHeader = []byte("SQLite format 3\x00")

// Own returns what tells ponte's own outputs from the inputs met in the walk of a
// folder of paths, so that `ponte verify .` or a second `ponte analyze .` does not read
// the report, the database or the Parquet files that an earlier run wrote there. It says
// whether the file at path is skipped, and the note that says so, with the path it is
// about: one for a report's or a Parquet folder's files as a whole (the folder's, with its
// first file), "" for the others. Ponte's
// outputs carry markers: a report's folder holds .ponte-report, a Parquet folder
// .ponte-database.json, a database begins with SQLite's header (its -wal, -shm and
// -journal files beside it). A file named among paths is read as asked.
func Own(paths []string) func(path string) (skip bool, source, note string) {
	named := make(map[string]bool, len(paths))
	for _, p := range paths {
		named[filepath.Clean(p)] = true
	}
	marked := map[string]bool{} // folder + "\x00" + marker: whether the folder holds the marker
	holds := func(dir, marker string) bool {
		key := dir + "\x00" + marker
		v, ok := marked[key]
		if !ok {
			fi, err := os.Stat(filepath.Join(dir, marker))
			v = err == nil && fi.Mode().IsRegular()
			marked[key] = v
		}
		return v
	}
	noted := map[string]bool{} // the folders said
	folder := func(dir, what string) (bool, string, string) {
		if noted[dir] {
			return true, "", ""
		}
		noted[dir] = true
		return true, dir, what + ", not read"
	}
	return func(path string) (bool, string, string) {
		if path == "-" || named[filepath.Clean(path)] {
			return false, "", ""
		}
		dir := filepath.Dir(path)
		for _, d := range []string{dir, filepath.Dir(dir)} { // a page is in games/ of the report
			if holds(d, report.MarkerName) {
				return folder(d, "a report ponte wrote (it holds "+report.MarkerName+")")
			}
		}
		if strings.HasSuffix(strings.ToLower(path), ".parquet") && holds(dir, store.MarkerName) {
			return folder(dir, "the Parquet files ponte wrote (the folder holds "+store.MarkerName+")")
		}
		if isSQLite(path) {
			return true, path, "a SQLite database (ponte's, or another program's), not a game archive: not read"
		}
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if db, ok := strings.CutSuffix(path, suffix); ok && isSQLite(db) {
				return true, path, "a file of the SQLite database " + db + ", not read"
			}
		}
		return false, "", ""
	}
}

// Skip is Own for intake.Options.Skip: the note names its path.
func Skip(paths []string) func(path string) (bool, string) {
	own := Own(paths)
	return func(path string) (bool, string) {
		skip, source, note := own(path)
		if note == "" {
			return skip, ""
		}
		return skip, source + ": " + note
	}
}

// isSQLite reports whether the file at path begins with SQLite's header.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, sqliteHeader)
}

// ownNote is the notice of an output of ponte's that is not read.
type ownNote struct{ note string }

func (n ownNote) Error() string { return n.note }
func (n ownNote) Unwrap() error { return ingest.ErrSkipped }

// List is ingest.Inputs of paths without ponte's own outputs met in a walk, whose
// notes come in their place (Own).
func List(paths []string) ([]ingest.Input, error) {
	in, err := ingest.Inputs(paths)
	if err != nil {
		return nil, err
	}
	own := Own(paths)
	kept := in[:0]
	for _, i := range in {
		if i.Err == nil {
			if skip, source, note := own(i.Path); skip {
				if note != "" {
					kept = append(kept, ingest.Input{Err: &ingest.Notice{Source: source, Err: ownNote{note}}})
				}
				continue
			}
		}
		kept = append(kept, i)
	}
	return kept, nil
}

var errStopReading = errors.New("stop reading")

// Records is ingest.OpenWith's callbacks as an iterator of the records of paths and
// their errors, in order, read within lim; stdin is what the path "-" reads. A path that
// does not exist ends the sequence with its *ingest.PathError. When read is not nil, the
// bytes read of the inputs are added to it as they are read, for a progress bar. The
// sequence ends between two records once ctx is done (Ctrl-C); a FIFO nobody opens and a
// pipe that sends nothing give up then. Ponte's own outputs met in the walk of a folder
// are not read: each is a notice (Own).
func Records(ctx context.Context, paths []string, stdin io.Reader, read *atomic.Int64, lim ingest.Limits) iter.Seq2[*ingest.Record, error] {
	return func(yield func(*ingest.Record, error) bool) {
		ins, err := List(paths)
		if err != nil {
			yield(nil, err)
			return
		}
		fn := func(rec *ingest.Record, err error) error {
			if ctx.Err() != nil || !yield(rec, err) {
				return errStopReading
			}
			return nil
		}
		for _, in := range ins {
			if ctx.Err() != nil {
				return
			}
			if in.Err != nil {
				if !yield(nil, in.Err) {
					return
				}
				continue
			}
			if err := ingest.OpenWith(ctx, []string{in.Path}, ingest.OpenOptions{Stdin: stdin, Read: read, Limits: lim}, fn); err != nil {
				if !errors.Is(err, errStopReading) && ctx.Err() == nil {
					yield(nil, err)
				}
				return
			}
		}
	}
}

// Size is the size of the files that paths name or hold, as ingest.Open reads them:
// -1 when one is standard input or not a regular file (a pipe), whose size is known only
// once read.
func Size(paths []string) int64 {
	inputs, err := ingest.Inputs(paths)
	if err != nil {
		return -1 // a path that does not exist: said when it is read
	}
	var size int64
	for _, in := range inputs {
		if in.Err != nil {
			continue
		}
		if in.Path == "-" {
			return -1
		}
		info, err := os.Stat(in.Path)
		if err != nil {
			continue // said when it is read
		}
		if !info.Mode().IsRegular() {
			return -1
		}
		size += info.Size()
	}
	return size
}
