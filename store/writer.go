package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// WriteOptions control how a run of games is stored (DB.Write).
type WriteOptions struct {
	// CommitGames bounds the games of one transaction; 0 means 2,000. A transaction also
	// ends after a second. Smaller transactions lose less to a kill and cost some speed.
	CommitGames int
	// ParquetDir is the directory of the Parquet files of this database ("" if none).
	ParquetDir string
	// StreamParquet writes turns.parquet and tags.parquet of ParquetDir while the games
	// are stored, when the database holds no game at the start (parquetStream), for
	// WriteParquet to finish: a large archive's Parquet files then cost little more than
	// its database. Otherwise, or if the run does not end well, WriteParquet exports
	// them from the database as always.
	StreamParquet bool
}

// Counts are what a run of DB.Write stored: Games counts every record handed over, New
// ones stored, Duplicates of games already stored; Legal, Illegal and Unreadable split the
// same records by verdict.
type Counts struct {
	Games      int   `json:"games"`      // records stored
	New        int   `json:"new"`        // games stored for the first time
	Duplicates int   `json:"duplicates"` // games already in the database
	Legal      int   `json:"legal"`      // legal games
	Illegal    int   `json:"illegal"`    // illegal games
	Unreadable int   `json:"unreadable"` // records that could not be read
	TurnRows   int64 `json:"turn_rows"`  // rows added to turns
	Rows       int64 `json:"rows"`       // rows added to games, turns and tags
}

// Commit policy: a transaction holds whole games only and ends after
// WriteOptions.CommitGames (default defaultCommitGames) games or commitEvery, whichever
// comes first; a kill loses at most the open transaction.
const (
	defaultCommitGames = 2000
	commitEvery        = time.Second
)

// lookupBatch is how many games' ids one query looks up at most: the duplicate check looks
// the games of a batch up together, in queries of this many.
const lookupBatch = 64

// EntryKind is what an Entry says.
type EntryKind uint8

// The entries of a run, in input order: a file starts, its games (and the parts of it that
// cannot be read), and it ends.
const (
	EntryGame      EntryKind = iota // a game read from File: Game, Unchecked, Part
	EntryFileStart                  // File begins
	EntryFileEnd                    // File was read to its end, or as far as it could be: Hash and Size for a stream
	EntryError                      // a part of File that cannot be read (File may be nil: a path): Err
)

// An Entry is one thing a run hands the store, in input order (DB.Write).
type Entry struct {
	Kind EntryKind
	File *File // the same pointer from the file's start to its end
	Game Replayed
	// Unchecked: the game's record was handed over before the check of its compressed
	// part ended (ingest.Record.Unchecked), part Part of its source (ingest.Record.Part);
	// the games of a part that turns out damaged (an EntryError that is an
	// *ingest.DamagedError) are rolled back.
	Unchecked bool
	Part      int
	Err       error
	// For the EntryFileEnd of a stream: what was read of it.
	Hash string
	Size int64
}

// A File is a file of a run, as the run found it: its row of sources.
type File struct {
	Path   string
	Stream bool   // read once, hashed as it is read: Hash and Size come with its end
	Size   int64  // the size of a regular file
	Hash   string // the SHA-256 of a regular file's content (hex), "" for a stream
	// Resume is the sources row of an interrupted run of the same content (SourceOf),
	// which the run takes up after Resume.Records records; ID 0 for none.
	Resume Source
}

// A Source is a row of sources: a file read by an earlier run, and what it stored.
type Source struct {
	ID       int64
	Complete bool // read to its end
	SourceCounts
}

// SourceCounts are a source's counters, as in its sources row.
type SourceCounts struct {
	Records, New, Duplicates, Legal, Illegal, Unreadable int64
}

// SourceOf returns the sources row of the content whose SHA-256 (hex) is hash: a complete
// one if there is one, else the first row of an interrupted run of it; found is false
// when the content was never read.
func (d *DB) SourceOf(ctx context.Context, hash string) (s Source, found bool, err error) {
	var status string
	c := &s.SourceCounts
	err = d.db.QueryRowContext(ctx,
		`SELECT id, status, records, new, duplicates, legal, illegal, unreadable FROM sources
		 WHERE sha256 = ? ORDER BY status = 'complete' DESC, id LIMIT 1`, hash).
		Scan(&s.ID, &status, &c.Records, &c.New, &c.Duplicates, &c.Legal, &c.Illegal, &c.Unreadable)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Source{}, false, nil
	case err != nil:
		return Source{}, false, wrapBusy(err)
	}
	s.Complete = status == "complete"
	return s, true, nil
}

