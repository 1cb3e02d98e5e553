package ingest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// zipBombOut, if set, is where TestZipBomb also writes its hostile archive,
// for measuring a command on it:
//
//	go test ./ingest -run TestZipBomb -zipbomb=/tmp/bomb.zip
var zipBombOut = flag.String("zipbomb", "", "write the hostile archive of TestZipBomb to this path")

// rawEntry is an entry of a zip archive written by hand: its central
// directory record may point at any local header of the archive.
type rawEntry struct {
	name         string
	method       uint16
	crc          uint32
	csize, usize uint64 // below 4 GiB
	offset       uint64 // of the local header the entry points at
}

// localHeader is the local file header of e, to be followed by its data.
func localHeader(e rawEntry) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x04034b50)
	b = binary.LittleEndian.AppendUint16(b, 20) // version needed
	b = binary.LittleEndian.AppendUint16(b, 0)  // flags
	b = binary.LittleEndian.AppendUint16(b, e.method)
	b = binary.LittleEndian.AppendUint16(b, 0)    // time
	b = binary.LittleEndian.AppendUint16(b, 0x21) // date: 1980-01-01
	b = binary.LittleEndian.AppendUint32(b, e.crc)
	b = binary.LittleEndian.AppendUint32(b, uint32(e.csize))
	b = binary.LittleEndian.AppendUint32(b, uint32(e.usize))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(e.name)))
	b = binary.LittleEndian.AppendUint16(b, 0) // extra
	return append(b, e.name...)
}

// rawZip is an archive of body (local headers and data, laid out by the
// caller) and a central directory of entries, with the zip64 end records
// when there are 0xFFFF entries or more.
func rawZip(body []byte, entries []rawEntry) []byte {
	le := binary.LittleEndian
	b := slices.Clone(body)
	cd := len(b)
	for _, e := range entries {
		b = le.AppendUint32(b, 0x02014b50)
		b = le.AppendUint16(b, 20) // version made by
		b = le.AppendUint16(b, 20) // version needed
		b = le.AppendUint16(b, 0)  // flags
		b = le.AppendUint16(b, e.method)
		b = le.AppendUint16(b, 0)
		b = le.AppendUint16(b, 0x21)
		b = le.AppendUint32(b, e.crc)
		b = le.AppendUint32(b, uint32(e.csize))
		b = le.AppendUint32(b, uint32(e.usize))
		b = le.AppendUint16(b, uint16(len(e.name)))
		b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // extra, comment, disk, internal and external attributes
		b = le.AppendUint32(b, uint32(e.offset))
		b = append(b, e.name...)
	}
	cdSize := len(b) - cd
	n := uint16(len(entries))
	if len(entries) >= 0xffff {
		end64 := len(b)
		b = le.AppendUint32(b, 0x06064b50)
		b = le.AppendUint64(b, 44)
		b = le.AppendUint16(b, 45)
		b = le.AppendUint16(b, 45)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, uint64(len(entries)))
		b = le.AppendUint64(b, uint64(len(entries)))
		b = le.AppendUint64(b, uint64(cdSize))
		b = le.AppendUint64(b, uint64(cd))
		b = le.AppendUint32(b, 0x07064b50)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, uint64(end64))
		b = le.AppendUint32(b, 1)
		n = 0xffff
	}
	b = le.AppendUint32(b, 0x06054b50)
	b = le.AppendUint32(b, 0) // disk numbers
	b = le.AppendUint16(b, n)
	b = le.AppendUint16(b, n)
	b = le.AppendUint32(b, uint32(cdSize))
	b = le.AppendUint32(b, uint32(cd))
	return le.AppendUint16(b, 0)
}

