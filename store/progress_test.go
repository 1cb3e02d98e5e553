package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestIngestProgressBytes: Progress counts the bytes of the inputs read and stored, as on
// disk (compressed bytes for a compressed file), from 0 to TotalBytes, the size of the
// files taken before reading, never going back; a file skipped counts whole; the size of
// standard input is not known (-1). (Before, Progress counted files only: one archive
// showed 0 of 1 until it was done.)
func TestIngestProgressBytes(t *testing.T) {
	dir := t.TempDir()
	packed, err := os.ReadFile("../sample_data/selfplay-10x10-greedy.ponte.zst")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zstd.NewReader(nil) // DecodeAll only: a decoder with a stream started may wait for ever in DecodeAll
	if err != nil {
		t.Fatal(err)
	}
	text, err := zr.DecodeAll(packed, nil)
	zr.Close()
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "greedy.ponte")
	if err := os.WriteFile(plain, text, 0o644); err != nil {
		t.Fatal(err)
	}
	compressed := "../sample_data/selfplay-10x10-greedy.ponte.zst"
	size := func(p string) int64 {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	for _, tc := range []struct {
		name    string
		paths   []string
		stdin   []byte
		total   int64 // TotalBytes, and the last Bytes unless end says otherwise
		end     int64
		between int // the fewest distinct counts strictly between 0 and the total
	}{
		{name: "plain", paths: []string{plain}, total: int64(len(text)), between: 3},
		{name: "compressed", paths: []string{compressed}, total: int64(len(packed))},
		{name: "twice", paths: []string{compressed, plain, compressed}, total: 2*int64(len(packed)) + int64(len(text)), between: 3},
		{name: "zip", paths: []string{"../sample_data/boardspace-2026-03.zip"}, total: size("../sample_data/boardspace-2026-03.zip")},
		{name: "stdin", paths: []string{"-"}, stdin: text, total: -1, end: int64(len(text)), between: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(filepath.Join(t.TempDir(), "p.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			var seen []Progress
			opts := Options{Stdin: bytes.NewReader(tc.stdin), Progress: func(p Progress) { seen = append(seen, p) }}
			sum := ingestInto(t, d, opts, tc.paths...)
			if len(sum.Errors) > 0 || sum.Games == 0 {
				t.Fatalf("summary %+v", sum)
			}
			if len(seen) < 2 || seen[0].Bytes != 0 || seen[0].Games != 0 {
				t.Fatalf("progress %+v: want a first call before anything is read", seen)
			}
			end := tc.end
			if end == 0 {
				end = tc.total
			}
			between := map[int64]bool{}
			for i, p := range seen {
				if p.TotalBytes != tc.total {
					t.Fatalf("call %d: TotalBytes %d, want %d", i, p.TotalBytes, tc.total)
				}
				if i > 0 && (p.Bytes < seen[i-1].Bytes || p.Games < seen[i-1].Games) {
					t.Fatalf("call %d: %+v after %+v: going back", i, p, seen[i-1])
				}
				if 0 < p.Bytes && p.Bytes < end {
					between[p.Bytes] = true
				}
				if p.Bytes > end {
					t.Fatalf("call %d: %d bytes, beyond %d", i, p.Bytes, end)
				}
			}
			last := seen[len(seen)-1]
			if last.Bytes != end || last.Games != sum.Games || last.FilesDone != sum.Files {
				t.Errorf("last call %+v, want %d bytes, %d games, %d files", last, end, sum.Games, sum.Files)
			}
			if len(between) < tc.between {
				t.Errorf("%d distinct counts between 0 and %d, want %d or more", len(between), end, tc.between)
			}
		})
	}
}

// TestWriteParquetProgress: WriteParquetProgress tells, for games.parquet, turns.parquet
// then tags.parquet, the rows written and the games whose rows are written, from 0, never
// going back, up to the games stored; WriteParquet writes the same files.
func TestWriteParquetProgress(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sum := ingestInto(t, d, Options{}, "../sample_data/selfplay-10x10-greedy.ponte.zst", autumn)
	var seen []ParquetProgress
	st, err := d.WriteParquetProgress(filepath.Join(t.TempDir(), "parquet"), func(p ParquetProgress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	files := []string{}
	for i, p := range seen {
		if len(files) == 0 || files[len(files)-1] != p.File {
			files = append(files, p.File)
			if p.Rows != 0 || p.Games != 0 {
				t.Errorf("call %d: %+v, want a first call at 0", i, p)
			}
		} else if prev := seen[i-1]; p.Rows < prev.Rows || p.Games < prev.Games {
			t.Errorf("call %d: %+v after %+v: going back", i, p, prev)
		}
		if p.TotalGames != int64(sum.New) || p.Games > p.TotalGames {
			t.Errorf("call %d: %+v, want games of %d", i, p, sum.New)
		}
	}
	if len(files) != 3 || files[0] != "games.parquet" || files[1] != "turns.parquet" || files[2] != "tags.parquet" {
		t.Errorf("files %v", files)
	}
	// The last call comes before the last batch of 1,024 rows: about 85 games of tags.
	if last := seen[len(seen)-1]; last.Rows > st.Tags || last.Rows < st.Tags-1024 || last.Games < last.TotalGames-100 {
		t.Errorf("last call %+v; %d tags written", last, st.Tags)
	}
}
