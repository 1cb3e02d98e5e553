package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	pq "github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/internal/utf8text"
)

// ErrStopped is what Turns.AddGame and File.Send return once an encoder or the file's writer
// has failed (Turns.failure says how).
var ErrStopped = errors.New("stopped")

// Turns writes turns.parquet from the games' packed turns, given game by game in the
// order of their numbers (addGame), by the export or by an ingest as it stores them.
//
// Encoding Parquet costs four times the reading, so each row group is encoded on its own,
// on one of several goroutines, into a Parquet file in memory (a turnsChunk), and the
// chunks' row groups go into the file in order by parquet-go's copy of their compressed
// bytes, which neither decodes nor compresses again. The file is the one a single writer
// makes: the same row groups of TurnsPerRowGroup rows, pages and statistics. It is written
// into a folder's new state and completed by finish, with the database's state (StateKey)
// in its metadata, once that is known.
type Turns struct {
	Temp
	w        *pq.GenericWriter[TurnRow]
	Progress func(rows, game int64) // told the rows sent and the last game, or nil

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
	sl     Slab
	sc     turntext.Scanner
	u      TurnUnpacker
	rows   int64
	ended  bool
}

// CreateTurns starts writing turns.parquet to path, in a folder's new state, with
// encoders goroutines encoding row groups.
func CreateTurns(path string, encoders int) (*Turns, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	tf := &Turns{
		Temp:    Temp{path: path, f: f},
		w:       pq.NewGenericWriter[TurnRow](f, turnsWriterOptions()...),
		failed:  make(chan struct{}),
		queues:  make([]chan *turnsChunk, encoders),
		ordered: make(chan *turnsChunk, 2*encoders),
		written: make(chan struct{}),
		free:    make(chan []TurnRow, 4*encoders),
	}
	for i := range tf.queues {
		tf.queues[i] = make(chan *turnsChunk, 1)
		tf.wg.Go(func() {
			defer bug.Recover()
			var w *pq.GenericWriter[TurnRow] // one per encoder, reset for each chunk
			for ch := range tf.queues[i] {
				if w == nil {
					w = pq.NewGenericWriter[TurnRow](&ch.out, turnsWriterOptions()...)
				} else {
					w.Reset(&ch.out)
				}
				ch.encode(w, tf.failed)
			}
		})
	}
	go func() {
		defer bug.Recover()
		defer close(tf.written)
		for ch := range tf.ordered {
			<-ch.done
			if ch.err != nil {
				tf.Fail(ch.err)
			}
			select {
			case <-tf.failed:
				continue // drained: the encoders and the sender stop
			default:
			}
			if err := ch.copyTo(tf.w); err != nil {
				tf.Fail(err)
			}
		}
	}()
	tf.buf = tf.batch()
	return tf, nil
}

// Fail stops the file with err, as an encoder that failed does.
func (tf *Turns) Fail(err error) {
	tf.failOnce.Do(func() {
		tf.failure = err
		close(tf.failed)
	})
}

// batch is an empty batch of rows, reused if one is free.
func (tf *Turns) batch() []TurnRow {
	select {
	case b := <-tf.free:
		return b
	default:
		return make([]TurnRow, 0, turnsBatchRows)
	}
}

