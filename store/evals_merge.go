package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// A turn_evals.parquet from elsewhere (another shard's, another machine's) is merged only
// whole and checked: ReadWholeEvalsParquet checks its columns against turn_evals' and
// reads it to its end, MergeEvals checks every row against this database (CheckEval, a
// legal game of it, the turn played there, whole games) before one transaction stores
// them. A file refused changes nothing.

// ErrNotParquet is a file that is not a Parquet file, or not one that can be read to its
// end (a damaged one).
var ErrNotParquet = errors.New("not a readable Parquet file")

// The reasons of an EvalsColumnError.
var (
	ErrNotEvalsColumn     = errors.New("not a column of turn_evals")
	ErrEvalsColumnType    = errors.New("not the type of turn_evals' column")
	ErrEvalsColumnMissing = errors.New("missing: turn_evals.parquet always has it")
)

// EvalsColumnError is a column of a Parquet file that turn_evals.parquet's layout does not
// have as it is.
type EvalsColumnError struct {
	File   string
	Column string
	Detail string // the types, for ErrEvalsColumnType
	Err    error  // ErrNotEvalsColumn, ErrEvalsColumnType or ErrEvalsColumnMissing
}

func (e *EvalsColumnError) Error() string {
	s := fmt.Sprintf("%s: column %s: %v", e.File, e.Column, e.Err)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func (e *EvalsColumnError) Unwrap() error { return e.Err }

// optionalEvalColumns are the columns of turn_evals.parquet a file may lack: the game's
// number here (0 when absent), the visit counts (not kept by older files), the player
// (read only), and the best turn and mark (null when absent).
var optionalEvalColumns = map[string]bool{"game": true, "best_n": true, "played_n": true, "player": true, "best": true, "mark": true}

// checkEvalsSchema checks the columns of the file pf against turn_evals.parquet's.
func checkEvalsSchema(path string, pf *parquet.File) error {
	want := parquet.SchemaOf(TurnEval{})
	got := pf.Schema()
	have := map[string]bool{}
	for _, p := range got.Columns() {
		name := strings.Join(p, ".")
		have[name] = true
		leaf, _ := got.Lookup(p...)
		w, ok := want.Lookup(p...)
		if !ok {
			return &EvalsColumnError{File: path, Column: name, Err: ErrNotEvalsColumn}
		}
		if leaf.MaxRepetitionLevel != 0 || leaf.Node.Type().Kind() != w.Node.Type().Kind() {
			return &EvalsColumnError{File: path, Column: name, Err: ErrEvalsColumnType,
				Detail: fmt.Sprintf("%s, want %s", leaf.Node.Type(), w.Node.Type())}
		}
	}
	for _, p := range want.Columns() {
		if name := strings.Join(p, "."); !have[name] && !optionalEvalColumns[name] {
			return &EvalsColumnError{File: path, Column: name, Err: ErrEvalsColumnMissing}
		}
	}
	return nil
}

// ReadWholeEvalsParquet reads every row of the turn_evals.parquet file at path, after
// checking that its columns are turn_evals.parquet's (an *EvalsColumnError otherwise),
// and calls fn with each, numbered from 1. A file that cannot be read to its end is
// ErrNotParquet, with the row reached: fn may have been called with the rows before.
func ReadWholeEvalsParquet(path string, fn func(row int64, r *TurnEval) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.IsDir() {
		return fmt.Errorf("%s: a folder: %w", path, ErrNotParquet)
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return fmt.Errorf("%s: %w (%v)", path, ErrNotParquet, err)
	}
	if err := checkEvalsSchema(path, pf); err != nil {
		return err
	}
	rd := parquet.NewGenericReader[TurnEval](pf)
	defer rd.Close()
	buf := make([]TurnEval, 1024)
	var row int64
	for {
		n, err := readEvals(rd, buf)
		for i := range n {
			row++
			if ferr := fn(row, &buf[i]); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: after row %d: %w (%v)", path, row, ErrNotParquet, err)
		}
	}
	if row != pf.NumRows() {
		return fmt.Errorf("%s: %d rows read of the %d it says it has: %w", path, row, pf.NumRows(), ErrNotParquet)
	}
	return nil
}

// readEvals is rd.Read, with a panic of the decoder on a damaged page as an error.
func readEvals(rd *parquet.GenericReader[TurnEval], buf []TurnEval) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, fmt.Errorf("damaged: %v", p)
		}
	}()
	clear(buf)
	return rd.Read(buf)
}

