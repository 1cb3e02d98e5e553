package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Value answers query, a question of one row and one column in SQLite's SQL, for a tool
// that compares the database with another reading of it (scripts/duckdb-check asks DuckDB
// the same of the Parquet files): an int64, a float64, a string, a []byte or nil.
func (r *Reader) Value(ctx context.Context, query string) (any, error) {
	var v any
	if err := r.db.QueryRowContext(ctx, query).Scan(&v); err != nil {
		return nil, fmt.Errorf("%s: %w", query, err)
	}
	return v, nil
}

// Columns returns the names of the columns of a table or view of the database, in their
// order; none for a name that is neither.
func (r *Reader) Columns(ctx context.Context, table string) ([]string, error) {
	return collect(ctx, r.db, table+"'s columns", "SELECT name FROM pragma_table_info(?)", []any{table},
		func(rows *sql.Rows, name *string) error { return rows.Scan(name) })
}
