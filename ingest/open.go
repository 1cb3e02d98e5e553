package ingest

import (
	"archive/zip"
	"bytes"
	"cmp"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Open reads the records of every path, in order, and calls fn for each
// record, with a nil error for a record read well or a [*ParseError] for a
// record that could not be read (the record then holds what was read of it).
// Records are streamed one at a time: memory stays flat whatever the size of
// the inputs.
//
// A path is a file, "-" for standard input, or a directory (or a link to
// one), walked recursively in lexical order (see [Inputs]). Files may be
// compressed with gzip or zstd, or be zip archives, read entry by entry in the
// order of their cleaned names (path.Clean: "./a/../b.ponte" is read as
// "archive.zip/b.ponte"); the compression is detected from the magic bytes,
// the record format from the content, whatever the name. Compressed streams
// and zip archives inside one another are read up to three deep. Every
// compressed part is checked before its records are passed on (see
// [Reader.Read]): a damaged one is reported by a *PathError wrapping a
// [*DamagedError], and none of its records is passed on.
//
// The same rule skips files of a directory and entries of a zip archive: a
// file or directory whose name starts with '.' (hidden), with "README", or is
// "__MACOSX" (the resource forks that macOS adds to archives), and what lies
// below such a directory; a directory skipped so is said by a [*Notice]. The
// directories of an archive have no content to read. An entry whose name is absolute ("/x",
// "C:/x") or goes up out of the archive ("../x") is not read: it is
// reported by a [*Notice] that names it.
//
// Before reading anything, Open checks that every path exists: if one does
// not, it returns a [*PathError] (Op "open") and calls fn for nothing. A file
// that cannot be read as a whole later (unreadable, corrupt compressed data,
// content in no known format) is reported by calling fn with a nil record and
// a *PathError, and Open goes on with the next file. A zip entry beyond the
// limits against decompression bombs is such a *PathError, wrapping
// [ErrTooLarge] and naming the entry ("archive.zip/entry"), after the
// records read before the limit. Beyond the limits of one entry
// ([Limits.MaxZipEntrySize], [Limits.MaxZipRatio] past [Limits.ZipRatioFloor]) the next entry is
// read; beyond those of the whole archive ([Limits.MaxZipEntries], [Limits.MaxZipTotal],
// MaxZipRatio past [Limits.ZipTotalRatioFloor]), or at an entry whose compressed
// data overlaps that of another entry (a zip bomb), the rest of the archive
// is not read and Open goes on with the next file.
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
	return OpenCounted(paths, stdin, nil, fn)
}

// OpenCounted is OpenFrom that also adds to *read, as it reads them, the bytes it reads
// of the inputs, for a progress bar to compare with their sizes: every byte of a plain or
// compressed file (of a compressed one, the compressed bytes: one large archive moves
// from 0 to its size), the compressed data of the entries of a zip archive that are read
// (not its directory, nor the entries skipped), what is read of standard input. The count
// is added from the goroutine that calls OpenCounted, while it reads; another goroutine
// may load it at any time. A nil read counts nothing.
func OpenCounted(paths []string, stdin io.Reader, read *atomic.Int64, fn func(*Record, error) error) error {
	return OpenContext(context.Background(), paths, stdin, read, fn)
}

// OpenContext is OpenCounted that stops as soon as ctx ends, returning ctx's error: also
// while it waits to open a named FIFO that no process writes (OpenFile), or for data of a
// pipe or of stdin that sends nothing (ContextReader), so that an interrupt is never
// held up by an input.
func OpenContext(ctx context.Context, paths []string, stdin io.Reader, read *atomic.Int64, fn func(*Record, error) error) error {
	return OpenWith(ctx, paths, OpenOptions{Stdin: stdin, Read: read, Limits: DefaultLimits()}, fn)
}

// OpenOptions are the settings of [OpenWith].
type OpenOptions struct {
	// Stdin is what the path "-" reads.
	Stdin io.Reader
	// Read, when not nil, counts the bytes read of the inputs, as OpenCounted does.
	Read *atomic.Int64
	// Limits are the limits of the records and of the zip archives read; a zero field
	// takes its default.
	Limits Limits
}

