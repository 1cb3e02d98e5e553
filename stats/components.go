package stats

import (
	"fmt"
)

// addComponents counts the components of one colour of a finished game into counts, by
// their islands: text is the game's games.components_light or components_dark, the JSON
// array of the islands of each component (stored at ingest, so the statistics replay
// nothing). A text that is not such an array, or a component of no island or of more than
// a board holds, is only in an edited database and is refused with ErrEdited.
func addComponents(text string, counts map[int]int) error {
	i := 0
	space := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
	}
	bad := func(why string) error {
		return fmt.Errorf("components %q: %s at byte %d: %w", clip(text), why, i+1, ErrEdited)
	}
	space()
	if i == len(text) || text[i] != '[' {
		return bad("not a JSON array")
	}
	i++
	space()
	if i < len(text) && text[i] == ']' {
		i++
	} else {
		for {
			space()
			start, n, digits := i, 0, 0
			for i < len(text) && text[i] >= '0' && text[i] <= '9' && digits < 4 {
				n = n*10 + int(text[i]-'0')
				i++
				digits++
			}
			if digits == 0 || n < 1 || n > maxIslands || i < len(text) && text[i] >= '0' && text[i] <= '9' {
				i = start
				return bad(fmt.Sprintf("want a number of islands from 1 to %d", maxIslands))
			}
			counts[n]++
			space()
			if i < len(text) && text[i] == ']' {
				i++
				break
			}
			if i == len(text) || text[i] != ',' {
				return bad("want , or ]")
			}
			i++
		}
	}
	space()
	if i != len(text) {
		return bad("text after the array")
	}
	return nil
}

// maxIslands is the most islands of one colour on the largest board (26×26).
const maxIslands = 169

// clip is text cut to its first 40 bytes for an error message.
func clip(text string) string {
	if len(text) > 40 {
		return text[:40] + "…"
	}
	return text
}
