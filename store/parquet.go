package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/outfile"
)

// GameRow is one row of games.parquet: the columns of the games table in the same order
// (docs/schema.md), with SQL NULL as a nil pointer and BOOLEAN as bool, except that date
// is a DATE (days since 1970-01-01; nil unless a whole date); then the columns derived from
// them that the statistics use (gamesParquet). The columns that `ponte verify --json` also
// prints hold the same values under the same names.
type GameRow struct {
	ID                int64   `parquet:"id,delta"`
	GameID            string  `parquet:"game_id"`
	SourceID          int64   `parquet:"source_id"`
	Source            string  `parquet:"source,dict"`
	FileIndex         int32   `parquet:"file_index"`
	Line              int32   `parquet:"line"`
	Format            string  `parquet:"format,dict"`
	Event             *string `parquet:"event,optional,dict"`
	Site              *string `parquet:"site,optional,dict"`
	Date              *int32  `parquet:"date,optional,date"`
	Round             *string `parquet:"round,optional"`
	RecordID          *string `parquet:"record_id,optional"`
	Light             *string `parquet:"light,optional,dict"`
	Dark              *string `parquet:"dark,optional,dict"`
	Opener            *string `parquet:"opener,optional,dict"`
	Swapped           bool    `parquet:"swapped"`
	Size              int32   `parquet:"size"`
	Supply            string  `parquet:"supply,dict"`
	ClaimedResult     string  `parquet:"claimed_result,dict"`
	Termination       *string `parquet:"termination,optional,dict"`
	ClaimedScoreLight *int32  `parquet:"claimed_score_light,optional"`
	ClaimedScoreDark  *int32  `parquet:"claimed_score_dark,optional"`
	Legal             bool    `parquet:"legal"`
	Unreadable        bool    `parquet:"unreadable"`
	ErrorRule         *string `parquet:"error_rule,optional,dict"`
	ErrorTurn         *int32  `parquet:"error_turn,optional"`
	ErrorLine         *int32  `parquet:"error_line,optional"`
	ErrorCol          *int32  `parquet:"error_col,optional"`
	ErrorMessage      *string `parquet:"error_message,optional"`
	TagErrors         *string `parquet:"tag_errors,optional"`
	Turns             int32   `parquet:"turns"`
	Over              bool    `parquet:"over"`
	Result            *string `parquet:"result,optional,dict"`
	Winner            *string `parquet:"winner,optional,dict"`
	TieBreak          *string `parquet:"tiebreak,optional,dict"`
	ScoreLight        *int32  `parquet:"score_light,optional"`
	ScoreDark         *int32  `parquet:"score_dark,optional"`
	IslandsLight      *int32  `parquet:"islands_light,optional"`
	IslandsDark       *int32  `parquet:"islands_dark,optional"`
	BridgesLight      *int32  `parquet:"bridges_light,optional"`
	BridgesDark       *int32  `parquet:"bridges_dark,optional"`
	Margin            *int32  `parquet:"margin,optional"`
	OpeningA          *string `parquet:"opening_a,optional,dict"`
	OpeningB          *string `parquet:"opening_b,optional,dict"`
	Moves             string  `parquet:"moves"`
	Raw               *string `parquet:"raw,optional"`
	Duplicates        int32   `parquet:"duplicates"`
	ComponentsLight   *string `parquet:"components_light,optional,dict"`
	ComponentsDark    *string `parquet:"components_dark,optional,dict"`
	MoveNumbers       *string `parquet:"move_numbers,optional"`
	// The derived columns (gamesParquet).
	Opening     *string  `parquet:"opening,optional,dict"`
	FinalResult *string  `parquet:"final_result,optional,dict"`
	Decided     bool     `parquet:"decided"`
	OpenerScore *float64 `parquet:"opener_score,optional"`
	Population  string   `parquet:"population,dict"`
	DateText    *string  `parquet:"date_text,optional,dict"`
}

