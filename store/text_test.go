package store

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ponte/ponte/ingest"
)

// validText replaces each byte that is not valid UTF-8 by U+FFFD, as encoding/json does,
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
		got := validText(c.in)
		if got != c.want {
			t.Errorf("validText(%q) = %q, want %q", c.in, got, c.want)
		}
		if len(got) != validLen(c.in) {
			t.Errorf("validLen(%q) = %d, validText has %d bytes", c.in, validLen(c.in), len(got))
		}
		b, _ := json.Marshal(c.in)
		var printed string
		if err := json.Unmarshal(b, &printed); err != nil || printed != got {
			t.Errorf("%q: encoding/json prints %q, the store keeps %q", c.in, printed, got)
		}
	}
	valid := strings.Repeat("Renée plays d4,e5. ", 100)
	if n := testing.AllocsPerRun(100, func() { _ = validText(valid) }); n != 0 {
		t.Errorf("validText of a valid text: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = fitText(valid, len(valid), maxMessage, "the text", ' ') }); n != 0 {
		t.Errorf("fitText of a valid text that fits: %v allocations", n)
	}
}

// fitText keeps a text whole when it fits, else cuts it at a rune boundary (at a
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
		got := fitText(c.s, total, c.limit, "the text", c.sep)
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

// Every text the store builds for a record, in games and tags, is valid UTF-8, whatever
// the record holds, within its bound for the raw text, the moves and the message, and
// whole for the others (a tag, a player, a source): records made here, not read, so that
// nothing the readers check or limit stands between them and the store.
func TestAnalyzeTextBounds(t *testing.T) {
	col := func(name string) int {
		for i, c := range gamesTable.columns {
			if c.name == name {
				return i
			}
		}
		t.Fatalf("no games column %s", name)
		return -1
	}
	bound := map[int]int{col("raw"): maxRaw, col("moves"): maxMoves, col("error_message"): maxMessage}
	moves := func(toks ...string) []ingest.Token {
		out := make([]ingest.Token, len(toks))
		for i, s := range toks {
			out[i] = ingest.Token{Text: s}
		}
		return out
	}
	many := func(n int, tok string) []string { return strings.Fields(strings.Repeat(tok+" ", n)) }
	latin1 := ingest.Record{Source: "dir/caf\xe9.ponte", Format: ingest.FormatPonte, Index: 1, Line: 1, Size: 6, Supply: "unlimited",
		Tags: []ingest.Tag{{Name: "Event", Value: "Citt\xe0"}, {Name: "Light", Value: "Jos\xe9"}, {Name: "Dark", Value: "Ren\xe9e"},
			{Name: "Ann\xe9e", Value: "2026"}, {Name: "Size", Value: "6"}},
		Moves: moves("a1,a2", "\xe9\xe9,b2", "c1,c2")}
	bigMoves := latin1
	bigMoves.Moves = moves(append(append([]string{"a1,a2", "a1,a2"}, many(20000, "b3,c3")...), strings.Repeat("z", 500_000))...)
	bigSupply := latin1
	bigSupply.Supply = strings.Repeat("\xe9", 100_000)
	bigTag := latin1
	bigTag.Tags = append([]ingest.Tag{{Name: "Annotator", Value: strings.Repeat("y", 200_000)}}, latin1.Tags...)
	bigPlayer := latin1
	bigPlayer.Tags = []ingest.Tag{{Name: "Light", Value: strings.Repeat("\xe9", 100_000) + "!"}, {Name: "Dark", Value: "Ren\xe9e"}}
	readErr := &ingest.ParseError{Source: "dir/caf\xe9.ponte", Game: 1, Line: 1, Column: 8, Err: ingest.ErrTagValue}
	unreadable := ingest.Record{Source: "dir/caf\xe9.ponte", Format: ingest.FormatPonte, Index: 1, Line: 1,
		Raw: []byte("[Size \"s\xe9i\"]\n\n1. a1,a2 {\xe9t\xe9} *\n")}
	unreadableBig := unreadable
	unreadableBig.Raw = []byte(strings.Repeat("\xe9", ingest.MaxRaw))

	for _, c := range []struct {
		name    string
		rec     ingest.Record
		readErr error
		want    map[string]string // some columns' values, whole
		cut     []string          // columns that must end with a note
		tags    []tagPair         // the tags, when given
	}{
		{name: "Latin-1 in the source, tags and moves", rec: latin1,
			want: map[string]string{"source": "dir/caf\uFFFD.ponte", "event": "Citt\uFFFD", "light": "Jos\uFFFD",
				"dark": "Ren\uFFFDe", "opener": "Jos\uFFFD", "moves": "a1,a2 \uFFFD\uFFFD,b2 c1,c2"}},
		{name: "20,000 turns and a 500 KB token", rec: bigMoves, cut: []string{"moves", "raw"}},
		{name: "a message quoting 100 KB", rec: bigSupply, cut: []string{"error_message"},
			want: map[string]string{"supply": strings.Repeat("\uFFFD", 100_000)}},
		{name: "a 200 KB tag value", rec: bigTag, tags: append([]tagPair{{"Annotator", strings.Repeat("y", 200_000)}},
			tagPair{"Event", "Citt\uFFFD"}, tagPair{"Light", "Jos\uFFFD"}, tagPair{"Dark", "Ren\uFFFDe"}, tagPair{"Ann\uFFFDe", "2026"}, tagPair{"Size", "6"})},
		{name: "a player of 300 KB", rec: bigPlayer, want: map[string]string{"light": strings.Repeat("\uFFFD", 100_000) + "!", "opener": strings.Repeat("\uFFFD", 100_000) + "!"},
			tags: []tagPair{{"Light", strings.Repeat("\uFFFD", 100_000) + "!"}, {"Dark", "Ren\uFFFDe"}}},
		{name: "unreadable, Latin-1 in its text", rec: unreadable, readErr: readErr,
			want: map[string]string{"source": "dir/caf\uFFFD.ponte", "raw": "[Size \"s\uFFFDi\"]\n\n1. a1,a2 {\uFFFDt\uFFFD} *\n"}},
		{name: "unreadable, a text that triples once made valid", rec: unreadableBig, readErr: readErr, cut: []string{"raw"}},
	} {
		var a analyzer
		rec := c.rec
		out := a.analyze(&rec, c.readErr)
		for i, v := range out.game {
			s, ok := v.(string)
			if !ok {
				continue
			}
			name := gamesTable.columns[i].name
			limit, ok := bound[i]
			if !utf8.ValidString(s) || ok && len(s) > limit {
				t.Errorf("%s: games.%s: valid UTF-8 %v, %d bytes (bound %d): %.80q", c.name, name, utf8.ValidString(s), len(s), limit, s)
			}
			if want, ok := c.want[name]; ok && s != want {
				t.Errorf("%s: games.%s = %q, want %q", c.name, name, s, want)
			}
		}
		for _, name := range c.cut {
			s, _ := out.game[col(name)].(string)
			if i := strings.LastIndex(s, "… [cut: "); i < 0 || !strings.HasSuffix(s, " are kept]") {
				t.Errorf("%s: games.%s is not cut: it ends %q", c.name, name, s[max(0, len(s)-80):])
			}
		}
		for k, tag := range out.tags {
			for _, s := range tag {
				if !utf8.ValidString(s) {
					t.Errorf("%s: tag %d: not valid UTF-8: %.80q", c.name, k+1, s)
				}
			}
		}
		if c.tags != nil && !slices.Equal(out.tags, c.tags) {
			t.Errorf("%s: tags %.200q, want them whole: %.200q", c.name, out.tags, c.tags)
		}
	}
}

