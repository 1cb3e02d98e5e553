package report

import (
	"sync"
	"testing"

	"github.com/ponte/ponte/stats"
)

// TestWriteProgress: Options.Progress is told every game page written, one call at a time,
// counting 1, 2, … up to the pages written, of MaxGames or of the games when fewer.
func TestWriteProgress(t *testing.T) {
	for _, tc := range []struct {
		maxGames, wantTotal int
	}{
		{5, 5},
		{1000, 0}, // all the games: the statistics' count
	} {
		var mu sync.Mutex
		var pages, totals []int
		inCall := false
		w, r, _ := writeFixture(t, stats.Filter{}, Options{MaxGames: tc.maxGames, Progress: func(n, total int) {
			mu.Lock()
			if inCall {
				t.Error("two calls at once")
			}
			inCall = true
			mu.Unlock()
			pages, totals = append(pages, n), append(totals, total)
			mu.Lock()
			inCall = false
			mu.Unlock()
		}})
		want := tc.wantTotal
		if want == 0 {
			want = r.Verification.Games
		}
		if len(pages) != w.GamePages || w.GamePages != want {
			t.Fatalf("MaxGames %d: %d calls, %d pages written, want %d", tc.maxGames, len(pages), w.GamePages, want)
		}
		for i := range pages {
			if pages[i] != i+1 || totals[i] != want {
				t.Fatalf("MaxGames %d: call %d told %d of %d, want %d of %d", tc.maxGames, i, pages[i], totals[i], i+1, want)
			}
		}
	}
}
