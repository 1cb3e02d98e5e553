package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/ponte/ponte/store/parquet"
)

// The rows of the Parquet files (package store/parquet, which writes them).
type (
	GameRow = parquet.GameRow
	TurnRow = parquet.TurnRow
	TagRow  = parquet.TagRow
)

// ParquetStats is what WriteParquet wrote.
type ParquetStats struct {
	Games   int64   `json:"games"`   // rows of games.parquet
	Turns   int64   `json:"turns"`   // rows of turns.parquet
	Tags    int64   `json:"tags"`    // rows of tags.parquet
	Bytes   int64   `json:"bytes"`   // size of the files
	Seconds float64 `json:"seconds"` // wall time
}

// WriteParquet writes the games, turns and tags tables to dir/games.parquet (with the
// columns the statistics derive: gamesParquet), dir/turns.parquet and dir/tags.parquet
// (keyed by the stable game id): zstd, typed columns, bounded row groups, all from one
// snapshot of the database. Each file is written under a temporary hidden name in dir and
// renamed when complete, so a reader never sees a partial file; dir is created if needed.
//
// The folder belongs to the database: WriteParquet first claims it (ClaimParquet), and
// writes nothing into a folder written from another database, or holding files that are
// not its own.
func (d *DB) WriteParquet(dir string) (*ParquetStats, error) {
	return d.WriteParquetProgress(dir, nil)
}

// ParquetProgress is how far WriteParquetProgress is in the file it writes.
type ParquetProgress struct {
	File string // the file being written: "games.parquet", "turns.parquet", then "tags.parquet"
	Rows int64  // rows of the file written so far
	// Games is the number of games whose rows are written so far, of TotalGames, the games
	// stored: the files hold the games in the order stored.
	Games, TotalGames int64
	// Streamed: the file's rows were written while the games were stored (an ingest into
	// a database without games); it is told once, complete.
	Streamed bool
}

// WriteParquetProgress is WriteParquet calling progress, when not nil, on the calling
// goroutine: at the start of each file and after every thousand rows or so written to it.
func (d *DB) WriteParquetProgress(dir string, progress func(ParquetProgress)) (*ParquetStats, error) {
	st, err := d.writeParquet(dir, progress)
	return st, dbError(d.path, err)
}

