package ingest

import "fmt"

// Format is the format of a record file.
type Format int

// The formats of record files.
const (
	FormatUnknown Format = iota // not (yet) known
	FormatPonte                 // the .ponte text notation (docs/formats/ponte.md)
	FormatJSONL                 // JSON Lines, one game per line (docs/formats/ponte.md)
	// The formats of other sites, read only, are declared beside their readers:
	// FormatBoardspace (boardspace.go) and FormatAbstractPlay (abstractplay.go).
)

// String returns "unknown", "ponte", "jsonl", or the name of another site's
// format: "boardspace", "abstractplay".
func (f Format) String() string {
	switch f {
	case FormatPonte:
		return "ponte"
	case FormatJSONL:
		return "jsonl"
	}
	if s := site(f); s != nil {
		return s.name
	}
	return "unknown"
}

// Writable reports whether a [Writer] can write the format: only the
// project's own formats, .ponte and JSON Lines, can be.
func (f Format) Writable() bool { return f == FormatPonte || f == FormatJSONL }

// ParseFormat returns the format named by s: "ponte", "jsonl", "boardspace"
// or "abstractplay" (the results of [Format.String]). Only the first two are
// [Format.Writable].
func ParseFormat(s string) (Format, error) {
	switch s {
	case "ponte":
		return FormatPonte, nil
	case "jsonl":
		return FormatJSONL, nil
	}
	names := "ponte, jsonl"
	for i, f := range siteFormats {
		if f.name == s {
			return f.format, nil
		}
		if i == len(siteFormats)-1 {
			names += " or " + f.name
		} else {
			names += ", " + f.name
		}
	}
	return FormatUnknown, fmt.Errorf("%w %q (want %s)", ErrFormat, s, names)
}

// detectFormat tells the format of a file from its first non-blank line:
//   - a line that a registered site's detector claims: that site's format
//     (boardspace.net SGF starts with '(', an Abstract Play export with a
//     JSON array or a multi-line JSON object, or {"header": {);
//   - '[' (a tag), ';' (a comment), a turn number "1.", a result token or
//     a first turn without number ("d4,e5", "d4-f5"): .ponte;
//   - '{' followed by another JSON string and ':' or by '}': JSON Lines;
//   - '{' followed by other text on the same line: a .ponte comment;
//   - anything else is unknown.
func detectFormat(line []byte) Format {
	i := skipSpace(line, 0)
	if i == len(line) {
		return FormatUnknown
	}
	for _, s := range siteFormats {
		if s.detect(line[i:]) {
			return s.format
		}
	}
	switch c := line[i]; {
	case c == '[' || c == ';' || c == '*':
		return FormatPonte
	case c == '{':
		j := skipSpace(line, i+1)
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
