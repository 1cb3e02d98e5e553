package annotate

import (
	"context"
	"fmt"
	"io"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// maxNamedReadings is how many skipped readings WarnBadReadings names, one a line.
const maxNamedReadings = 10

// WarnBadReadings names on w, as warnings of the command ("ponte stats"), the stored
// readings of the games f selects that every reader leaves out (store.Reader.BadEvals:
// NaN, a chance outside [0, 1], a word outside the vocabulary), the first ten one a line,
// then how many more; it returns how many there are. dbPath names the database.
func WarnBadReadings(ctx context.Context, w io.Writer, command, dbPath string, db *store.Reader, f stats.Filter) (int, error) {
	n := 0
	err := db.BadEvals(ctx, f, func(e *store.EvalError) error {
		n++
		if n <= maxNamedReadings {
			fmt.Fprintf(w, "%s: warning: %s: %s; reading skipped\n", command, termtext.Safe(dbPath), termtext.SafeErr(e))
		}
		return nil
	})
	if n > maxNamedReadings {
		fmt.Fprintf(w, "%s: warning: %s: %s more readings skipped, %s in all\n", command, termtext.Safe(dbPath),
			numtext.Thousands(int64(n-maxNamedReadings)), numtext.Thousands(int64(n)))
	}
	return n, err
}