// TurnRow is one row of the turns table as turns.parquet holds it.
type TurnRow struct {
	Game             int64   `parquet:"game,delta"`
	Turn             int32   `parquet:"turn,delta"`
	Colour           string  `parquet:"colour,dict"`
	Kind             string  `parquet:"kind,dict"`
	A                *string `parquet:"a,optional,dict"`
	B                *string `parquet:"b,optional,dict"`
	IslandsFormed    int32   `parquet:"islands_formed"`
	GroupA           *int32  `parquet:"group_a,optional"`
	GroupB           *int32  `parquet:"group_b,optional"`
	BridgeShape      *string `parquet:"bridge_shape,optional,dict"`
	BridgeEndA       *int32  `parquet:"bridge_end_a,optional"`
	BridgeEndB       *int32  `parquet:"bridge_end_b,optional"`
	BridgeMerged     *bool   `parquet:"bridge_merged,optional"`
	LargestComponent int32   `parquet:"largest_component"`
	ScoreLight       int32   `parquet:"score_light"`
	ScoreDark        int32   `parquet:"score_dark"`
	IslandsLight     int32   `parquet:"islands_light"`
	IslandsDark      int32   `parquet:"islands_dark"`
	SandbanksLight   int32   `parquet:"sandbanks_light"`
	SandbanksDark    int32   `parquet:"sandbanks_dark"`
	DeadLight        int32   `parquet:"dead_light"`
	DeadDark         int32   `parquet:"dead_dark"`
	DeadCreatedLight int32   `parquet:"dead_created_light"`
	DeadCreatedDark  int32   `parquet:"dead_created_dark"`
	MobilityLight    int32   `parquet:"mobility_light"`
	MobilityDark     int32   `parquet:"mobility_dark"`
	ThinkMS          *int32  `parquet:"think_ms,optional"`
}

