package store

import (
	"database/sql"
	"encoding/json"
	"slices"
	"testing"

	"github.com/ponte/ponte/ingest"
)

// The tags text is JSON that encoding/json and SQLite read back to the same pairs, for
// every text a tag may hold: quotes, backslashes, control characters, NUL, non-ASCII.
func TestTagsJSON(t *testing.T) {
	pairs := []tagPair{{"Event", "Autumn \"league\""}, {"Annotator", `C:\games\x`}, {"Note", "a\nb\tc\x00d\x1f"},
		{"Light", "Ünal 🎲"}, {"", ""}, {"Event", "twice"}}
	rows := asTags(pairs)
	text := string(appendTagsJSON(nil, rows))
	var viaJSON []tagPair
	if err := json.Unmarshal([]byte(text), &viaJSON); err != nil || !slices.Equal(viaJSON, pairs) {
		t.Fatalf("encoding/json reads %q as %q (%v)", text, viaJSON, err)
	}
	got, err := parseTagsJSON(text)
	if err != nil || !slices.Equal(got, pairs) {
		t.Fatalf("parseTagsJSON(%q) = %q, %v", text, got, err)
	}
	if s := string(appendTagsJSON(nil, nil)); s != "[]" {
		t.Errorf("no tags: %q", s)
	}
	for _, bad := range []string{"", "{}", `[["a"]]`, `[["a","b","c"]]`, `[[1,2]]`, "[", `[["a","b"]`} {
		if _, err := parseTagsJSON(bad); err == nil {
			t.Errorf("parseTagsJSON(%q) read", bad)
		}
	}
}

// SQLite's json_each and json_extract, which the view tags uses, read the same pairs.
func TestTagsJSONInSQLite(t *testing.T) {
	pairs := []tagPair{{"Event", "Autumn \"league\""}, {"Annotator", `C:\games\x`}, {"Note", "a\nb\tc\x00d\x1f"},
		{"Light", "Ünal 🎲"}, {"", ""}}
	rows := asTags(pairs)
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(`SELECT j.key + 1, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM json_each(?) j`,
		string(appendTagsJSON(nil, rows)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var got []tagPair
	for res.Next() {
		var seq int
		var p tagPair
		if err := res.Scan(&seq, &p[0], &p[1]); err != nil {
			t.Fatal(err)
		}
		if seq != len(got)+1 {
			t.Errorf("tag %d has seq %d", len(got)+1, seq)
		}
		got = append(got, p)
	}
	if !slices.Equal(got, pairs) {
		t.Errorf("SQLite reads %q, want %q", got, pairs)
	}
}

// asTags is pairs as a record's tags.
func asTags(pairs []tagPair) []ingest.Tag {
	tags := make([]ingest.Tag, len(pairs))
	for i, p := range pairs {
		tags[i] = ingest.Tag{Name: p[0], Value: p[1]}
	}
	return tags
}
