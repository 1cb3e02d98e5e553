package verdict

import (
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// Selection picks the records of files that ponte export writes: each game once (by its
// GameID, as ingest stores it) unless KeepDuplicates, and of the verdict Only, "legal" or
// "illegal" ("" for both). It counts what it leaves out.
type Selection struct {
	Only           string
	KeepDuplicates bool
	// Duplicates are the copies of a game kept before; Unselected the games of the
	// other verdict.
	Duplicates, Unselected int

	seen map[string]bool // the games kept, by GameID: a few dozen bytes each
	g    replay.Game
}

// Keep reports whether rec is selected, and counts it when it is not.
func (s *Selection) Keep(rec *ingest.Record) bool {
	if !s.KeepDuplicates {
		id := GameID(rec)
		if s.seen[id] {
			s.Duplicates++
			return false
		}
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		s.seen[id] = true
	}
	if s.Only != "" && Of(rec, &s.g).Legal != (s.Only == "legal") {
		s.Unselected++
		return false
	}
	return true
}
