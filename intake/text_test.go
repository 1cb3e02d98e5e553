package intake

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/utf8text"
	"github.com/ponte/ponte/store"
)

// Every text the intake hands the store for a record, in games and tags, is valid UTF-8 once the store made it so, whatever
// the record holds, within its bound for the raw text, the moves and the message, and
// whole for the others (a tag, a player, a source): records made here, not read, so that
// nothing the readers check or limit stands between them and the store.
func TestAnalyzeTextBounds(t *testing.T) {
	bound := map[string]int{"raw": maxRaw, "moves": maxMoves, "error_message": maxMessage}
	moves := func(toks ...string) []ingest.Token {
		out := make([]ingest.Token, len(toks))
		for i, s := range toks {
			out[i] = ingest.Token{Text: s}
		}
		return out
	}
	many := func(n int, tok string) []string { return strings.Fields(strings.Repeat(tok+" ", n)) }
	latin1 := ingest.Record{Source: "dir/caf\xe9.ponte", Format: ingest.FormatPonte, Index: 1, Line: 1, Size: 6, Supply: game.Unlimited,
		Tags: []ingest.Tag{{Name: "Event", Value: "Citt\xe0"}, {Name: "Light", Value: "Jos\xe9"}, {Name: "Dark", Value: "Ren\xe9e"},
			{Name: "Ann\xe9e", Value: "2026"}, {Name: "Size", Value: "6"}},
		Moves: moves("a1,a2", "\xe9\xe9,b2", "c1,c2")}
	bigMoves := latin1
	bigMoves.Moves = moves(append(append([]string{"a1,a2", "a1,a2"}, many(20000, "b3,c3")...), strings.Repeat("z", 500_000))...)
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
		tags    []ingest.Tag      // the tags, when given
	}{
		{name: "Latin-1 in the source, tags and moves", rec: latin1,
			want: map[string]string{"source": "dir/caf\uFFFD.ponte", "event": "Citt\uFFFD", "light": "Jos\uFFFD",
				"dark": "Ren\uFFFDe", "opener": "Jos\uFFFD", "moves": "a1,a2 \uFFFD\uFFFD,b2 c1,c2"}},
		{name: "20,000 turns and a 500 KB token", rec: bigMoves, cut: []string{"moves", "raw"}},
		{name: "a 200 KB tag value", rec: bigTag, tags: append([]ingest.Tag{{Name: "Annotator", Value: strings.Repeat("y", 200_000)}},
			ingest.Tag{Name: "Event", Value: "Citt\uFFFD"}, ingest.Tag{Name: "Light", Value: "Jos\uFFFD"}, ingest.Tag{Name: "Dark", Value: "Ren\uFFFDe"},
			ingest.Tag{Name: "Ann\uFFFDe", Value: "2026"}, ingest.Tag{Name: "Size", Value: "6"})},
		{name: "a player of 300 KB", rec: bigPlayer, want: map[string]string{"light": strings.Repeat("\uFFFD", 100_000) + "!", "opener": strings.Repeat("\uFFFD", 100_000) + "!"},
			tags: []ingest.Tag{{Name: "Light", Value: strings.Repeat("\uFFFD", 100_000) + "!"}, {Name: "Dark", Value: "Ren\uFFFDe"}}},
		{name: "unreadable, Latin-1 in its text", rec: unreadable, readErr: readErr,
			want: map[string]string{"source": "dir/caf\uFFFD.ponte", "raw": "[Size \"s\uFFFDi\"]\n\n1. a1,a2 {\uFFFDt\uFFFD} *\n"}},
		{name: "unreadable, a text that triples once made valid", rec: unreadableBig, readErr: readErr, cut: []string{"raw"}},
	} {
		var a analyzer
		rec := c.rec
		var g store.Replayed
		a.analyze(&rec, c.readErr, &g)
		for name, s := range texts(&g) {
			s = utf8text.Valid(s) // as the store stores it
			limit, ok := bound[name]
			if ok && len(s) > limit {
				t.Errorf("%s: games.%s: %d bytes (bound %d): %.80q", c.name, name, len(s), limit, s)
			}
			if want, ok := c.want[name]; ok && s != want {
				t.Errorf("%s: games.%s = %q, want %q", c.name, name, s, want)
			}
		}
		for _, name := range c.cut {
			s := texts(&g)[name]
			if i := strings.LastIndex(s, "… [cut: "); i < 0 || !strings.HasSuffix(s, " are kept]") || !utf8.ValidString(s) {
				t.Errorf("%s: games.%s is not cut: it ends %q", c.name, name, s[max(0, len(s)-80):])
			}
		}
		if c.tags != nil {
			got := make([]ingest.Tag, len(g.Tags))
			for i, tag := range g.Tags {
				got[i] = ingest.Tag{Name: utf8text.Valid(tag.Name), Value: utf8text.Valid(tag.Value)}
			}
			if !slices.Equal(got, c.tags) {
				t.Errorf("%s: tags %.200q, want them whole: %.200q", c.name, got, c.tags)
			}
		}
	}
}

// texts are the texts of g by the name of their games column.
func texts(g *store.Replayed) map[string]string {
	m := map[string]string{"game_id": g.GameID, "source": g.Source, "format": g.Format, "supply": g.Supply.String(),
		"claimed_result": g.ClaimedResult.String(), "tag_errors": g.TagErrors, "winner": g.Winner, "tiebreak": g.TieBreak,
		"opening_a": g.OpeningA, "opening_b": g.OpeningB, "moves": g.Moves, "components_light": g.ComponentsLight,
		"components_dark": g.ComponentsDark, "move_numbers": g.MoveNumbers}
	for name, p := range map[string]*string{"event": g.Event, "site": g.Site, "date": g.Date, "round": g.Round,
		"record_id": g.RecordID, "light": g.Light, "dark": g.Dark, "opener": g.Opener, "termination": g.Termination,
		"raw": g.Raw} {
		if p != nil {
			m[name] = *p
		}
	}
	if g.Result != nil {
		m["result"] = g.Result.String()
	}
	if g.Error != nil {
		m["error_rule"], m["error_message"] = g.Error.Rule, g.Error.Message
	}
	return m
}

// A record that fits the bounds costs nothing more to store than before.
func BenchmarkAnalyzeText(b *testing.B) {
	rec := ingest.Record{Source: "../sample_data/autumn-league.ponte", Format: ingest.FormatPonte, Index: 1, Line: 1, Size: 10,
		Supply: game.Unlimited, Tags: []ingest.Tag{{Name: "Event", Value: "Autumn league"}, {Name: "Light", Value: "Jonas"},
			{Name: "Dark", Value: "Chiara"}}}
	for _, tok := range strings.Fields("d6,g2 b4,a4 f4,j7 g3,f3 h8,h7 h1,g1 d1,c1 j4,i4 h4,h3 j6,e8 e5,e6 i6,h6 j7-h7") {
		rec.Moves = append(rec.Moves, ingest.Token{Text: tok})
	}
	var a analyzer
	b.ReportAllocs()
	var g store.Replayed
	for b.Loop() {
		a.analyze(&rec, nil, &g)
	}
}
