package store

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/turntext"
)

// exportTurns writes turns.parquet to path: the rows of the view turns, in the order of
// the games and of their turns, made by reading game_turns and unpacking each game's text
// in Go (turntext.Scanner), which is many times faster than reading the view's 27 columns
// through the driver. Otherwise as exportRows: state goes in the file's metadata, and
// progress, when not nil, is told the rows written with the game of the last one.
func exportTurns(c *conn, path, state string, progress func(int64, driver.Value)) (rows, size int64, err error) {
	tf, err := newTurnsFile(path, max(1, runtime.GOMAXPROCS(0)))
	if err != nil {
		return 0, 0, err
	}
	if progress != nil {
		progress(0, int64(0))
		tf.progress = progress
	}
	err = c.query("SELECT game, turns FROM game_turns ORDER BY game", nil, func(vals []driver.Value) error {
		game, ok := vals[0].(int64)
		if !ok {
			return typeError("game_turns.game", vals[0])
		}
		var text string
		switch v := vals[1].(type) {
		case string:
			text = v
		case []byte:
			text = string(v)
		default:
			return typeError("game_turns.turns", v)
		}
		return tf.addGame(game, text)
	})
	return tf.close(err, state)
}

// errStopped is what a turnsFile's addGame returns once an encoder or the file's writer
// has failed (turnsFile.failure says how).
var errStopped = errors.New("stopped")

// turnsFile writes turns.parquet from the games' packed turns, given game by game in the
// order of their numbers (addGame), by the export or by an ingest as it stores them.
//
// Encoding Parquet costs four times the reading, so each row group is encoded on its own,
// on one of several goroutines, into a Parquet file in memory (a turnsChunk), and the
// chunks' row groups go into the file in order by parquet-go's copy of their compressed
// bytes, which neither decodes nor compresses again. The file is the one a single writer
// makes: the same row groups of turnsPerRowGroup rows, pages and statistics. It is written
// into a folder's new state and completed by finish, with the database's state (stateKey)
// in its metadata, once that is known.
type turnsFile struct {
	parquetTemp
	w        *parquet.GenericWriter[TurnRow]
	progress func(int64, driver.Value) // told the rows sent and the last game, or nil

	failed   chan struct{} // closed at the first error of an encoder or the writer
	failOnce sync.Once
	failure  error

	queues  []chan *turnsChunk // one per encoder
	wg      sync.WaitGroup     // the encoders
	ordered chan *turnsChunk   // the chunks in order, for the goroutine that copies them
	written chan struct{}      // closed when that goroutine ends
	free    chan []TurnRow

	cur    *turnsChunk // the chunk being filled
	chunks int
	buf    []TurnRow
	sl     slab
	sc     turntext.Scanner
	u      turnUnpacker
	rows   int64
	ended  bool
}

// newTurnsFile starts writing turns.parquet to path, in a folder's new state, with
// encoders goroutines encoding row groups.
func newTurnsFile(path string, encoders int) (*turnsFile, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	tf := &turnsFile{
		parquetTemp: parquetTemp{path: path, f: f},
		w:           parquet.NewGenericWriter[TurnRow](f, turnsWriterOptions()...),
		failed:      make(chan struct{}),
		queues:      make([]chan *turnsChunk, encoders),
		ordered:     make(chan *turnsChunk, 2*encoders),
		written:     make(chan struct{}),
		free:        make(chan []TurnRow, 4*encoders),
	}
	for i := range tf.queues {
		tf.queues[i] = make(chan *turnsChunk, 1)
		tf.wg.Go(func() {
			defer bug.Recover()
			for ch := range tf.queues[i] {
				ch.encode(tf.failed)
			}
		})
	}
	go func() {
		defer bug.Recover()
		defer close(tf.written)
		for ch := range tf.ordered {
			<-ch.done
			if ch.err != nil {
				tf.fail(ch.err)
			}
			select {
			case <-tf.failed:
				continue // drained: the encoders and the sender stop
			default:
			}
			if err := ch.copyTo(tf.w); err != nil {
				tf.fail(err)
			}
		}
	}()
	tf.buf = tf.batch()
	return tf, nil
}

func (tf *turnsFile) fail(err error) {
	tf.failOnce.Do(func() {
		tf.failure = err
		close(tf.failed)
	})
}

// batch is an empty batch of rows, reused if one is free.
func (tf *turnsFile) batch() []TurnRow {
	select {
	case b := <-tf.free:
		return b
	default:
		return make([]TurnRow, 0, turnsBatchRows)
	}
}

