package ingest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"
)

const (
	twoPonte = "[Event \"p1\"]\n\n1. a1,b1 *\n\n[Event \"p2\"]\n\n1. c1,d1 2. swap 1-0\n"
	twoJSONL = `{"event":"j1","moves":["a1,b1"]}` + "\n" + `{"event":"j2","moves":["c1,d1","swap"]}` + "\n"
)

func gzipped(t testing.TB, s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstded(t testing.TB, s string) []byte {
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipped(t testing.TB, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	slices.Reverse(names) // not in name order in the archive
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReaderCompressed reads gzip and zstd streams through NewReader, as
// from standard input.
func TestReaderCompressed(t *testing.T) {
	for name, data := range map[string][]byte{
		"gzip ponte": gzipped(t, twoPonte), "zstd ponte": zstded(t, twoPonte),
		"gzip jsonl": gzipped(t, twoJSONL), "zstd jsonl": zstded(t, twoJSONL),
		"gzip multistream": append(gzipped(t, twoPonte[:27]), gzipped(t, twoPonte[27:])...),
	} {
		rd := NewReader(bytes.NewReader(data), "-")
		var events []string
		for {
			r, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			events = append(events, r.Tag("Event"))
		}
		if len(events) != 2 || events[1][1] != '2' {
			t.Errorf("%s: read %v", name, events)
		}
	}
	// A truncated stream gives its whole games, but not the last one, which the cut may
	// have shortened, then a *DamagedError wrapping ErrCut.
	var games strings.Builder
	for i := range 400 {
		fmt.Fprintf(&games, "[Event \"e%d\"]\n\n1. c1,d1 2. a%d,b%d 3. swap *\n\n", i, i%9+1, i%9+1)
	}
	data := gzipped(t, games.String())
	rd := NewReader(bytes.NewReader(data[:len(data)/2]), "-")
	n := 0
	var err error
	for {
		var r *Record
		if r, err = rd.Read(); err != nil {
			break
		}
		if len(r.Moves) != 3 || r.Tag("Event") != fmt.Sprintf("e%d", n) {
			t.Fatalf("game %d: %d moves, event %q", r.Index, len(r.Moves), r.Tag("Event"))
		}
		n++
	}
	var de *DamagedError
	if n == 0 || !errors.As(err, &de) || !errors.Is(err, ErrCut) || de.FirstRecord != n+1 || de.Records != 1 {
		t.Errorf("truncated gzip: %d games, then %v (%+v)", n, err, de)
	}
	if _, err2 := rd.Read(); err2 != err {
		t.Errorf("error not sticky: %v", err2)
	}
}

func TestReaderFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
	}{
		{"", FormatUnknown},
		{"\n\n", FormatUnknown},
		{"[Event \"x\"]", FormatPonte},
		{"\ufeff  \n [Event \"x\"]", FormatPonte},
		{"1. a1,b1", FormatPonte},
		{"12.a1,b1", FormatPonte},
		{"1-0", FormatPonte},
		{"*", FormatPonte},
		{"a1,b1 c1-c3", FormatPonte},
		{"j10-k12! x", FormatPonte},
		{"; a comment", FormatPonte},
		{"{a comment} 1. a1,b1", FormatPonte},
		{`{"moves":[]}`, FormatJSONL},
		{`  { "a\"b" : 1}`, FormatJSONL},
		{`{}`, FormatJSONL},
		{"{\n  \"header\": 1\n}", FormatAbstractPlay},
		{"[\n  {\"header\": 1}\n]", FormatAbstractPlay},
		{`{"header": {"game": {}}, "moves": []}`, FormatAbstractPlay},
		{"{\"header\":\n{", FormatAbstractPlay},
		{`{"header": "x", "moves": []}`, FormatJSONL},
		{"[]", FormatAbstractPlay},
		{"(;GM[PonteDelDiavolo]", FormatBoardspace},
		{"\ufeff \n  (;GM[Hive])", FormatBoardspace},
		{"hello world", FormatUnknown},
		{"a1 b1", FormatUnknown},
		{"12 games", FormatUnknown},
		{"<html>", FormatUnknown},
	}
	for _, tt := range tests {
		rd := NewReader(strings.NewReader(tt.in), "t")
		if got := rd.Format(); got != tt.want {
			t.Errorf("%q: format %s, want %s", tt.in, got, tt.want)
		}
		_, err := rd.Read()
		if tt.want == FormatUnknown && strings.TrimSpace(tt.in) != "" && !errors.Is(err, ErrFormat) {
			t.Errorf("%q: Read error %v, want ErrFormat", tt.in, err)
		}
	}
	for _, f := range []Format{FormatUnknown, FormatPonte, FormatJSONL, FormatBoardspace, FormatAbstractPlay} {
		if g, err := ParseFormat(f.String()); f != FormatUnknown && (g != f || err != nil) {
			t.Errorf("ParseFormat(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("pgn"); !errors.Is(err, ErrFormat) {
		t.Errorf("ParseFormat(pgn): %v", err)
	}
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// collect runs Open and lists what fn was called with.
func collect(t *testing.T, paths ...string) ([]string, error) {
	var got []string
	err := Open(paths, func(r *Record, err error) error {
		var pe *PathError
		var n *Notice
		switch {
		case errors.As(err, &pe):
			got = append(got, "error "+pe.Op+" "+pe.Path)
		case errors.As(err, &n):
			got = append(got, "notice "+n.Source)
		case err != nil:
			got = append(got, fmt.Sprintf("bad %s#%d", r.Source, r.Index))
		default:
			got = append(got, fmt.Sprintf("%s#%d %s", r.Source, r.Index, r.Tag("Event")))
		}
		return nil
	})
	return got, err
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{
		"a.ponte":            []byte(twoPonte),
		"b.data":             gzipped(t, twoJSONL), // compression told by content, not name
		"c.ponte.zst":        zstded(t, twoPonte),
		"sub/d.ponte":        []byte("[Event \"d\"]\n\n1. a1,b1 2. c1 } *\n\n[Event \"d2\"]\n*\n"),
		"sub/.hidden":        []byte("junk"),
		".git/config":        []byte("junk"),
		"README.md":          []byte("# junk"),
		"empty.ponte":        nil,
		"notes.txt":          []byte("hello"),
		"e.zip":              zipped(t, map[string][]byte{"z/f.ponte": []byte(twoPonte), "g.jsonl.gz": gzipped(t, twoJSONL), "README.txt": []byte("x"), "z/": nil}),
		"sub/deeper/x.jsonl": []byte(twoJSONL),
	})
	got, err := collect(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	j := func(s ...string) string { return filepath.Join(append([]string{dir}, s...)...) }
	want := []string{
		"notice " + j(".git"), // a folder skipped is said
		j("a.ponte") + "#1 p1", j("a.ponte") + "#2 p2",
		j("b.data") + "#1 j1", j("b.data") + "#2 j2",
		j("c.ponte.zst") + "#1 p1", j("c.ponte.zst") + "#2 p2",
		j("e.zip") + "/g.jsonl.gz#1 j1", j("e.zip") + "/g.jsonl.gz#2 j2",
		j("e.zip") + "/z/f.ponte#1 p1", j("e.zip") + "/z/f.ponte#2 p2",
		"error read " + j("notes.txt"),
		"bad " + j("sub", "d.ponte") + "#1", j("sub", "d.ponte") + "#2 d2",
		j("sub", "deeper", "x.jsonl") + "#1 j1", j("sub", "deeper", "x.jsonl") + "#2 j2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Files named on their own, in the order given.
	got, err = collect(t, j("sub", "deeper", "x.jsonl"), j("a.ponte"))
	if err != nil || len(got) != 4 || !strings.HasSuffix(got[0], "j1") || !strings.HasSuffix(got[3], "p2") {
		t.Errorf("files: %v %v", got, err)
	}

	// A missing path is reported before anything is read.
	got, err = collect(t, j("a.ponte"), j("missing.ponte"))
	var pe *PathError
	if !errors.As(err, &pe) || pe.Path != j("missing.ponte") || !errors.Is(err, fs.ErrNotExist) || len(got) != 0 {
		t.Errorf("missing: %v %v", got, err)
	}
	if want := "open " + j("missing.ponte") + ": no such file or directory"; err.Error() != want {
		t.Errorf("message %q", err.Error())
	}

	// An error returned by fn stops Open.
	stop := errors.New("stop")
	n := 0
	err = Open([]string{dir}, func(*Record, error) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("stop: %v after %d", err, n)
	}
}

func TestOpenStdin(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	f.Write(gzipped(t, twoPonte))
	f.Seek(0, 0)
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	got, err := collect(t, "-")
	if err != nil || !slices.Equal(got, []string{"-#1 p1", "-#2 p2"}) {
		t.Errorf("got %v %v", got, err)
	}
}

// A FIFO met while walking a directory is not read (it could wait forever for a writer),
// and says so in a notice; the files beside it are read.
func TestInputsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.ponte"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.ponte"), []byte("1. a1,b1 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	games := 0
	err := Open([]string{dir}, func(rec *Record, err error) error {
		switch {
		case IsNotice(err):
			notes = append(notes, err.Error())
		case err != nil:
			t.Errorf("%v", err)
		default:
			games++
		}
		return nil
	})
	if err != nil || games != 1 || len(notes) != 1 || !strings.Contains(notes[0], "pipe.ponte: not a regular file (a FIFO, device or socket) found in a directory: not read") {
		t.Errorf("games %d, notes %q, error %v", games, notes, err)
	}
}
