package main

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ponte/ponte/store"
)

// heapMeter measures the live heap at chosen instants (a full collection, then the heap
// held), the most above the heap held when it was made.
type heapMeter struct{ base, peak uint64 }

func newHeapMeter() *heapMeter {
	m := &heapMeter{}
	m.base = m.live()
	return m
}

func (m *heapMeter) live() uint64 {
	runtime.GC() // twice: what a finalizer kept the first time is freed the second
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.HeapAlloc
}

// measure notes the live heap now.
func (m *heapMeter) measure() {
	if h := m.live(); h > m.base {
		m.peak = max(m.peak, h-m.base)
	}
}

// readingsDB makes a database of copies copies of the club archive's legal games, each
// with a reading of every turn (written by SQL: 1,020 readings a copy), and returns its
// path.
func readingsDB(t *testing.T, copies int) string {
	t.Helper()
	db := annotateDB(t, t.TempDir(), "ponte.db")
	w, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.CountEvals(context.Background()); err != nil { // makes turn_evals
		t.Fatal(err)
	}
	w.Close()
	raw := openDB(t, db)
	rows, err := raw.Query("SELECT name FROM pragma_table_info('games') ORDER BY cid")
	if err != nil {
		t.Fatal(err)
	}
	var cols, exprs []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
		switch c {
		case "id":
			exprs = append(exprs, "id + 1000 * n.i")
		case "game_id":
			exprs = append(exprs, "game_id || n.i")
		default:
			exprs = append(exprs, c)
		}
	}
	rows.Close()
	editDB(t, db,
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)
			INSERT INTO games (%s) SELECT %s FROM games, n WHERE legal`, copies-1, strings.Join(cols, ", "), strings.Join(exprs, ", ")),
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
			INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, raw_before, raw_after, over_after,
				best_q, played_q, light_before, light_after, loss, mark)
			SELECT g.game_id, 'sage-8', n.i, 8, CASE WHEN n.i % 2 = 1 THEN 'light' ELSE 'dark' END, 'a1,a2', 0.5, 0.5, 0,
				0.5, 0.5, 0.5, 0.5, (n.i * 37 % 100) / 200.0, CASE WHEN n.i % 7 = 0 THEN 'mistake' END
			FROM games g, n WHERE g.legal AND n.i <= g.turns`)
	if n := queryInt(t, raw, "SELECT count(*) FROM turn_evals"); n != int64(1020*copies) {
		t.Fatalf("%d readings, want %d", n, 1020*copies)
	}
	return db
}

// TestRecalibrateMemoryFlat: issue 31 finding 2 (annotate --recalibrate): RecalibrateEvals
// held every row of the engine before it changed one. It pages 1,024 rows at a time: the
// live heap, measured every 1,000 rows, at 20,400 readings is within 256 kB of that at
// 2,040 (c9535bc: 0.6 and 6.1 MB), and every row is recalibrated.
func TestRecalibrateMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two databases of readings")
	}
	ctx := context.Background()
	peak := map[int]uint64{}
	for _, copies := range []int{2, 20} {
		path := readingsDB(t, copies)
		w, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m := newHeapMeter()
		calls := 0
		n, err := w.RecalibrateEvals(ctx, "sage-8", func(r *store.TurnEval, size int) {
			if calls++; calls%1000 == 0 {
				m.measure()
			}
			mark := "blunder"
			r.Mark = &mark
		})
		w.Close()
		if err != nil || n != int64(1020*copies) {
			t.Fatalf("%d rows recalibrated, %v", n, err)
		}
		peak[copies] = m.peak
		t.Logf("%d readings: %.2f MB of live heap at the peak", 1020*copies, float64(peak[copies])/(1<<20))
	}
	if grow := int64(peak[20]) - int64(peak[2]); grow > 256<<10 {
		t.Errorf("the live heap grows by %.2f MB from 2,040 to 20,400 readings", float64(grow)/(1<<20))
	}
}