// deflated is data compressed with deflate, as in a zip entry.
func deflated(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entryOf is a raw entry of data under name, and its local header and data.
func entryOf(t testing.TB, name string, method uint16, data []byte) (rawEntry, []byte) {
	comp := data
	if method == zip.Deflate {
		comp = deflated(t, data)
	}
	e := rawEntry{name: name, method: method, crc: crc32.ChecksumIEEE(data), csize: uint64(len(comp)), usize: uint64(len(data))}
	return e, append(localHeader(e), comp...)
}

// overlapBomb is the hostile archive of the issue: n entries that all point
// at one deflate stream of size bytes (a record and line ends).
func overlapBomb(t testing.TB, n, size int) []byte {
	data := bomb("x", size)
	e, body := entryOf(t, "bomb.jsonl", zip.Deflate, data[:size])
	entries := make([]rawEntry, n)
	for i := range entries {
		entries[i] = e
		entries[i].name = fmt.Sprintf("e%06d.jsonl", i)
	}
	return rawZip(body, entries)
}

// zipEvents runs Open on paths and lists what fn was called with, with dir
// cut from the names: "SOURCE" for a record read well, "bad SOURCE" for a
// ParseError, "too large PATH" or "error PATH" for a PathError, "note
// MESSAGE" for a notice. A run of equal lines is one line ending in " ×N".
// The errors are returned too. It fails the test if Open takes more than
// 30 s, as a zip bomb would.
func zipEvents(t *testing.T, dir string, paths ...string) ([]string, []error) {
	t.Helper()
	return zipEventsWithin(t, DefaultLimits(), dir, paths...)
}

// zipEventsWithin is zipEvents within the limits lim.
func zipEventsWithin(t *testing.T, lim Limits, dir string, paths ...string) ([]string, []error) {
	t.Helper()
	var got []string
	var errs []error
	counts := []int{}
	add := func(s string) {
		if len(got) > 0 && got[len(got)-1] == s {
			counts[len(counts)-1]++
			return
		}
		got, counts = append(got, s), append(counts, 1)
	}
	rel := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	// A reader that never ends is stopped by the work it did, not by the clock (which a
	// busy machine or the race detector would run out): a million calls of fn, or 1 GiB
	// read of the archives, far beyond what any of these archives gives when read right.
	var read atomic.Int64
	calls := 0
	errEndless := errors.New("still reading after a million records or 1 GiB read")
	err := OpenWith(context.Background(), paths, OpenOptions{Read: &read, Limits: lim}, func(rec *Record, err error) error {
		if calls++; calls > 1_000_000 || read.Load() > 1<<30 {
			return errEndless
		}
		var pe *PathError
		switch {
		case IsNotice(err):
			add("note " + rel(err.Error()))
		case errors.As(err, &pe):
			errs = append(errs, err)
			if errors.Is(err, ErrTooLarge) {
				add("too large " + rel(pe.Path))
			} else {
				add("error " + rel(pe.Path))
			}
		case err != nil:
			add("bad " + rel(rec.Source))
		default:
			add(rel(rec.Source))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Open: %v, after %q", err, got)
	}
	for i, n := range counts {
		if n > 1 {
			got[i] += " ×" + strconv.Itoa(n)
		}
	}
	return got, errs
}

// TestZipBomb reads the hostile archive of the issue, 100,000 entries of
// 60 MB each sharing one deflate stream of 61 KB (6 MB in all, 6 TB to
// read), then an ordinary archive: the first entry is refused as
// overlapping another, the rest of the bomb is not read, the next archive
// is. It took about 16 hours before overlaps were refused.
func TestZipBomb(t *testing.T) {
	dir := t.TempDir()
	data := overlapBomb(t, 100_000, 60<<20)
	if len(data) > 7<<20 {
		t.Fatalf("the bomb is %d bytes", len(data))
	}
	bombPath := filepath.Join(dir, "bomb.zip")
	writeFiles(t, dir, map[string][]byte{"bomb.zip": data,
		"ok.zip": zipped(t, map[string][]byte{"a.jsonl": []byte(twoJSONL)})})
	if *zipBombOut != "" {
		if err := os.WriteFile(*zipBombOut, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	got, errs := zipEvents(t, dir, bombPath, filepath.Join(dir, "ok.zip"))
	t.Logf("%d bytes read in %v", len(data), time.Since(start))
	want := []string{"too large bomb.zip/e000000.jsonl", "ok.zip/a.jsonl ×2"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if msg := errs[0].Error(); !strings.Contains(msg, `entry "e000000.jsonl" overlaps entry "e000001.jsonl"`) || !strings.Contains(msg, "zip bomb") {
		t.Errorf("message %q", msg)
	}
}

// TestZipOverlap checks entries whose compressed data overlaps, and
// entries that lie side by side without overlapping.
func TestZipOverlap(t *testing.T) {
	a, aBody := entryOf(t, "a.jsonl", zip.Deflate, []byte(jsonlGame("a")))
	s, sBody := entryOf(t, "s.jsonl", zip.Deflate, []byte(jsonlGame("s")+jsonlGame("t")))
	z, zBody := entryOf(t, "z.jsonl", zip.Store, []byte(jsonlGame("z")))
	body := slices.Concat(aBody, sBody, zBody)
	s.offset = uint64(len(aBody))
	z.offset = uint64(len(aBody) + len(sBody))
	at := func(e rawEntry, name string) rawEntry { e.name = name; return e }
	// q is stored, and its data is s and z, headers and all.
	qData := slices.Concat(sBody, zBody)
	q := rawEntry{name: "q.bin", method: zip.Store, crc: crc32.ChecksumIEEE(qData),
		csize: uint64(len(qData)), usize: uint64(len(qData)), offset: uint64(len(aBody))}
	qBody := slices.Concat(aBody, localHeader(q), qData)
	qs, qz := s, z
	qs.offset = q.offset + uint64(len(localHeader(q)))
	qz.offset = qs.offset + uint64(len(sBody))
	empty := rawEntry{name: "e0.jsonl", method: zip.Store, offset: z.offset}
	tests := []struct {
		name    string
		body    []byte
		entries []rawEntry
		want    []string
		msg     string
	}{
		{"side by side", body, []rawEntry{a, s, z}, []string{"x.zip/a.jsonl", "x.zip/s.jsonl ×2", "x.zip/z.jsonl", "next.jsonl ×2"}, ""},
		{"two entries, one stream", body, []rawEntry{a, at(s, "b.jsonl"), at(s, "c.jsonl"), z},
			[]string{"x.zip/a.jsonl", "too large x.zip/b.jsonl", "next.jsonl ×2"}, `entry "b.jsonl" overlaps entry "c.jsonl"`},
		{"the later entry overlaps", body, []rawEntry{a, at(s, "y.jsonl"), at(s, "c.jsonl"), z},
			[]string{"x.zip/a.jsonl", "too large x.zip/c.jsonl", "next.jsonl ×2"}, `entry "c.jsonl" overlaps entry "y.jsonl"`},
		{"one entry's data inside another's", qBody, []rawEntry{a, q, qs, qz},
			[]string{"x.zip/a.jsonl", "too large x.zip/q.bin", "next.jsonl ×2"}, `entry "q.bin" overlaps entry "s.jsonl"`},
		{"empty entries share a header", body, []rawEntry{a, z, empty, at(empty, "e1.jsonl")},
			[]string{"x.zip/a.jsonl", "x.zip/z.jsonl", "next.jsonl ×2"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string][]byte{"x.zip": rawZip(tt.body, tt.entries), "next.jsonl": []byte(twoJSONL)})
			got, errs := zipEvents(t, dir, filepath.Join(dir, "x.zip"), filepath.Join(dir, "next.jsonl"))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if tt.msg != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.msg)) {
				t.Errorf("errors %v, want one with %q", errs, tt.msg)
			}
		})
	}
}

// variedJSONL is JSON Lines of about size bytes that compresses like real
// records (about 5 to 10 times), from seed.
func variedJSONL(seed, size int) []byte {
	var b []byte
	x := uint32(seed*7919 + 1)
	for i := 0; len(b) < size; i++ {
		x = x*1664525 + 1013904223
		b = fmt.Appendf(b, `{"game_id":"%d-%d","moves":["%c%d,%c%d","%c%d-%c%d"],"site":"s%d"}`+"\n",
			seed, i, 'a'+x%20, x>>8%20+1, 'a'+x>>13%20, x>>18%20+1, 'a'+x>>3%20, x>>23%20+1, 'a'+x>>11%20, x>>27%20+1, x%97)
	}
	return b
}

// TestZipEntryRatio checks the ratio of one entry at the default limits: an
// entry of 8 MiB from 8 KB is refused (before, below 64 MiB, no ratio was
// checked), its neighbours are read, and record text of ordinary ratio is
// never refused.
func TestZipEntryRatio(t *testing.T) {
	ordinary := variedJSONL(1, 3<<20)
	tests := []struct {
		name  string
		files map[string][]byte
		want  []string
	}{
		{"declared", map[string][]byte{"a.jsonl": []byte(jsonlGame("a")), "b.jsonl": bomb("b", 8<<20), "c.jsonl": []byte(jsonlGame("c"))},
			[]string{"x.zip/a.jsonl", "too large x.zip/b.jsonl", "x.zip/c.jsonl"}},
		{"in a .gz entry", map[string][]byte{"a.jsonl.gz": gzipped(t, string(bomb("a", 8<<20))), "b.jsonl": []byte(jsonlGame("b"))},
			[]string{"x.zip/a.jsonl.gz", "too large x.zip/a.jsonl.gz", "x.zip/b.jsonl"}},
		{"ordinary text", map[string][]byte{"a.jsonl": ordinary, "b.jsonl.gz": gzipped(t, string(ordinary))},
			[]string{"x.zip/a.jsonl ×" + strconv.Itoa(bytes.Count(ordinary, []byte("\n"))), "x.zip/b.jsonl.gz ×" + strconv.Itoa(bytes.Count(ordinary, []byte("\n")))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string][]byte{"x.zip": zipped(t, tt.files)})
			if got, _ := zipEvents(t, dir, filepath.Join(dir, "x.zip")); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestZipArchiveRatio checks the ratio of a whole archive at the default
// limits: 66 entries of about 1 MiB each from 1 KB, each below the floor of
// an entry's ratio, are read until they have given 64 MiB
// (ZipTotalRatioFloor); the entry beyond it is reported and the rest not
// read, the next path is. Entries that declare their sizes truly are
// stopped before reading; .gz entries, whose size is known only by reading
// them, while reading (their records before the limit are kept).
func TestZipArchiveRatio(t *testing.T) {
	files := map[string][]byte{}
	gzFiles := map[string][]byte{}
	for i := range 66 {
		data := bomb(strconv.Itoa(i), 1<<20)
		files[fmt.Sprintf("e%03d.jsonl", i)] = data[:1<<20]
		gzFiles[fmt.Sprintf("e%03d.jsonl.gz", i)] = gzipped(t, string(data[:1<<20-4<<10]))
	}
	tests := []struct {
		name    string
		files   map[string][]byte
		records int
		want    []string
		msg     string
	}{
		{"declared", files, 64, []string{"too large x.zip/e064.jsonl", "next.jsonl ×2"}, "the entries of the archive up to this one would give, by the size this one declares, 68157440 bytes"},
		{"in .gz entries", gzFiles, 65, []string{"too large x.zip/e064.jsonl.gz", "next.jsonl ×2"}, "the entries of the archive up to this one give 671"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string][]byte{"x.zip": zipped(t, tt.files), "next.jsonl": []byte(twoJSONL)})
			got, errs := zipEvents(t, dir, filepath.Join(dir, "x.zip"), filepath.Join(dir, "next.jsonl"))
			// The record of each entry read, one line each.
			n := 0
			for len(got) > 0 && strings.HasPrefix(got[0], "x.zip/e") {
				got = got[1:]
				n++
			}
			if n != tt.records || !slices.Equal(got, tt.want) {
				t.Errorf("%d records, then %q; want %d, then %q", n, got, tt.records, tt.want)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.msg) || !strings.Contains(errs[0].Error(), "MaxZipRatio") {
				t.Errorf("errors %v, want one with %q", errs, tt.msg)
			}
		})
	}
}

// TestZipTotal checks MaxZipTotal: the entries are read until the archive
// has given that many bytes (as declared, or as read in .gz entries); the
// entry beyond it is reported, after its records read before the limit,
// and the rest of the archive is not read; the next path is.
func TestZipTotal(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<30, 200, 1<<20)
	lim.MaxZipTotal = 3<<20 + 1<<19
	files := map[string][]byte{}
	gzFiles := map[string][]byte{}
	counts := map[string]int{}
	for i, n := range []string{"a", "b", "c", "d", "e"} {
		data := variedJSONL(i, 1<<20)
		files[n+".jsonl"] = data
		gzFiles[n+".jsonl.gz"] = gzipped(t, string(data))
		counts[n] = bytes.Count(data, []byte("\n"))
	}
	c := func(n string) string { return " ×" + strconv.Itoa(counts[n]) }
	tests := []struct {
		name  string
		files map[string][]byte
		want  []string
	}{
		{"declared", files, []string{"x.zip/a.jsonl" + c("a"), "x.zip/b.jsonl" + c("b"), "x.zip/c.jsonl" + c("c"),
			"too large x.zip/d.jsonl", "next.jsonl ×2"}},
		{"in .gz entries", gzFiles, []string{"x.zip/a.jsonl.gz" + c("a"), "x.zip/b.jsonl.gz" + c("b"), "x.zip/c.jsonl.gz" + c("c"),
			"x.zip/d.jsonl.gz", "too large x.zip/d.jsonl.gz", "next.jsonl ×2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string][]byte{"x.zip": zipped(t, tt.files), "next.jsonl": []byte(twoJSONL)})
			got, errs := zipEventsWithin(t, lim, dir, filepath.Join(dir, "x.zip"), filepath.Join(dir, "next.jsonl"))
			// The records of d read before the limit: about half of them.
			if len(got) > 3 && strings.HasPrefix(got[3], "x.zip/d.jsonl.gz ×") {
				n, _ := strconv.Atoi(strings.TrimPrefix(got[3], "x.zip/d.jsonl.gz ×"))
				if n < counts["d"]/4 || n > counts["d"]*3/4 {
					t.Errorf("%d records of d read, of %d", n, counts["d"])
				}
				got[3] = "x.zip/d.jsonl.gz"
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "MaxZipTotal") || !strings.Contains(errs[0].Error(), "the rest of the archive is not read") {
				t.Errorf("errors %v", errs)
			}
		})
	}
}

