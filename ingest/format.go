package ingest

import "fmt"

// Format is the format of a record file.
type Format int

// The formats of record files.
const (
	FormatUnknown Format = iota // not (yet) known
	FormatPonte                 // the .ponte text notation (FORMATS.md section 1)
	FormatJSONL                 // JSON Lines, one game per line (FORMATS.md section 2)
)

// String returns "unknown", "ponte" or "jsonl".
func (f Format) String() string {
	switch f {
	case FormatPonte:
		return "ponte"
	case FormatJSONL:
		return "jsonl"
	}
	return "unknown"
}

// ParseFormat returns the format named by s: "ponte" or "jsonl" (the
// results of [Format.String]).
func ParseFormat(s string) (Format, error) {
	switch s {
	case "ponte":
		return FormatPonte, nil
	case "jsonl":
		return FormatJSONL, nil
	}
	return FormatUnknown, fmt.Errorf("%w %q (want ponte or jsonl)", ErrFormat, s)
}

// detectFormat tells the format of a file from its first non-blank line:
//   - '[' (a tag), ';' (a comment), a turn number "1.", a result token or
//     a first turn without number ("d4,e5", "d4-f5"): .ponte;
//   - '{' followed by a JSON string and ':' or by '}': JSON Lines;
//   - '{' followed by other text on the same line: a .ponte comment;
//   - anything else is unknown.
func detectFormat(line []byte) Format {
	i := skipSpace(line, 0)
	if i == len(line) {
		return FormatUnknown
	}
	switch c := line[i]; {
	case c == '[' || c == ';' || c == '*':
		return FormatPonte
	case c == '{':
		j := skipSpace(line, i+1)
		if j == len(line) {
			return FormatUnknown // a multi-line JSON document, not JSON Lines
		}
		switch line[j] {
		case '}':
			return FormatJSONL
		case '"':
			k := j + 1
			for k < len(line) && line[k] != '"' {
				if line[k] == '\\' {
					k++
				}
				k++
			}
			if k < len(line) {
				if k = skipSpace(line, k+1); k < len(line) && line[k] == ':' {
					return FormatJSONL
				}
			}
		}
		return FormatPonte
	case c >= '0' && c <= '9':
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j < len(line) && line[j] == '.' {
			return FormatPonte
		}
		e := i
		for e < len(line) && !isDelim(line[e]) {
			e++
		}
		if isResult(string(line[i:e])) {
			return FormatPonte
		}
	case c >= 'a' && c <= 'z':
		// movetext without turn numbers: a tile pair or a bridge
		if k, ok := cell(line, i); ok && k < len(line) && (line[k] == ',' || line[k] == '-') {
			if k, ok = cell(line, k+1); ok && (k == len(line) || isDelim(line[k]) || line[k] == '!' || line[k] == '?') {
				return FormatPonte
			}
		}
	}
	return FormatUnknown
}

// cell reads a cell name like "d4" or "z26" at i and returns its end.
func cell(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] < 'a' || b[i] > 'z' {
		return i, false
	}
	k := i + 1
	for k < len(b) && k < i+3 && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	return k, k > i+1
}

// Byte classes of the .ponte notation.
const (
	clSpace = 1 << iota // blank: space, tab, \r, \v, \f
	clDelim             // ends a movetext word: blank, '{', '}', ';'
	clName              // may appear in a tag name
)

var class = func() (t [256]uint8) {
	for _, c := range []byte{' ', '\t', '\r', '\v', '\f'} {
		t[c] |= clSpace | clDelim
	}
	for _, c := range []byte{'{', '}', ';'} {
		t[c] |= clDelim
	}
	for c := 0x21; c < 256; c++ {
		if c != 0x7f && c != '"' && c != '[' && c != ']' {
			t[c] |= clName
		}
	}
	return t
}()

func isSpace(c byte) bool { return class[c]&clSpace != 0 }
func isDelim(c byte) bool { return class[c]&clDelim != 0 }

// skipSpace returns the index of the first non-blank byte of b at or after i.
func skipSpace[S ~string | ~[]byte](b S, i int) int {
	for i < len(b) && class[b[i]]&clSpace != 0 {
		i++
	}
	return i
}

// isResult reports whether w is a result token.
func isResult(w string) bool {
	switch w {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}