// A Writer stores the entries of a run (DB.Write), in order.
type Writer struct {
	w *writer
}

// Put stores entries, in order, in the open transaction (committed every
// WriteOptions.CommitGames games or second). An error ends the run: Put is not to be
// called again.
func (x *Writer) Put(entries []Entry) error {
	return x.w.batch(entries)
}

// Counts are what was stored so far.
func (x *Writer) Counts() Counts {
	c := x.w.counts
	c.Rows = x.w.games.rows + c.TurnRows + x.w.tagRows
	return c
}

// Write stores the games that feed puts, from one goroutine (feed's), in large
// transactions that hold whole games and the progress of their files (sources.records),
// so that a run stopped anywhere leaves whole games and files it can take up
// (File.Resume). feed returns whether it stopped early (interrupted: what was put is
// stored and committed) and its error, which ends the run: the open transaction is rolled
// back and the error returned. Games whose game_id is stored already count as
// duplicates of it.
func (d *DB) Write(opts WriteOptions, feed func(*Writer) (interrupted bool, err error)) (Counts, error) {
	if opts.CommitGames <= 0 {
		opts.CommitGames = defaultCommitGames
	}
	conn, err := d.db.Conn(context.Background())
	if err != nil {
		return Counts{}, dbError(d.path, wrapBusy(err))
	}
	defer conn.Close()

	if d.parquetOnly != "" {
		// A Parquet-only ingest's database is scratch, removed at the end and by the next
		// run if this one is killed: it need not wait for the disk.
		if _, err := conn.ExecContext(context.Background(), "PRAGMA synchronous = OFF"); err != nil {
			return Counts{}, dbError(d.path, wrapBusy(err))
		}
	}
	stream, err := d.startStream(opts)
	if err != nil {
		return Counts{}, err
	}

	w := &writer{commitGames: opts.CommitGames, sources: make(map[*File]*sourceState),
		txIDs: make(map[string]int64), existing: make(map[string]int64), dups: make(map[int64]int64), stream: stream,
		streamOnly: d.parquetOnly != ""}
	var stored bool
	if err := conn.QueryRowContext(context.Background(), "SELECT EXISTS (SELECT 1 FROM games)").Scan(&stored); err != nil {
		return Counts{}, dbError(d.path, wrapBusy(err))
	}
	if !stored {
		// Every game of the database will be one of this run's, which the filter knows
		// (the file is locked against other writers: DB.Open).
		w.seen = newIDFilter()
	}
	w.games = newRowBuffer(&gamesTable, gameColID+1) // SQLite numbers the games (insertSQL)
	w.turns = newRowBuffer(&gameTurnsTable, 0)
	w.tags = newRowBuffer(&gameTagsTable, 0)
	ran, interrupted := false, false
	err = conn.Raw(func(dc any) error {
		ran = true
		c := newConn(dc.(driver.Conn))
		defer c.close()
		w.c = c
		var failed error
		interrupted, failed = feed(&Writer{w})
		return w.end(failed)
	})
	if stream != nil {
		if serr := stream.close(); err != nil || serr != nil || interrupted || !ran || w.streamBroken {
			cause := stream.abort()
			if err == nil && serr != nil && w.streamOnly {
				err = cause // nothing else has the turns and tags
			}
		} else {
			d.stream = stream
		}
	}
	return (&Writer{w}).Counts(), dbError(d.path, err)
}

