package utf8text

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Valid replaces each byte that is not valid UTF-8 by U+FFFD, as encoding/json does,
// so that the store holds the text `ponte verify --json` prints; a valid text costs no
// allocation.
func TestValidText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Jonas", "Jonas"},
		{"Renée, Città, 北京, 🌉", "Renée, Città, 北京, 🌉"},
		{"Ren\xe9e", "Ren\uFFFDe"},                       // Latin-1 é
		{"caf\xe9.ponte", "caf\uFFFD.ponte"},             // a file name from a Latin-1 system
		{"\xe9\xe9", "\uFFFD\uFFFD"},                     // one U+FFFD per byte
		{"\xe2\x82", "\uFFFD\uFFFD"},                     // a truncated sequence
		{"x\xed\xa0\x80y", "x\uFFFD\uFFFD\uFFFDy"},       // a surrogate
		{"\xc0\xaf", "\uFFFD\uFFFD"},                     // an overlong '/'
		{"\xff\xfe\x00", "\uFFFD\uFFFD\x00"},             // NUL is valid UTF-8
		{"\uFFFD and \xef\xbf\xbd", "\uFFFD and \uFFFD"}, // U+FFFD itself is kept
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"}, // beyond U+10FFFF
	} {
		got := Valid(c.in)
		if got != c.want {
			t.Errorf("Valid(%q) = %q, want %q", c.in, got, c.want)
		}
		if len(got) != validLen(c.in) {
			t.Errorf("validLen(%q) = %d, Valid has %d bytes", c.in, validLen(c.in), len(got))
		}
		b, _ := json.Marshal(c.in)
		var printed string
		if err := json.Unmarshal(b, &printed); err != nil || printed != got {
			t.Errorf("%q: encoding/json prints %q, the store keeps %q", c.in, printed, got)
		}
	}
	valid := strings.Repeat("Renée plays d4,e5. ", 100)
	if n := testing.AllocsPerRun(100, func() { _ = Valid(valid) }); n != 0 {
		t.Errorf("Valid of a valid text: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Fit(valid, len(valid), 4<<10, "the text", ' ') }); n != 0 {
		t.Errorf("Fit of a valid text that fits: %v allocations", n)
	}
}

// Fit keeps a text whole when it fits, else cuts it at a rune boundary (at a
// separator when one is near) and ends it with a note, within the limit.
func TestFitText(t *testing.T) {
	lines := strings.Repeat("1. a1,a2 2. b1,b2\n", 1000) // 18,000 bytes
	for _, c := range []struct {
		name  string
		s     string
		total int // 0: len(s)
		limit int
		sep   byte
		want  string // "" to check only the bounds and the note
		cut   bool
	}{
		{name: "fits", s: "a1,a2 b1,b2", limit: 100, sep: ' ', want: "a1,a2 b1,b2"},
		{name: "fits exactly", s: strings.Repeat("x", 100), limit: 100, sep: ' ', want: strings.Repeat("x", 100)},
		{name: "invalid, fits once replaced", s: "Jos\xe9", limit: 100, sep: ' ', want: "Jos\uFFFD"},
		{name: "cut at a line end", s: lines, limit: 200, sep: '\n',
			want: strings.Repeat("1. a1,a2 2. b1,b2\n", 7) + "… [cut: the text is 18,000 bytes; the first 126 are kept]", cut: true},
		{name: "no line end near", s: strings.Repeat("x", 10000), limit: 5064, sep: '\n',
			want: strings.Repeat("x", 5002) + "\n… [cut: the text is 10,000 bytes; the first 5,002 are kept]", cut: true}, // exactly 5,064 bytes
		{name: "cut between tokens", s: strings.Repeat("b3,c3 ", 100), limit: 100, sep: ' ',
			want: "b3,c3 b3,c3 b3,c3 b3,c3 b3,c3 b3,c3 b3,c3 … [cut: the text is 600 bytes; the first 42 are kept]", cut: true},
		{name: "a rune is not split", s: strings.Repeat("é", 5000), limit: 501, sep: '\n', cut: true},
		{name: "replacements that do not fit", s: strings.Repeat("\xe9", 200), limit: 300, sep: '\n', cut: true},
		{name: "the beginning of a longer text, its last line partial", s: "[Size \"6\"]\n\n1. a1,a2", total: 52428800, limit: 200, sep: '\n',
			want: "[Size \"6\"]\n\n… [cut: the text is 52,428,800 bytes; the first 12 are kept]", cut: true},
	} {
		total := c.total
		if total == 0 {
			total = len(c.s)
		}
		got := Fit(c.s, total, c.limit, "the text", c.sep)
		if c.want != "" && got != c.want {
			t.Errorf("%s: got\n%.300q\nwant\n%.300q", c.name, got, c.want)
		}
		if len(got) > c.limit || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes (limit %d), valid UTF-8 %v", c.name, len(got), c.limit, utf8.ValidString(got))
		}
		if cut := strings.Contains(got, "… [cut: the text is "+thousands(total)+" bytes; the first "); cut != c.cut {
			t.Errorf("%s: cut %v, want %v: %.300q", c.name, cut, c.cut, got)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 65536: "65,536",
		123456: "123,456", 52428800: "52,428,800", 1 << 40: "1,099,511,627,776"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
