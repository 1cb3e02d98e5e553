package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/store/parquet"
)

// parquetStream writes turns.parquet and tags.parquet of a database while an ingest
// stores its games, instead of reading them back from SQLite afterwards: for a million
// games the export read 46 million turns out of game_turns and encoded them after the
// ingest, a third of the whole run, where now the encoding runs beside the writer, on
// the core the replay leaves free.
//
// An ingest streams only into a database that holds no game when it starts, so that the
// files hold exactly the games it stores, numbered from 1 in the order stored. The
// writer hands each batch's new games over (in), and this goroutine unpacks their turns
// and tags into the files' rows, which other goroutines encode. The files stay in the
// folder's new state, unfinished, until WriteParquet, which checks that the database holds
// the games streamed and no other, and then gives them the database's state (parquet.StateKey)
// and switches the folder; anything else (an interrupted or failed ingest, a database that does not
// match) drops them, and the files are exported from the database as before.
//
// games.parquet is streamed too, from the values the writer stores (gameRows), but its
// rows are final only if no game met a copy later in the run, which adds to its
// duplicates column (dupMet): WriteParquet then drops the file and exports it from the
// database, as it does for a Parquet-only ingest, whose database keeps no tags for the
// population's bots (botSQL).
type parquetStream struct {
	dir      string
	in       chan []streamGame
	done     chan struct{} // closed when every game handed over is in the files' rows
	err      error         // the first error, after done
	turns    *parquet.Turns
	tags     *parquet.File[TagRow]
	gameFile *parquet.File[GameRow] // nil when games.parquet is exported
	gameRows *gameRows
	// dupMet: a copy of a game streamed was met, set by the writer's goroutine and read
	// after the ingest.
	dupMet       bool
	gamesDropped bool  // gameFile was dropped (dropGames)
	games        int64 // the games streamed, numbered 1 … games
	// tagged has bit id-1 set for each game streamed whose tags mark a bot player, for
	// the export of games.parquet from a database that keeps no tags (Parquet-only).
	tagged []uint64
	// sw is the new state of the folder dir that the files are written into, which
	// WriteParquet completes and switches in; abort drops it.
	sw *folderSwitch
}

// streamGame is what the writer hands over of a game it stores.
type streamGame struct {
	id     int64          // games.id
	gameID string         // games.game_id
	row    []driver.Value // the values of the games table's columns, as stored
	turns  string         // game_turns.turns, "" for none
	tags   []ingest.Tag   // its tags, in order
}

// streamEncoders bounds the goroutines that encode turns.parquet's row groups during an
// ingest, each holding a row group's columns (128k turns): the encoding needs a third of a
// core beside the writer, and the memory of an ingest stays the same on a machine of many
// cores.
const streamEncoders = 2

// startParquetStream starts writing turns.parquet and tags.parquet of the folder dir into
// its new state sw, and games.parquet if withGames.
func startParquetStream(dir string, sw *folderSwitch, withGames bool) (*parquetStream, error) {
	turns, err := parquet.CreateTurns(sw.Path("turns.parquet"), min(streamEncoders, max(1, runtime.GOMAXPROCS(0))))
	if err != nil {
		return nil, err
	}
	tags, err := parquet.Create[TagRow](sw.Path("tags.parquet"), parquet.TagsPerRowGroup)
	if err != nil {
		turns.Abort()
		return nil, err
	}
	s := &parquetStream{dir: dir, in: make(chan []streamGame, 4), done: make(chan struct{}), turns: turns, tags: tags, sw: sw}
	if withGames {
		if s.gameRows, err = newGameRows(); err == nil {
			s.gameFile, err = parquet.Create[GameRow](sw.Path("games.parquet"), parquet.GamesPerRowGroup, gamesBlobs...)
		}
		if err != nil {
			turns.Abort()
			tags.Abort()
			return nil, err
		}
	}
	go s.run()
	return s, nil
}

// run turns the games handed over into rows until in is closed; after an error it only
// drains in, so that the writer never waits for it.
func (s *parquetStream) run() {
	defer bug.Recover()
	defer close(s.done)
	for games := range s.in {
		if s.err != nil {
			continue
		}
		for i := range games {
			if err := s.add(&games[i]); err != nil {
				s.err = err
				break
			}
		}
	}
}

