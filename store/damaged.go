package store

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/ponte/ponte/ingest"
)

// A savepoint stands before the first record of a compressed part that was stored before
// the part's check ended (ingest.Record.Unchecked: the part holds more records than
// ingest.Limits.MaxUnchecked), with what the writer counted there, so that the part can be
// rolled back if it turns out damaged (an *ingest.DamagedError): its games, the copies
// it counted and its progress go, and a later copy of one of its games is new again.
type savepoint struct {
	name   string
	file   *File
	source string // ingest.Record.Source of the part's records
	part   int
	first  int // ingest.Record.Index of the part's first record stored

	counts                       Counts       // its counters
	c                            SourceCounts // the source's
	nextID                       int64
	tagRows                      int64
	gameRows, turnRowsIn, tagsIn int64 // the rows the buffers inserted
}

// checkpoint puts a savepoint before a record of a part not yet checked that starts a
// part, and releases the savepoints once a record checked comes: every part before it
// passed its check.
func (w *writer) checkpoint(it *Entry) error {
	if !it.Unchecked {
		return w.releaseSaves()
	}
	if n := len(w.saves); n > 0 {
		if s := &w.saves[n-1]; s.file == it.File && s.source == it.Game.Source && s.part == it.Part {
			return nil
		}
	}
	// What is buffered goes to the database first, so that the savepoint holds it, and
	// the counters below are those of the database at the savepoint.
	if err := w.flush(false); err != nil {
		return err
	}
	s := savepoint{name: "part" + strconv.Itoa(len(w.saves)), file: it.File, source: it.Game.Source, part: it.Part, first: it.Game.FileIndex,
		counts: w.counts, nextID: w.nextID, tagRows: w.tagRows,
		gameRows: w.games.rows, turnRowsIn: w.turns.rows, tagsIn: w.tags.rows}
	if st := w.sources[it.File]; st != nil {
		s.c = st.c
	}
	if _, err := w.c.exec("SAVEPOINT " + s.name); err != nil {
		return err
	}
	w.saves = append(w.saves, s)
	return nil
}

// releaseSaves releases every savepoint: what they guard passed its check.
func (w *writer) releaseSaves() error {
	if len(w.saves) == 0 {
		return nil
	}
	if _, err := w.c.exec("RELEASE " + w.saves[0].name); err != nil {
		return err
	}
	w.saves = w.saves[:0]
	return nil
}

// damaged rolls back the records of a damaged part that were stored before its check:
// those of the same file and source from the part's first record on, if any.
func (w *writer) damaged(it *Entry) error {
	var de *ingest.DamagedError
	var pe *ingest.PathError
	if it.File == nil || !errors.As(it.Err, &de) || !errors.As(it.Err, &pe) {
		return nil
	}
	for i, s := range w.saves {
		if s.file == it.File && s.source == pe.Path && s.first >= de.FirstRecord {
			return w.rollbackTo(i, it.File)
		}
	}
	return nil
}

// rollbackTo goes back to savepoint i, dropping it and those after it, and restores the
// counters it holds. file is the file whose part is rolled back (nil: an interrupted run).
func (w *writer) rollbackTo(i int, file *File) error {
	s := w.saves[i]
	if _, err := w.c.exec("ROLLBACK TO " + s.name); err != nil {
		return err
	}
	if _, err := w.c.exec("RELEASE " + s.name); err != nil {
		return err
	}
	w.saves = w.saves[:i]
	for _, b := range []*rowBuffer{w.games, w.turns, w.tags} {
		b.reset()
	}
	clear(w.txIDs)
	clear(w.dups)
	w.counts = s.counts
	if st := w.sources[s.file]; st != nil {
		st.c, st.dirty = s.c, true
	}
	w.tagRows = s.tagRows
	w.games.rows, w.turns.rows, w.tags.rows = s.gameRows, s.turnRowsIn, s.tagsIn
	if w.stream != nil {
		keep := w.streamed[:0]
		for _, g := range w.streamed {
			if g.id < s.nextID {
				keep = append(keep, g)
			}
		}
		w.streamed = keep
		if w.sentTo >= s.nextID { // handed over already
			if w.streamOnly {
				return fmt.Errorf("%s: games of a damaged part were already written to the Parquet files: ingest it into a database instead", s.source)
			}
			w.streamBroken = true
		}
	}
	w.nextID = s.nextID
	w.rolledBack = true
	return nil
}
