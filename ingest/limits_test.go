package ingest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lowLimits are the default limits with lower limits of a zip archive's entries.
func lowLimits(entries int, size, ratio, floor int64) Limits {
	l := DefaultLimits()
	l.MaxZipEntries, l.MaxZipEntrySize, l.MaxZipRatio, l.ZipRatioFloor = entries, size, ratio, floor
	return l
}

// openEvents reads path with Open and returns what fn saw: the GameId of a
// record, or "error PATH: ErrTooLarge" for a PathError.
func openEvents(t *testing.T, lim Limits, path string) []string {
	var got []string
	err := OpenWith(context.Background(), []string{path}, OpenOptions{Limits: lim}, func(rec *Record, err error) error {
		var pe *PathError
		switch {
		case errors.As(err, &pe):
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("error %v", err)
			}
			got = append(got, "error "+filepath.Base(pe.Path))
		case err != nil:
			t.Errorf("error %v", err)
		default:
			got = append(got, rec.Tag("GameId"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func writeZip(t *testing.T, files map[string][]byte) string {
	p := filepath.Join(t.TempDir(), "x.zip")
	if err := os.WriteFile(p, zipped(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonlGame(id string) string { return `{"game_id":"` + id + `","moves":["a1,b1"]}` + "\n" }

// bomb is a record followed by n line ends: it deflates about 1000 times.
func bomb(id string, n int) []byte {
	return append([]byte(jsonlGame(id)), bytes.Repeat([]byte("\n"), n)...)
}

func TestZipRatio(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<30, 100, 1<<20)
	p := writeZip(t, map[string][]byte{
		"a.jsonl": []byte(jsonlGame("a")),
		"b.jsonl": bomb("b", 8<<20),
		"c.jsonl": []byte(jsonlGame("c")),
	})
	// The archive declares the sizes of b.jsonl truly: it is not read.
	got := openEvents(t, lim, p)
	if want := []string{"a", "error b.jsonl", "c"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestZipEntrySize(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<20, 1<<40, 1<<40)
	var big strings.Builder
	for i := 0; big.Len() < 2<<20; i++ {
		big.WriteString(jsonlGame(strings.Repeat("x", i%50)))
	}
	// The decompressed size of a .gz entry is known only by reading it.
	p := writeZip(t, map[string][]byte{"a.jsonl": []byte(jsonlGame("a")), "b.jsonl.gz": gzipped(t, big.String())})
	got := openEvents(t, lim, p)
	if len(got) < 1000 || got[0] != "a" || got[len(got)-1] != "error b.jsonl.gz" {
		t.Errorf("got %d events, from %q to %q", len(got), got[0], got[len(got)-1])
	}
}

func TestZipEntries(t *testing.T) {
	t.Parallel()
	lim := lowLimits(2, 1<<30, 100, 1<<20)
	p := writeZip(t, map[string][]byte{"a.jsonl": []byte(jsonlGame("a")), "b.jsonl": []byte(jsonlGame("b")),
		"c.jsonl": []byte(jsonlGame("c"))})
	got := openEvents(t, lim, p)
	if want := []string{"a", "b", "error x.zip"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestZipLyingSizes checks an entry whose header declares a compressed
// size ten times its real one, so that the declared ratio is harmless: the
// bytes actually read decide.
func TestZipLyingSizes(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<30, 100, 1<<20)
	data := bomb("b", 8<<20)
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	fw.Write(data)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "b.jsonl", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(comp.Len()) * 1000, UncompressedSize64: uint64(len(data))})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	p := filepath.Join(t.TempDir(), "x.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lim.declaredTooLarge(uint64(len(data)), uint64(comp.Len())*1000); err != nil {
		t.Fatalf("the declared sizes are caught already: %v", err)
	}
	got := openEvents(t, lim, p)
	if want := []string{"b", "error b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestZipDeclaredSizes checks that an entry declaring too much is not read.
func TestZipDeclaredSizes(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<20, 100, 1<<20)
	p := writeZip(t, map[string][]byte{"a.jsonl": []byte(jsonlGame("a")), "b.jsonl": bomb("b", 2<<20)})
	if got, want := openEvents(t, lim, p), []string{"a", "error b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestZipCompressedEntry checks a gzip entry stored in a zip archive: its
// decompressed content counts against the entry's limits.
func TestZipCompressedEntry(t *testing.T) {
	t.Parallel()
	lim := lowLimits(100, 1<<30, 100, 1<<20)
	p := writeZip(t, map[string][]byte{"a.jsonl.gz": gzipped(t, string(bomb("a", 8<<20))), "b.jsonl": []byte(jsonlGame("b"))})
	if got, want := openEvents(t, lim, p), []string{"a", "error a.jsonl.gz", "b"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
