package ingest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Open reads the records of every path, in order, and calls fn for each
// record, with a nil error for a record read well or a [*ParseError] for a
// record that could not be read (the record then holds what was read of it).
// Records are streamed one at a time: memory stays flat whatever the size of
// the inputs.
//
// A path is a file, "-" for standard input, or a directory, walked
// recursively in lexical order, skipping hidden files and directories (a
// name starting with '.') and README* files. Files may be compressed with
// gzip or zstd, or be zip archives (read entry by entry in name order, the
// entries named "archive.zip/entry"); the compression is detected from the
// magic bytes, the record format from the content, whatever the name.
//
// Before reading anything, Open checks that every path exists: if one does
// not, it returns a [*PathError] (Op "open") and calls fn for nothing. A file
// that cannot be read as a whole later (unreadable, corrupt compressed data,
// content in no known format) is reported by calling fn with a nil record and
// a *PathError, and Open goes on with the next file. A zip entry beyond the
// limits against decompression bombs ([MaxZipEntries], [MaxZipEntrySize],
// [MaxZipRatio]) is such a *PathError, wrapping [ErrTooLarge] and naming the
// entry, after the records read before the limit.
//
// What a reader skipped on purpose (a boardspace.net game tree of another
// game, ...) is passed as fn(nil, n) with a [*Notice] n, before the record
// that followed it: show it, but do not count it as a game, an unreadable
// game or a path that cannot be read ([IsNotice] tells it apart).
//
// If fn returns an error, Open stops and returns it.
func Open(paths []string, fn func(*Record, error) error) error {
	return OpenFrom(paths, os.Stdin, fn)
}

// OpenFrom is Open with the stream that the path "-" names.
func OpenFrom(paths []string, stdin io.Reader, fn func(*Record, error) error) error {
	inputs, err := Inputs(paths)
	if err != nil {
		return err
	}
	for _, in := range inputs {
		switch {
		case in.Err != nil:
			err = fn(nil, in.Err)
		case in.Path == "-":
			err = readStream(stdin, "-", fn)
		default:
			err = openFile(in.Path, fn)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Input is one input that Inputs found: a file to read ("-" for standard input), or a
// *PathError for what could not be looked at (then Path is empty).
type Input struct {
	Path string
	Err  error
}

// Inputs expands paths into the files Open reads, in the order it reads them: a file as
// given, "-" as given, a directory walked recursively in lexical order, skipping hidden
// files and directories (a name starting with '.'), README* and __MACOSX, following links
// to files but not to directories. A path that does not exist is returned as a *PathError
// before anything else; what cannot be looked at during a walk is an Input with Err, in its
// place, and the walk goes on.
func Inputs(paths []string) ([]Input, error) {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return nil, NewPathError("open", p, err)
		}
	}
	var out []Input
	for _, p := range paths {
		if p == "-" {
			out = append(out, Input{Path: "-"})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			out = append(out, Input{Err: NewPathError("open", p, err)})
			continue
		}
		if !info.IsDir() {
			out = append(out, Input{Path: p})
			continue
		}
		root := p
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				out = append(out, Input{Err: NewPathError("open", p, err)})
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if p != root && skipName(d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// Follow links to files, not to directories (no loops).
				fi, err := os.Stat(p)
				if err != nil {
					out = append(out, Input{Err: NewPathError("open", p, err)})
					return nil
				}
				if !fi.Mode().IsRegular() {
					return nil
				}
			} else if !d.Type().IsRegular() {
				return nil
			}
			out = append(out, Input{Path: p})
			return nil
		})
	}
	return out, nil
}

// skipName reports whether a file or directory met in a directory walk is
// skipped: hidden ones, README* and the __MACOSX folder of zip archives.
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "README") || name == "__MACOSX"
}

// openFile reads one file, a zip archive or a stream.
func openFile(path string, fn func(*Record, error) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fn(nil, NewPathError("open", path, err))
	}
	defer f.Close()
	magic := make([]byte, 4)
	n, _ := f.ReadAt(magic, 0)
	if bytes.HasPrefix(magic[:n], []byte("PK\x03\x04")) || bytes.HasPrefix(magic[:n], []byte("PK\x05\x06")) {
		info, err := f.Stat()
		if err != nil {
			return fn(nil, NewPathError("read", path, err))
		}
		return readZip(f, info.Size(), path, fn)
	}
	return readStream(f, path, fn)
}

// readZip reads the entries of a zip archive, within the limits
// MaxZipEntries, MaxZipEntrySize and MaxZipRatio: an entry beyond them is
// reported as a *PathError wrapping ErrTooLarge, after the records read
// before the limit, and the next entry is read; after MaxZipEntries entries
// the archive is reported and the rest of it not read.
func readZip(ra io.ReaderAt, size int64, path string, fn func(*Record, error) error) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return fn(nil, NewPathError("read", path, err))
	}
	// Count the compressed bytes actually read for the entry being read.
	cur := new(budget)
	zr.RegisterDecompressor(zip.Store, func(r io.Reader) io.ReadCloser {
		return io.NopCloser(countReader{r, &cur.raw})
	})
	zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser {
		return flate.NewReader(countReader{r, &cur.raw})
	})
	files := slices.Clone(zr.File)
	slices.SortStableFunc(files, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	n := 0
	for _, zf := range files {
		if zf.FileInfo().IsDir() || skipZipEntry(zf.Name) {
			continue
		}
		if n == MaxZipEntries {
			return fn(nil, NewPathError("read", path, tooManyEntries(len(files), zf.Name)))
		}
		n++
		name := path + "/" + zf.Name
		if err := declaredTooLarge(zf.UncompressedSize64, zf.CompressedSize64); err != nil {
			if e := fn(nil, NewPathError("read", name, err)); e != nil {
				return e
			}
			continue
		}
		*cur = budget{}
		rc, err := zf.Open()
		if err != nil {
			if e := fn(nil, NewPathError("read", name, err)); e != nil {
				return e
			}
			continue
		}
		rd := NewReader(&limitReader{r: rc, b: cur}, name)
		rd.budget = cur
		err = readRecords(rd, name, fn)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func skipZipEntry(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part != "" && skipName(part) {
			return true
		}
	}
	return false
}

// readStream reads the records of one stream and passes them to fn.
func readStream(r io.Reader, name string, fn func(*Record, error) error) error {
	return readRecords(NewReader(r, name), name, fn)
}

// readRecords passes the records of rd to fn, each after the notices that
// came before it.
func readRecords(rd *Reader, name string, fn func(*Record, error) error) error {
	for {
		rec, err := rd.Read()
		for _, n := range rd.Notices() {
			if e := fn(nil, n); e != nil {
				return e
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				return fn(nil, NewPathError("read", name, err))
			}
		}
		if err := fn(rec, err); err != nil {
			return err
		}
	}
}
