package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// Hostile inputs (docs/limits.md): records far larger than any real one, records that
// used to take time quadratic in their size, text that is not UTF-8, odd starts of a
// file. The small ones are files of testdata/hostile; the large ones are generated here
// from small seeds.

const hostileDir = "testdata/hostile/"

// recordLimits are the default limits but those of one record.
func recordLimits(recordBytes, turns, tags, commentBytes int) Limits {
	l := DefaultLimits()
	l.MaxRecordBytes, l.MaxTurns, l.MaxTags, l.MaxCommentBytes = recordBytes, turns, tags, commentBytes
	return l
}

// lifted are the limits of one record lifted (but the line length), to measure the work
// that the readers do on records that the limits would stop.
var lifted = recordLimits(MaxLineLength, 1<<30, 1<<30, 1<<30)

// The generators of large hostile records, each followed by a good record.

// jsonKeys is a JSON line with n keys.
func jsonKeys(n int) []byte {
	b := []byte(`{"moves":[]}` + "\n{")
	for i := range n {
		b = fmt.Appendf(b, `"k%07d":1,`, i)
	}
	return append(b, `"moves":["a1,b1"]}`+"\n"+`{"moves":["c3,d4"]}`+"\n"...)
}

// ponteTags is a .ponte record with n tags.
func ponteTags(n int) []byte {
	var b []byte
	for i := range n {
		b = fmt.Appendf(b, "[T%07d \"v\"]\n", i)
	}
	return append(b, "\n1. a1,b1 *\n\n[Event \"next\"]\n\n1. c3,d4 *\n"...)
}

// ponteComments is a .ponte record with n comments on its first turn, 100 a line.
func ponteComments(n int) []byte {
	b := []byte("[Event \"x\"]\n\n1. a1,b1")
	for i := range n {
		if i%100 == 0 {
			b = append(b, '\n')
		}
		b = append(b, " {c}"...)
	}
	return append(b, " *\n\n[Event \"next\"]\n\n1. c3,d4 *\n"...)
}

// apKeys is an Abstract Play record whose header has n more keys.
func apKeys(n int) []byte {
	b := []byte(`{"header":{"players":[{"name":"a"},{"name":"b"}],` + "\n")
	for i := range n {
		b = fmt.Appendf(b, "\"k%07d\":1,\n", i)
	}
	return append(b, `"x":0},"moves":[["a1,b1"]]}`+"\n"...)
}

// ponteMoves is a .ponte record of n turns, 16 a line.
func ponteMoves(n int) []byte {
	b := []byte("[Event \"x\"]\n\n")
	for i := range n {
		if i%16 == 15 {
			b = append(b, '\n')
		}
		b = fmt.Appendf(b, "%d. a1,b1 ", i+1)
	}
	return append(b, "*\n\n[Event \"next\"]\n\n1. c3,d4 *\n"...)
}

// hostileCases are the records that used to take quadratic time.
var hostileCases = []struct {
	name string
	gen  func(n int) []byte
	n    int // in the benchmarks (the test takes a fifth)
	good int // records read without error
}{
	{"JSONKeys", jsonKeys, 1_000_000, 3},
	{"PonteTags", ponteTags, 1_000_000, 2},
	{"PonteComments", ponteComments, 100_000, 2},
	{"AbstractPlayKeys", apKeys, 1_000_000, 1},
}

// readCount reads every record of data and returns how many read without error.
func readCount(tb testing.TB, data []byte, lim Limits) int {
	rd := NewReader(bytes.NewReader(data), "h")
	rd.Limits = lim
	n := 0
	for {
		_, err := rd.Read()
		if err == io.EOF {
			return n
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			tb.Fatal(err)
		}
		if err == nil {
			n++
		}
	}
}