// OpenWith is [OpenContext] with its settings in opts: the stream "-" names, the count of
// bytes read, and the limits.
func OpenWith(ctx context.Context, paths []string, opts OpenOptions, fn func(*Record, error) error) error {
	stdin, read := opts.Stdin, opts.Read
	lim := opts.Limits.OrDefault()
	inputs, err := Inputs(paths)
	if err != nil {
		return err
	}
	if ctx.Done() != nil {
		next := fn
		fn = func(rec *Record, err error) error {
			if e := ctx.Err(); e != nil {
				return e
			}
			return next(rec, err)
		}
	}
	for _, in := range inputs {
		switch {
		case in.Err != nil:
			err = fn(nil, in.Err)
		case in.Path == "-":
			err = readStream(counted(ContextReader(ctx, stdin), read), "-", &lim, fn)
		default:
			err = openFile(ctx, in.Path, read, &lim, fn)
		}
		if err == nil {
			err = ctx.Err()
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
// given, "-" as given, a directory (or a link to one) walked recursively in lexical
// order, skipping hidden files and directories (a name starting with '.'), README* and
// __MACOSX, following links to files and to directories, but not a link to a directory
// that holds it (a loop). A directory skipped, a loop and a file that is no regular file
// are said by an Input whose Err is a *Notice. A path that does not exist is returned as a *PathError
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
		out = walk(p, []os.FileInfo{info}, out)
	}
	return out, nil
}

// walk appends the inputs of the directory dir to out, recursively, in lexical order.
// ancestors are the directories from the root of the walk to dir, so that a link to one
// of them (a loop) is not followed. What it passes over but the files of skipName (a
// directory skipped by name, a FIFO, a loop) is said by a *Notice.
func walk(dir string, ancestors []os.FileInfo, out []Input) []Input {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return append(out, Input{Err: NewPathError("open", dir, err)})
	}
	skipped := func(p, why string) {
		out = append(out, Input{Err: &Notice{Source: p, Err: &detail{ErrSkipped, why}}})
	}
	for _, d := range entries {
		p := filepath.Join(dir, d.Name())
		typ := d.Type()
		var info os.FileInfo
		if typ&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				out = append(out, Input{Err: NewPathError("open", p, err)})
				continue
			}
			info, typ = fi, fi.Mode().Type()
		}
		if skipName(d.Name()) {
			if typ.IsDir() {
				skipped(p, "a folder skipped by its name (hidden, README or __MACOSX): not read")
			}
			continue
		}
		switch {
		case typ.IsDir():
			if info == nil {
				fi, err := os.Stat(p)
				if err != nil {
					out = append(out, Input{Err: NewPathError("open", p, err)})
					continue
				}
				info = fi
			}
			if slices.ContainsFunc(ancestors, func(a os.FileInfo) bool { return os.SameFile(a, info) }) {
				skipped(p, "a link to a folder that holds it (a loop): not followed")
				continue
			}
			out = walk(p, append(ancestors[:len(ancestors):len(ancestors)], info), out)
		case typ.IsRegular():
			out = append(out, Input{Path: p})
		default:
			// A FIFO, device or socket met in a walk is not read (it may never end, or
			// wait for a writer): said, not skipped silently.
			skipped(p, "not a regular file (a FIFO, device or socket) found in a directory: not read; name it on the command line to read it")
		}
	}
	return out
}

// skipName reports whether a file or directory met in a directory walk is
// skipped: hidden ones, README* and the __MACOSX folder of zip archives.
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "README") || name == "__MACOSX"
}

// openFile reads one file, a zip archive or a stream, adding the bytes read to *read
// (OpenCounted).
func openFile(ctx context.Context, path string, read *atomic.Int64, lim *Limits, fn func(*Record, error) error) error {
	f, err := OpenFile(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
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
		return readZip(f, info.Size(), path, read, fn, &archiveBudget{lim: lim, size: info.Size()}, 0)
	}
	var r io.Reader = f
	if info, err := f.Stat(); err == nil && !info.Mode().IsRegular() {
		r = ContextReader(ctx, f) // a FIFO, a pipe: it may send nothing
	}
	return readStream(counted(r, read), path, lim, fn)
}

