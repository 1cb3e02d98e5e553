package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ponte/ponte/game"
)

// The engine's reading of the games (ponte annotate, package annotate) is kept in a table
// of its own, turn_evals, keyed by the game's stable id, the bot that read it and the
// turn, so that the rows of another database or shard can be merged into this one
// without doubling anything. It is made by the first annotation; a database without it
// has no annotations.

// evalsTableSQL makes the table turn_evals (docs/schema.md).
const evalsTableSQL = `CREATE TABLE IF NOT EXISTS turn_evals (
	game_id TEXT NOT NULL,
	bot TEXT NOT NULL,
	turn INTEGER NOT NULL,
	playouts INTEGER NOT NULL,
	colour TEXT NOT NULL,
	played TEXT NOT NULL,
	best TEXT,
	raw_before REAL NOT NULL,
	raw_after REAL NOT NULL,
	over_after INTEGER NOT NULL,
	best_q REAL NOT NULL,
	played_q REAL NOT NULL,
	best_n INTEGER NOT NULL DEFAULT 0,
	played_n INTEGER NOT NULL DEFAULT 0,
	light_before REAL NOT NULL,
	light_after REAL NOT NULL,
	loss REAL NOT NULL,
	mark TEXT,
	PRIMARY KEY (game_id, bot, turn)
) WITHOUT ROWID`

// TurnEval is one row of turn_evals: the engine's reading of one turn of a game.
type TurnEval struct {
	Game      int64   `parquet:"game,delta"` // games.id in the database it is read from; 0 when written
	GameID    string  `parquet:"game_id,dict"`
	Turn      int32   `parquet:"turn,delta"`
	Bot       string  `parquet:"bot,dict"`
	Playouts  int32   `parquet:"playouts"`
	Colour    string  `parquet:"colour,dict"` // the mover's colour before the turn
	Played    string  `parquet:"played"`
	Best      *string `parquet:"best,optional"`
	RawBefore float64 `parquet:"raw_before"`
	RawAfter  float64 `parquet:"raw_after"`
	OverAfter bool    `parquet:"over_after"` // the game is over after the turn: raw_after is its result
	BestQ     float64 `parquet:"best_q"`     // the mover's value of the best turn in the search before the turn
	PlayedQ   float64 `parquet:"played_q"`   // the mover's value of the turn played in that search
	BestN     int32   `parquet:"best_n"`     // the playouts through the best turn in that search; 0 unknown
	PlayedN   int32   `parquet:"played_n"`   // the playouts through the turn played; 0 unknown
	Before    float64 `parquet:"light_before"`
	After     float64 `parquet:"light_after"`
	Loss      float64 `parquet:"loss"`
	Mark      *string `parquet:"mark,optional,dict"`
	Player    string  `parquet:"player,dict"` // the mover's name, from the games table (read only)
}

// EvalGame is a legal stored game to annotate.
type EvalGame struct {
	ID     int64
	GameID string
	Size   int
	Supply string
	Moves  string // the record's move tokens, separated by spaces
	Turns  int    // the legal turns
}