// add adds the rows of one game.
func (s *parquetStream) add(g *streamGame) error {
	if g.id != s.games+1 {
		return fmt.Errorf("game %d handed over after game %d", g.id, s.games)
	}
	s.games = g.id
	tagged := tagsMarkBot(g.tags)
	if tagged {
		i := g.id - 1
		for int64(len(s.tagged)) <= i>>6 {
			s.tagged = append(s.tagged, 0)
		}
		s.tagged[i>>6] |= 1 << (i & 63)
	}
	if s.gameFile != nil {
		r, sl := s.gameFile.Next()
		if err := s.gameRows.set(r, g.row, s.gameRows.hasBot(g.row, tagged), sl); err != nil {
			return fmt.Errorf("games.parquet's row of game %d: %w", g.id, err)
		}
		if s.gameFile.Full() {
			if err := s.gameFile.Send(); err != nil {
				return err
			}
		}
	}
	if g.turns != "" {
		if err := s.turns.AddGame(g.id, g.turns); err != nil {
			return err
		}
	}
	for i, t := range g.tags {
		r, _ := s.tags.Next()
		r.GameID, r.Seq, r.Name, r.Value = g.gameID, int32(i+1), validText(t.Name), validText(t.Value)
		if s.tags.Full() {
			if err := s.tags.Send(); err != nil {
				return err
			}
		}
	}
	return nil
}

// taggedBot reports whether the tags of game id, streamed, mark a bot player.
func (s *parquetStream) taggedBot(id int64) bool {
	i := id - 1
	return i >= 0 && i>>6 < int64(len(s.tagged)) && s.tagged[i>>6]&(1<<(i&63)) != 0
}

// close ends the hand-over and waits until every game is in the rows; it returns the
// first error.
func (s *parquetStream) close() error {
	close(s.in)
	<-s.done
	return s.err
}

// abort drops the files not finished, and the folder's new state unless it was switched
// in, and returns why the stream stopped, nil if it did not: its first error, or, when
// that was a file's writer stopping the rows, that file's own failure (a full disk, say)
// with the file's name. The hand-over must be closed. After finish it only checks.
func (s *parquetStream) abort() error {
	<-s.done
	s.turns.Abort()
	s.tags.Abort()
	s.dropGames()
	s.sw.Abort()
	switch {
	case !errors.Is(s.err, parquet.ErrStopped):
		return s.err
	case s.turns.Failure() != nil && !errors.Is(s.turns.Failure(), parquet.ErrStopped):
		return s.turns.Stopped(s.err, s.turns.Failure())
	case s.gameFile != nil && s.gameFile.Failure() != nil && !errors.Is(s.gameFile.Failure(), parquet.ErrStopped):
		return s.gameFile.Stopped(s.err, s.gameFile.Failure())
	}
	return s.tags.Stopped(s.err, s.tags.Failure())
}

// dropGames drops the games.parquet streamed, if any, which WriteParquet does not use.
func (s *parquetStream) dropGames() {
	if s.gameFile != nil && !s.gamesDropped {
		s.gameFile.Abort()
		s.gamesDropped = true
	}
}

// startStream starts streaming the Parquet files of an ingest (WriteOptions.StreamParquet) when
// the database holds no game, into the folder the database may write to; nil otherwise: a
// folder the stream cannot use leaves the files to WriteParquet, which says why. A
// Parquet-only ingest always streams, into its folder, and it is an error if it cannot:
// its database keeps no turns and tags to export them from.
func (d *DB) startStream(opts WriteOptions) (*parquetStream, error) {
	d.dropStream()
	dir := opts.ParquetDir
	switch {
	case d.parquetOnly != "":
		return d.newStream(d.parquetOnly)
	case !opts.StreamParquet || dir == "":
		return nil, nil
	}
	s, _ := d.newStream(dir)
	return s, nil
}

// newStream starts a stream into a new state of the folder dir (newSwitch), when the
// database holds no game and may write there.
func (d *DB) newStream(dir string) (*parquetStream, error) {
	var games int64
	if err := d.db.QueryRow("SELECT coalesce(max(id), 0) FROM games").Scan(&games); err != nil {
		return nil, wrapBusy(err)
	}
	if games > 0 {
		return nil, fmt.Errorf("%s already holds games: the Parquet files are exported from it", d.path)
	}
	if err := d.ClaimParquet(dir); err != nil {
		return nil, err
	}
	sw, err := newSwitch(dir)
	if err != nil {
		return nil, err
	}
	s, err := startParquetStream(dir, sw, d.parquetOnly == "")
	if err != nil {
		sw.Abort()
		return nil, err
	}
	return s, nil
}

// dropStream drops the files of a stream that WriteParquet did not finish.
func (d *DB) dropStream() {
	if d.stream != nil {
		d.stream.abort()
		d.stream = nil
	}
}

// takeStream returns the stream of the last ingest if it wrote dir's files and the
// database holds exactly its games, numbered 1 … games (as read in WriteParquet's read
// transaction); otherwise it drops the stream and returns nil.
func (d *DB) takeStream(dir string, games int64) *parquetStream {
	s := d.stream
	if s == nil {
		return nil
	}
	d.stream = nil
	if filepath.Clean(s.dir) != filepath.Clean(dir) || s.games != games {
		s.abort()
		return nil
	}
	return s
}
