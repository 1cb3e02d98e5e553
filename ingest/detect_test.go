package ingest

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// A first line "[]" (an empty array) does not make a file Abstract Play when the line
// after it is of another format: a JSON Lines file whose first line is "[]" keeps its
// games, and the "[]" is one unreadable record at line 1. A file of "[]" alone is an
// empty Abstract Play export.
func TestEmptyArrayFirstLine(t *testing.T) {
	t.Parallel()
	game := `{"event":"a","moves":["a1,b1"]}` + "\n"
	for _, tt := range []struct {
		name, in string
		format   Format
		games    int // readable records
		errLine  int // the line of the first unreadable record, 0 for none
	}{
		{"jsonl", "[]\n" + game + game, FormatJSONL, 2, 1},
		{"jsonl, blank lines and CRs", " [ ] \r\n\r\n" + game, FormatJSONL, 1, 1},
		{"jsonl, two empty arrays", "[]\n\ufeff[]\n" + game, FormatJSONL, 1, 1},
		{"abstract play, empty", "[]\n", FormatAbstractPlay, 0, 0},
		{"abstract play, empty, then blank", "[]\n\n\n", FormatAbstractPlay, 0, 0},
		{"abstract play, empty then a record", "[]\n" + `{"header":{"game":{"name":"Ponte del Diavolo"},"players":[{"name":"a"},{"name":"b"}]},"moves":[["a1,b1"]]}` + "\n", FormatAbstractPlay, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tt.in), "t")
			if f := rd.Format(); f != tt.format {
				t.Fatalf("format %v, want %v", f, tt.format)
			}
			games, errLine := 0, 0
			for {
				rec, err := rd.Read()
				if err == io.EOF {
					break
				}
				var pe *ParseError
				switch {
				case err == nil:
					games++
				case errors.As(err, &pe) && rec != nil:
					if errLine == 0 {
						errLine = pe.Line
					}
				default:
					t.Fatalf("%v", err)
				}
			}
			if games != tt.games || errLine != tt.errLine {
				t.Errorf("%d games, error at line %d; want %d, %d", games, errLine, tt.games, tt.errLine)
			}
		})
	}
}

// A '}' or ']' that closes nothing in an Abstract Play export is no record: it is passed
// over with a notice at its place, and the records around it are read.
func TestAbstractPlayStrayBracket(t *testing.T) {
	t.Parallel()
	rec := `{"header":{"game":{"name":"Ponte del Diavolo"},"players":[{"name":"a"},{"name":"b"}]},"moves":[["a1,b1"]]}`
	for _, tt := range []struct {
		name, in  string
		line, col int
	}{
		{"in an array", "[" + rec + "}\n," + rec + "]\n", 1, len(rec) + 2},
		{"in an array, alone on its line", "[\n" + rec + ",\n}\n" + rec + "\n]\n", 3, 1},
		{"between records", rec + "\n}\n" + rec + "\n", 2, 1},
		{"a ']' between records", rec + "\n ]\n" + rec + "\n", 2, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tt.in), "t")
			n := 0
			for {
				r, err := rd.Read()
				if err == io.EOF {
					break
				}
				if err != nil || len(r.Moves) != 1 {
					t.Fatalf("record %d: %v", n+1, err)
				}
				n++
			}
			notes := rd.Notices()
			if n != 2 || len(notes) != 1 || notes[0].Line != tt.line || notes[0].Column != tt.col {
				t.Errorf("%d records, notices %v; want 2 and one at %d:%d", n, notes, tt.line, tt.col)
			}
		})
	}
}