// BenchmarkHostile measures the readers on the records that used to take quadratic
// time, with the limits lifted: a JSON line of 1M keys, a .ponte record of 1M tags and
// one of 100k comments on one turn, an Abstract Play header of 1M keys. ns/byte is to be
// compared with that of BenchmarkPonteReader and BenchmarkJSONLReader, and with that of
// the same record a quarter of the size (the sub-benchmarks /quarter): time linear in the
// size gives the same ns/byte. TestHostileLinearTime counts the work instead of timing it.
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostileCases {
		for _, size := range []struct {
			name string
			n    int
		}{{"", h.n}, {"/quarter", h.n / 4}} {
			b.Run(h.name+size.name, func(b *testing.B) {
				data := h.gen(size.n)
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if n := readCount(b, data, lifted); n != h.good {
						b.Fatalf("%d good records, want %d", n, h.good)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(data)), "ns/byte")
			})
		}
	}
}

// work is what reading some input cost, counted: the bytes allocated, and the probes of
// the sets that find a tag given twice.
type work struct{ alloc, probes int }

// readWork reads every record of data with the limits lifted and counts the work.
func readWork(tb testing.TB, data []byte, good int) work {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rd := NewReader(bytes.NewReader(data), "h")
	rd.Limits = lifted
	n := 0
	for {
		_, err := rd.Read()
		if err == io.EOF {
			break
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			tb.Fatal(err)
		}
		if err == nil {
			n++
		}
	}
	runtime.ReadMemStats(&after)
	if n != good {
		tb.Fatalf("%d good records, want %d", n, good)
	}
	probes := rd.tagSet.probes
	if ap, ok := rd.fr.(*apReader); ok {
		probes += ap.names.probes
	}
	return work{alloc: int(after.TotalAlloc - before.TotalAlloc), probes: probes}
}

// TestHostileLinearTime checks that the records that used to take quadratic time are
// read with work linear in their size. It counts the work, so that a busy machine cannot
// fail it (BenchmarkHostile times it): with the limits lifted, each record is read at two
// sizes, the second 4 times the first, and the bytes allocated and the probes of the sets
// that find a tag given twice must grow at most 3 times faster than the input (linear
// work grows as fast, give or take a buffer's doubling; quadratic work 4 times faster).
// Records whose work is quadratic in something else (time spent scanning, with no
// allocation nor set) are for the benchmark to show.
func TestHostileLinearTime(t *testing.T) {
	for _, h := range hostileCases {
		small, large := h.gen(h.n/20), h.gen(h.n/5)
		ws, wl := readWork(t, small, h.good), readWork(t, large, h.good)
		grow := float64(len(large)) / float64(len(small))
		for _, m := range []struct {
			what   string
			ws, wl int
		}{{"bytes allocated", ws.alloc, wl.alloc}, {"probes of tag names", ws.probes, wl.probes}} {
			ratio := float64(m.wl) / float64(max(m.ws, 1)) / grow
			t.Logf("%s: %s %d for %d bytes, %d for %d bytes: %.2f times the input's growth", h.name, m.what, m.ws, len(small), m.wl, len(large), ratio)
			if ratio > 3 {
				t.Errorf("%s: %s grow %.1f times faster than the input (%d for %d bytes, %d for %d): more than linear",
					h.name, m.what, ratio, m.ws, len(small), m.wl, len(large))
			}
		}
	}
}

