package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ponte/ponte/ingest"
)

// Verdicts narrows Records to the games of one verdict.
type Verdicts uint8

// The verdicts Records reads.
const (
	AnyVerdict  Verdicts = iota // every game
	LegalOnly                   // the legal games
	IllegalOnly                 // the games read but not legal (not the unreadable records)
)

// Records reads back the stored games that f and v select, in the order stored, and calls fn with
// each as a record: its tags in their order and its moves as read, Source, Format, Index
// and Line those of the file it was first read from. Comments and think times are not
// stored, so they are not in the records. A record that could not be read has no game to
// give back: fn gets it with its Raw text and a nil Moves, and unreadable set, so that the
// caller can say so. fn's error stops the reading and is returned.
func (r *Reader) Records(ctx context.Context, f Filter, v Verdicts, fn func(rec *ingest.Record, unreadable bool) error) error {
	db := r.db
	where, args := f.where()
	switch v {
	case LegalOnly:
		where += " AND g.legal"
	case IllegalOnly:
		where += " AND NOT g.legal AND NOT g.unreadable"
	}
	rows, err := db.QueryContext(ctx, `SELECT id, source, format, file_index, line, unreadable, moves, coalesce(raw, ''), coalesce(move_numbers, '')
		FROM games g WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("stored games: %w", err)
	}
	defer rows.Close()
	conn, err := db.Conn(ctx) // a second connection for the tags, while rows is open
	if err != nil {
		return err
	}
	defer conn.Close()
	tagsOf, err := conn.PrepareContext(ctx, `SELECT name, value FROM tags WHERE game = ? ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("stored tags: %w", err)
	}
	defer tagsOf.Close()
	for rows.Next() {
		var id int64
		var format, moves, raw, numbers string
		var unreadable bool
		rec := &ingest.Record{}
		if err := rows.Scan(&id, &rec.Source, &format, &rec.Index, &rec.Line, &unreadable, &moves, &raw, &numbers); err != nil {
			return fmt.Errorf("stored games: %w", err)
		}
		rec.Format, _ = ingest.ParseFormat(format)
		if unreadable {
			rec.Raw = []byte(raw)
			if err := fn(rec, true); err != nil {
				return err
			}
			continue
		}
		trows, err := tagsOf.QueryContext(ctx, id)
		if err != nil {
			return fmt.Errorf("stored tags: %w", err)
		}
		for trows.Next() {
			var name, value string
			if err := trows.Scan(&name, &value); err != nil {
				trows.Close()
				return fmt.Errorf("stored tags: %w", err)
			}
			if err := rec.SetTag(name, value); err != nil {
				// a value the record had when read, kept as it was
				rec.Tags = append(rec.Tags, ingest.Tag{Name: name, Value: value})
			}
		}
		trows.Close()
		if err := trows.Err(); err != nil {
			return fmt.Errorf("stored tags: %w", err)
		}
		for tok := range strings.FieldsSeq(moves) {
			rec.Moves = append(rec.Moves, ingest.Token{Text: tok})
		}
		if err := setNumbers(rec, numbers); err != nil {
			return fmt.Errorf("stored game %d: games.move_numbers: %w", id, err)
		}
		if err := fn(rec, false); err != nil {
			return err
		}
	}
	return rows.Err()
}

// setNumbers gives the moves of rec the turn numbers of games.move_numbers, numbers.
func setNumbers(rec *ingest.Record, numbers string) error {
	for pair := range strings.FieldsSeq(numbers) {
		t, n, ok := strings.Cut(pair, ":")
		turn, err1 := strconv.Atoi(t)
		number, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || turn < 1 || number < 1 {
			return fmt.Errorf("%q is not turn:number", pair)
		}
		if turn <= len(rec.Moves) { // a turn past the moves kept (a cut text) has no move
			rec.Moves[turn-1].Number = number
		}
	}
	return nil
}