// GamesToAnnotate returns the legal games that f selects and that bot has
// not read yet, in the order stored.
func (d *DB) GamesToAnnotate(ctx context.Context, f Filter, bot string) ([]EvalGame, error) {
	cond, args := f.where()
	if err := d.ensureEvals(ctx); err != nil {
		return nil, err
	}
	q := `SELECT g.id, g.game_id, g.size, g.supply, g.moves, g.turns FROM games g
		WHERE g.legal AND g.turns > 0 AND (` + cond + `)
		AND NOT EXISTS (SELECT 1 FROM turn_evals e WHERE e.game_id = g.game_id AND e.bot = ?)
		ORDER BY g.id`
	rows, err := d.db.QueryContext(ctx, q, append(append([]any{}, args...), bot)...)
	if err != nil {
		return nil, fmt.Errorf("%s: games to annotate: %w", d.path, err)
	}
	defer rows.Close()
	var out []EvalGame
	for rows.Next() {
		var g EvalGame
		if err := rows.Scan(&g.ID, &g.GameID, &g.Size, &g.Supply, &g.Moves, &g.Turns); err != nil {
			return nil, fmt.Errorf("%s: games to annotate: %w", d.path, err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: games to annotate: %w", d.path, err)
	}
	return out, nil
}

// ensureEvals makes turn_evals, or adds to a table made before them the columns best_n
// and played_n, 0 in its rows (the visit counts were not kept then).
func (d *DB) ensureEvals(ctx context.Context) error {
	if _, err := d.db.ExecContext(ctx, evalsTableSQL); err != nil {
		return fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
	}
	ok, err := evalsHasCounts(ctx, d.db)
	if err != nil {
		return fmt.Errorf("%s: turn_evals: %w", d.path, err)
	}
	if ok {
		return nil
	}
	for _, col := range []string{"best_n", "played_n"} {
		if _, err := d.db.ExecContext(ctx, "ALTER TABLE turn_evals ADD COLUMN "+col+" INTEGER NOT NULL DEFAULT 0"); err != nil {
			return fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
		}
	}
	return nil
}

// evalsHasCounts reports whether turn_evals has the columns best_n and played_n, which a
// table made before they were kept lacks until it is written again (ensureEvals).
func evalsHasCounts(ctx context.Context, db *sql.DB) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('turn_evals') WHERE name IN ('best_n', 'played_n')`).Scan(&n)
	return n == 2, err
}

// withCounts is what the queries of turn_evals read as best_n and played_n in a table that
// has them, which ensureEvals makes sure of; a table made before them gives "0, 0"
// (countsSQL).
const withCounts = "e.best_n, e.played_n"

// countsSQL is what the queries of turn_evals read as best_n and played_n: the columns, or
// 0 in a table made before them.
func countsSQL(ctx context.Context, db *sql.DB) (string, error) {
	ok, err := evalsHasCounts(ctx, db)
	if err != nil || !ok {
		return "0, 0", err
	}
	return withCounts, nil
}

// evalsCounts is countsSQL for the Reader's database, "" while it has no turn_evals. It
// is asked once the table is there (only ponte annotate, in another process, may make it
// while the Reader is open); a table that gains the columns meanwhile reads its counts as 0
// until the database is opened again.
func (r *Reader) evalsCounts(ctx context.Context) (string, error) {
	r.evalsMu.Lock()
	defer r.evalsMu.Unlock()
	if r.evals != "" {
		return r.evals, nil
	}
	var n int
	if err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'turn_evals'`).Scan(&n); err != nil || n == 0 {
		return "", err
	}
	counts, err := countsSQL(ctx, r.db)
	if err != nil {
		return "", fmt.Errorf("turn_evals: %w", err)
	}
	r.evals = counts
	return counts, nil
}