// Rows per row group: a row group's pages stay in memory until it is written, so bounding
// them bounds the export's memory; a few hundred thousand rows still let DuckDB read the
// groups in parallel and skip them by their statistics.
const (
	gamesPerRowGroup = 16 << 10
	turnsPerRowGroup = 128 << 10
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
		n, size, err := exportGames(c, sw.Path("games.parquet"), state, tableProgress(progress, "games.parquet", games))
		if err != nil {
			return err
		}
		st.Games, st.Bytes = n, size
		step("games.parquet")
		if stream != nil {
			// The ingest wrote the turns' and tags' rows as it stored them: they only
			// need the state and their names.
			if progress != nil {
				progress(ParquetProgress{File: "turns.parquet", Rows: stream.turns.rows, Games: games, TotalGames: games, Streamed: true})
				progress(ParquetProgress{File: "tags.parquet", Rows: stream.tags.rows, Games: games, TotalGames: games, Streamed: true})
			}
			n, size, err = stream.turns.finish(state)
			st.Turns, st.Bytes = n, st.Bytes+size
			if err != nil {
				return err
			}
			n, size, err = stream.tags.finish(state)
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
// the database's state that the file is written from, kept in its metadata under stateKey
// (ParquetCurrent). The columns blobs get no bounds (gamesBlobs). progress, when not nil,
// is told the rows written at the start and after each batch of rows, with the first
// column of the last row (tableProgress).
func exportRows[T any](c *conn, query string, set func(*T, []driver.Value, *slab) error, path string, rowGroup int64, state string, progress func(int64, driver.Value), blobs ...string) (rows, size int64, err error) {
	rf, err := newRowsFile[T](path, rowGroup, blobs...)
	if err != nil {
		return 0, 0, err
	}
	if progress != nil {
		progress(0, int64(0))
	}
	err = c.query(query, nil, func(vals []driver.Value) error {
		r, sl := rf.next()
		if err := set(r, vals, sl); err != nil {
			return err
		}
		if rf.full() {
			if progress != nil {
				progress(rf.rows, vals[0])
			}
			return rf.send()
		}
		return nil
	})
	return rf.close(err, state)
}

// rowsFile writes a Parquet file of rows T given one at a time (next), by the export or by
// an ingest as it stores them: this goroutine fills batches of rows, another one encodes
// them. It is written into a folder's new state and completed by finish, with the
// database's state (stateKey) in its metadata, once that is known.
type rowsFile[T any] struct {
	parquetTemp
	w       *parquet.GenericWriter[T]
	batches chan []T
	free    chan []T
	failed  chan struct{} // closed when the encoder fails
	written chan error    // the encoder's end
	failure error
	buf     []T
	sl      slab
	rows    int64
	ended   bool
}

// rowsBatch is how many rows go to the encoder at once.
const rowsBatch = 1024

// newRowsFile starts writing the Parquet file path (zstd, row groups of at most rowGroup
// rows; the columns blobs without bounds).
func newRowsFile[T any](path string, rowGroup int64, blobs ...string) (*rowsFile[T], error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	opts := []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(rowGroup),
		parquet.CreatedBy("ponte", "", ""),
	}
	for _, col := range blobs {
		opts = append(opts, parquet.SkipPageBounds(col), parquet.SkipPageStatistics(col))
	}
	rf := &rowsFile[T]{
		parquetTemp: parquetTemp{path: path, f: f},
		w:           parquet.NewGenericWriter[T](f, opts...),
		batches:     make(chan []T, 4),
		free:        make(chan []T, 6),
		failed:      make(chan struct{}),
		written:     make(chan error, 1),
		buf:         make([]T, 0, rowsBatch),
	}
	go func() {
		defer bug.Recover()
		var err error
		for b := range rf.batches {
			if err == nil {
				if _, err = rf.w.Write(b); err != nil {
					close(rf.failed)
				}
			}
			clear(b)
			select {
			case rf.free <- b[:0]:
			default:
			}
		}
		rf.written <- err
	}()
	return rf, nil
}

// next returns a new zero row to fill, and the slab its pointers may use.
func (rf *rowsFile[T]) next() (*T, *slab) {
	rf.buf = append(rf.buf, *new(T))
	rf.rows++
	return &rf.buf[len(rf.buf)-1], &rf.sl
}

// full says whether the batch is full: send it.
func (rf *rowsFile[T]) full() bool { return len(rf.buf) == cap(rf.buf) }

// send passes the batch to the encoder.
func (rf *rowsFile[T]) send() error {
	if len(rf.buf) == 0 {
		return nil
	}
	select {
	case rf.batches <- rf.buf:
	case <-rf.failed:
		return errStopped
	}
	select {
	case rf.buf = <-rf.free:
	default:
		rf.buf = make([]T, 0, rowsBatch)
	}
	rf.sl = slab{} // the rows sent keep the old one
	return nil
}

// end sends the last rows (unless failed) and waits for the encoder; it returns the
// first failure.
func (rf *rowsFile[T]) end(failed bool) error {
	if rf.ended {
		return rf.failure
	}
	rf.ended = true
	var err error
	if !failed {
		err = rf.send()
	}
	close(rf.batches)
	if werr := <-rf.written; werr != nil {
		err = werr
	}
	if err != nil {
		rf.failure = err
	}
	return err
}

// abort stops the file and removes it.
func (rf *rowsFile[T]) abort() {
	rf.end(true)
	rf.drop()
}

// close ends the file once its rows are given: it finishes it with state when giving
// them ended with err nil, else it drops it and returns err (or the file's own failure,
// when that stopped the rows).
func (rf *rowsFile[T]) close(err error, state string) (rows, size int64, _ error) {
	if err != nil {
		rf.abort()
		return 0, 0, rf.stopped(err, rf.failure)
	}
	return rf.finish(state)
}

// finish completes the file with state in its metadata and gives it its name.
func (rf *rowsFile[T]) finish(state string) (rows, size int64, err error) {
	if err := rf.end(false); err != nil {
		rf.drop()
		return 0, 0, rf.stopped(err, nil)
	}
	size, err = rf.commit(rf.w, state)
	return rf.rows, size, err
}

// parquetTemp is a Parquet file written into the staging folder of a folder's new state
// (folderSwitch), under its own name: nothing reads the staging folder until it is
// switched in whole, so the file needs no temporary name of its own. It is the part that
// rowsFile and turnsFile share.
type parquetTemp struct {
	path string
	f    *os.File
}

// createFile creates the Parquet file path in a new state, with the permissions os.Create
// gives; an error if a file of that name is already there (one carried in from the live
// folder, which writing would change too).
func createFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
}