// TestHostileMemory checks that a record far larger than the record limit (64 MiB of
// movetext, on one line and on many) costs the reader a few MiB, not its size, and that
// the game after it is read.
func TestHostileMemory(t *testing.T) {
	for _, tt := range []struct {
		name string
		unit string // repeated to 64 MiB
		msg  string
	}{
		{"one line", "a1,b1 ", "record longer than 1 MiB (--max-record-bytes)"},
		{"many lines", "    \n", "record longer than 1 MiB (--max-record-bytes)"},
		{"many turns", "1. a1,b1 2. c3,d4 {a comment} 3. swap\n", "more than 10000 turns in one record (--max-turns)"},
		{"many comments", "{a comment}\n", "comments longer than 64 KiB in one record (--max-comment-bytes)"},
		{"json line", `"a1,b1",`, "record longer than 1 MiB (--max-record-bytes)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			head, tail := "[Event \"big\"]\n\n", "*\n\n[Event \"next\"]\n\n1. a1,b1 *\n"
			if strings.HasPrefix(tt.unit, `"`) {
				head, tail = "{\"moves\":[", "\"pass\"]}\n{\"moves\":[\"a1,b1\"]}\n"
			}
			src := io.MultiReader(strings.NewReader(head), &repeatReader{unit: tt.unit, left: 64 << 20}, strings.NewReader(tail))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rd := NewReader(src, "big")
			rec, err := rd.Read()
			if !errors.Is(err, ErrTooLarge) || !strings.HasSuffix(err.Error(), ": game 1: "+tt.msg) || len(rec.Raw) > MaxRaw {
				t.Fatalf("got %v", err)
			}
			if rec.Bytes() > 2*MaxRaw+int64(DefaultMaxTurns)*100 {
				t.Errorf("the unreadable record holds %d bytes", rec.Bytes())
			}
			next, err := rd.Read()
			if err != nil || len(next.Moves) != 1 || next.Index != 2 {
				t.Fatalf("next: %v %+v", err, next)
			}
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("reading 64 MiB allocated %d MiB", alloc>>20)
			}
			if _, err := rd.Read(); err != io.EOF {
				t.Errorf("then %v", err)
			}
		})
	}
}

// repeatReader gives unit again and again, left bytes in all.
type repeatReader struct {
	unit string
	left int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:min(len(p), n+r.left)], r.unit[r.off:])
		n += c
		r.left -= c
		r.off = (r.off + c) % len(r.unit)
	}
	return n, nil
}

// limitCase is a record beyond one limit, between two good records.
type limitCase struct {
	name      string
	in        string
	line, col int    // where the limit is crossed
	msg       string // in the error
}

