package stats_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ponte/ponte/stats"
)

// The statistics are the same however many ranges the games are read in: the ranges'
// tallies add up to one pass's, the rated games and their players in the same order.
func TestGamesInRanges(t *testing.T) {
	db := ingestDB(t, "../sample_data")
	for _, f := range []stats.Filter{{}, {Population: stats.PopulationAll}, {Population: stats.PopulationPeople},
		{Population: stats.PopulationBots, Size: 10}} {
		var want []byte
		for _, parts := range []int{1, 2, 3, 7, 64} {
			undo := stats.SetGameParts(parts)
			r, err := stats.Compute(context.Background(), db, f, stats.Options{})
			undo()
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if parts == 1 {
				want = got
				continue
			}
			if string(got) != string(want) {
				t.Errorf("filter %+v: %d ranges give other statistics than one", f, parts)
			}
		}
	}
}