// TestZipNames checks the names of entries: "./x" and "a/../b" are read
// under their clean names, names that escape the archive are reported by a
// notice, and the documented rule of a directory walk skips the rest.
func TestZipNames(t *testing.T) {
	files := map[string][]byte{}
	for _, n := range []string{"./x.ponte", "a/../b.ponte", "c//d/./e.ponte", "a:b.ponte",
		"../up.ponte", "/abs.ponte", "c/../../up2.ponte", "C:/win.ponte", `..\win.ponte`,
		".hidden.ponte", "d/.git/x.ponte", "__MACOSX/._x.ponte", "README.md", "docs/README/x.ponte"} {
		files[n] = []byte(twoPonte)
	}
	files["dir/"] = nil
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"x.zip": zipped(t, files)})
	got, errs := zipEvents(t, dir, filepath.Join(dir, "x.zip"))
	note := func(name string) string {
		return "note x.zip: entry " + strconv.Quote(name) + ` names a path outside the archive (absolute, or through ".."): not read`
	}
	want := []string{note("../up.ponte"), note("c/../../up2.ponte"), note(`..\win.ponte`), note("/abs.ponte"), note("C:/win.ponte"),
		"x.zip/a:b.ponte ×2", "x.zip/b.ponte ×2", "x.zip/c/d/e.ponte ×2", "x.zip/x.ponte ×2"}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
}