// IsOutput says why path is not to be read by a run into this database ("" when it may
// be): it is the database or its -wal, -shm or -journal file, or in parquetDir a Parquet
// file or a temporary file of one. Files are compared by identity (os.SameFile), whatever
// path names them (./ponte.db, a link to it).
func (d *DB) IsOutput(path, parquetDir string) string {
	info, err := os.Stat(path)
	if err != nil {
		return ""
	}
	for _, o := range []struct{ suffix, why string }{
		{"", "the database being written, not read"},
		{"-wal", "the write-ahead log of the database being written, not read"},
		{"-shm", "the shared-memory index of the database being written, not read"},
		{"-journal", "the rollback journal of the database being written, not read"},
	} {
		if out, err := os.Stat(d.path + o.suffix); err == nil && os.SameFile(info, out) {
			return o.why
		}
	}
	if parquetDir == "" {
		return ""
	}
	base := filepath.Base(path)
	if !isParquetFile(base) && !tempName.MatchString(base) {
		return ""
	}
	pdir, err := os.Stat(parquetDir)
	if err != nil {
		return ""
	}
	if dir, err := os.Stat(filepath.Dir(path)); err == nil && os.SameFile(dir, pdir) {
		if tempName.MatchString(base) {
			return "a temporary file of the Parquet output, not read"
		}
		return "the Parquet output of the database being written, not read"
	}
	return ""
}

// sourceState is the writer's view of a file being stored.
type sourceState struct {
	id    int64
	c     SourceCounts
	err   string // the first part of the file that could not be read
	dirty bool   // counters changed since the last update of the row
}

// writer stores the items in order, in transactions.
type writer struct {
	c           *conn
	counts      Counts // but Rows (Writer.Counts)
	commitGames int
	prep        Preparer // for a game not prepared

	games, turns, tags *rowBuffer // turns: game_turns; tags: game_tags
	tagRows            int64      // tags stored (rows of the view tags)
	sources            map[*File]*sourceState

	inTx     bool
	txStart  time.Time
	txGames  int
	nextID   int64
	txIDs    map[string]int64 // game ids stored in the open transaction
	existing map[string]int64 // game ids of the batch already stored before it
	dups     map[int64]int64  // duplicates met in the open transaction, by game
	lookup   []driver.Value
	// seen, when not nil, holds every game id this run stored, in a database that held no
	// game at its start: a game it has not seen is new without a lookup.
	seen *idFilter

	stream *parquetStream // nil unless the Parquet files are written as the games are stored
	// saves are the savepoints before the records stored ahead of their compressed part's
	// check (parts.go of ingest), one per part, oldest first: a damaged part is rolled
	// back to its own. No commit while one is open.
	saves []savepoint
	// streamBroken: games were streamed that a rollback took back; the Parquet files are
	// exported from the database instead.
	streamBroken bool
	sentTo       int64        // the highest games.id handed to stream
	rolledBack   bool         // a part was rolled back: the batch's games are looked up again
	streamed     []streamGame // the new games of the batch, for stream
	// streamOnly: the turns and tags go to stream only, not to the database (a
	// Parquet-only ingest, whose database is only the games, to find the copies).
	streamOnly bool
}

// end ends a run: fed says how the feed ended. Records of a compressed part not yet
// checked go (the next run reads them again), what was stored is committed, and after an
// error the open transaction is rolled back.
func (w *writer) end(failed error) error {
	if failed == nil && w.inTx && len(w.saves) > 0 {
		// Stopped while records of a part not yet checked are stored: they go, and the
		// next run reads them again.
		failed = w.rollbackTo(0, nil)
	}
	if failed == nil && w.inTx {
		failed = w.commit()
	}
	if failed != nil && w.inTx {
		w.c.exec("ROLLBACK")
		w.inTx = false
	}
	return failed
}

// batch stores one batch of entries.
func (w *writer) batch(items []Entry) error {
	if !w.inTx {
		if err := w.begin(); err != nil {
			return err
		}
	}
	if err := w.lookupIDs(items, 0); err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		var err error
		switch it.Kind {
		case EntryGame:
			err = w.record(it)
		case EntryFileStart:
			err = w.startSource(it.File)
		case EntryFileEnd:
			err = w.endSource(it)
		case EntryError:
			if st := w.sources[it.File]; st != nil && st.err == "" {
				st.err = it.Err.Error()
			}
			if err = w.damaged(it); err == nil && w.rolledBack {
				// The games the rest of the batch was looked up against may be gone.
				w.rolledBack = false
				err = w.lookupIDs(items, i+1)
			}
		}
		if err != nil {
			return err
		}
		items[i] = Entry{} // let the rows go
	}
	if len(w.streamed) > 0 {
		w.sentTo = w.streamed[len(w.streamed)-1].id
		w.stream.in <- w.streamed
		w.streamed = make([]streamGame, 0, len(items))
	}
	if w.txGames >= w.commitGames || time.Since(w.txStart) >= commitEvery {
		if len(w.saves) > 0 {
			// Records not yet checked are stored: no commit, but what is buffered goes
			// to the database, so that memory stays bounded.
			w.txGames, w.txStart = 0, time.Now()
			return w.flush(true)
		}
		return w.commit()
	}
	return nil
}

