// Package termtext writes text for people on a terminal: text made safe to print, plurals,
// durations.
package termtext

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Safe returns s fit to print in a command's human output, on a terminal or into a pipe:
// a file name or a message that holds a terminal's escape sequence could otherwise recolour
// the terminal, move its cursor, retitle its window or hide the lines before it, and one
// that holds a newline could forge a line of its own. Every byte or character that a
// terminal acts on rather than shows is written as a Go escape: the C0 controls (\n, \t,
// \x1b, …), DEL (\x7f), the C1 controls (\u009b, …), the line and paragraph separators
// (\u2028, \u2029), the bidirectional marks and controls that reorder a line (\u200e,
// \u200f, \u061c, \u202a–\u202e, \u2066–\u2069), and any byte that is not UTF-8 (\xff).
// Everything else, printable non-ASCII included, is left as it is (a backslash too: a name
// that holds `\x1b` as four characters prints as it is). Text with nothing to escape is
// returned without copying. JSON outputs do not need this: encoding/json escapes every
// control character.
func Safe(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	var b []byte
	done := 0 // s[:done] is in b
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, size) {
			if b == nil {
				b = make([]byte, 0, len(s)+16)
			}
			b = appendEscape(append(b, s[done:i]...), r, s[i])
			done = i + size
		}
		i += size
	}
	if b == nil {
		return s
	}
	return string(append(b, s[done:]...))
}

// SafeErr is Safe of err's message.
func SafeErr(err error) string { return Safe(err.Error()) }

// unsafeRune reports whether the character r, size bytes long, is one Safe escapes.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1: // a byte that is not UTF-8
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// appendEscape appends the Go escape of r (or of the byte c that is not UTF-8).
func appendEscape(b []byte, r rune, c byte) []byte {
	switch {
	case r == utf8.RuneError:
		return appendHex(b, `\x`, uint64(c), 2)
	case r == '\a':
		return append(b, `\a`...)
	case r == '\b':
		return append(b, `\b`...)
	case r == '\f':
		return append(b, `\f`...)
	case r == '\n':
		return append(b, `\n`...)
	case r == '\r':
		return append(b, `\r`...)
	case r == '\t':
		return append(b, `\t`...)
	case r == '\v':
		return append(b, `\v`...)
	case r < 0x80:
		return appendHex(b, `\x`, uint64(r), 2)
	}
	return appendHex(b, `\u`, uint64(r), 4)
}

func appendHex(b []byte, prefix string, v uint64, digits int) []byte {
	b = append(b, prefix...)
	h := strconv.FormatUint(v, 16)
	for range digits - len(h) {
		b = append(b, '0')
	}
	return append(b, h...)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Seconds writes a duration in seconds: "0.42 s", "12.3 s".
func Seconds(secs float64) string {
	if secs < 1 {
		return fmt.Sprintf("%.2f s", secs)
	}
	return fmt.Sprintf("%.1f s", secs)
}

// Rate writes a rate per second: "12.5", "340".
func Rate(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}
