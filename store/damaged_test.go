package store

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"

	"github.com/ponte/ponte/internal/testkit"
)

// distinctGames returns n .ponte games of distinct moves (so distinct game ids), from
// number first, played by Alice and Bob.
func distinctGames(first, n int) string {
	cell := func(k int) string { return fmt.Sprintf("%c%d", 'a'+k%10, k/10%10+1) }
	var b strings.Builder
	for i := first; i < first+n; i++ {
		p := i % 100
		q := (p + 1 + i/100) % 100 // distinct pairs for i below 4,900
		fmt.Fprintf(&b, "[Event \"e%d\"]\n[Light \"Alice\"]\n[Dark \"Bob\"]\n\n1. %s,%s *\n\n", i, cell(p), cell(q))
	}
	return b.String()
}

// A .gz of 3,000 games in three members whose second has 64 bytes flipped stores the
// first member's games only; the summary says where the damage starts and how many games
// of the damaged part were not stored; the repaired file then stores the rest as new
// games, none taken for a copy of a damaged one.
func TestIngestDamagedGzipMember(t *testing.T) {
	for _, small := range []bool{false, true} {
		t.Run(fmt.Sprint("unchecked passed on: ", small), func(t *testing.T) {
			var lim ingest.Limits
			if small {
				// The parts are larger than the records held back: their records are
				// stored before the check, and rolled back.
				lim.MaxUnchecked = 8 << 10
			}
			m1 := testkit.GzipMember(t, distinctGames(0, 1000), gzip.NoCompression)
			// The second member also holds a copy of a game of the first: its count of
			// copies must be taken back with it.
			m2 := testkit.GzipMember(t, distinctGames(1000, 999)+distinctGames(5, 1), gzip.NoCompression)
			m3 := testkit.GzipMember(t, distinctGames(2000, 1000), gzip.NoCompression)
			good := append(append(append([]byte{}, m1...), m2...), m3...)
			bad := bytes.Clone(good)
			for i := len(m1) + len(m2)/2; i < len(m1)+len(m2)/2+64; i++ {
				bad[i] ^= 0x55
			}
			dir := t.TempDir()
			badPath, goodPath := filepath.Join(dir, "bad.ponte.gz"), filepath.Join(dir, "good.ponte.gz")
			os.WriteFile(badPath, bad, 0o644)
			os.WriteFile(goodPath, good, 0o644)

			d := openTemp(t)
			defer d.Close()
			sum := ingestInto(t, d, Options{Workers: 2, CommitGames: 100, Limits: lim}, badPath)
			if sum.New < 999 || sum.New > 1000 || sum.Games != sum.New || sum.Duplicates != 0 || len(sum.Errors) != 1 {
				t.Fatalf("summary %+v", sum)
			}
			msg := sum.Errors[0]
			if !strings.Contains(msg, "damaged gzip member 2 (from byte "+fmt.Sprint(len(m1))+")") || !strings.Contains(msg, "left out") ||
				!strings.Contains(msg, fmt.Sprintf("the last good game is game %d", sum.New)) {
				t.Errorf("error %q", msg)
			}
			if small && !strings.Contains(msg, "are void") {
				t.Errorf("error %q: nothing passed on before the check", msg)
			}
			if n := count(t, d.db, "SELECT count(*) FROM games WHERE source_id = 1 AND file_index > 1000 OR duplicates > 0"); n != 0 {
				t.Errorf("%d games or copies from the damaged member stored", n)
			}
			if n := count(t, d.db, "SELECT records FROM sources WHERE status = 'failed'"); n != int64(sum.Games) {
				t.Errorf("the source says %d records, the run %d", n, sum.Games)
			}
			checkWhole(t, d.db)

			sum = ingestInto(t, d, Options{Workers: 2, CommitGames: 100, Limits: lim}, goodPath)
			// 2,999 games: the second member holds a copy of e5.
			if sum.Games != 3000 || sum.New != 2999-int(count(t, d.db, "SELECT count(*) FROM games WHERE source_id = 1")) || len(sum.Errors) != 0 {
				t.Errorf("repaired file: %+v", sum)
			}
			if n := count(t, d.db, "SELECT count(*) FROM games"); n != 2999 {
				t.Errorf("%d games stored of 2,999", n)
			}
			// Met three times: in both files' first member, in the good file's second.
			if n := count(t, d.db, "SELECT duplicates FROM games WHERE event = 'e5'"); n != 2 {
				t.Errorf("game e5 counted %d copies, want 2", n)
			}
			checkWhole(t, d.db)
		})
	}
}

// A stored zip entry with one byte changed ("Alice" read "Alica") stores none of its
// games; the repaired archive then stores them with the right player, not as copies.
func TestIngestDamagedZipEntry(t *testing.T) {
	zipOf := func(damage bool) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, name := range []string{"a.ponte", "b.ponte", "c.ponte"} {
			w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
			w.Write([]byte(distinctGames(i*20, 20)))
		}
		zw.Close()
		data := buf.Bytes()
		if damage {
			at := bytes.Index(data, []byte("b.ponte"))
			at += bytes.Index(data[at:], []byte("Alice")) + 4
			data[at] = 'a'
		}
		return data
	}
	dir := t.TempDir()
	badPath, goodPath := filepath.Join(dir, "bad.zip"), filepath.Join(dir, "good.zip")
	os.WriteFile(badPath, zipOf(true), 0o644)
	os.WriteFile(goodPath, zipOf(false), 0o644)
	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, badPath)
	if sum.New != 40 || len(sum.Errors) != 1 || !strings.Contains(sum.Errors[0], "bad.zip/b.ponte: damaged zip entry") {
		t.Fatalf("summary %+v", sum)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games WHERE light != 'Alice'"); n != 0 {
		t.Errorf("%d games of a false player stored", n)
	}
	sum = ingestInto(t, d, Options{}, goodPath)
	if sum.New != 20 || sum.Duplicates != 40 {
		t.Errorf("repaired archive: %+v", sum)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games WHERE light = 'Alice'"); n != 60 {
		t.Errorf("%d games of Alice, want 60", n)
	}
	checkWhole(t, d.db)
}

// An ingest interrupted while records of a part not yet checked are stored keeps none of
// them: the next ingest reads them again, and ends as a clean one.
func TestIngestInterruptedUnchecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.ponte.gz")
	os.WriteFile(path, testkit.GzipMember(t, distinctGames(0, 2000), gzip.DefaultCompression), 0o644)
	d := openTemp(t)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := d.Ingest(ctx, []string{path}, Options{CommitGames: 50, Limits: ingest.Limits{MaxUnchecked: 8 << 10}, Progress: func(p Progress) {
		if p.Games >= 300 {
			cancel()
		}
	}})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Interrupted || sum.Games != 0 {
		t.Errorf("interrupted in an unchecked member: %+v", sum)
	}
	if n := count(t, d.db, "SELECT count(*) FROM games"); n != 0 {
		t.Errorf("%d games of a member not checked stored", n)
	}
	sum = ingestInto(t, d, Options{}, path)
	if sum.New != 2000 || count(t, d.db, "SELECT count(*) FROM games") != 2000 {
		t.Errorf("resumed: %+v", sum)
	}
	checkWhole(t, d.db)
}