// mergeGame is what MergeEvals knows of a game of the database a file has rows of.
type mergeGame struct {
	id    int64
	turns int
	moves []string
}

// mergeKey is a game read by an engine.
type mergeKey struct{ gameID, bot string }

// MergeEvals checks the turn_evals.parquet file at path and stores its rows in one
// transaction, leaving out those already stored; it returns how many it stored. Every
// row must pass CheckEval and be a turn of a legal game of this database with the token
// stored there, at most once, and every game an engine read must have all its turns: the
// first row refused is an *EvalError naming file, row, game, turn and column, and nothing
// is stored. The file is read twice (checked, then stored), one row at a time.
func (d *DB) MergeEvals(ctx context.Context, path string) (int64, error) {
	games := map[string]*mergeGame{}
	seen := map[mergeKey][]bool{}
	refuse := func(row int64, r *TurnEval, column, value string, why error) error {
		return &EvalError{File: path, Row: row, GameID: r.GameID, Bot: r.Bot, Turn: int64(r.Turn), Column: column, Value: value, Err: why}
	}
	var rows int64
	err := ReadWholeEvalsParquet(path, func(row int64, r *TurnEval) error {
		rows = row
		if err := ctx.Err(); err != nil {
			return err
		}
		if col, val, why := checkEval(r); why != nil {
			return refuse(row, r, col, val, why)
		}
		g, ok := games[r.GameID]
		if !ok {
			g = &mergeGame{}
			var moves string
			err := d.db.QueryRowContext(ctx, `SELECT id, turns, moves FROM games WHERE game_id = ? AND legal`, r.GameID).Scan(&g.id, &g.turns, &moves)
			if err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return refuse(row, r, "game_id", "", badEval("not a legal game of %s", d.path))
				}
				return fmt.Errorf("%s: %w", d.path, err)
			}
			g.moves = strings.Fields(moves)
			if len(g.moves) < g.turns {
				return refuse(row, r, "game_id", "", badEval("the game's stored moves are fewer than its turns"))
			}
			g.moves = g.moves[:g.turns]
			games[r.GameID] = g
		}
		if int(r.Turn) > g.turns {
			return refuse(row, r, "turn", fmt.Sprint(r.Turn), badEval("the game has %d turns", g.turns))
		}
		if stored := g.moves[r.Turn-1]; r.Played != stored {
			return refuse(row, r, "played", fmt.Sprintf("%q", r.Played), badEval("the game's turn %d is %q", r.Turn, stored))
		}
		k := mergeKey{r.GameID, r.Bot}
		turns := seen[k]
		if turns == nil {
			turns = make([]bool, g.turns)
			seen[k] = turns
		}
		if turns[r.Turn-1] {
			return refuse(row, r, "turn", fmt.Sprint(r.Turn), badEval("a second row of the same game, engine and turn"))
		}
		turns[r.Turn-1] = true
		return nil
	})
	if err != nil {
		return 0, err
	}
	for k, turns := range seen {
		for i, ok := range turns {
			if !ok {
				return 0, &EvalError{File: path, GameID: k.gameID, Game: games[k.gameID].id, Bot: k.bot, Turn: int64(i + 1), Column: "turn", Value: fmt.Sprint(i + 1),
					Err: badEval("missing: the file has %d of the game's %d turns; a game is merged whole", countTrue(turns), len(turns))}
			}
		}
	}
	// Checked: stored in one transaction, read again (and checked again: the file may
	// have changed meanwhile).
	return d.storeEvals(ctx, func(put func(*TurnEval) error) error {
		var again int64
		err := ReadWholeEvalsParquet(path, func(row int64, r *TurnEval) error {
			again = row
			if col, val, why := checkEval(r); why != nil {
				return refuse(row, r, col, val, why)
			}
			if turns := seen[mergeKey{r.GameID, r.Bot}]; turns == nil || int(r.Turn) > len(turns) || r.Played != games[r.GameID].moves[r.Turn-1] {
				return refuse(row, r, "", "", badEval("the file changed while it was merged"))
			}
			return put(r)
		})
		if err == nil && again != rows {
			err = fmt.Errorf("%s: %d rows, %d when checked: the file changed while it was merged", path, again, rows)
		}
		return err
	})
}

func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}
