package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
	pqfile "github.com/ponte/ponte/store/parquet"
	"strconv"
)

// evalsPerRowGroup bounds the rows of a row group of turn_evals.parquet, which the writer
// holds until the group is written: the memory of the write stays the same whatever the
// rows of the table.
const evalsPerRowGroup = 1 << 10

// evalsStateSQL fingerprints the table turn_evals as turn_evals.parquet is written from
// it: its rows and the sums of its values, with the layout of the file. The file keeps it
// in its metadata (pqfile.StateKey); a run that finds it the same does not write the file again.
// Any change annotate or a merge makes (rows added, a recalibration) changes it.
var evalsStateSQL = `SELECT 'turn_evals, schema ` + strconv.Itoa(SchemaVersion) + `, parquet ` + strconv.Itoa(parquetVersion) + `: ' || count(*) || ' rows, games '
	|| count(DISTINCT game_id) || ', turns ' || total(turn) || ', playouts ' || total(playouts) || ', values '
	|| total(raw_before) || ' ' || total(raw_after) || ' ' || total(best_q) || ' ' || total(played_q) || ' '
	|| total(light_before) || ' ' || total(light_after) || ' ' || total(loss) || ' ' || total(loss * turn) || ' '
	|| total(best_n + 2 * played_n) || ', marks ' || total(length(mark)) || ' ' || total(unicode(mark) * turn) || ', bots ' || total(length(bot))
	|| ', played ' || total(length(played)) || ' ' || total(length(best))
	FROM turn_evals`

// writeEvalsParquet writes every row of turn_evals to path (turn_evals.parquet), with the
// game's number in this database, so that it joins turns.parquet on game and turn, and
// its stable id, so that the files of many shards merge (MergeEvalsParquet). It returns
// the rows of the table. The rows stream from SQLite into the file a batch at a time. The
// file is a part of its Parquet folder's state: it is written into a new state of the
// folder (newSwitch), which is switched in whole. It is not written again when it already
// holds the table as it is (evalsStateSQL); none is written when the table has no rows,
// and one there is then taken out. The table must have the counts' columns (ensureEvals).
func (d *DB) writeEvalsParquet(ctx context.Context, path string) (int64, error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	sweepSwitches(dir) // what killed runs left
	sweepLegacy(dir)
	var state string
	var rows int64
	if err := d.db.QueryRowContext(ctx, evalsStateSQL).Scan(&state); err != nil {
		return 0, fmt.Errorf("turn_evals: %w", wrapBusy(err))
	}
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM turn_evals`).Scan(&rows); err != nil {
		return 0, fmt.Errorf("turn_evals: %w", wrapBusy(err))
	}
	written, exists := evalsFileState(dir, name)
	switch {
	case rows == 0 && !exists:
		return 0, nil
	case rows > 0 && written == state:
		return rows, nil // current: not written again
	}
	sw, err := newSwitch(dir)
	if err != nil {
		return 0, err
	}
	defer sw.Abort() // unless switched in
	if rows > 0 {
		if err := writeEvalsRows(ctx, d, sw.Path(name), state); err != nil {
			return 0, err
		}
		step(name)
	}
	if err := sw.Carry(name); err != nil {
		return 0, err
	}
	if err := sw.Commit(); err != nil {
		return 0, err
	}
	return rows, nil
}

// evalsBatch is how many rows are read from SQLite before they are handed to the file's
// writer, in one buffer used again.
const evalsBatch = 1024

// evalsBatchWritten, when not nil, is called after each batch is handed to the writer
// (TestEvalsParquetFlatMemory measures the heap there).
var evalsBatchWritten func()

// writeEvalsRows writes the rows of turn_evals to the Parquet file path, a batch at a
// time on this goroutine, with state in its metadata; on an error no file is left.
func writeEvalsRows(ctx context.Context, d *DB, path, state string) error {
	t, err := pqfile.CreateTemp(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", pqfile.LivePath(path), unwrapPath(err))
	}
	w := parquet.NewGenericWriter[TurnEval](t.File(), parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(evalsPerRowGroup), parquet.CreatedBy("ponte", "", ""))
	buf := make([]TurnEval, 0, evalsBatch)
	flush := func() error {
		_, err := w.Write(buf)
		clear(buf)
		buf = buf[:0]
		if evalsBatchWritten != nil {
			evalsBatchWritten()
		}
		return err
	}
	err = eachEval(ctx, d.db, withCounts, "1", nil, func(r TurnEval) error {
		if buf = append(buf, r); len(buf) == cap(buf) {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		t.Drop()
		return t.Stopped(err, nil)
	}
	_, err = t.Commit(w, state)
	return err
}

// evalsFileState returns the state that the file name of the folder dir was written from
// (pqfile.StateKey), read in the folder opened once; exists says whether there is such a file.
func evalsFileState(dir, name string) (state string, exists bool) {
	v, err := openFolder(dir)
	if err != nil {
		return "", false
	}
	defer v.close()
	f, err := v.open(name)
	if err != nil {
		return "", !os.IsNotExist(err)
	}
	defer f.Close()
	state, _ = pqfile.FileState(f, pqfile.StateKey)
	return state, true
}

// EvalsParquetName is the file of the annotations in a Parquet folder.
const EvalsParquetName = "turn_evals.parquet"

// EvalsParquetPath is the path of turn_evals.parquet in the Parquet folder dir.
func EvalsParquetPath(dir string) string { return filepath.Join(dir, EvalsParquetName) }

// WriteEvalsParquet writes turn_evals.parquet of the database being written
// (writeEvalsParquet) to path, in its Parquet folder; it returns the rows of turn_evals.
func (d *DB) WriteEvalsParquet(ctx context.Context, path string) (int64, error) {
	if err := d.ensureEvals(ctx); err != nil {
		return 0, err
	}
	return d.writeEvalsParquet(ctx, path)
}