// writeParquet is WriteParquetProgress. The files are written into a new state of the
// folder (newSwitch, or the stream's), with the files it does not rewrite (turn_evals.parquet)
// carried over and the marker, and switched in as a whole (folderSwitch.commit).
func (d *DB) writeParquet(dir string, progress func(ParquetProgress)) (*ParquetStats, error) {
	start := time.Now()
	if err := d.ClaimParquet(dir); err != nil {
		return nil, err
	}
	conn, err := d.db.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	st := &ParquetStats{}
	err = conn.Raw(func(dc any) error {
		c := newConn(dc.(driver.Conn))
		defer c.close()
		// A read transaction: the files show the same state of the database.
		if _, err := c.exec("BEGIN DEFERRED"); err != nil {
			return err
		}
		defer c.exec("COMMIT")
		state, err := c.state()
		if err != nil {
			return err
		}
		var games int64 // the games are numbered from 1, in the order stored
		if err := c.query("SELECT coalesce(max(id), 0) FROM games", nil, func(row []driver.Value) error {
			games, _ = row[0].(int64)
			return nil
		}); err != nil {
			return err
		}
		stream := d.takeStream(dir, games)
		var sw *folderSwitch
		switch {
		case stream != nil:
			defer stream.abort() // what is not finished below
			sw = stream.sw
		case d.parquetOnly != "":
			return fmt.Errorf("the turns and tags of this Parquet-only ingest went straight to the Parquet files of %s, which were not finished: run the ingest again", dir)
		default:
			if sw, err = newSwitch(dir); err != nil {
				return err
			}
			defer sw.Abort() // unless switched in
		}
		var n, size int64
		if stream != nil && stream.gameFile != nil && !stream.gamesDropped && !stream.dupMet {
			if progress != nil {
				progress(ParquetProgress{File: "games.parquet", Rows: stream.gameFile.Rows(), Games: games, TotalGames: games, Streamed: true})
			}
			n, size, err = stream.gameFile.Finish(state)
		} else {
			var tagged func(int64) bool
			if stream != nil {
				stream.dropGames() // its rows' duplicates are not the database's
				if d.parquetOnly != "" {
					tagged = stream.taggedBot // the database keeps no tags
				}
			}
			n, size, err = exportGames(c, sw.Path("games.parquet"), state, tableProgress(progress, "games.parquet", games), tagged)
		}
		if err != nil {
			return err
		}
		st.Games, st.Bytes = n, size
		step("games.parquet")
		if stream != nil {
			// The ingest wrote the turns' and tags' rows as it stored them: they only
			// need the state and their names.
			if progress != nil {
				progress(ParquetProgress{File: "turns.parquet", Rows: stream.turns.Rows(), Games: games, TotalGames: games, Streamed: true})
				progress(ParquetProgress{File: "tags.parquet", Rows: stream.tags.Rows(), Games: games, TotalGames: games, Streamed: true})
			}
			n, size, err = stream.turns.Finish(state)
			st.Turns, st.Bytes = n, st.Bytes+size
			if err != nil {
				return err
			}
			n, size, err = stream.tags.Finish(state)
			st.Tags, st.Bytes = n, st.Bytes+size
			if err != nil {
				return err
			}
		} else {
			n, size, err = exportTurns(c, sw.Path("turns.parquet"), state, tableProgress(progress, "turns.parquet", games))
			st.Turns, st.Bytes = n, st.Bytes+size
			if err != nil {
				return err
			}
			n, size, err = exportTags(c, sw.Path("tags.parquet"), state, tableProgress(progress, "tags.parquet", games))
			st.Tags, st.Bytes = n, st.Bytes+size
			if err != nil {
				return err
			}
		}
		step("tags.parquet")
		if err := sw.Carry(append([]string{MarkerName}, parquetFiles...)...); err != nil {
			return err
		}
		if err := d.writeMarkerIn(sw.Stage()); err != nil {
			return err
		}
		return sw.Commit()
	})
	st.Seconds = time.Since(start).Seconds()
	if err != nil {
		return nil, err
	}
	return st, nil
}

// gamesBlobs are the text columns of games.parquet that hold long free text: their
// minimum and maximum, which would be copied whole into every page header and into the
// footer (up to four copies of a 64 KiB raw text per page) and help no query, are not
// written.
var gamesBlobs = []string{"error_message", "tag_errors", "moves", "raw"}

// tableProgress returns the progress of the export of one file for exportRows, which
// tells it the rows written and the first column of the last one (its game's id), or nil
// when progress is nil.
func tableProgress(progress func(ParquetProgress), file string, games int64) func(rows int64, game driver.Value) {
	if progress == nil {
		return nil
	}
	return func(rows int64, game driver.Value) {
		id, _ := game.(int64)
		progress(ParquetProgress{File: file, Rows: rows, Games: id, TotalGames: games})
	}
}

// exportRows writes the rows of query to the Parquet file path (zstd, row groups of at
// most rowGroup rows), each made by set from the values of a row of the query. state is
// the database's state that the file is written from, kept in its metadata under parquet.StateKey
// (ParquetCurrent). The columns blobs get no bounds (gamesBlobs). progress, when not nil,
// is told the rows written at the start and after each batch of rows, with the first
// column of the last row (tableProgress).
func exportRows[T any](c *conn, query string, set func(*T, []driver.Value, *parquet.Slab) error, path string, rowGroup int64, state string, progress func(int64, driver.Value), blobs ...string) (rows, size int64, err error) {
	rf, err := parquet.Create[T](path, rowGroup, blobs...)
	if err != nil {
		return 0, 0, err
	}
	if progress != nil {
		progress(0, int64(0))
	}
	err = c.query(query, nil, func(vals []driver.Value) error {
		r, sl := rf.Next()
		if err := set(r, vals, sl); err != nil {
			return err
		}
		if rf.Full() {
			if progress != nil {
				progress(rf.Rows(), vals[0])
			}
			return rf.Send()
		}
		return nil
	})
	return rf.Close(err, state)
}