// AddGame adds the turns of game, packed as text (turntext).
func (tf *Turns) AddGame(game int64, text string) error {
	for tf.sc.Reset(text); tf.sc.Next(); {
		tf.buf = append(tf.buf, TurnRow{})
		if err := tf.u.Set(&tf.buf[len(tf.buf)-1], game, int32(tf.sc.N()), tf.sc.Turn(), &tf.sl); err != nil {
			return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
		}
		tf.rows++
		if len(tf.buf) == cap(tf.buf) {
			if tf.Progress != nil {
				tf.Progress(tf.rows, game)
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
func (tf *Turns) send(last bool) error {
	if len(tf.buf) > 0 {
		if tf.cur == nil {
			tf.cur = newTurnsChunk(tf.free)
			select {
			case tf.queues[tf.chunks%len(tf.queues)] <- tf.cur:
			case <-tf.failed:
				tf.cur = nil
				return ErrStopped
			}
			tf.ordered <- tf.cur
			tf.chunks++
		}
		select {
		case tf.cur.batches <- tf.buf:
		case <-tf.failed:
			return ErrStopped
		}
		tf.cur.rows += int64(len(tf.buf))
		tf.buf = tf.batch()
		tf.sl = Slab{} // the rows sent keep the old one
	}
	if tf.cur != nil && (last || tf.cur.rows >= TurnsPerRowGroup) {
		close(tf.cur.batches)
		tf.cur = nil
	}
	return nil
}

// end sends the last rows and waits for the encoders and the copying to end; it returns
// the first failure.
func (tf *Turns) end(failed bool) error {
	if tf.ended {
		return tf.failure
	}
	tf.ended = true
	if !failed {
		if err := tf.send(true); err != nil && tf.failure == nil {
			tf.Fail(err)
		}
	} else {
		tf.Fail(ErrStopped)
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

// Abort stops the file and removes it.
func (tf *Turns) Abort() {
	tf.end(true)
	tf.Drop()
}

// Close ends the file once its games are given: it finishes it with state when giving
// them ended with err nil, else it drops it and returns err (or the file's own failure,
// when that stopped the games).
func (tf *Turns) Close(err error, state string) (rows, size int64, _ error) {
	if err != nil {
		tf.Abort()
		return 0, 0, tf.Stopped(err, tf.failure)
	}
	return tf.Finish(state)
}

// Finish completes the file with state in its metadata and gives it its name.
func (tf *Turns) Finish(state string) (rows, size int64, err error) {
	if err := tf.end(false); err != nil {
		tf.Drop()
		return 0, 0, tf.Stopped(err, nil)
	}
	size, err = tf.Commit(tf.w, state)
	return tf.rows, size, err
}

// turnsBatchRows is the rows passed to an encoder at once; a row group is a whole number
// of batches (the array below has no element 1 otherwise).
const turnsBatchRows = 1024

var _ = [1]struct{}{}[TurnsPerRowGroup%turnsBatchRows]

// turnsWriterOptions are the options of every writer of turns.parquet's rows: the file's
// and the chunks' (whose row groups are copied only if their options are the same).
func turnsWriterOptions() []pq.WriterOption {
	return []pq.WriterOption{
		pq.Compression(&Zstd),
		pq.MaxRowsPerRowGroup(TurnsPerRowGroup),
		pq.CreatedBy("ponte", "", ""),
		pq.DataPageStatistics(false),
		pq.SkipPageBounds("colour"), pq.SkipPageBounds("kind"), pq.SkipPageBounds("bridge_shape"),
		pq.SkipPageBounds("a"), pq.SkipPageBounds("b"),
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

// encode writes the chunk's rows to a Parquet file in memory with w, which writes to
// ch.out; after a failure elsewhere it only drains them.
func (ch *turnsChunk) encode(w *pq.GenericWriter[TurnRow], failed <-chan struct{}) {
	defer close(ch.done)
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
func (ch *turnsChunk) copyTo(w *pq.GenericWriter[TurnRow]) error {
	r := bytes.NewReader(ch.out.Bytes())
	pf, err := pq.OpenFile(r, r.Size())
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

// TurnUnpacker fills TurnRows from packed turns, the way the view turns computes its
// columns (turnsPacking), sharing the cells' strings.
type TurnUnpacker struct {
	cells map[string]*string // the texts of the cells not in cellNames
}

// cellNames are the names of the cells a1 … z26 (the largest board's), at their index in a
// packed turn (turntext.CellIndex): the cells of any turn, found without hashing their names.
var cellNames = func() (names [game.MaxSize * game.MaxSize]string) {
	for i := range names {
		names[i] = turntext.CellName(i)
	}
	return names
}()

// cellIndex is the index in cellNames of the cell named c, -1 if c is no such name.
func cellIndex(c string) int { return turntext.CellIndex(c) }

// cell is a shared copy of the cell c, nil for "".
func (u *TurnUnpacker) cell(c string) *string {
	if c == "" {
		return nil
	}
	if i := cellIndex(c); i >= 0 {
		return &cellNames[i]
	}
	if p, ok := u.cells[c]; ok {
		return p
	}
	if u.cells == nil || len(u.cells) > 4096 { // cells only, unless edited
		u.cells = map[string]*string{}
	}
	s := strings.Clone(utf8text.Valid(c)) // not a part of the game's text, which it would keep
	u.cells[c] = &s
	return &s
}

// Set fills r with turn turn of game, t.
func (u *TurnUnpacker) Set(r *TurnRow, game int64, turn int32, t *turntext.Turn, sl *Slab) error {
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
		r.ThinkMS = sl.Int32p(int32(t.Think))
	}
	return nil
}

// Rows are the rows given so far.
func (tf *Turns) Rows() int64 { return tf.rows }

// Failure is the first failure of an encoder or of the file's writer, nil while none.
func (tf *Turns) Failure() error { return tf.failure }
