package report

import (
	"strings"
	"unicode/utf8"
)

// Bounds of what a page shows of a record, so that a page's size does not follow its
// input's: a stored game's text is bounded by the store, but a database edited by hand, or
// written by an older ponte, may hold anything.
const (
	// maxText is the most characters shown of one piece of text: a tag's name or value, a
	// player, an event, a source path, an error message. Longer ones end in "…".
	maxText = 1000
	// maxTags is the most tags listed on a game page; a note says how many more there are.
	maxTags = 100
	// maxMoveRows is the most rows of a game page's move list (and so of turns stepped
	// through): the readers' default turn limit for a record.
	maxMoveRows = 10_000
	// maxMovesText is the most characters of a game's moves read: 16 for each of
	// maxMoveRows tokens, room for any real token ("l12,k12" has 7).
	maxMovesText = 16 * maxMoveRows
	// maxToken is the most characters of one move token shown in the move list.
	maxToken = 40
)

// cutText returns s cut to at most n characters, with "…" in place of what was left out,
// and with any byte that is not UTF-8 replaced by U+FFFD.
func cutText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	if i == len(s) {
		return s
	}
	return s[:i] + "…"
}

// cutUTF8 returns b as a string without the incomplete character a cut at a byte count may
// leave at its end, and with any other byte that is not UTF-8 replaced by U+FFFD.
func cutUTF8(b []byte) string {
	i := len(b) - 1
	for i > 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(b[i:]) {
		b = b[:i]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// isBidiControl reports whether r is one of the Unicode characters that open or close an
// embedding, override or isolate (U+202A–U+202E, U+2066–U+2069): a record's text that
// holds one can reorder the text after it when shown.
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// plain makes a record's text safe to show where no element can isolate it: in the page's
// <title>, in an attribute (a tooltip, the text the step-through shows). The embedding,
// override and isolate controls are left out, and text that is not all ASCII is wrapped in
// U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, so that neither a
// right-to-left name nor a control can reorder the text around it. ASCII text, which has
// neither, is returned as it is. In an element's content the templates use <bdi> instead,
// which keeps the text as it is.
func plain(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 6)
	b.WriteRune('\u2068')
	for _, r := range s {
		if !isBidiControl(r) {
			b.WriteRune(r)
		}
	}
	b.WriteRune('\u2069')
	return b.String()
}
