package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// meteredEvals is a source of readings that measures the live heap every 1,000 readings
// and at the last, while its reader holds what it kept of them.
type meteredEvals struct {
	r *store.Reader
	m *heapMeter
}

func (s meteredEvals) EachEval(ctx context.Context, f store.Filter, fn func(store.TurnEval) error) error {
	n := 0
	err := s.r.EachEval(ctx, f, func(e store.TurnEval) error {
		n++
		if n%1000 == 0 {
			s.m.measure()
		}
		return fn(e)
	})
	s.m.measure()
	return err
}

// TestAccuracyMemoryFlat: issue 31 finding 2 (stats): ponte stats held every reading
// (333 bytes each) to make the accuracy table. The readings are tallied as they stream:
// the live heap, measured every 1,000 readings, at 20,400 readings is within 256 kB of
// that at 2,040, where the old way (every reading kept, then Accuracies), measured the
// same way, grows by more than 1 MB.
func TestAccuracyMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two databases of readings")
	}
	ctx := context.Background()
	// The old way (c9535bc's playerAccuracy), for comparison: every reading kept, then the
	// table made.
	old := func(db annotate.EvalSource) []stats.Accuracy {
		var rows []stats.TurnLoss
		err := db.EachEval(ctx, stats.Filter{Population: stats.PopulationAll}, func(e store.TurnEval) error {
			mark := ""
			if e.Mark != nil {
				mark = *e.Mark
			}
			rows = append(rows, stats.TurnLoss{Game: e.Game, Player: e.Player, Bot: e.Bot, Loss: e.Loss, Mark: mark})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return stats.Accuracies(rows)
	}
	peak := map[string]map[int]uint64{"now": {}, "old": {}}
	for _, copies := range []int{2, 20} {
		r, err := store.OpenReader(readingsDB(t, copies))
		if err != nil {
			t.Fatal(err)
		}
		m := newHeapMeter()
		now, err := annotate.Accuracy(ctx, meteredEvals{r, m}, stats.Filter{Population: stats.PopulationAll}, stats.PopulationAll)
		if err != nil {
			t.Fatal(err)
		}
		peak["now"][copies] = m.peak
		m = newHeapMeter()
		was := old(meteredEvals{r, m})
		peak["old"][copies] = m.peak
		r.Close()
		if fmt.Sprintf("%.9v", now) != fmt.Sprintf("%.9v", was) || len(now) == 0 {
			t.Errorf("%d copies: the tally gives %+v, the old way %+v", copies, now, was)
		}
		t.Logf("%d readings: %.2f MB of live heap at the peak, the old way %.2f MB", 1020*copies,
			float64(peak["now"][copies])/(1<<20), float64(peak["old"][copies])/(1<<20))
	}
	grow := func(way string) int64 { return int64(peak[way][20]) - int64(peak[way][2]) }
	if grow("now") > 256<<10 {
		t.Errorf("the live heap grows by %.2f MB from 2,040 to 20,400 readings", float64(grow("now"))/(1<<20))
	}
	if grow("old") < 1<<20 {
		t.Errorf("the old way grows by %.2f MB only: the measure does not tell them apart", float64(grow("old"))/(1<<20))
	}
}
