package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"
)

// maxParams bounds the parameters of one statement (SQLite's default limit is 32766).
const maxParams = 32766

// maxRowsPerInsert is the most rows one multi-row INSERT carries.
const maxRowsPerInsert = 500

// conn is the writer's driver connection: statements are prepared once and executed with
// driver values directly, which saves database/sql's conversion of every argument.
type conn struct {
	dc    driver.Conn
	stmts map[stmtKey]driver.Stmt
	nv    []driver.NamedValue
}

type stmtKey struct {
	sql  *table // nil for a statement named by text
	from int    // the first column of sql bound (rowBuffer.from)
	rows int
	text string
}

func newConn(dc driver.Conn) *conn {
	return &conn{dc: dc, stmts: make(map[stmtKey]driver.Stmt)}
}

// close finalizes the prepared statements.
func (c *conn) close() {
	for _, s := range c.stmts {
		s.Close()
	}
	clear(c.stmts)
}

// prepare returns the prepared statement for key, preparing it the first time.
func (c *conn) prepare(key stmtKey) (driver.Stmt, error) {
	if s, ok := c.stmts[key]; ok {
		return s, nil
	}
	text := key.text
	if key.sql != nil {
		text = insertSQL(key.sql, key.from, key.rows)
	}
	s, err := c.dc.(driver.ConnPrepareContext).PrepareContext(context.Background(), text)
	if err != nil {
		return nil, fmt.Errorf("prepare %.60s…: %w", text, err)
	}
	c.stmts[key] = s
	return s, nil
}

// named fills the reused argument slice with vals.
func (c *conn) named(vals []driver.Value) []driver.NamedValue {
	if cap(c.nv) < len(vals) {
		c.nv = make([]driver.NamedValue, len(vals))
	}
	nv := c.nv[:len(vals)]
	for i, v := range vals {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return nv
}

// exec runs the statement text (prepared once) with vals. A text value is stored as valid
// UTF-8 (validText): a file name or an error message, which quotes the input, may hold
// any bytes.
func (c *conn) exec(text string, vals ...driver.Value) (driver.Result, error) {
	for i, v := range vals {
		if s, ok := v.(string); ok {
			vals[i] = validText(s)
		}
	}
	s, err := c.prepare(stmtKey{text: text})
	if err != nil {
		return nil, err
	}
	r, err := s.(driver.StmtExecContext).ExecContext(context.Background(), c.named(vals))
	if err != nil {
		return nil, wrapBusy(fmt.Errorf("%.60s…: %w", text, err))
	}
	return r, nil
}

// query runs the statement text (prepared once) with vals and calls fn for each row.
func (c *conn) query(text string, vals []driver.Value, fn func(row []driver.Value) error) error {
	s, err := c.prepare(stmtKey{text: text})
	if err != nil {
		return err
	}
	rows, err := s.(driver.StmtQueryContext).QueryContext(context.Background(), c.named(vals))
	if err != nil {
		return wrapBusy(fmt.Errorf("%.60s…: %w", text, err))
	}
	defer rows.Close()
	row := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(row); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// insertSQL is a multi-row INSERT OR FAIL of n rows into t, of its columns from from on:
// from 1 leaves an INTEGER PRIMARY KEY to SQLite.
//
// A multi-row INSERT that may stop on a conflict makes SQLite keep a statement journal,
// a copy of every page of the database the statement changes, to undo the statement
// alone: for games, whose game_id index takes each new game at a random place, most of
// that index's pages for every statement of 500 games. Neither cause is needed: OR FAIL
// keeps the rows before a failing one (the writer then rolls back the whole transaction,
// writer.end), and a games.id that SQLite assigns is the one the writer counts (the
// largest + 1, which writer.flush checks).
func insertSQL(t *table, from, n int) string {
	cols := t.columns[from:]
	var b strings.Builder
	b.Grow(32 + n*(2*len(cols)+3))
	b.WriteString("INSERT OR FAIL INTO ")
	b.WriteString(t.name)
	b.WriteString(" (")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name)
	}
	b.WriteString(") VALUES ")
	row := "(" + strings.Repeat("?,", len(cols)-1) + "?)"
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
	}
	return b.String()
}

// rowBuffer collects the values of rows of one table and inserts them with multi-row
// INSERT statements of at most maxRowsPerInsert rows.
type rowBuffer struct {
	t       *table
	from    int // the first column bound: the values before it are not stored (insertSQL)
	ncol    int // the columns bound
	perStmt int // rows per full statement
	vals    []driver.Value
	rows    int64 // rows inserted so far
}

// newRowBuffer buffers rows of t, storing their values from column from on.
func newRowBuffer(t *table, from int) *rowBuffer {
	n := len(t.columns) - from
	return &rowBuffer{t: t, from: from, ncol: n, perStmt: min(maxRowsPerInsert, maxParams/n)}
}

// add appends a row's values (all of the table's columns, of which those before b.from
// are not stored) and inserts every full statement's worth.
func (b *rowBuffer) add(c *conn, vals []driver.Value) error {
	b.vals = append(b.vals, vals[b.from:]...)
	full := b.perStmt * b.ncol
	if len(b.vals) < full {
		return nil
	}
	done := 0
	for len(b.vals)-done >= full {
		if err := b.insert(c, b.vals[done:done+full]); err != nil {
			return err
		}
		done += full
	}
	n := copy(b.vals, b.vals[done:])
	clear(b.vals[n:])
	b.vals = b.vals[:n]
	return nil
}

// flush inserts the rows left, in statements of power-of-two sizes so that few distinct
// statements are ever prepared.
func (b *rowBuffer) flush(c *conn) error {
	done := 0
	for rows := (len(b.vals) - done) / b.ncol; rows > 0; rows = (len(b.vals) - done) / b.ncol {
		k := 1
		for k*2 <= rows && k*2 <= b.perStmt {
			k *= 2
		}
		if err := b.insert(c, b.vals[done:done+k*b.ncol]); err != nil {
			return err
		}
		done += k * b.ncol
	}
	clear(b.vals)
	b.vals = b.vals[:0]
	return nil
}

// reset drops the rows not inserted (after a rollback).
func (b *rowBuffer) reset() {
	clear(b.vals)
	b.vals = b.vals[:0]
}

func (b *rowBuffer) insert(c *conn, vals []driver.Value) error {
	rows := len(vals) / b.ncol
	s, err := c.prepare(stmtKey{sql: b.t, from: b.from, rows: rows})
	if err != nil {
		return err
	}
	if _, err := s.(driver.StmtExecContext).ExecContext(context.Background(), c.named(vals)); err != nil {
		return wrapBusy(fmt.Errorf("insert into %s: %w", b.t.name, err))
	}
	b.rows += int64(rows)
	return nil
}