// addGame adds the turns of game, packed as text (turntext).
func (tf *turnsFile) addGame(game int64, text string) error {
	for tf.sc.Reset(text); tf.sc.Next(); {
		tf.buf = append(tf.buf, TurnRow{})
		if err := tf.u.set(&tf.buf[len(tf.buf)-1], game, int32(tf.sc.N()), tf.sc.Turn(), &tf.sl); err != nil {
			return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
		}
		tf.rows++
		if len(tf.buf) == cap(tf.buf) {
			if tf.progress != nil {
				tf.progress(tf.rows, game)
			}
			if err := tf.send(false); err != nil {
				return err
			}
		}
	}
	if err := tf.sc.Err(); err != nil {
		return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
	}
	return nil
}

// send passes the rows of buf to the chunk being filled, which starts a new one when full
// (or at the end, last).
func (tf *turnsFile) send(last bool) error {
	if len(tf.buf) > 0 {
		if tf.cur == nil {
			tf.cur = newTurnsChunk(tf.free)
			select {
			case tf.queues[tf.chunks%len(tf.queues)] <- tf.cur:
			case <-tf.failed:
				tf.cur = nil
				return errStopped
			}
			tf.ordered <- tf.cur
			tf.chunks++
		}
		select {
		case tf.cur.batches <- tf.buf:
		case <-tf.failed:
			return errStopped
		}
		tf.cur.rows += int64(len(tf.buf))
		tf.buf = tf.batch()
		tf.sl = slab{} // the rows sent keep the old one
	}
	if tf.cur != nil && (last || tf.cur.rows >= turnsPerRowGroup) {
		close(tf.cur.batches)
		tf.cur = nil
	}
	return nil
}

// end sends the last rows and waits for the encoders and the copying to end; it returns
// the first failure.
func (tf *turnsFile) end(failed bool) error {
	if tf.ended {
		return tf.failure
	}
	tf.ended = true
	if !failed {
		if err := tf.send(true); err != nil && tf.failure == nil {
			tf.fail(err)
		}
	} else {
		tf.fail(errStopped)
	}
	if tf.cur != nil {
		close(tf.cur.batches)
		tf.cur = nil
	}
	for _, q := range tf.queues {
		close(q)
	}
	close(tf.ordered)
	tf.wg.Wait()
	<-tf.written
	return tf.failure
}

// abort stops the file and removes it.
func (tf *turnsFile) abort() {
	tf.end(true)
	tf.drop()
}

// close ends the file once its games are given: it finishes it with state when giving
// them ended with err nil, else it drops it and returns err (or the file's own failure,
// when that stopped the games).
func (tf *turnsFile) close(err error, state string) (rows, size int64, _ error) {
	if err != nil {
		tf.abort()
		return 0, 0, tf.stopped(err, tf.failure)
	}
	return tf.finish(state)
}

// finish completes the file with state in its metadata and gives it its name.
func (tf *turnsFile) finish(state string) (rows, size int64, err error) {
	if err := tf.end(false); err != nil {
		tf.drop()
		return 0, 0, tf.stopped(err, nil)
	}
	size, err = tf.commit(tf.w, state)
	return tf.rows, size, err
}

// turnsBatchRows is the rows passed to an encoder at once; a row group is a whole number
// of batches (the array below has no element 1 otherwise).
const turnsBatchRows = 1024

var _ = [1]struct{}{}[turnsPerRowGroup%turnsBatchRows]

// turnsWriterOptions are the options of every writer of turns.parquet's rows: the file's
// and the chunks' (whose row groups are copied only if their options are the same).
func turnsWriterOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(turnsPerRowGroup),
		parquet.CreatedBy("ponte", "", ""),
	}
}

// turnsChunk is one row group of turns.parquet, encoded on its own: its rows come in
// batches, and it is written as a Parquet file in memory (out), then done is closed.
type turnsChunk struct {
	batches chan []TurnRow
	free    chan<- []TurnRow // where the batches go once encoded
	rows    int64            // the rows sent to it so far
	out     bytes.Buffer
	err     error
	done    chan struct{}
}

func newTurnsChunk(free chan<- []TurnRow) *turnsChunk {
	return &turnsChunk{batches: make(chan []TurnRow, 4), free: free, done: make(chan struct{})}
}