// SaveEvals stores rows in one transaction, leaving out those already stored (the same
// game, bot and turn) and those of games the database does not hold; it returns how
// many it stored. A row CheckEval refuses (an *EvalError) stores none of them.
func (d *DB) SaveEvals(ctx context.Context, rows []TurnEval) (int64, error) {
	for i := range rows {
		if err := CheckEval(&rows[i]); err != nil {
			return 0, fmt.Errorf("%s: %w", d.path, err)
		}
	}
	return d.storeEvals(ctx, func(put func(*TurnEval) error) error {
		for i := range rows {
			if err := put(&rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// storeEvals stores in one transaction the rows that each hands to put, leaving out those
// already stored and those of games that are not legal stored games (insertEvalSQL), and
// returns how many it stored; an error from each stores none.
func (d *DB) storeEvals(ctx context.Context, each func(put func(*TurnEval) error) error) (int64, error) {
	if err := d.ensureEvals(ctx); err != nil {
		return 0, err
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, insertEvalSQL)
	if err != nil {
		return 0, fmt.Errorf("%s: turn_evals: %w", d.path, err)
	}
	defer st.Close()
	var stored int64
	err = each(func(r *TurnEval) error {
		n, err := insertEval(ctx, st, r)
		if err != nil {
			return fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
		}
		stored += n
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
	}
	return stored, nil
}

// insertEvalSQL stores a row of turn_evals of a legal stored game, unless it is stored.
const insertEvalSQL = `INSERT OR IGNORE INTO turn_evals
	(game_id, bot, turn, playouts, colour, played, best, raw_before, raw_after, over_after, best_q, played_q, best_n, played_n, light_before, light_after, loss, mark)
	SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE game_id = ? AND legal)`

// insertEval stores r by st (insertEvalSQL) and returns the rows stored: 1, or 0.
func insertEval(ctx context.Context, st *sql.Stmt, r *TurnEval) (int64, error) {
	res, err := st.ExecContext(ctx, r.GameID, r.Bot, r.Turn, r.Playouts, r.Colour, r.Played, r.Best,
		r.RawBefore, r.RawAfter, r.OverAfter, r.BestQ, r.PlayedQ, r.BestN, r.PlayedN, r.Before, r.After, r.Loss, r.Mark, r.GameID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// evalsSelect reads turn_evals joined with the games, with the mover's name: the opener at
// turn 1, the responder at turn 2 (the Light player after a swap), then the player of the
// colour, which no longer changes. counts is countsSQL's.
func evalsSelect(counts string) string {
	return `SELECT g.id, e.game_id, e.turn, e.bot, e.playouts, e.colour, e.played, e.best,
	e.raw_before, e.raw_after, e.over_after, e.best_q, e.played_q, ` + counts + `, e.light_before, e.light_after, e.loss, e.mark,
	coalesce(CASE WHEN e.turn = 1 THEN g.opener WHEN e.turn = 2 AND g.swapped THEN g.light
		WHEN e.colour = 'light' THEN g.light ELSE g.dark END, '')
	FROM turn_evals e JOIN games g ON g.game_id = e.game_id`
}

func scanEvals(rows *sql.Rows, fn func(TurnEval) error) error {
	defer rows.Close()
	for rows.Next() {
		var r TurnEval
		var best, mark sql.NullString
		if err := rows.Scan(&r.Game, &r.GameID, &r.Turn, &r.Bot, &r.Playouts, &r.Colour, &r.Played, &best,
			&r.RawBefore, &r.RawAfter, &r.OverAfter, &r.BestQ, &r.PlayedQ, &r.BestN, &r.PlayedN, &r.Before, &r.After, &r.Loss, &mark, &r.Player); err != nil {
			return err
		}
		if best.Valid {
			r.Best = &best.String
		}
		if mark.Valid {
			r.Mark = &mark.String
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// HasEvals reports whether the database holds a turn_evals table with rows.
func (r *Reader) HasEvals(ctx context.Context) (bool, error) { return hasEvals(ctx, r.db) }

func hasEvals(ctx context.Context, db *sql.DB) (bool, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'turn_evals'`).Scan(&n); err != nil || n == 0 {
		return false, err
	}
	err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM turn_evals)`).Scan(&n)
	return n == 1, err
}

// EvalsOf returns the rows of the game numbered game, by bot then turn; none when the
// database has no annotations. Rows CheckEval would refuse are left out (BadEvals names
// them), as by every reader of turn_evals.
func (r *Reader) EvalsOf(ctx context.Context, game int64) ([]TurnEval, error) {
	counts, err := r.evalsCounts(ctx)
	if counts == "" || err != nil {
		return nil, err
	}
	return evalsOf(ctx, r.db, counts, game)
}

// evalsOf is EvalsOf on db, whose turn_evals reads its counts as counts (countsSQL).
func evalsOf(ctx context.Context, db *sql.DB, counts string, game int64) ([]TurnEval, error) {
	rows, err := db.QueryContext(ctx, evalsSelect(counts)+` WHERE g.id = ? AND `+goodEvalSQLFor(counts)+` ORDER BY e.bot, e.turn`, game)
	if err != nil {
		return nil, fmt.Errorf("turn_evals: %w", err)
	}
	var out []TurnEval
	err = scanEvals(rows, func(r TurnEval) error { out = append(out, r); return nil })
	if err != nil {
		return nil, fmt.Errorf("turn_evals: %w", err)
	}
	return out, nil
}

// EachEval calls fn with every row of the games f selects, in the order of the games and
// turns; nothing when the database has no annotations.
func (r *Reader) EachEval(ctx context.Context, f Filter, fn func(TurnEval) error) error {
	counts, err := r.evalsCounts(ctx)
	if counts == "" || err != nil {
		return err
	}
	cond, args := f.where()
	return eachEval(ctx, r.db, counts, cond, args, fn)
}

// eachEval is EachEval on db, whose turn_evals reads its counts as counts (countsSQL).
func eachEval(ctx context.Context, db *sql.DB, counts, cond string, args []any, fn func(TurnEval) error) error {
	rows, err := db.QueryContext(ctx, evalsSelect(counts)+` WHERE (`+cond+`) AND `+goodEvalSQLFor(counts)+` ORDER BY g.id, e.bot, e.turn`, args...)
	if err != nil {
		return fmt.Errorf("turn_evals: %w", err)
	}
	if err := scanEvals(rows, fn); err != nil {
		return fmt.Errorf("turn_evals: %w", err)
	}
	return nil
}

// CountEvals returns the rows of turn_evals.
func (d *DB) CountEvals(ctx context.Context) (int64, error) {
	if err := d.ensureEvals(ctx); err != nil {
		return 0, err
	}
	var n int64
	err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM turn_evals`).Scan(&n)
	return n, err
}

// CalPoint is one annotated position of a decided game: the search's value for the player
// who plays Light there and whether that player won (1, ½ a draw, 0).
type CalPoint struct {
	GameID string
	Turn   int32 // the position before this turn
	Size   int   // the board's side
	Raw    float64
	Won    float64
}

// CalibrationPoints returns the positions bot read in the decided legal games (those with
// a final result, game.Final: over, or ended by resignation, on time or by an agreed draw
// with a claimed result) that f selects, before every turn, in the order of the games and
// turns.
func (r *Reader) CalibrationPoints(ctx context.Context, bot string, f Filter) ([]CalPoint, error) {
	db := r.db
	cond, args := f.where()
	counts, err := r.evalsCounts(ctx)
	if counts == "" || err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT e.game_id, e.turn, g.size, e.raw_before,
		CASE WHEN e.turn <= 2 AND g.swapped THEN 1 ELSE 0 END,
		g.over, coalesce(g.result, ''), coalesce(g.termination, ''), g.claimed_result
		FROM turn_evals e JOIN games g ON g.game_id = e.game_id
		WHERE e.bot = ? AND g.legal AND (g.over OR g.claimed_result <> '*')
		AND (`+cond+`) AND `+goodEvalSQLFor(counts)+` ORDER BY g.id, e.turn`, append([]any{bot}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("turn_evals: %w", err)
	}
	defer rows.Close()
	var out []CalPoint
	for rows.Next() {
		var p CalPoint
		var opener, over bool
		var result, termination, claimed string
		if err := rows.Scan(&p.GameID, &p.Turn, &p.Size, &p.Raw, &opener, &over, &result, &termination, &claimed); err != nil {
			return nil, fmt.Errorf("turn_evals: %w", err)
		}
		computed, _ := game.ParseResult(result)
		t, _ := game.ParseTermination(termination)
		c, _ := game.ParseResult(claimed)
		// The final result is by the colours at the end; before a swap the opener plays
		// Light and ends as Dark.
		switch game.Final(over, computed, t, c) {
		case game.NoResult:
			continue // not decided
		case game.Draw:
			p.Won = 0.5
		case game.LightWins:
			if !opener {
				p.Won = 1
			}
		case game.DarkWins:
			if opener {
				p.Won = 1
			}
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Swing is a game's largest change of Light's chance in one turn (the last turn of a
// finished game left out: there the chance becomes the result).
type Swing struct {
	Game        int64
	Light, Dark string
	Turn        int
	Swing       float64 // |light_after − light_before| of that turn
	Bot         string
}

// LargestSwings returns the limit annotated games of the selection f whose chances swung most in one turn, the
// largest first, as read by one engine: the one that read most of the selected games (the first by
// name among equals), so that a game read by several engines is listed once; none when the
// database has no annotations.
func (r *Reader) LargestSwings(ctx context.Context, f Filter, limit int) ([]Swing, error) {
	db := r.db
	cond, args := f.where()
	counts, err := r.evalsCounts(ctx)
	if counts == "" || err != nil {
		return nil, err
	}
	good := goodEvalSQLFor(counts)
	rows, err := db.QueryContext(ctx, `WITH engine AS (SELECT e.bot FROM turn_evals e JOIN games g ON g.game_id = e.game_id
		WHERE (`+cond+`) AND `+good+` GROUP BY e.bot ORDER BY count(DISTINCT e.game_id) DESC, e.bot LIMIT 1)
		SELECT g.id, coalesce(g.light, ''), coalesce(g.dark, ''), e.turn,
		max(abs(e.light_after - e.light_before)), e.bot
		FROM turn_evals e JOIN games g ON g.game_id = e.game_id WHERE NOT e.over_after AND (`+cond+`) AND `+good+`
		AND e.bot = (SELECT bot FROM engine)
		GROUP BY g.id, e.bot ORDER BY 5 DESC, g.id LIMIT ?`, append(append(append([]any{}, args...), args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("turn_evals: %w", err)
	}
	defer rows.Close()
	var out []Swing
	for rows.Next() {
		var s Swing
		if err := rows.Scan(&s.Game, &s.Light, &s.Dark, &s.Turn, &s.Swing, &s.Bot); err != nil {
			return nil, fmt.Errorf("turn_evals: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// recalibratePage is how many rows RecalibrateEvals holds at a time.
const recalibratePage = 1024

// RecalibrateEvals calls fix with every row of bot and the side of its game's board, and
// stores the chances, loss and mark fix sets, in one transaction; it returns the rows
// changed. The rows are read recalibratePage at a time, in the order of the table's key,
// so that memory does not grow with them; rows CheckEval would refuse are left alone, and
// a row fix makes one is not stored (an *EvalError).
func (d *DB) RecalibrateEvals(ctx context.Context, bot string, fix func(r *TurnEval, size int)) (int64, error) {
	if err := d.ensureEvals(ctx); err != nil {
		return 0, err
	}
	type sized struct {
		r    TurnEval
		size int
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
	}
	defer tx.Rollback()
	page := make([]sized, 0, recalibratePage)
	var changed int64
	lastGame, lastTurn := "", int32(0)
	for {
		page = page[:0]
		rows, err := tx.QueryContext(ctx, `SELECT e.game_id, e.turn, e.playouts, e.colour, e.played, e.best, e.raw_before, e.raw_after, e.over_after,
			e.best_q, e.played_q, e.best_n, e.played_n, e.light_before, e.light_after, e.loss, e.mark, g.size
			FROM turn_evals e JOIN games g ON g.game_id = e.game_id
			WHERE e.bot = ? AND (e.game_id > ? OR (e.game_id = ? AND e.turn > ?)) AND `+goodEvalSQL+`
			ORDER BY e.game_id, e.turn LIMIT ?`, bot, lastGame, lastGame, lastTurn, recalibratePage)
		if err != nil {
			return 0, fmt.Errorf("%s: turn_evals: %w", d.path, err)
		}
		for rows.Next() {
			var s sized
			var best, mark sql.NullString
			if err := rows.Scan(&s.r.GameID, &s.r.Turn, &s.r.Playouts, &s.r.Colour, &s.r.Played, &best, &s.r.RawBefore, &s.r.RawAfter, &s.r.OverAfter,
				&s.r.BestQ, &s.r.PlayedQ, &s.r.BestN, &s.r.PlayedN, &s.r.Before, &s.r.After, &s.r.Loss, &mark, &s.size); err != nil {
				rows.Close()
				return 0, fmt.Errorf("%s: turn_evals: %w", d.path, err)
			}
			s.r.Bot = bot
			if best.Valid {
				s.r.Best = &best.String
			}
			if mark.Valid {
				s.r.Mark = &mark.String
			}
			page = append(page, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, fmt.Errorf("%s: turn_evals: %w", d.path, err)
		}
		for _, s := range page {
			old := s.r
			fix(&s.r, s.size)
			same := old.Before == s.r.Before && old.After == s.r.After && old.Loss == s.r.Loss &&
				(old.Mark == nil) == (s.r.Mark == nil) && (old.Mark == nil || *old.Mark == *s.r.Mark)
			if same {
				continue
			}
			if err := CheckEval(&s.r); err != nil {
				return 0, fmt.Errorf("%s: recalibrated: %w", d.path, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE turn_evals SET light_before = ?, light_after = ?, loss = ?, mark = ?
				WHERE game_id = ? AND bot = ? AND turn = ?`, s.r.Before, s.r.After, s.r.Loss, s.r.Mark, s.r.GameID, bot, s.r.Turn); err != nil {
				return 0, fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
			}
			changed++
		}
		if len(page) < recalibratePage {
			break
		}
		lastGame, lastTurn = page[len(page)-1].r.GameID, page[len(page)-1].r.Turn
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("%s: turn_evals: %w", d.path, wrapBusy(err))
	}
	return changed, nil
}