// TestZipOrdinary reads archives as archivers write them, deflated and
// stored, with data descriptors or without, in nested directories: every
// entry is read, none is taken for a bomb.
func TestZipOrdinary(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 300 {
		name := fmt.Sprintf("d%d/g%03d.jsonl", i%7, i)
		var w interface{ Write([]byte) (int, error) }
		var err error
		if i%2 == 0 {
			w, err = zw.Create(name) // deflated, with a data descriptor
		} else {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write(variedJSONL(i, 2000))
	}
	zw.Close()
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"x.zip": buf.Bytes()})
	got, errs := zipEvents(t, dir, filepath.Join(dir, "x.zip"))
	if len(got) != 300 || len(errs) != 0 {
		t.Errorf("%d runs of records, errors %v", len(got), errs)
	}
}

// An archive whose directory declares far more entries than are ever read is refused
// before its directory is loaded: the directory alone would take ~460 bytes an entry. The
// archives here are only their end records, which is all the check reads; a zip64 one too.
func TestZipDeclaredEntries(t *testing.T) {
	eocd := func(entries uint16) []byte {
		b := []byte("PK\x05\x06")
		b = append(b, 0, 0, 0, 0)
		b = binary.LittleEndian.AppendUint16(b, entries)
		b = binary.LittleEndian.AppendUint16(b, entries)
		return append(b, make([]byte, 10)...) // directory size, offset, comment length
	}
	zip64 := func(entries uint64) []byte {
		head := append([]byte("PK\x03\x04"), make([]byte, 26)...) // a file starts as a zip archive
		rec := []byte("PK\x06\x06")
		rec = binary.LittleEndian.AppendUint64(rec, 44)
		rec = append(rec, make([]byte, 12)...) // versions, disk numbers
		rec = binary.LittleEndian.AppendUint64(rec, entries)
		rec = binary.LittleEndian.AppendUint64(rec, entries)
		rec = append(rec, make([]byte, 16)...) // directory size and offset
		loc := []byte("PK\x06\x07")
		loc = append(loc, 0, 0, 0, 0)
		loc = binary.LittleEndian.AppendUint64(loc, uint64(len(head))) // where the zip64 record is
		loc = append(loc, 1, 0, 0, 0)
		return append(append(append(head, rec...), loc...), eocd(0xffff)...)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want uint64
		ok   bool
	}{
		{"small", eocd(3), 3, true},
		{"65,000", eocd(65000), 65000, true},
		{"zip64, 3 million", zip64(3_000_000), 3_000_000, true},
		{"no end record", []byte("not a zip archive at all, no end record here"), 0, false},
	} {
		n, ok := zipDeclaredEntries(bytes.NewReader(tt.data), int64(len(tt.data)))
		if n != tt.want || ok != tt.ok {
			t.Errorf("%s: %d %v, want %d %v", tt.name, n, ok, tt.want, tt.ok)
		}
	}
	path := filepath.Join(t.TempDir(), "huge.zip")
	if err := os.WriteFile(path, zip64(3_000_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var errs []error
	err := Open([]string{path}, func(rec *Record, err error) error {
		errs = append(errs, err)
		return nil
	})
	if err != nil || len(errs) != 1 || !errors.Is(errs[0], ErrTooLarge) || !strings.Contains(errs[0].Error(), "declares 3000000 entries") {
		t.Errorf("errors %v, %v", errs, err)
	}
}
