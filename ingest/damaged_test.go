package ingest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/ponte/ponte/internal/testkit"
)

// games returns n distinct .ponte games, from number first.
func games(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "[Event \"e%d\"]\n[Light \"Alice\"]\n\n1. c1,d1 2. a%d,b%d *\n\n", i, i%9+1, i%9+1)
	}
	return b.String()
}

// readEvents reads every record of rd: the events of the records returned, and the error
// that ended the stream (nil at io.EOF).
func readEvents(t testing.TB, rd *Reader) (events []string, unchecked int, err error) {
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			return events, unchecked, nil
		}
		if rec == nil {
			return events, unchecked, err
		}
		if err != nil {
			t.Fatalf("game %d: %v", rec.Index, err)
		}
		if rec.Unchecked {
			unchecked++
		}
		events = append(events, rec.Tag("Event"))
	}
}

// TestDamagedGzipMember: a gzip member whose CRC-32 fails gives none of its records; the
// members before it give theirs, and the error says which member, where it starts and the
// last good game.
func TestDamagedGzipMember(t *testing.T) {
	for _, level := range []int{gzip.NoCompression, gzip.DefaultCompression} {
		m1 := testkit.GzipMember(t, games(0, 100), level)
		m2 := testkit.GzipMember(t, games(100, 100), level)
		m3 := testkit.GzipMember(t, games(200, 100), level)
		data := slicesConcat(m1, m2, m3)
		// Flip 64 bytes in the middle of the second member's data.
		for i := len(m1) + len(m2)/2; i < len(m1)+len(m2)/2+64; i++ {
			data[i] ^= 0x55
		}
		events, _, err := readEvents(t, NewReader(bytes.NewReader(data), "x.gz"))
		var de *DamagedError
		if !errors.As(err, &de) || !errors.Is(err, ErrDamaged) {
			t.Fatalf("level %d: err = %v, want a *DamagedError", level, err)
		}
		if de.Part != "gzip member 2" || de.Offset != int64(len(m1)) {
			t.Errorf("level %d: part %q at %d, want gzip member 2 at %d", level, de.Part, de.Offset, len(m1))
		}
		// The first member's games, maybe but its last (read with the second member's
		// first bytes); nothing of the second.
		if len(events) < 99 || len(events) > 100 || events[len(events)-1] != fmt.Sprintf("e%d", len(events)-1) {
			t.Errorf("level %d: %d games returned, the last %v", level, len(events), events[len(events)-1:])
		}
		if de.FirstRecord != len(events)+1 || de.LastGood != len(events) || de.Records == 0 || de.Passed != 0 {
			t.Errorf("level %d: %+v after %d games", level, de, len(events))
		}
		if !strings.Contains(de.Error(), "gzip member 2 (from byte "+fmt.Sprint(len(m1))+")") {
			t.Errorf("level %d: message %q", level, de.Error())
		}
	}
}

func slicesConcat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestDamagedUnchecked: records beyond MaxUnchecked are returned before their part's
// check, marked Unchecked with the part they end in; the DamagedError then counts them
// as Passed, for the caller to take back.
func TestDamagedUnchecked(t *testing.T) {
	t.Parallel()
	m1 := testkit.GzipMember(t, games(0, 200), gzip.NoCompression)
	m2 := testkit.GzipMember(t, games(200, 200), gzip.NoCompression)
	data := slicesConcat(m1, m2)
	data[len(data)-12] ^= 1 // in the second member's last game
	rd := NewReader(bytes.NewReader(data), "x.gz")
	rd.Limits.MaxUnchecked = 4 << 10
	var parts []int
	var n int
	var err error
	for {
		var rec *Record
		rec, err = rd.Read()
		if rec == nil {
			break
		}
		n++
		if rec.Unchecked && (len(parts) == 0 || parts[len(parts)-1] != rec.Part) {
			parts = append(parts, rec.Part)
		}
	}
	var de *DamagedError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v", err)
	}
	if len(parts) != 2 || parts[0] != 1 || parts[1] != 2 {
		t.Errorf("unchecked parts %v, want [1 2]", parts)
	}
	if de.Passed == 0 || de.FirstRecord+de.Passed-1 != n || de.Records != 400-de.FirstRecord+1 {
		t.Errorf("%+v after %d records", de, n)
	}
}

