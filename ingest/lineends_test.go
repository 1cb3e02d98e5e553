package ingest

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// Line ends and byte order marks are read as a text editor reads them: a mark at the
// start of any line is no part of it (what `cat a b` gives when b was saved with one),
// and \n, \r\n and \r alone all end a line. Positions count from the line's text, after
// the mark, as they do on the first line of a file.
func TestLineEndsAndMarksAsAnEditorReadsThem(t *testing.T) {
	t.Parallel()
	const ponteA = "[Event \"a\"]\n[Size \"10\"]\n\n1. a1,b1 2. c3,d4 *\n"
	const ponteB = "\ufeff[Event \"b\"]\n[Size \"10\"]\n\n1. e5,f6 2. g7,h8 *\n"
	const jsonA = `{"event":"a","moves":["a1,b1","c3,d4"]}` + "\n"
	const jsonB = "\ufeff" + `{"event":"b","moves":["e5,f6","g7,h8"]}` + "\n"
	crOnly := func(s string) string { return strings.ReplaceAll(s, "\n", "\r") }
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	for _, tt := range []struct{ name, in string }{
		{"ponte, cat of a file with a BOM", ponteA + ponteB},
		{"ponte, BOM on every line", "\ufeff" + strings.ReplaceAll(ponteA, "\n", "\n\ufeff") + ponteB},
		{"ponte, CR line ends", crOnly(ponteA + ponteB)},
		{"ponte, CR line ends, no end at the end", strings.TrimSuffix(crOnly(ponteA+ponteB), "\r")},
		{"ponte, mixed line ends", ponteA + crOnly(ponteB)},
		{"ponte, CRLF then CR", crlf(ponteA) + crOnly(ponteB)},
		{"jsonl, cat of a file with a BOM", jsonA + jsonB},
		{"jsonl, two BOMs", jsonA + "\ufeff" + jsonB},
		{"jsonl, CR line ends", crOnly(jsonA + jsonB)},
		{"jsonl, CR CR LF", strings.ReplaceAll(jsonA+jsonB, "\n", "\r\r\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := readAll(t, tt.in)
			if len(out) != 2 {
				t.Fatalf("%d records, want 2: %+v", len(out), out)
			}
			for i, want := range []string{"a", "b"} {
				r := out[i]
				if r.err != nil {
					t.Fatalf("record %d: %v", i+1, r.err)
				}
				if ev := r.rec.Tag(tagEvent); ev != want || len(r.rec.Moves) != 2 {
					t.Errorf("record %d: Event %q, moves %q", i+1, ev, texts(r.rec))
				}
			}
		})
	}
}

// An error after a line end or a mark of any kind is at the line and column an editor
// shows: lines counted at each line end, columns from the line's text.
func TestPositionsAfterMarksAndCRs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in  string
		line, col int
	}{
		{"ponte, BOM", "1. a1,b1 *\n\ufeff[Size \"x\"]\n\n1. a1,b1 *\n", 2, 7},
		{"ponte, CR", "1. a1,b1 *\r[Event \"b\"]\r[Size \"x\"]\r\r1. a1,b1 *\r", 3, 7},
		{"ponte, CR then BOM", "1. a1,b1 *\r\r\ufeff1. a1,b1 }\r", 3, 10},
		{"jsonl, BOM", `{"moves":[]}` + "\n\ufeff" + `{"moves":[1]}` + "\n", 2, 11},
		{"jsonl, CR", `{"moves":[]}` + "\r\r" + `{"moves":[1]}`, 3, 11},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := readAll(t, tt.in)
			if len(out) != 2 || out[0].err != nil {
				t.Fatalf("%d records: %+v", len(out), out)
			}
			var pe *ParseError
			if !errors.As(out[1].err, &pe) || pe.Line != tt.line || pe.Column != tt.col {
				t.Errorf("second record: %v, want line %d col %d", out[1].err, tt.line, tt.col)
			}
		})
	}
}

// A long run of \r is read in one pass (each \r a line end), and a run of \r split across
// reads of the input still joins the \n that follows it.
func TestCRRuns(t *testing.T) {
	t.Parallel()
	in := `{"moves":["a1,b1"]}` + strings.Repeat("\r", 100000) + `{"moves":["c3,d4"]}` + "\r\r\n"
	out := readAll(t, in)
	if len(out) != 2 || out[0].err != nil || out[1].err != nil || out[1].rec.Line != 100001 {
		t.Fatalf("%+v", out)
	}
	var lr lineReader
	lr.reset(iotest.OneByteReader(strings.NewReader("a\r\r\nb\r\rc")))
	var got []string
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		got = append(got, string(line))
	}
	if strings.Join(got, "|") != "a|b||c" {
		t.Errorf("lines %q", got)
	}
}
