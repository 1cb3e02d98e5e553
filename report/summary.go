package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ponte/ponte/internal/termtext"
)

// Summary says where the report is and what it holds, written in secs seconds, and names
// the temporary folders of killed runs that were removed and the files kept: what ponte
// report prints.
func (w *Written) Summary(secs float64) string {
	safe, plural := termtext.Safe, termtext.Plural
	index := w.Index
	if abs, err := filepath.Abs(index); err == nil {
		index = abs
	}
	s := fmt.Sprintf("report: %s\n%d %s, %d %s, %d game %s; %s",
		safe(index), w.Games, plural(w.Games, "game", "games"), w.Charts, plural(w.Charts, "chart", "charts"),
		w.GamePages, plural(w.GamePages, "page", "pages"), termtext.Seconds(secs))
	for _, dir := range w.RemovedStale {
		s += "\nremoved " + safe(dir) + ", left by a report that was killed"
	}
	if len(w.Kept) > 0 {
		names := make([]string, len(w.Kept))
		for i, k := range w.Kept {
			names[i] = safe(k)
		}
		s += fmt.Sprintf("\nkept %d %s in %s that ponte did not write: %s", len(names), plural(len(names), "file", "files"), safe(w.Dir), strings.Join(names, ", "))
	}
	return s
}
