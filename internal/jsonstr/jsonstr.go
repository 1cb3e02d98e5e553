// Package jsonstr writes a Go string as a JSON string, without the reflection and
// allocations of encoding/json: for the writers that make JSON text record by record
// (the JSON Lines writer, the store's packed tags and turns).
package jsonstr

// Append appends s, valid UTF-8, to b as a JSON string: the quote and the backslash
// escaped, the control characters as \n, \r, \t or \u00XX, everything else as it is.
func Append(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