// TestDamagedZstdFrame: a zstd frame whose checksum fails gives none of its records.
func TestDamagedZstdFrame(t *testing.T) {
	frame := func(s string) []byte {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderLevel(zstd.SpeedFastest))
		if err != nil {
			t.Fatal(err)
		}
		return enc.EncodeAll([]byte(s), nil)
	}
	f1, f2, f3 := frame(games(0, 50)), frame(games(50, 50)), frame(games(100, 50))
	good := slicesConcat(f1, f2, f3)
	events, _, err := readEvents(t, NewReader(bytes.NewReader(good), "x.zst"))
	if err != nil || len(events) != 150 {
		t.Fatalf("good frames: %d games, %v", len(events), err)
	}
	bad := bytes.Clone(good)
	bad[len(f1)+len(f2)-2] ^= 0xff // the second frame's checksum
	events, _, err = readEvents(t, NewReader(bytes.NewReader(bad), "x.zst"))
	var de *DamagedError
	if !errors.As(err, &de) || de.Part != "zstd frame 2" || de.Offset != int64(len(f1)) {
		t.Fatalf("err = %v", err)
	}
	if len(events) < 49 || len(events) > 50 || de.FirstRecord != len(events)+1 {
		t.Errorf("%d games, then %+v", len(events), de)
	}
}