// A rowPlan copies the driver values of a row into the fields of a row struct whose
// fields are the table's columns in order.
type rowPlan []fieldPlan

type fieldPlan struct {
	off  uintptr
	kind fieldKind
	name string
}

type fieldKind uint8

const (
	fInt64 fieldKind = iota
	fInt32
	fBool
	fString
	fInt32Ptr
	fBoolPtr
	fStringPtr
	fDatePtr // a TEXT date written as a DATE (parquet.ParseDate), nil unless a whole date
)

// planOf checks that T's fields are t's columns in order, with types that hold them, then
// the columns the Parquet file derives from them (parquetExtra), and returns the plan to
// fill a T's fields of t's columns from a row.
func planOf[T any](t *table) (rowPlan, error) {
	typ := reflect.TypeFor[T]()
	extra := parquetExtra(t)
	if typ.NumField() != len(t.columns)+len(extra) {
		return nil, fmt.Errorf("%s has %d fields, table %s %d columns and %d derived", typ, typ.NumField(), t.name, len(t.columns), len(extra))
	}
	for i, col := range extra {
		f := typ.Field(len(t.columns) + i)
		if name, _, _ := cutComma(f.Tag.Get("parquet")); name != col.name {
			return nil, fmt.Errorf("%s.%s is column %q, %s derives %q there", typ, f.Name, name, t.name, col.name)
		}
	}
	plan := make(rowPlan, len(t.columns))
	for i := range plan {
		f := typ.Field(i)
		col := t.columns[i]
		name, opts, _ := cutComma(f.Tag.Get("parquet"))
		if name != col.name {
			return nil, fmt.Errorf("%s.%s is column %q, table %s has %q there", typ, f.Name, name, t.name, col.name)
		}
		var k fieldKind
		switch ft := f.Type; {
		case ft.Kind() == reflect.Int64 && col.typ == "INTEGER" && !col.null:
			k = fInt64
		case ft.Kind() == reflect.Int32 && col.typ == "INTEGER" && !col.null:
			k = fInt32
		case ft.Kind() == reflect.Bool && col.typ == "BOOLEAN" && !col.null:
			k = fBool
		case ft.Kind() == reflect.String && col.typ == "TEXT" && !col.null:
			k = fString
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Int32 && col.typ == "INTEGER" && col.null:
			k = fInt32Ptr
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Int32 && col.typ == "TEXT" && col.null && hasOption(opts, "date"):
			k = fDatePtr
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Bool && col.typ == "BOOLEAN" && col.null:
			k = fBoolPtr
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.String && col.typ == "TEXT" && col.null:
			k = fStringPtr
		default:
			return nil, fmt.Errorf("%s.%s of type %s cannot hold column %s %s (null %v)", typ, f.Name, ft, col.name, col.typ, col.null)
		}
		plan[i] = fieldPlan{off: f.Offset, kind: k, name: col.name}
	}
	return plan, nil
}