// commit completes the file that w wrote, with state in its metadata (stateKey), and
// syncs it; it returns its size. On an error the file is dropped.
func (t *parquetTemp) commit(w interface {
	SetKeyValueMetadata(key, value string)
	Close() error
}, state string) (size int64, err error) {
	w.SetKeyValueMetadata(stateKey, state)
	err = w.Close()
	if err == nil {
		err = t.f.Sync()
	}
	if err == nil {
		size, err = t.f.Seek(0, io.SeekCurrent)
	}
	if err == nil {
		err = t.f.Close()
	}
	if err != nil {
		t.drop()
		return 0, t.stopped(err, nil)
	}
	return size, nil
}

// drop closes the file and removes it.
func (t *parquetTemp) drop() {
	t.f.Close()
	os.Remove(t.f.Name())
}

// stopped is the error of writing the file, given the error err that stopped it: its
// own failure instead when err only says that the file's writer had stopped (errStopped).
func (t *parquetTemp) stopped(err, failure error) error {
	if failure != nil && errors.Is(err, errStopped) {
		err = failure
	}
	return fmt.Errorf("writing %s: %w", livePath(t.path), err)
}

// livePath names the file path of a folder's new state by its name in the live folder,
// for messages (outfile.LivePath).
func livePath(path string) string { return outfile.LivePath(path) }

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
	fDatePtr // a TEXT date written as a DATE (parseDate), nil unless a whole date
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

// slab hands out pointers for the optional fields of a batch of rows, a few allocations
// for many values.
type slab struct {
	ints  []int32
	bools []bool
	strs  []string
}

func (s *slab) int32p(v int32) *int32 {
	if len(s.ints) == cap(s.ints) {
		s.ints = make([]int32, 0, 4096)
	}
	s.ints = append(s.ints, v)
	return &s.ints[len(s.ints)-1]
}

func (s *slab) boolp(v bool) *bool {
	if len(s.bools) == cap(s.bools) {
		s.bools = make([]bool, 0, 1024)
	}
	s.bools = append(s.bools, v)
	return &s.bools[len(s.bools)-1]
}

func (s *slab) stringp(v string) *string {
	if len(s.strs) == cap(s.strs) {
		s.strs = make([]string, 0, 2048)
	}
	s.strs = append(s.strs, v)
	return &s.strs[len(s.strs)-1]
}

// set fills the struct at base from vals.
func (p rowPlan) set(base unsafe.Pointer, vals []driver.Value, sl *slab) error {
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
				*(**int32)(ptr) = sl.int32p(int32(n))
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
				*(**bool)(ptr) = sl.boolp(b)
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
			if days, ok := parseDate(s); ok {
				*(**int32)(ptr) = sl.int32p(days)
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
				*(**string)(ptr) = sl.stringp(s)
			}
		}
	}
	return nil
}

func typeError(col string, v driver.Value) error {
	return fmt.Errorf("column %s holds %T %v", col, v, v)
}

// stateKey is the key, in a Parquet file's metadata, of the state of the database the
// file was written from.
const stateKey = "ponte.database_state"

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
		written, ok := fileState(f, stateKey)
		f.Close()
		if !ok || written != state {
			return false, nil
		}
	}
	return true, nil
}

// fileState returns the value of key in the metadata of the Parquet file f, read from its
// footer; ok is false when there is none.
func fileState(f *os.File, key string) (state string, ok bool) {
	info, err := f.Stat()
	if err != nil {
		return "", false
	}
	pf, err := parquet.OpenFile(f, info.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return "", false
	}
	return pf.Lookup(key)
}

// parquetState returns the database state recorded in the Parquet file at path, read from
// its footer; ok is false when there is none.
func parquetState(path string) (state string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	return fileState(f, stateKey)
}