// encode writes the chunk's rows to a Parquet file in memory; after a failure elsewhere
// it only drains them.
func (ch *turnsChunk) encode(failed <-chan struct{}) {
	defer close(ch.done)
	w := parquet.NewGenericWriter[TurnRow](&ch.out, turnsWriterOptions()...)
	for b := range ch.batches {
		select {
		case <-failed:
		default:
			if ch.err == nil {
				_, ch.err = w.Write(b)
			}
		}
		clear(b)
		select {
		case ch.free <- b[:0]:
		default:
		}
	}
	if ch.err == nil {
		ch.err = w.Close()
	}
}

// copyTo writes the chunk's row group into w, copying its compressed pages.
func (ch *turnsChunk) copyTo(w *parquet.GenericWriter[TurnRow]) error {
	r := bytes.NewReader(ch.out.Bytes())
	pf, err := parquet.OpenFile(r, r.Size())
	if err != nil {
		return err
	}
	for _, rg := range pf.RowGroups() {
		if _, err := w.WriteRowGroup(rg); err != nil {
			return err
		}
	}
	ch.out = bytes.Buffer{}
	return nil
}

// Values shared by the rows that hold them (the writer only reads them): the small
// integers of the optional columns, the names of colours, kinds and shapes, and the cells.
var (
	turnInts   [8]int32
	turnFalse  = false
	turnTrue   = true
	colourName = [2]string{"light", "dark"}
	kindName   = [4]string{"tiles", "bridge", "swap", "pass"}
	shapeName  = [4]string{"", "straight", "diagonal", "knight"}
)

func init() {
	for i := range turnInts {
		turnInts[i] = int32(i)
	}
}

// turnUnpacker fills TurnRows from packed turns, the way the view turns computes its
// columns (turnsPacking), sharing the cells' strings.
type turnUnpacker struct {
	cells map[string]*string
}

// cell is a shared copy of the cell c, nil for "".
func (u *turnUnpacker) cell(c string) *string {
	if c == "" {
		return nil
	}
	if p, ok := u.cells[c]; ok {
		return p
	}
	if u.cells == nil || len(u.cells) > 4096 { // cells only, unless edited
		u.cells = map[string]*string{}
	}
	s := strings.Clone(validText(c)) // not a part of the game's text, which it would keep
	u.cells[c] = &s
	return &s
}

// set fills r with turn turn of game, t.
func (u *turnUnpacker) set(r *TurnRow, game int64, turn int32, t *turntext.Turn, sl *slab) error {
	r.Game, r.Turn = game, turn
	r.Colour = colourName[t.Colour()]
	r.Kind = kindName[t.Kind()]
	r.A, r.B = u.cell(t.A), u.cell(t.B)
	r.IslandsFormed = int32(t.IslandsFormed())
	optInt := func(n int) *int32 {
		if n == 0 {
			return nil
		}
		return &turnInts[n]
	}
	r.GroupA, r.GroupB = optInt(t.Group(0)), optInt(t.Group(1))
	if s := t.BridgeShape(); s != 0 {
		r.BridgeShape = &shapeName[s]
	}
	r.BridgeEndA, r.BridgeEndB = optInt(t.BridgeEnd(0)), optInt(t.BridgeEnd(1))
	switch t.BridgeMerged() {
	case 1:
		r.BridgeMerged = &turnFalse
	case 2:
		r.BridgeMerged = &turnTrue
	}
	r.LargestComponent = int32(t.LargestComponent())
	r.ScoreLight, r.ScoreDark = int32(t.Score(0)), int32(t.Score(1))
	r.IslandsLight, r.IslandsDark = int32(t.Islands(0)), int32(t.Islands(1))
	r.SandbanksLight, r.SandbanksDark = int32(t.Sandbanks(0)), int32(t.Sandbanks(1))
	r.DeadLight, r.DeadDark = int32(t.Dead(0)), int32(t.Dead(1))
	r.DeadCreatedLight, r.DeadCreatedDark = int32(t.DeadCreated(0)), int32(t.DeadCreated(1))
	r.MobilityLight, r.MobilityDark = int32(t.Mobility(0)), int32(t.Mobility(1))
	if t.Think != 0 {
		if t.Think < 0 || t.Think != int64(int32(t.Think)) {
			return fmt.Errorf("turn %d has a think time of %d ms", turn, t.Think)
		}
		r.ThinkMS = sl.int32p(int32(t.Think))
	}
	return nil
}