// TestRecordLimits checks each limit of one record in each format: the record is a
// *ParseError wrapping ErrTooLarge where the limit was crossed, with a message naming
// the flag, its Raw within MaxRaw, and the records around it are read.
func TestRecordLimits(t *testing.T) {
	many := func(s string, n int) string { return strings.Repeat(s, n) }
	bsTree := func(body string) string {
		return "(;GM[PonteDelDiavolo]GN[g]P0[id \"a\"]P1[id \"b\"]\n" + body + ")\n"
	}
	bsTurns := func(n int) string {
		var b strings.Builder
		for i := range n {
			pool := [2]string{"White_Chip_Pool", "Red_Chip_Pool"}[i%2]
			fmt.Fprintf(&b, "; P%d[%d Tile %s A %d]\n; P%d[%d Tile %s B %d]\n; P%d[%d Done]\n",
				i%2, 3*i, pool, i+1, i%2, 3*i+1, pool, i+1, i%2, 3*i+2)
		}
		return b.String()
	}
	apRec := func(header, moves string) string {
		return `{"header":{"players":[{"name":"a"},{"name":"b"}]` + header + `},"moves":[` + moves + `]}` + "\n"
	}
	tests := []struct {
		format string
		good   string // a good record, put before and after
		cases  []limitCase
	}{
		{"ponte", "[Event \"g\"]\n\n1. a1,b1 *\n\n", []limitCase{
			// 3 lines of 99 bytes and their line ends: the 301st byte is the 1st of line 4.
			{"bytes", many("[Event \""+many("x", 89)+"\"]\n", 3) + "[Site \"y\"]\n\n1. a1,b1 *\n\n", 4, 1, "record longer than 300 bytes (--max-record-bytes)"},
			// 11 bytes, 2 line ends, then the 288th byte of line 3.
			{"bytes on one line", "[Event \"x\"]\n\n1. a1,b1 {" + many("a", 400) + "\n*\n\n", 3, 288, "record longer than 300 bytes (--max-record-bytes)"},
			{"turns", "1. a1,b1 2. swap 3. c3,d4\n4. e5,f6 5. pass 6. a2,b2 *\n\n", 2, 21, "more than 5 turns in one record (--max-turns)"},
			{"tags", many("[A \"1\"]\n", 3) + "[B \"2\"] [C \"3\"] [D \"4\"]\n\n1. a1,b1 *\n\n", 4, 17, "more than 5 tags in one record (--max-tags)"},
			{"comments", "1. a1,b1 {" + many("x", 30) + "} {" + many("y", 30) + "}\n2. c3,d4 {z} *\n\n", 1, 43, "comments longer than 50 bytes in one record (--max-comment-bytes)"},
			{"comment on lines", "1. a1,b1 {" + many("x", 30) + "\n" + many("y", 30) + "}\n*\n\n", 2, 20, "comments longer than 50 bytes in one record (--max-comment-bytes)"},
		}},
		{"jsonl", `{"moves":["a1,b1"]}` + "\n", []limitCase{
			{"bytes", `{"event":"` + many("x", 400) + `","moves":[]}` + "\n", 1, 301, "record longer than 300 bytes (--max-record-bytes)"},
			{"turns", `{"moves":["a1,b1","swap","c3,d4","e5,f6","pass","a2,b2"]}` + "\n", 1, 49, "more than 5 turns in one record (--max-turns)"},
			{"tags", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"moves":[]}` + "\n", 1, 32, "more than 5 tags in one record (--max-tags)"},
		}},
		{"abstractplay", apRec("", `["a1,b1"]`), []limitCase{
			// 300 bytes to the end of line 22: its line end is the 301st.
			{"bytes", apRec("", many(`["a1,b1"],`+"\n", 30)+`["pass"]`), 22, 11, "record longer than 300 bytes (--max-record-bytes)"},
			{"turns", apRec("", `["a1,b1","swap"],["c3,d4","e5,f6"],["pass","a2,b2"]`), 1, 103, "more than 5 turns in one record (--max-turns)"},
			{"tags", apRec(`,"a":1,"b":2,"c":3,"d":4,"e":5,"f":6`, ""), 1, 80, "more than 5 tags in one record (--max-tags)"},
		}},
		{"boardspace", bsTree("; P0[1 Tile White_Chip_Pool A 1]\n; P0[2 Tile White_Chip_Pool B 1]\n; P0[3 Done]\n"), []limitCase{
			{"bytes", bsTree(many("; P0[0 Start]\n", 30)), 20, 2, "record longer than 300 bytes (--max-record-bytes)"},
			{"turns", bsTree(bsTurns(6)), 17, 3, "more than 5 turns in one record (--max-turns)"},
		}},
	}
	for _, f := range tests {
		for _, tt := range f.cases {
			t.Run(f.format+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				lim := recordLimits(2000, 5, 5, 50)
				if strings.HasPrefix(tt.name, "bytes") {
					lim.MaxRecordBytes = 300
				}
				goodLines := strings.Count(f.good, "\n")
				out := readAllWithin(t, f.good+tt.in+f.good, lim)
				if len(out) != 3 || out[0].err != nil || out[2].err != nil || out[1].err == nil {
					t.Fatalf("got %v", out)
				}
				if out[0].rec.Format.String() != f.format {
					t.Fatalf("read as %s", out[0].rec.Format)
				}
				pe, ok := out[1].err.(*ParseError)
				if !ok || !errors.Is(pe, ErrTooLarge) || pe.Line != goodLines+tt.line || pe.Column != tt.col || pe.StartLine != goodLines+1 ||
					!strings.HasSuffix(pe.Error(), ": game 2: "+tt.msg) {
					t.Errorf("got %v, want %d:%d: ErrTooLarge %q", out[1].err, goodLines+tt.line, tt.col, tt.msg)
				}
				if r := out[1].rec; len(r.Raw) > MaxRaw || len(r.Moves) > lim.MaxTurns || len(r.Tags) > lim.MaxTags+12 {
					t.Errorf("the unreadable record keeps %d bytes, %d turns, %d tags", len(r.Raw), len(r.Moves), len(r.Tags))
				}
				if last := out[2].rec; last.Index != 3 || last.Line != 1+goodLines+strings.Count(tt.in, "\n") {
					t.Errorf("last record %d at line %d", last.Index, last.Line)
				}
			})
		}
	}
}

// readHostile reads every record of a file of testdata/hostile, with the notices.
func readHostile(t *testing.T, name string) (out []result, notices []*Notice) {
	t.Helper()
	data, err := os.ReadFile(hostileDir + name)
	if err != nil {
		t.Fatal(err)
	}
	rd := NewReader(bytes.NewReader(data), name)
	for {
		rec, err := rd.Read()
		notices = append(notices, rd.Notices()...)
		if err == io.EOF {
			return out, notices
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, result{rec, err})
	}
}

// TestHostileByteOrderMarks checks that a file starting with more than one byte order
// mark is read, its columns counted after them.
func TestHostileByteOrderMarks(t *testing.T) {
	for _, tt := range []struct {
		name  string
		n     int
		event string
		col   int // of the first turn
	}{
		{"double-bom.ponte", 2, "two byte order marks", 4},
		{"triple-bom.jsonl", 2, "three byte order marks", 44},
	} {
		out, _ := readHostile(t, tt.name)
		if len(out) != tt.n || out[0].err != nil || out[1].err != nil {
			t.Fatalf("%s: %v", tt.name, out)
		}
		if r := out[0].rec; r.Tag("Event") != tt.event || r.Line != 1 || r.Moves[0].Col != tt.col {
			t.Errorf("%s: %+v", tt.name, r)
		}
	}
}

// TestHostileLongFirstLine checks that a first line longer than MaxLineLength (or than a
// record, in formats whose record is a line) does not hide the format of the file: it is
// one unreadable record, and the records after it are read.
func TestHostileLongFirstLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 17 MiB lines")
	}
	long := func(head, unit string) io.Reader {
		return io.MultiReader(strings.NewReader(head), &repeatReader{unit: unit, left: MaxLineLength + 1<<20})
	}
	tests := []struct {
		name   string
		first  io.Reader
		rest   string
		format Format
		kind   error
		col    int
		good   int // records after the long line
	}{
		{"ponte", long("1. ", "a1,b1 "), "\n\n[Event \"next\"]\n\n1. a1,b1 *\n", FormatPonte, ErrTooLarge, DefaultMaxRecordBytes + 1, 1},
		{"jsonl", long(`{"moves":[`, `"a1,b1",`), "\n" + `{"moves":["a1,b1"]}` + "\n", FormatJSONL, ErrTooLarge, DefaultMaxRecordBytes + 1, 1},
		{"boardspace", long("(;GM[PonteDelDiavolo]C[", "x"), "\n(;GM[PonteDelDiavolo]P0[id \"a\"]\n; P0[1 Pass]; P0[2 Done])\n", FormatBoardspace, ErrTooLarge, DefaultMaxRecordBytes + 1, 1},
		{"abstractplay", long(`[{"header":{"x":"`, "x"), "\n" + `{"header":{"players":[{"name":"a"},{"name":"b"}]},"moves":[]}]` + "\n", FormatAbstractPlay, ErrLineTooLong, MaxLineLength + 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := NewReader(io.MultiReader(tt.first, strings.NewReader(tt.rest)), "long")
			rec, err := rd.Read()
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) || pe.Line != 1 || pe.Column != tt.col || rec.Format != tt.format || len(rec.Raw) > MaxRaw {
				t.Fatalf("got %v (%v)", err, rd.Format())
			}
			for i := range tt.good {
				if rec, err := rd.Read(); err != nil || rec.Index != 2+i {
					t.Fatalf("record %d: %v", 2+i, err)
				}
			}
			if _, err := rd.Read(); err != io.EOF {
				t.Errorf("then %v", err)
			}
		})
	}
}

// TestHostileTurnNumberZero checks that a turn number 0, which no turn has, is a
// notation error at the number, and that the games around are read.
func TestHostileTurnNumberZero(t *testing.T) {
	out, _ := readHostile(t, "zero-turn.ponte")
	want := []struct {
		line, col int
		msg       string
	}{
		{1, 1, "zero-turn.ponte:1:1: game 1: turn number 0 written before turn 1: turns are numbered from 1"},
		{5, 10, "zero-turn.ponte:5:10: game 2: turn number 0 written before turn 2: turns are numbered from 1"},
		{},
	}
	if len(out) != len(want) {
		t.Fatalf("got %v", out)
	}
	for i, w := range want {
		if w.msg == "" {
			if out[i].err != nil || len(out[i].rec.Moves) != 2 {
				t.Errorf("game %d: %v", i+1, out[i].err)
			}
			continue
		}
		if pe, ok := out[i].err.(*ParseError); !ok || !errors.Is(pe, ErrSyntax) || pe.Error() != w.msg {
			t.Errorf("game %d: %v, want %s", i+1, out[i].err, w.msg)
		}
	}
}

// TestHostileInvalidUTF8 checks that text that is not UTF-8 in a tag name or value, a
// turn token or a comment is stored with U+FFFD in place of its bad bytes, with one
// notice for the record, and that the record is read without error.
func TestHostileInvalidUTF8(t *testing.T) {
	tests := []struct {
		name    string
		tags    []Tag
		moves   []string
		comment []string // the record's, then each turn's
		notice  string
	}{
		{"latin1.ponte",
			[]Tag{{"Event", "Caf\uFFFD league"}, {"Light", "Andr\uFFFD"}, {"Pl\uFFFDtz", "1"}},
			[]string{"a1,b1", "c3,d4\uFFFD"},
			[]string{"Kommentar \uFFFDber", "sch\uFFFDn", "gut \uFFFD\n zeile"},
			"latin1.ponte:1:12: invalid UTF-8 in the value of tag Event replaced by U+FFFD (and in 6 more texts of this record)"},
		{"latin1.jsonl",
			[]Tag{{"Event", "Caf\uFFFD"}, {"Light", "Andr\uFFFD \uFFFD"}, {"x\uFFFD", "[1,\"\uFFFD\"]"}},
			[]string{"a1,b1", "c3\uFFFD"},
			nil,
			"latin1.jsonl:1:14: invalid UTF-8 in a string replaced by U+FFFD (and in 4 more texts of this record)"},
		{"latin1-abstractplay.json",
			nil, // checked below
			[]string{"a1,b1", "c3,d4"},
			nil,
			"latin1-abstractplay.json:1:73: invalid UTF-8 in a string replaced by U+FFFD (and in 2 more texts of this record)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, notices := readHostile(t, tt.name)
			if len(out) != 2 || out[0].err != nil || out[1].err != nil {
				t.Fatalf("got %v", out)
			}
			r := out[0].rec
			if len(notices) != 1 || notices[0].Error() != tt.notice || !errors.Is(notices[0], ErrSkipped) {
				t.Errorf("notices %v, want %s", notices, tt.notice)
			}
			for _, want := range tt.tags {
				if got := r.Tag(want.Name); got != want.Value {
					t.Errorf("tag %q = %q, want %q", want.Name, got, want.Value)
				}
			}
			if got := texts(r); !slicesEqual(got, tt.moves) {
				t.Errorf("moves %q, want %q", got, tt.moves)
			}
			if tt.comment != nil {
				got := []string{r.Comment}
				for _, m := range r.Moves {
					got = append(got, m.Comment)
				}
				if !slicesEqual(got, tt.comment) {
					t.Errorf("comments %q, want %q", got, tt.comment)
				}
			}
			if s := allText(r); !utf8Valid(s) {
				t.Errorf("text not UTF-8: %q", s)
			}
			if tt.name == "latin1-abstractplay.json" && (r.Tag("Light") != "Andr\uFFFD" || r.Tag("DarkCountry") != "\uFFFD" || r.Tag("Event") != "Caf\uFFFD") {
				t.Errorf("tags %v", r.Tags)
			}
		})
	}
}

// allText is every text of a record that the store keeps but its raw text.
func allText(r *Record) string {
	var b strings.Builder
	b.WriteString(r.Comment)
	for _, t := range r.Tags {
		b.WriteString(t.Name + t.Value)
	}
	for _, m := range r.Moves {
		b.WriteString(m.Text + m.Comment)
	}
	for _, e := range r.TagErrors {
		b.WriteString(e.Error())
	}
	return b.String()
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

func utf8Valid(s string) bool { return firstInvalid(s) < 0 }

// TestLineReaderHigh checks the line reader's note of lines that hold bytes that are not
// ASCII (only those are checked for UTF-8), whatever the lengths of lines and reads.
func TestLineReaderHigh(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		var data []byte
		var want []bool
		for range rng.IntN(200) {
			n := rng.IntN(300)
			if rng.IntN(10) == 0 {
				n = rng.IntN(20_000)
			}
			line := bytes.Repeat([]byte{'a'}, n)
			high := n > 0 && rng.IntN(3) == 0
			if high {
				line[rng.IntN(n)] = 0xe9
			}
			data = append(append(data, line...), '\n')
			want = append(want, high)
		}
		var src io.Reader = bytes.NewReader(data)
		switch round % 3 {
		case 1:
			src = iotest.HalfReader(src)
		case 2:
			src = iotest.OneByteReader(src)
		}
		var lr lineReader
		lr.reset(src)
		for i, w := range want {
			if _, ok := lr.next(); !ok || lr.high != w {
				t.Fatalf("round %d, line %d: ok %v, high %v, want %v", round, i+1, ok, lr.high, w)
			}
		}
		if _, ok := lr.next(); ok {
			t.Fatalf("round %d: a line too many", round)
		}
	}
}

// FuzzRecordLimits reads any input (of any format) under small limits of one record and
// checks what they promise: no panic, every record within the limits whether it reads or
// not, errors of ErrTooLarge at positions within the input, reading that goes on after a
// record too large, and text that is UTF-8.
func FuzzRecordLimits(f *testing.F) {
	lim := recordLimits(200, 4, 4, 30)
	entries, err := os.ReadDir(hostileDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(hostileDir + e.Name())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{
		"[Event \"x\"]\n\n1. a1,b1 {c} 2. c3,d4 {" + strings.Repeat("d", 40) + "} 3. e5,f6 4. pass 5. swap *\n\n1. a1,b1 *\n",
		`{"a":1,"b":2,"c":3,"d":4,"moves":["a1,b1","c3,d4","e5,f6","pass","swap"]}` + "\n" + `{"moves":[]}` + "\n",
		`[{"header":{"players":[{"name":"a"},{"name":"b"}],"x":1,"y":2},"moves":[["a1,b1","c3,d4"],["e5,f6","pass"],["swap"]]}]`,
		"(;GM[PonteDelDiavolo]P0[id \"a\"]\n; P0[1 Pass]; P0[2 Done]; P1[3 Pass]; P1[4 Done]; P0[5 Pass]; P0[6 Done]; P1[7 Pass]; P1[8 Done]; P0[9 Pass]; P0[10 Done])\n(;GM[PonteDelDiavolo])",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader(bytes.NewReader(data), "fuzz")
		rd.Limits = lim
		for n := 0; ; n++ {
			if n > len(data)+1 {
				t.Fatalf("more records than bytes")
			}
			rec, err := rd.Read()
			for _, no := range rd.Notices() {
				if !utf8Valid(no.Error()) {
					t.Fatalf("notice not UTF-8: %q", no.Error())
				}
			}
			if err == io.EOF {
				break
			}
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				break // the stream cannot be read: not about one record
			}
			checkText(t, rec)
			fixed := 0 // the tags a foreign record always gets
			if !rec.Format.Writable() {
				fixed = 24
			}
			comments := len(rec.Comment)
			for _, m := range rec.Moves {
				comments += len(m.Comment)
			}
			if len(rec.Moves) > lim.MaxTurns || len(rec.Tags) > lim.MaxTags+fixed || len(rec.Raw) > MaxRaw ||
				rec.Format == FormatPonte && comments > lim.MaxCommentBytes+len(rec.Moves)+1 {
				t.Fatalf("record %d beyond the limits: %d turns, %d tags, %d bytes of comments, %d of raw text",
					rec.Index, len(rec.Moves), len(rec.Tags), comments, len(rec.Raw))
			}
			if pe != nil && errors.Is(pe, ErrTooLarge) && (!inInput(data, pe.Line, pe.Column) || !strings.Contains(pe.Error(), "(--max-")) {
				t.Fatalf("error %v", pe)
			}
		}
	})
}

// TestHostileBlankThenError checks that a stream that gives blanks and then a read error
// (a corrupt gzip stream, found by the fuzzer) ends with that error, at once.
func TestHostileBlankThenError(t *testing.T) {
	boom := errors.New("boom")
	for _, head := range []string{" ", "\r", "  \n \t", "\n\n"} {
		done := make(chan error, 1)
		go func() {
			_, err := NewReader(io.MultiReader(strings.NewReader(head), iotest.ErrReader(boom)), "x").Read()
			done <- err
		}()
		select {
		case err := <-done:
			if err != boom {
				t.Errorf("%q: %v", head, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: the reader does not return", head)
		}
	}
}

// TestPlainMovetext checks the lines that the rest of a game too large to keep passes over
// without scanning them: none may hold what could end the game.
func TestPlainMovetext(t *testing.T) {
	for _, tt := range []struct {
		line  string
		plain bool
	}{
		{"1. a1,b1 2. c3-d4 3. e5,f6", true},
		{"a1-b3 b2-c4 10-01 1-00 01-0 1-0!", true},
		{"", true},
		{"1. a1,b1 1-0", false},
		{"0-1", false},
		{"7.1-0", false},
		{"1-0\t", false},
		{"a1,b1 0-1{x}", false},
		{"1/2-1/2", false},
		{"*", false},
		{"a1,b1 {c}", false},
		{"a1,b1 ; c", false},
		{"  [Event \"x\"]", false},
	} {
		if got := plainMovetext([]byte(tt.line)); got != tt.plain {
			t.Errorf("%q: %v", tt.line, got)
		}
	}
}

// FuzzPlainMovetext checks that passing over the plain lines of a game too large to keep
// finds the same records, errors and positions as scanning them.
func FuzzPlainMovetext(f *testing.F) {
	lim := recordLimits(40, 3, 3, 10)
	for _, seed := range []string{
		"[Event \"x\"]\n\n1. a1,b1 2. c3,d4\n3. e5,f6 4. g7,h8\n5. a2,b3 7.1-0 x\n[Event \"y\"]\n\n1. a1,b1 *\n",
		"1. a1,b1 2. c3,d4 3. e5-f6 4. pass 5. swap\na1,b1 {c\n} 1-0 {d} e\n\n1. a1,b1 0-1",
		"[A \"1\"] [B \"2\"] [C \"3\"] [D \"4\"]\na1,b1 c3,d4\n[E \"5\"]\n\n*\n",
		"1. a1,b1 2. b2,c3 3. c4,d5 4. e6,f7 ; x\n1/2-1/2 [Event \"z\"]\n1. a1,b1",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(noPlainSkip bool) string {
			var b strings.Builder
			rd := NewReader(bytes.NewReader(data), "f")
			rd.Limits = lim
			if rd.Format() == FormatPonte { // detected: the reader of .ponte is made
				p := newFormatReader(rd).(*ponteReader)
				p.noPlainSkip = noPlainSkip
				rd.fr = p
			}
			for n := 0; n <= len(data)+1; n++ {
				rec, err := rd.Read()
				if rec == nil {
					fmt.Fprintf(&b, "end %v\n", err)
					break
				}
				fmt.Fprintf(&b, "%d %d %d %d %q %q %v\n", rec.Index, rec.Line, len(rec.Moves), len(rec.Tags), rec.Result, rec.Raw, err)
			}
			return b.String()
		}
		fast := read(false)
		if full := read(true); fast != full {
			t.Fatalf("passing over plain lines:\n%s\nscanning them:\n%s", fast, full)
		}
	})
}