// counted returns r, counting what is read of it into *read when read is not nil.
func counted(r io.Reader, read *atomic.Int64) io.Reader {
	if read == nil || r == nil {
		return r
	}
	return progressReader{r, read}
}

// progressReader adds the bytes read through it to a count that another goroutine may
// load (OpenCounted).
type progressReader struct {
	r    io.Reader
	read *atomic.Int64
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.read.Add(int64(n))
	return n, err
}

// readZip reads the entries of a zip archive in name order, within the
// limits of limits.go. An entry beyond the limits of one entry
// (MaxZipEntrySize, MaxZipRatio past ZipRatioFloor) is reported as a
// *PathError wrapping ErrTooLarge, after the records read before the limit,
// and the next entry is read. Beyond MaxZipEntries entries, beyond the
// limits of the archive (MaxZipTotal, MaxZipRatio past ZipTotalRatioFloor),
// or at an entry whose compressed data overlaps another's, the entry is
// reported the same way and the rest of the archive is not read.
//
// A zip archive inside an entry is read the same way, its entries named
// "outer.zip/inner.zip/entry", within the limits of the outermost archive (arch,
// the archive's own, made by the caller, for it), at most maxNesting deep: a stored one in place, a compressed one
// from a temporary file it is decompressed to (and checked) first.
func readZip(ra io.ReaderAt, size int64, path string, read *atomic.Int64, fn func(*Record, error) error, arch *archiveBudget, depth int) error {
	// The directory is loaded whole by zip.NewReader (about 460 bytes an entry): an
	// archive that declares far more entries than are ever read is refused before it.
	lim := arch.lim
	if n, ok := zipDeclaredEntries(ra, size); ok && n > 2*uint64(lim.MaxZipEntries) {
		return fn(nil, NewPathError("read", path, fmt.Errorf("%w: the archive declares %d entries, more than twice the limit MaxZipEntries of %d: not read (its directory alone would take %d MB)",
			ErrTooLarge, n, lim.MaxZipEntries, n*460>>20)))
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return fn(nil, NewPathError("read", path, err))
	}
	// Count the compressed bytes actually read for the entry being read.
	cur := &budget{lim: lim, arch: arch}
	zr.RegisterDecompressor(zip.Store, func(r io.Reader) io.ReadCloser {
		return io.NopCloser(countReader{counted(r, read), &cur.raw})
	})
	zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser {
		return flate.NewReader(countReader{counted(r, read), &cur.raw})
	})
	entries := zipEntries(zr.File)
	overlaps := zipOverlaps(entries)
	n := 0
	for i, e := range entries {
		zf := e.f
		if n == lim.MaxZipEntries {
			return fn(nil, NewPathError("read", path, lim.tooManyEntries(len(entries), e.name)))
		}
		n++
		if e.escapes {
			if err := fn(nil, &Notice{Source: path, Err: &detail{ErrSkipped,
				"entry " + quoteName(zf.Name) + " names a path outside the archive (absolute, or through \"..\"): not read"}}); err != nil {
				return err
			}
			continue
		}
		name := path + "/" + e.name
		if j, ok := overlaps[i]; ok {
			return fn(nil, NewPathError("read", name, overlapError(zf.Name, entries[j].f.Name)))
		}
		if err := lim.declaredTooLarge(zf.UncompressedSize64, zf.CompressedSize64); err != nil {
			if e := fn(nil, NewPathError("read", name, err)); e != nil {
				return e
			}
			continue
		}
		if err := arch.check(arch.out+int64(zf.UncompressedSize64), true); err != nil {
			return fn(nil, NewPathError("read", name, err))
		}
		*cur = budget{lim: lim, arch: arch}
		if isZip(zf) {
			if err := readInnerZip(zf, ra, name, read, fn, cur, depth); err != nil {
				return err
			}
			arch.out += cur.out
			if arch.stop != nil {
				return fn(nil, NewPathError("read", name, arch.stop))
			}
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			if e := fn(nil, NewPathError("read", name, err)); e != nil {
				return e
			}
			continue
		}
		off, _ := zf.DataOffset()
		wp := newWholePart(rc, off)
		rd := NewReader(&limitReader{r: wp, b: cur}, name)
		rd.Limits = *lim
		rd.budget = cur
		rd.layers = []*layer{&wp.layer}
		reported := false
		err = readRecords(rd, name, func(rec *Record, err error) error {
			if arch.stop != nil && errors.Is(err, arch.stop) {
				reported = true
			}
			return fn(rec, err)
		})
		rc.Close()
		arch.out += cur.out
		if err != nil {
			return err
		}
		if arch.stop != nil {
			if !reported {
				return fn(nil, NewPathError("read", name, arch.stop))
			}
			return nil
		}
	}
	return nil
}