// lookupIDs finds which games of the batch, from its entry from on, are already stored
// (before this transaction or earlier in it).
func (w *writer) lookupIDs(items []Entry, from int) error {
	clear(w.existing)
	vals := w.lookup[:0]
	for i := from; i < len(items); i++ {
		if it := &items[i]; it.Kind == EntryGame {
			_, inTx := w.txIDs[it.Game.GameID]
			if !inTx && (w.seen == nil || w.seen.has(it.Game.GameID)) {
				vals = append(vals, it.Game.GameID)
			}
		}
		if len(vals) == lookupBatch || i == len(items)-1 && len(vals) > 0 {
			if err := w.lookupSome(vals); err != nil {
				return err
			}
			vals = vals[:0]
		}
	}
	w.lookup = vals
	return nil
}

// lookupSome looks up at most lookupBatch game ids.
func (w *writer) lookupSome(vals []driver.Value) error {
	for len(vals) < lookupBatch {
		vals = append(vals, "") // no game has the id ""
	}
	return w.c.query(lookupSQL, vals, func(row []driver.Value) error {
		id, _ := row[0].(string)
		n, _ := row[1].(int64)
		w.existing[id] = n
		return nil
	})
}

var lookupSQL = func() string {
	s := "SELECT game_id, id FROM games WHERE game_id IN (?"
	for range lookupBatch - 1 {
		s += ",?"
	}
	return s + ")"
}()

