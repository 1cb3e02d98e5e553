package ingest

import (
	"errors"
	"strings"
	"testing"

	gamepkg "github.com/ponte/ponte/game"
)

// token is the text of r's result token, "" when its movetext has none.
func token(r *Record) string {
	if r.Result == nil {
		return ""
	}
	return r.Result.String()
}

// resultToken is a result token for a record made by hand: the result of the token text,
// or a value that is no result for any other text.
func resultToken(text string) *gamepkg.Result {
	r, ok := gamepkg.ParseResult(text)
	if !ok {
		r = gamepkg.Draw + 1
	}
	return &r
}

// The result a record claims is typed from its tag and its token; a Result tag that is
// no result, or a token that differs from the tag, claims nothing and is kept as a slip
// (TagErrors), never lost.
func TestClaimedResult(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		token      string
		claim      gamepkg.Result
		slip       error
	}{
		{"tag and token", "[Result \"1-0\"]\n\n1. a1,b1 1-0\n", "1-0", gamepkg.LightWins, nil},
		{"tag alone", "[Result \"0-1\"]\n\n1. a1,b1\n", "", gamepkg.DarkWins, nil},
		{"token alone", "1. a1,b1 1/2-1/2\n", "1/2-1/2", gamepkg.Draw, nil},
		{"nothing", "[Event \"x\"]\n\n1. a1,b1\n", "", gamepkg.NoResult, nil},
		{"a star", "[Event \"x\"]\n\n1. a1,b1 *\n", "*", gamepkg.NoResult, nil},
		{"a star against the tag", "[Result \"1-0\"]\n\n1. a1,b1 *\n", "*", gamepkg.NoResult, ErrResultMismatch},
		{"token against the tag", "[Result \"1-0\"]\n\n1. a1,b1 0-1\n", "0-1", gamepkg.NoResult, ErrResultMismatch},
		{"a tag that is no result", "[Result \"1:0\"]\n\n1. a1,b1\n", "", gamepkg.NoResult, ErrTagValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tc.text), "t")
			r, err := rd.Read()
			if err != nil {
				t.Fatal(err)
			}
			if token(r) != tc.token || r.ClaimedResult() != tc.claim {
				t.Errorf("token %q, claims %v; want %q, %v", token(r), r.ClaimedResult(), tc.token, tc.claim)
			}
			switch {
			case tc.slip == nil && len(r.TagErrors) > 0:
				t.Errorf("slips %v", r.TagErrors)
			case tc.slip != nil && (len(r.TagErrors) != 1 || !errors.Is(r.TagErrors[0], tc.slip)):
				t.Errorf("slips %v, want one of %v", r.TagErrors, tc.slip)
			}
		})
	}
}