// A record that fits the bounds costs nothing more to store than before.
func BenchmarkAnalyzeText(b *testing.B) {
	rec := ingest.Record{Source: "../sample_data/autumn-league.ponte", Format: ingest.FormatPonte, Index: 1, Line: 1, Size: 10,
		Supply: "unlimited", Tags: []ingest.Tag{{Name: "Event", Value: "Autumn league"}, {Name: "Light", Value: "Jonas"},
			{Name: "Dark", Value: "Chiara"}}}
	for _, tok := range strings.Fields("d6,g2 b4,a4 f4,j7 g3,f3 h8,h7 h1,g1 d1,c1 j4,i4 h4,h3 j6,e8 e5,e6 i6,h6 j7-h7") {
		rec.Moves = append(rec.Moves, ingest.Token{Text: tok})
	}
	var a analyzer
	b.ReportAllocs()
	for b.Loop() {
		a.analyze(&rec, nil)
	}
}

// Two players whose names share their first 64 KiB (and have the same length) stay two
// players: in games, in the view tags and in games.parquet. (Before, both names were cut
// to the same 64 KiB with the same note, and every statistic by player merged them.)
func TestLongNamesKeptApart(t *testing.T) {
	dir := t.TempDir()
	common := strings.Repeat("Ada Lovelace ", 6000) // 78,000 bytes
	game := func(light, opening string) string {
		return "[Light \"" + light + "\"]\n[Dark \"Chiara\"]\n[Size \"6\"]\n[Result \"*\"]\n\n1. " + opening + " 2. f1,f2 *\n\n"
	}
	path := filepath.Join(dir, "long.ponte")
	write(t, path, game(common+"I", "a1,a2")+game(common+"II", "b1,b2")+game(common+"V", "c1,c2"))
	d := openTemp(t)
	defer d.Close()
	if sum := ingestInto(t, d, Options{}, path); sum.Games != 3 || len(sum.Errors) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	got := dump(t, d.db, "SELECT substr(light, 78001), length(light), light = opener FROM games ORDER BY id")
	if want := "I | 78001 | 1\nII | 78002 | 1\nV | 78001 | 1\n"; got != want {
		t.Errorf("players:\n%s\nwant\n%s", got, want)
	}
	if n := count(t, d.db, "SELECT count(DISTINCT value) FROM tags WHERE name = 'Light'"); n != 3 {
		t.Errorf("%d distinct Light tags, want 3", n)
	}
	pq := filepath.Join(t.TempDir(), "pq")
	if _, err := d.WriteParquet(pq); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range readParquet[GameRow](t, filepath.Join(pq, "games.parquet")) {
		if g.Light != nil {
			seen[*g.Light] = true
		}
	}
	if len(seen) != 3 || !seen[common+"I"] || !seen[common+"II"] || !seen[common+"V"] {
		t.Errorf("games.parquet: %d distinct players, want the 3 whole", len(seen))
	}
}