// record stores one record, or counts it as a duplicate.
func (w *writer) record(it *Entry) error {
	if err := w.checkpoint(it); err != nil {
		return err
	}
	g := &it.Game
	st := w.sources[it.File]
	st.dirty = true
	st.c.Records++
	w.counts.Games++
	switch {
	case g.Legal:
		st.c.Legal++
		w.counts.Legal++
	case g.Unreadable:
		st.c.Unreadable++
		w.counts.Unreadable++
	default:
		st.c.Illegal++
		w.counts.Illegal++
	}
	w.txGames++
	id, dup := w.txIDs[g.GameID]
	if !dup {
		id, dup = w.existing[g.GameID]
	}
	if dup {
		if w.stream != nil {
			w.stream.dupMet = true // the game's row streamed is not final
		}
		w.dups[id]++
		st.c.Duplicates++
		w.counts.Duplicates++
		return nil
	}
	id = w.nextID
	w.nextID++
	w.txIDs[g.GameID] = id
	if w.seen != nil {
		w.seen.add(g.GameID)
	}
	st.c.New++
	w.counts.New++
	w.prep.Prepare(g)
	idv := driver.Value(id)
	g.row[gameColID] = idv
	g.row[gameColSourceID] = st.id
	w.tagRows += int64(len(g.Tags))
	if err := w.games.add(w.c, g.row); err != nil {
		return err
	}
	w.counts.TurnRows += int64(g.TurnRows)
	if w.stream != nil {
		w.streamed = append(w.streamed, streamGame{id: id, gameID: g.GameID, row: g.row, turns: g.PackedTurns, tags: g.Tags})
		if w.streamOnly {
			return nil
		}
	}
	if g.TurnRows > 0 { // a game's turns are one row of game_turns
		g.turnsRow[0] = idv
		if err := w.turns.add(w.c, g.turnsRow[:]); err != nil {
			return err
		}
	}
	if g.tagsText == "" {
		return nil
	}
	g.tagsRow[0] = idv
	return w.tags.add(w.c, g.tagsRow[:]) // a game's tags are one row of game_tags
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// startSource creates the sources row of a file, or takes up the row of an interrupted
// ingest of the same content.
func (w *writer) startSource(f *File) error {
	st := &sourceState{id: f.Resume.ID, c: f.Resume.SourceCounts}
	if f.Resume.ID == 0 {
		var hash driver.Value
		if f.Hash != "" {
			hash = f.Hash
		}
		res, err := w.c.exec(`INSERT INTO sources (path, size, sha256, started, status, records, new, duplicates, legal, illegal, unreadable)
			VALUES (?, ?, ?, ?, 'partial', 0, 0, 0, 0, 0, 0)`, f.Path, f.Size, hash, now())
		if err != nil {
			return err
		}
		if st.id, err = res.LastInsertId(); err != nil {
			return err
		}
	}
	w.sources[f] = st
	return nil
}

// endSource marks a file complete, or failed when a part of it could not be read.
func (w *writer) endSource(it *Entry) error {
	st := w.sources[it.File]
	delete(w.sources, it.File)
	if err := w.releaseSaves(); err != nil { // the parts of the file passed, or were rolled back
		return err
	}
	status, errText := "complete", driver.Value(nil)
	if st.err != "" {
		status, errText = "failed", st.err
	}
	var hash driver.Value
	size := it.File.Size
	if it.File.Stream {
		hash, size = it.Hash, it.Size
	}
	_, err := w.c.exec(`UPDATE sources SET status = ?, finished = ?, error = ?, sha256 = coalesce(?, sha256), size = ?,
		records = ?, new = ?, duplicates = ?, legal = ?, illegal = ?, unreadable = ? WHERE id = ?`,
		status, now(), errText, hash, size,
		st.c.Records, st.c.New, st.c.Duplicates, st.c.Legal, st.c.Illegal, st.c.Unreadable, st.id)
	return err
}

func (w *writer) begin() error {
	if _, err := w.c.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	w.inTx = true
	w.txStart = time.Now()
	w.txGames = 0
	return w.c.query("SELECT coalesce(max(id), 0) + 1 FROM games", nil, func(row []driver.Value) error {
		w.nextID, _ = row[0].(int64)
		return nil
	})
}

// commit stores what is buffered, the duplicate counts and the sources' progress, and
// commits: the transaction holds whole games and the progress that goes with them.
func (w *writer) commit() error {
	if err := w.flush(true); err != nil {
		return err
	}
	if err := w.checkIDs(); err != nil {
		return err
	}
	for _, st := range w.sources {
		if !st.dirty {
			continue
		}
		if _, err := w.c.exec(`UPDATE sources SET records = ?, new = ?, duplicates = ?, legal = ?, illegal = ?, unreadable = ? WHERE id = ?`,
			st.c.Records, st.c.New, st.c.Duplicates, st.c.Legal, st.c.Illegal, st.c.Unreadable, st.id); err != nil {
			return err
		}
		st.dirty = false
	}
	if _, err := w.c.exec("COMMIT"); err != nil {
		return err
	}
	w.inTx = false
	return nil
}

// checkIDs checks that the games stored are numbered as the writer numbered them (and
// their turns, tags and copies): SQLite gives a game the largest games.id + 1, which the
// writer counts from the largest at the start of the transaction (begin).
func (w *writer) checkIDs() error {
	return w.c.query("SELECT coalesce(max(id), 0) FROM games", nil, func(row []driver.Value) error {
		if last, _ := row[0].(int64); last != w.nextID-1 {
			return fmt.Errorf("the games stored end at id %d where the writer counted %d: a bug in ponte: the games since the last commit were not stored (run the ingest again to store them, and please report it)", last, w.nextID-1)
		}
		return nil
	})
}

// flush stores the rows buffered and the duplicate counts, in the open transaction; with
// forget, between batches, it forgets the ids of the games stored, which the next batch's
// lookup finds in the database.
func (w *writer) flush(forget bool) error {
	for _, b := range []*rowBuffer{w.games, w.turns, w.tags} {
		if err := b.flush(w.c); err != nil {
			return err
		}
	}
	for id, n := range w.dups {
		if _, err := w.c.exec("UPDATE games SET duplicates = duplicates + ? WHERE id = ?", n, id); err != nil {
			return err
		}
	}
	if forget {
		clear(w.txIDs)
	}
	clear(w.dups)
	return nil
}
