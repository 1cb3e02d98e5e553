package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fillEvals gives the database (of sample games) rows readings in turn_evals, made up:
// a row for each of the first turns of each game, read by as many bots as it takes.
func fillEvals(t *testing.T, d *DB, rows int) {
	t.Helper()
	ctx := context.Background()
	if err := d.ensureEvals(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, best, raw_before, raw_after, over_after,
			best_q, played_q, best_n, played_n, light_before, light_after, loss, mark)
		SELECT g.game_id, 'sage-' || (8 + n.i / 20), 1 + n.i % 20, 8 + n.i / 20, CASE n.i % 2 WHEN 0 THEN 'light' ELSE 'dark' END,
			'a1,b' || (n.i % 9 + 1), 'c3,d4', 0.5, 0.25 + (n.i % 50) / 100.0, 0, 0.6, 0.5, 12, 7, 0.5, 0.4, (n.i % 13) / 40.0,
			CASE WHEN n.i % 13 = 12 THEN 'blunder' END
		FROM n, games g ORDER BY n.i, g.id LIMIT ?`, rows, rows); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d.db, "SELECT count(*) FROM turn_evals"); n != int64(rows) {
		t.Fatalf("%d readings made, want %d", n, rows)
	}
}

// atEvalsBatch, when not nil, sets a function that the writer of turn_evals.parquet calls
// after each batch of rows (parquetswitch_hook_test.go).
var atEvalsBatch func(func())

// liveHeapDuring returns the most live heap while f runs, above the live heap before:
// the heap is collected and read after each batch of rows the writer takes (atEvalsBatch),
// or, without that hook, again and again by another goroutine until f returns.
func liveHeapDuring(f func()) uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC() // and what pools kept through the first
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak uint64
	sample := func() {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapAlloc)
	}
	if atEvalsBatch != nil {
		atEvalsBatch(sample)
		defer atEvalsBatch(nil)
		f()
	} else {
		done := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				sample()
				select {
				case <-done:
					return
				default:
				}
			}
		}()
		f()
		close(done)
		<-sampled
	}
	if peak < base {
		return 0
	}
	return peak - base
}

// issue 31 finding 2: ponte annotate wrote turn_evals.parquet from a copy of the whole
// table in memory (553 bytes a row). The rows now stream from SQLite into the file: the
// live heap of the write is the same for 2,000 and for 20,000 readings.
func TestEvalsParquetFlatMemory(t *testing.T) {
	heap := map[int]uint64{}
	for _, rows := range []int{2000, 20000} {
		d := clubDB(t)
		fillEvals(t, d, rows)
		// The least of three runs: without the hook at each batch, the heap is read at
		// random instants, and the codec's pooled encoders that a collection drops and the
		// next page makes again add a few MB to some.
		for run := range 3 {
			path := filepath.Join(t.TempDir(), "pq", EvalsParquetName)
			os.Mkdir(filepath.Dir(path), 0o777)
			var n int64
			var err error
			peak := liveHeapDuring(func() { n, err = d.WriteEvalsParquet(context.Background(), path) })
			if err != nil || n != int64(rows) {
				t.Fatalf("%d rows written, %v; want %d", n, err, rows)
			}
			if run == 0 || peak < heap[rows] {
				heap[rows] = peak
			}
		}
		t.Logf("%6d readings: live heap %.2f MB above the start", rows, float64(heap[rows])/1e6)
	}
	// Ten times the rows: the old way held 25 MB more (6.6 → 31.8 MB on c9535bc); now a row group of
	// the file's (evalsPerRowGroup), a batch of rows and the codec's encoder, whatever the
	// rows (6.50 → 6.69 MB).
	if grew := int64(heap[20000]) - int64(heap[2000]); grew > 1<<20 {
		t.Errorf("the live heap grew by %.2f MB from 2,000 to 20,000 readings (%.2f → %.2f MB): the rows are held, not streamed",
			float64(grew)/1e6, float64(heap[2000])/1e6, float64(heap[20000])/1e6)
	}
}

// issue 31 finding 2: every ponte annotate rewrote turn_evals.parquet, even with nothing
// read. A file that holds the table as it is stays as it is (the same file, not written
// again); a change to the table writes it again.
func TestEvalsParquetNotRewritten(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	fillEvals(t, d, 500)
	dir := filepath.Join(t.TempDir(), "pq")
	path := EvalsParquetPath(dir)
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	if n, err := d.WriteEvalsParquet(ctx, path); err != nil || n != 500 {
		t.Fatalf("%d rows, %v", n, err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := d.WriteEvalsParquet(ctx, path); err != nil || n != 500 {
		t.Fatalf("again: %d rows, %v", n, err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("turn_evals.parquet written again with nothing new (%v, %v → %v)", os.SameFile(before, after), before.ModTime(), after.ModTime())
	}
	// A recalibration changes values, not rows: written again.
	if _, err := d.db.Exec(`UPDATE turn_evals SET loss = loss / 2, mark = NULL WHERE turn = 3`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteEvalsParquet(ctx, path); err != nil {
		t.Fatal(err)
	}
	if again, err := os.Stat(path); err != nil || os.SameFile(after, again) {
		t.Errorf("turn_evals.parquet not written again after the table changed (%v)", err)
	}
	var marks int
	if err := ReadWholeEvalsParquet(path, func(_ int64, r *TurnEval) error {
		if r.Turn == 3 && r.Mark != nil {
			marks++
		}
		return nil
	}); err != nil || marks != 0 {
		t.Errorf("the file holds %d marks of turn 3 the table has not (%v)", marks, err)
	}
	// The other files of the folder are as they were, and the folder holds its files only.
	if current, err := d.ParquetCurrent(dir); err != nil || !current {
		t.Errorf("the folder's games, turns and tags are not current after annotate: %v", err)
	}
	if tmp := hiddenFiles(t, dir); len(tmp) > 0 {
		t.Errorf("left: %v", tmp)
	}
}

// issue 31 finding 12: a run killed while it wrote turn_evals.parquet left a hidden
// temporary file in the folder for good. The next run removes what killed runs left: a
// temporary file an older version wrote into the folder, and a staging folder beside it.
func TestEvalsParquetTempSwept(t *testing.T) {
	ctx := context.Background()
	d := clubDB(t)
	fillEvals(t, d, 300)
	dir := filepath.Join(t.TempDir(), "pq")
	path := EvalsParquetPath(dir)
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteEvalsParquet(ctx, path); err != nil {
		t.Fatal(err)
	}
	// What a run killed while it wrote the file left, an hour ago.
	left := []string{filepath.Join(dir, ".turn_evals.parquet.0123abcd.tmp"), filepath.Join(filepath.Dir(dir), ".pq.ponte-stage-2147483646-0123abcd")}
	if err := os.WriteFile(left[0], []byte("PAR1 half a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(left[1], 0o777); err == nil {
		os.WriteFile(filepath.Join(left[1], EvalsParquetName), []byte("PAR1 half a file"), 0o644)
	}
	hour := time.Now().Add(-time.Hour)
	os.Chtimes(left[0], hour, hour)
	if _, err := d.WriteEvalsParquet(ctx, path); err != nil {
		t.Fatal(err)
	}
	for _, p := range left {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is left after the next run", strings.TrimPrefix(p, filepath.Dir(dir)+"/"))
		}
	}
}
