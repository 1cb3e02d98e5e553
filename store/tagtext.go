package store

import (
	"encoding/json"
	"fmt"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/jsonstr"
)

// The tags of a game are one row of game_tags: a JSON array of [name, value] pairs in
// the order read, [["Event","Autumn league"],["Light","Ada"]], which the view tags
// unpacks (json_each). One value bound per game instead of four per tag: the tags
// table's 13 million rows were a seventh of a million-game ingest.

// appendTagsJSON appends tags as the text of game_tags.tags, each name and value as valid
// UTF-8 (validText).
func appendTagsJSON(b []byte, tags []ingest.Tag) []byte {
	b = append(b, '[')
	for i, t := range tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonstr.Append(b, validText(t.Name))
		b = append(b, ',')
		b = jsonstr.Append(b, validText(t.Value))
		b = append(b, ']')
	}
	return append(b, ']')
}

// tagPair is one tag as game_tags.tags holds it.
type tagPair [2]string

// parseTagsJSON reads the text of game_tags.tags.
func parseTagsJSON(text string) ([]tagPair, error) {
	var raw [][]string
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("not a JSON array of [name, value] pairs: %v", err)
	}
	if raw == nil {
		return nil, fmt.Errorf("not a JSON array of [name, value] pairs: %.20q", text)
	}
	tags := make([]tagPair, len(raw))
	for i, t := range raw {
		if len(t) != 2 {
			return nil, fmt.Errorf("tag %d is not a [name, value] pair: %d strings", i+1, len(t))
		}
		tags[i] = tagPair{validText(t[0]), validText(t[1])}
	}
	return tags, nil
}