// zipEntry is an entry of a zip archive that Open reads, or reports.
type zipEntry struct {
	f       *zip.File
	name    string // the cleaned name
	escapes bool   // the name is absolute or goes up out of the archive: not read
}

// zipEntries returns the entries of an archive that Open reads or reports,
// sorted by cleaned name: every entry but the directories and those that
// the rule of skipName skips.
func zipEntries(files []*zip.File) []zipEntry {
	var out []zipEntry
	for _, zf := range files {
		if zf.FileInfo().IsDir() {
			continue
		}
		name, escapes := cleanZipName(zf.Name)
		if !escapes && skipZipEntry(name) {
			continue
		}
		out = append(out, zipEntry{f: zf, name: name, escapes: escapes})
	}
	slices.SortStableFunc(out, func(a, b zipEntry) int { return strings.Compare(a.name, b.name) })
	return out
}

// cleanZipName cleans the name of a zip entry ("./a/../b.ponte" is
// "b.ponte") and tells whether it escapes the archive: an absolute name, or
// one that goes up through "..". A backslash counts as a separator for
// that.
func cleanZipName(name string) (string, bool) {
	clean := path.Clean(name)
	slashed := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	escapes := strings.HasPrefix(slashed, "/") || slashed == ".." || strings.HasPrefix(slashed, "../") ||
		len(slashed) >= 3 && slashed[1] == ':' && slashed[2] == '/' && ('A' <= slashed[0]&^0x20 && slashed[0]&^0x20 <= 'Z') // a Windows drive, "C:/x"
	return clean, escapes
}

// zipDeclaredEntries reads the number of entries a zip archive declares in its end of
// central directory record (or its zip64 record), without reading the directory.
func zipDeclaredEntries(ra io.ReaderAt, size int64) (uint64, bool) {
	const eocdLen, maxComment = 22, 65535
	n := min(size, eocdLen+maxComment)
	if n < eocdLen {
		return 0, false
	}
	tail := make([]byte, n)
	if _, err := ra.ReadAt(tail, size-n); err != nil {
		return 0, false
	}
	i := bytes.LastIndex(tail[:len(tail)-eocdLen+4], []byte("PK\x05\x06"))
	if i < 0 {
		return 0, false
	}
	entries := uint64(binary.LittleEndian.Uint16(tail[i+10:]))
	if entries != 0xffff {
		return entries, true
	}
	// zip64: the locator stands just before the record and points at the zip64 record.
	loc := size - n + int64(i) - 20
	var buf [56]byte
	if loc < 0 || func() bool { _, err := ra.ReadAt(buf[:20], loc); return err != nil }() || string(buf[:4]) != "PK\x06\x07" {
		return entries, true
	}
	off := int64(binary.LittleEndian.Uint64(buf[8:]))
	if off < 0 || off > size-56 {
		return 0, false
	}
	if _, err := ra.ReadAt(buf[:56], off); err != nil || string(buf[:4]) != "PK\x06\x06" {
		return 0, false
	}
	return binary.LittleEndian.Uint64(buf[32:]), true
}

// skipZipEntry reports whether a cleaned entry name has a part that a
// directory walk skips (see skipName).
func skipZipEntry(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part != "" && skipName(part) {
			return true
		}
	}
	return false
}

