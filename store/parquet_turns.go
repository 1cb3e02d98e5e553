package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
	w := parquet.NewGenericWriter[TurnRow](f,
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(turnsPerRowGroup),
		parquet.CreatedBy("ponte", "", ""),
		parquet.KeyValueMetadata(stateKey, state),
	)
	// Reading SQLite and unpacking overlap with encoding Parquet: this goroutine makes rows
	// into batches, another one writes them.
	const batchRows = 1024
	batches := make(chan []TurnRow, 4)
	free := make(chan []TurnRow, 6)
	failed := make(chan struct{})
	written := make(chan error, 1)
	go func() {
		defer bug.Recover()
		var err error
		for b := range batches {
			if err == nil {
				if _, err = w.Write(b); err != nil {
					close(failed)
				}
			}
			clear(b)
			select {
			case free <- b[:0]:
			default:
			}
		}
		written <- err
	}()
	buf := make([]TurnRow, 0, batchRows)
	var sl slab
	if progress != nil {
		progress(0, int64(0))
	}
	send := func() error {
		select {
		case batches <- buf:
		case <-failed:
			return errors.New("stopped")
		}
		select {
		case buf = <-free:
		default:
			buf = make([]TurnRow, 0, batchRows)
		}
		sl = slab{} // the rows sent keep the old one
		return nil
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
				if err := send(); err != nil {
					return err
				}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("game_turns.turns of game %d: %w", game, err)
		}
		return nil
	})
	if err == nil && len(buf) > 0 {
		err = send()
	}
	close(batches)
	if werr := <-written; werr != nil {
		err = werr
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
