package verdict

import (
	"fmt"

	"github.com/ponte/ponte/internal/termtext"
)

// Counts are the verdicts of a run by kind (ponte verify's summary), and the paths it
// could not read.
type Counts struct {
	Games, Legal, Illegal, Unreadable, BadPaths int
}

// Add counts the verdict v.
func (n *Counts) Add(v *Verdict) {
	n.Games++
	switch {
	case v.Legal:
		n.Legal++
	case v.Unreadable:
		n.Unreadable++
	default:
		n.Illegal++
	}
}

// String is the summary: "3 games: 2 legal, 1 illegal, 0 unreadable", then "; 1 path could
// not be read" when there are such.
func (n Counts) String() string {
	s := fmt.Sprintf("%d %s: %d legal, %d illegal, %d unreadable", n.Games, termtext.Plural(n.Games, "game", "games"), n.Legal, n.Illegal, n.Unreadable)
	if n.BadPaths > 0 {
		s += fmt.Sprintf("; %d %s could not be read", n.BadPaths, termtext.Plural(n.BadPaths, "path", "paths"))
	}
	return s
}
