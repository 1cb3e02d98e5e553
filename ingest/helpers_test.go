package ingest

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// result is one return of Reader.Read.
type result struct {
	rec *Record
	err error
}

// readAll reads every record of in.
func readAll(t testing.TB, in string) []result {
	t.Helper()
	return readAllWithin(t, in, DefaultLimits())
}

// readAllWithin reads every record of in within the limits lim.
func readAllWithin(t testing.TB, in string, lim Limits) []result {
	t.Helper()
	rd := NewReader(strings.NewReader(in), "t")
	rd.Limits = lim
	var out []result
	for range 100000 {
		rec, err := rd.Read()
		if err == io.EOF {
			return out
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			out = append(out, result{nil, err})
			return out
		}
		if err != nil && rec == nil {
			t.Fatalf("ParseError without record: %v", err)
		}
		out = append(out, result{rec, err})
	}
	t.Fatal("reader does not end")
	return nil
}

// texts returns the move texts of r.
func texts(r *Record) []string {
	var s []string
	for _, m := range r.Moves {
		s = append(s, m.Text)
	}
	return s
}

// sortedTags returns the tags of r sorted by name.
func sortedTags(r *Record) []Tag {
	s := slices.Clone(r.Tags)
	slices.SortFunc(s, func(a, b Tag) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// sameGame reports how a differs from b in tags, moves, result and comments
// (and comments if asked, compared with blanks normalised), or "" if it does not.
func sameGame(a, b *Record, comments bool) string {
	if !slices.Equal(sortedTags(a), sortedTags(b)) {
		return "tags differ"
	}
	if !slices.Equal(texts(a), texts(b)) {
		return "moves differ"
	}
	if a.ClaimedResult() != b.ClaimedResult() {
		return "results differ"
	}
	if a.Size != b.Size || a.Supply != b.Supply || a.Termination != b.Termination ||
		(a.Score == nil) != (b.Score == nil) || a.Score != nil && *a.Score != *b.Score {
		return "typed values differ"
	}
	if comments {
		if norm(a.Comment) != norm(b.Comment) {
			return "comments differ"
		}
		for i := range a.Moves {
			if norm(a.Moves[i].Comment) != norm(b.Moves[i].Comment) {
				return "comments differ"
			}
		}
	}
	return ""
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// withoutNumbers returns the tokens without their turn numbers, for comparisons that are
// about the tokens alone.
func withoutNumbers(toks []Token) []Token {
	out := make([]Token, len(toks))
	for i, t := range toks {
		t.Number, t.NumberLine, t.NumberCol = 0, 0, 0
		out[i] = t
	}
	return out
}
