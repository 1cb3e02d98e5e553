package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// WriteEvalsParquet writes every row of turn_evals to path (turn_evals.parquet), with the
// game's number in this database, so that it joins turns.parquet on game and turn, and
// its stable id, so that the files of many shards merge (MergeEvalsParquet). It returns
// the rows written; no file is written when there are none. The table must have the
// counts' columns (ensureEvals).
func writeEvalsParquet(ctx context.Context, db *sql.DB, path string) (int64, error) {
	var rows []TurnEval
	if err := eachEval(ctx, db, withCounts, "1", nil, func(r TurnEval) error { rows = append(rows, r); return nil }); err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, nil
	}
	f, err := createTemp(path)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	tmp := f.Name()
	w := parquet.NewGenericWriter[TurnEval](f, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("ponte", "", ""))
	_, err = w.Write(rows)
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return int64(len(rows)), nil
}

// EvalsParquetName is the file of the annotations in a Parquet folder.
const EvalsParquetName = "turn_evals.parquet"

// EvalsParquetPath is the path of turn_evals.parquet in the Parquet folder dir.
func EvalsParquetPath(dir string) string { return filepath.Join(dir, EvalsParquetName) }

// WriteEvalsParquet writes turn_evals.parquet of the database being written
// (WriteEvalsParquet).
func (d *DB) WriteEvalsParquet(ctx context.Context, path string) (int64, error) {
	if err := d.ensureEvals(ctx); err != nil {
		return 0, err
	}
	return writeEvalsParquet(ctx, d.db, path)
}