func cutComma(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// set fills the struct at base from vals.
func (p rowPlan) set(base unsafe.Pointer, vals []driver.Value, sl *parquet.Slab) error {
	for i, f := range p {
		v := vals[i]
		ptr := unsafe.Add(base, f.off)
		if v == nil {
			switch f.kind {
			case fInt32Ptr, fBoolPtr, fStringPtr, fDatePtr:
				continue // nil pointer: NULL
			}
			return fmt.Errorf("column %s is NULL", f.name)
		}
		switch f.kind {
		case fInt64:
			n, ok := v.(int64)
			if !ok {
				return typeError(f.name, v)
			}
			*(*int64)(ptr) = n
		case fInt32, fInt32Ptr:
			n, ok := v.(int64)
			if !ok || int64(int32(n)) != n {
				return typeError(f.name, v)
			}
			if f.kind == fInt32 {
				*(*int32)(ptr) = int32(n)
			} else {
				*(**int32)(ptr) = sl.Int32p(int32(n))
			}
		case fBool, fBoolPtr:
			var b bool
			switch x := v.(type) {
			case int64:
				b = x != 0
			case bool:
				b = x
			default:
				return typeError(f.name, v)
			}
			if f.kind == fBool {
				*(*bool)(ptr) = b
			} else {
				*(**bool)(ptr) = sl.Boolp(b)
			}
		case fDatePtr:
			var s string
			switch x := v.(type) {
			case string:
				s = x
			case []byte:
				s = string(x)
			default:
				return typeError(f.name, v)
			}
			if days, ok := parquet.ParseDate(s); ok {
				*(**int32)(ptr) = sl.Int32p(days)
			}
		case fString, fStringPtr:
			var s string
			switch x := v.(type) {
			case string:
				s = x
			case []byte:
				s = string(x)
			default:
				return typeError(f.name, v)
			}
			// The store writes valid UTF-8 only (text.go), but a database written before
			// it did may hold other bytes, and DuckDB refuses a whole file for one such
			// string: the guard costs no copy for a valid one.
			s = validText(s)
			if f.kind == fString {
				*(*string)(ptr) = s
			} else {
				*(**string)(ptr) = sl.Stringp(s)
			}
		}
	}
	return nil
}

func typeError(col string, v driver.Value) error {
	return fmt.Errorf("column %s holds %T %v", col, v, v)
}

// stateSQL fingerprints the state of the database: its schema version (an upgrade changes
// the columns of the files), the layout of the Parquet files (parquetVersion), and what an
// ingest changes (games, turns, copies met again, sources and their progress). Two states
// are equal only if the games and turns tables hold the same rows with the same columns
// (and so the tags table: a game's tags are stored with it, never changed).
var stateSQL = `SELECT 'schema ` + strconv.Itoa(SchemaVersion) + `: ' || (SELECT count(*) FROM games) || ' games, ' || (SELECT coalesce(sum(turns), 0) FROM games) || ' turns, '
	|| (SELECT coalesce(sum(duplicates), 0) FROM games) || ' copies, ' || (SELECT count(*) FROM sources) || ' sources, '
	|| (SELECT coalesce(sum(records), 0) FROM sources) || ' records, last '
	|| coalesce((SELECT max(max(started, coalesce(finished, started))) FROM sources), '-')
	|| '; parquet ` + strconv.Itoa(parquetVersion) + `'`

// state returns the fingerprint of the database (stateSQL), in the connection's transaction.
func (c *conn) state() (string, error) {
	var state string
	err := c.query(stateSQL, nil, func(row []driver.Value) error {
		switch v := row[0].(type) {
		case string:
			state = v
		case []byte:
			state = string(v)
		}
		return nil
	})
	return state, err
}

// ParquetCurrent reports whether dir already holds games.parquet, turns.parquet and
// tags.parquet written from the database as it is now, by this layout of the files: the
// folder is this database's (its marker names it), and every file carries, in its
// metadata, the fingerprint of the database it was written from (its games, turns,
// copies met again and sources, and the layout), and it is the database's. An ingest that
// read nothing new uses it to skip rewriting the files. Any doubt (a file missing or
// unreadable, no fingerprint, no marker) is false.
func (d *DB) ParquetCurrent(dir string) (bool, error) {
	v, err := openFolder(dir)
	if err != nil {
		return false, nil
	}
	defer v.close()
	if m, err := readMarkerIn(v); err != nil || m == nil || m.DatabaseID != d.id {
		return false, nil
	}
	current, err := d.viewCurrent(v)
	return current, dbError(d.path, err)
}

// filesCurrent reports whether the Parquet files of dir carry the database's fingerprint.
func (d *DB) filesCurrent(dir string) (bool, error) {
	v, err := openFolder(dir)
	if err != nil {
		return false, nil
	}
	defer v.close()
	return d.viewCurrent(v)
}

// viewCurrent reports whether the Parquet files of the folder v carry the database's
// fingerprint: they are read in the folder opened, one state.
func (d *DB) viewCurrent(v *folderView) (bool, error) {
	var state string
	if err := d.db.QueryRow(stateSQL).Scan(&state); err != nil {
		return false, wrapBusy(err)
	}
	for _, name := range parquetFiles {
		f, err := v.open(name)
		if err != nil {
			return false, nil
		}
		written, ok := parquet.FileState(f, parquet.StateKey)
		f.Close()
		if !ok || written != state {
			return false, nil
		}
	}
	return true, nil
}