// zipOverlaps finds the entries whose compressed data overlaps that of
// another entry: for each, by index in entries, the index of one it
// overlaps. Reading them would decompress the same bytes again, the way of
// a zip bomb; no archiver writes such entries. Entries whose escape is
// reported, and those of no compressed data, are left out.
func zipOverlaps(entries []zipEntry) map[int]int {
	type span struct {
		i          int
		start, end int64
	}
	spans := make([]span, 0, len(entries))
	for i, e := range entries {
		if e.escapes || e.f.CompressedSize64 == 0 {
			continue
		}
		off, err := e.f.DataOffset()
		if err != nil || e.f.CompressedSize64 > math.MaxInt64-uint64(off) {
			continue // Open fails on it
		}
		spans = append(spans, span{i, off, off + int64(e.f.CompressedSize64)})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	overlaps := map[int]int{}
	far := -1 // the span seen so far that ends the farthest
	for k, s := range spans {
		if far >= 0 && s.start < spans[far].end {
			overlaps[s.i] = spans[far].i
			if _, ok := overlaps[spans[far].i]; !ok {
				overlaps[spans[far].i] = s.i
			}
		} else if k+1 < len(spans) && spans[k+1].start < s.end {
			overlaps[s.i] = spans[k+1].i
		}
		if far < 0 || s.end > spans[far].end {
			far = k
		}
	}
	return overlaps
}

// readStream reads the records of one stream and passes them to fn.
func readStream(r io.Reader, name string, lim *Limits, fn func(*Record, error) error) error {
	rd := NewReader(r, name)
	rd.Limits = *lim
	return readRecords(rd, name, fn)
}

// ReadStream reads the records of a stream that can be read only once (standard input, a
// pipe), naming them name, and passes them to fn as [Open] does: each record with its
// error, notices as fn(nil, notice), and an error that ends the stream (a corrupt
// compressed stream, content in no format, a zip archive, which needs a file) as fn(nil,
// *PathError). It reads no further than the records end, within lim (a zero field
// takes its default).
func ReadStream(r io.Reader, name string, lim Limits, fn func(*Record, error) error) error {
	lim = lim.OrDefault()
	return readStream(r, name, &lim, fn)
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

// isZip reports whether an entry of a zip archive is itself a zip archive, by its first
// bytes (read without the decompressors that count what is read).
func isZip(zf *zip.File) bool {
	raw, err := zf.OpenRaw()
	if err != nil {
		return false
	}
	r := raw
	switch zf.Method {
	case zip.Store:
	case zip.Deflate:
		fr := flate.NewReader(raw)
		defer fr.Close()
		r = fr
	default:
		return false
	}
	var magic [4]byte
	n, _ := io.ReadFull(r, magic[:])
	return n == 4 && (string(magic[:]) == "PK\x03\x04" || string(magic[:]) == "PK\x05\x06")
}

// readInnerZip reads the zip archive of an entry, named name: a stored one where it
// lies in the outer archive, a compressed one from a temporary file, decompressed
// within the entry's limits (cur) and checked against the entry's CRC-32 first.
func readInnerZip(zf *zip.File, ra io.ReaderAt, name string, read *atomic.Int64, fn func(*Record, error) error, cur *budget, depth int) error {
	if depth+1 >= maxNesting {
		return fn(nil, NewPathError("read", name, fmt.Errorf("%w: a zip archive inside %d zip archives: not read", ErrTooLarge, depth+1)))
	}
	if zf.Method == zip.Store {
		off, err := zf.DataOffset()
		if err != nil {
			return fn(nil, NewPathError("read", name, err))
		}
		size := int64(zf.CompressedSize64)
		cur.out = size
		return readZip(io.NewSectionReader(ra, off, size), size, name, read, fn, cur.arch, depth+1)
	}
	tmp, err := os.CreateTemp("", "ponte-inner-*.zip")
	if err != nil {
		return fn(nil, NewPathError("read", name, fmt.Errorf("a zip archive inside the archive needs a temporary file: %w", err)))
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	rc, err := zf.Open()
	if err != nil {
		return fn(nil, NewPathError("read", name, err))
	}
	off, _ := zf.DataOffset()
	wp := newWholePart(rc, off)
	_, err = io.Copy(tmp, &limitReader{r: wp, b: cur})
	rc.Close()
	var d *damage
	switch {
	case errors.As(err, &d):
		return fn(nil, NewPathError("read", name, &DamagedError{Part: d.layer.partName(), Offset: off, FirstRecord: 1, Err: d.err}))
	case err != nil:
		return fn(nil, NewPathError("read", name, err))
	}
	return readZip(tmp, wp.out, name, read, fn, cur.arch, depth+1)
}
