// Package utf8text makes texts valid UTF-8 of a bounded length, as the store holds them:
// every byte that is not part of a valid sequence replaced by U+FFFD as encoding/json does,
// and a text too long cut with a note that says so.
package utf8text

import (
	"strings"
	"unicode/utf8"

	"github.com/ponte/ponte/internal/numtext"
)

// Valid returns s with every byte that is not part of a valid UTF-8 sequence replaced
// by U+FFFD, one per byte as encoding/json does (so that the store holds what `ponte
// verify --json` prints for the same text). A valid s is returned as it is: checking it
// costs no allocation.
func Valid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(validLen(s))
	appendValid(&b, s, -1, -1)
	return b.String()
}

// appendValid appends s to b with invalid bytes replaced by U+FFFD, stopping before the
// rune that would take b past limit bytes (no limit when limit < 0). It returns how many
// bytes of s were appended, and the positions, in s and in b, just after the last byte
// sep appended (-1 when none; sep < 0 is no byte).
func appendValid(b *strings.Builder, s string, limit, sep int) (used, sepIn, sepOut int) {
	sepIn, sepOut = -1, -1
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if limit >= 0 && b.Len()+1 > limit {
				break
			}
			b.WriteByte(c)
			i++
			if int(c) == sep {
				sepIn, sepOut = i, b.Len()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if limit >= 0 && b.Len()+len(string(utf8.RuneError)) > limit {
				break
			}
			b.WriteRune(utf8.RuneError)
		} else {
			if limit >= 0 && b.Len()+size > limit {
				break
			}
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return i, sepIn, sepOut
}

// cutSlack is how far back from a cut Fit looks for a separator (a line end, a space)
// to cut at instead of in the middle of a line or a token.
const cutSlack = 4 << 10

// Fit returns s as valid UTF-8 (see Valid) of at most limit bytes (limit must
// leave room for the note, 100 bytes are enough). s is the text,
// or, when total > len(s), its first bytes (the text is total bytes long). A text that
// does not fit is cut at a rune boundary, at the last sep byte within cutSlack bytes of
// the cut if there is one, and ends with sep and a note saying it was cut: "… [cut: what
// is 52,428,800 bytes; the first 65,530 are kept]". The common case, a valid text that
// fits, is s itself, with no allocation.
func Fit(s string, total, limit int, what string, sep byte) string {
	whole := total <= len(s)
	if whole && len(s) <= limit && utf8.ValidString(s) {
		return s
	}
	if whole && validLen(s) <= limit {
		return Valid(s)
	}
	total = max(total, len(s))
	// The note's length with the largest number of bytes kept that it can say.
	room := max(limit-len(cutNote(what, total, limit))-1, 0)
	var b strings.Builder
	b.Grow(limit)
	used, sepIn, sepOut := appendValid(&b, s, room, int(sep))
	out := b.String()
	if sepOut > 0 && len(out)-sepOut <= cutSlack {
		out, used = out[:sepOut], sepIn
	} else {
		out += string(sep)
	}
	return out + cutNote(what, total, used)
}

// validLen is the length of Valid(s).
func validLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += len(string(utf8.RuneError))
		} else {
			n += size
		}
		i += size
	}
	return n
}

// cutNote is the line that ends a cut text.
func cutNote(what string, total, kept int) string {
	return "… [cut: " + what + " is " + thousands(total) + " bytes; the first " + thousands(kept) + " are kept]"
}

// thousands writes n with comma separators (numtext.Thousands).
func thousands(n int) string {
	return numtext.Thousands(int64(n))
}