// TestDamagedZipEntry: a stored zip entry with one byte changed ("Alice" made "Alica")
// gives none of its records; the other entries give theirs.
func TestDamagedZipEntry(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range []string{"a.ponte", "b.ponte", "c.ponte"} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(games(i*10, 10)))
	}
	zw.Close()
	data := buf.Bytes()
	// The first "Alice" of b.ponte.
	at := bytes.Index(data, []byte("b.ponte"))
	at += bytes.Index(data[at:], []byte("Alice")) + 4
	data[at] = 'a'
	path := filepath.Join(t.TempDir(), "x.zip")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var events, errs []string
	err := Open([]string{path}, func(rec *Record, err error) error {
		if rec == nil {
			errs = append(errs, err.Error())
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("error %v does not wrap ErrDamaged", err)
			}
			return nil
		}
		if rec.Tag("Light") != "Alice" {
			t.Errorf("%s game %d: Light %q", rec.Source, rec.Index, rec.Tag("Light"))
		}
		events = append(events, rec.Tag("Event"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 20 || events[10] != "e20" || len(errs) != 1 ||
		!strings.Contains(errs[0], "x.zip/b.ponte: damaged zip entry") || !strings.Contains(errs[0], "the 10 records read from it (games 1 to 10) left out") {
		t.Errorf("games %v, errors %q", events, errs)
	}
}

// TestNestedCompression: a .gz inside a .gz, a .zst inside a .gz are read; more than
// maxNesting streams inside one another are not.
func TestNestedCompression(t *testing.T) {
	text := games(0, 20)
	inner := testkit.GzipMember(t, text, gzip.DefaultCompression)
	enc, _ := zstd.NewWriter(nil)
	for name, data := range map[string][]byte{
		"gz in gz":  testkit.GzipMember(t, string(inner), gzip.DefaultCompression),
		"zst in gz": testkit.GzipMember(t, string(enc.EncodeAll([]byte(text), nil)), gzip.DefaultCompression),
	} {
		events, _, err := readEvents(t, NewReader(bytes.NewReader(data), "x.gz"))
		if err != nil || len(events) != 20 {
			t.Errorf("%s: %d games, %v", name, len(events), err)
		}
	}
	deep := []byte(text)
	for range maxNesting + 1 {
		deep = testkit.GzipMember(t, string(deep), gzip.DefaultCompression)
	}
	_, _, err := readEvents(t, NewReader(bytes.NewReader(deep), "x.gz"))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("%d nested: %v", maxNesting+1, err)
	}
	// A damaged member of the inner stream is named inside the outer one.
	damaged := bytes.Clone(inner)
	damaged[len(damaged)-6] ^= 1 // its CRC-32
	_, _, err = readEvents(t, NewReader(bytes.NewReader(testkit.GzipMember(t, string(damaged), gzip.DefaultCompression)), "x.gz"))
	var de *DamagedError
	if !errors.As(err, &de) || de.Part != "gzip member 1 inside gzip member 1" {
		t.Errorf("damaged inner member: %v", err)
	}
}

// TestUTF16: a text with a UTF-16 byte order mark (either order) is read as its UTF-8.
func TestUTF16(t *testing.T) {
	text := "[Event \"Ünïcode 𝄞\"]\r\n\r\n1. c1,d1 2. swap *\r\n"
	for _, little := range []bool{true, false} {
		var b []byte
		put := func(u uint16) {
			if little {
				b = append(b, byte(u), byte(u>>8))
			} else {
				b = append(b, byte(u>>8), byte(u))
			}
		}
		put(0xFEFF)
		for _, c := range text {
			if c >= 0x10000 {
				c -= 0x10000
				put(uint16(0xD800 + c>>10))
				put(uint16(0xDC00 + c&0x3FF))
				continue
			}
			put(uint16(c))
		}
		rd := NewReader(bytes.NewReader(b), "x.ponte")
		rec, err := rd.Read()
		if err != nil || rec.Tag("Event") != "Ünïcode 𝄞" || len(rec.Moves) != 2 || rec.Moves[1].Line != 3 {
			t.Errorf("little endian %v: %+v, %v", little, rec, err)
		}
		if _, err := rd.Read(); err != io.EOF {
			t.Errorf("little endian %v: then %v", little, err)
		}
	}
}

// TestZipInZip: a zip archive inside a zip archive, stored or compressed, is read entry by
// entry, its entries named through both; a damaged one is said so.
func TestZipInZip(t *testing.T) {
	mkzip := func(method uint16, files map[string][]byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range []string{"a.ponte", "in.zip", "z.ponte"} {
			if data, ok := files[name]; ok {
				w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
				w.Write(data)
			}
		}
		zw.Close()
		return buf.Bytes()
	}
	inner := mkzip(zip.Deflate, map[string][]byte{"a.ponte": []byte(games(10, 5))})
	for _, method := range []uint16{zip.Store, zip.Deflate} {
		outer := mkzip(method, map[string][]byte{"a.ponte": []byte(games(0, 5)), "in.zip": inner, "z.ponte": []byte(games(20, 5))})
		path := filepath.Join(t.TempDir(), "outer.zip")
		os.WriteFile(path, outer, 0o644)
		var sources []string
		err := Open([]string{path}, func(rec *Record, err error) error {
			if err != nil {
				t.Errorf("method %d: %v", method, err)
				return nil
			}
			sources = append(sources, rec.Source)
			return nil
		})
		want := strings.Repeat(path+"/a.ponte ", 5) + strings.Repeat(path+"/in.zip/a.ponte ", 5) + strings.Repeat(path+"/z.ponte ", 5)
		if err != nil || strings.Join(sources, " ")+" " != want {
			t.Errorf("method %d: %v, %v", method, sources, err)
		}
	}
}

// FuzzCompressedReader reads mutated compressed streams (gzip members, zstd frames,
// nested, UTF-16 inside): never a panic, and no record returned without the Unchecked
// mark from a part that then turns out damaged.
func FuzzCompressedReader(f *testing.F) {
	text := games(0, 30)
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	f.Add(slicesConcat(testkit.GzipMember(f, text[:600], gzip.NoCompression), testkit.GzipMember(f, text[600:], gzip.BestSpeed)))
	f.Add(slicesConcat(enc.EncodeAll([]byte(text[:700]), nil), enc.EncodeAll([]byte(text[700:]), nil)))
	f.Add(testkit.GzipMember(f, string(testkit.GzipMember(f, text, gzip.BestSpeed)), gzip.NoCompression))
	f.Add(testkit.GzipMember(f, "\xff\xfe[\x00E\x00v\x00e\x00n\x00t\x00 \x00\"\x00x\x00\"\x00]\x00\n\x00", gzip.NoCompression))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader(bytes.NewReader(data), "x")
		rd.Limits.MaxUnchecked = 2 << 10
		var checked []int
		for range 100_000 {
			rec, err := rd.Read()
			if rec == nil {
				var de *DamagedError
				if errors.As(err, &de) {
					for _, i := range checked {
						if i >= de.FirstRecord {
							t.Fatalf("record %d returned as checked, then %v", i, err)
						}
					}
				}
				return
			}
			if !rec.Unchecked {
				checked = append(checked, rec.Index)
			}
		}
		t.Fatal("no end")
	})
}

// TestUTF16WithoutBOM: UTF-16 text without a byte order mark is not guessed at, but said.
func TestUTF16WithoutBOM(t *testing.T) {
	var b []byte
	for _, c := range "[Event \"x\"]\n\n1. c1,d1 *\n" {
		b = append(b, byte(c), 0)
	}
	_, err := NewReader(bytes.NewReader(b), "x.ponte").Read()
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "UTF-16 without a byte order mark: convert it to UTF-8") {
		t.Errorf("err = %v", err)
	}
}
