package store

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
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
//
// Encoding Parquet costs four times the reading, so each row group is encoded on its own,
// one per core at a time, into a Parquet file in memory (a turnsChunk), and the chunks'
// row groups go into the file in order by parquet-go's copy of their compressed bytes,
// which neither decodes nor compresses again. The file is the one a single writer makes:
// the same row groups of turnsPerRowGroup rows, pages and statistics.
func exportTurns(c *conn, path, state string, progress func(int64, driver.Value)) (rows, size int64, err error) {
	f, err := createTemp(path)
	if err != nil {
		return 0, 0, err
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := parquet.NewGenericWriter[TurnRow](f, append(turnsWriterOptions(), parquet.KeyValueMetadata(stateKey, state))...)
	failed := make(chan struct{}) // closed at the first error of an encoder or the writer
	var failOnce sync.Once
	var failure error
	fail := func(err error) {
		failOnce.Do(func() {
			failure = err
			close(failed)
		})
	}
	encoders := max(1, runtime.GOMAXPROCS(0))
	queues := make([]chan *turnsChunk, encoders)
	var wg sync.WaitGroup
	for i := range queues {
		queues[i] = make(chan *turnsChunk, 1)
		wg.Go(func() {
			defer bug.Recover()
			for ch := range queues[i] {
				ch.encode(failed)
			}
		})
	}
	// The chunks in order, for the writer, which copies each one's row group once encoded.
	ordered := make(chan *turnsChunk, 2*encoders)
	written := make(chan struct{})
	go func() {
		defer bug.Recover()
		defer close(written)
		for ch := range ordered {
			<-ch.done
			if ch.err != nil {
				fail(ch.err)
			}
			select {
			case <-failed:
				continue // drained: the encoders and the reader stop
			default:
			}
			if err := ch.copyTo(w); err != nil {
				fail(err)
			}
		}
	}()

	free := make(chan []TurnRow, 4*encoders)
	batch := func() []TurnRow {
		select {
		case b := <-free:
			return b
		default:
			return make([]TurnRow, 0, turnsBatchRows)
		}
	}
	var cur *turnsChunk
	chunks := 0
	buf := batch()
	var sl slab
	stopped := errors.New("stopped")
	// send passes the rows of buf to the chunk being filled, which starts a new one when
	// full (or at the end, last).
	send := func(last bool) error {
		if len(buf) > 0 {
			if cur == nil {
				cur = newTurnsChunk(free)
				select {
				case queues[chunks%encoders] <- cur:
				case <-failed:
					return stopped
				}
				ordered <- cur
				chunks++
			}
			select {
			case cur.batches <- buf:
			case <-failed:
				return stopped
			}
			cur.rows += int64(len(buf))
			buf = batch()
			sl = slab{} // the rows sent keep the old one
		}
		if cur != nil && (last || cur.rows >= turnsPerRowGroup) {
			close(cur.batches)
			cur = nil
		}
		return nil
	}
	if progress != nil {
		progress(0, int64(0))
	}
	var sc turntext.Scanner
	var u turnUnpacker
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
		for sc.Reset(text); sc.Next(); {
			buf = append(buf, TurnRow{})
			if err := u.set(&buf[len(buf)-1], game, int32(sc.N()), sc.Turn(), &sl); err != nil {
				return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
			}
			rows++
			if len(buf) == cap(buf) {
				if progress != nil {
					progress(rows, game)
				}
				if err := send(false); err != nil {
					return err
				}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
		}
		return nil
	})
	if err == nil {
		err = send(true)
	} else {
		fail(err)
		if cur != nil {
			close(cur.batches)
		}
	}
	for _, q := range queues {
		close(q)
	}
	close(ordered)
	wg.Wait()
	<-written
	if failure != nil && (err == nil || err == stopped) {
		err = failure
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		size, err = f.Seek(0, io.SeekCurrent)
	}
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("writing %s: %w", path, err)
	}
	done = true
	return rows, size, nil
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
