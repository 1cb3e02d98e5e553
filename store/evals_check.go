package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The readings a database keeps are checked on the way in (CheckEval, by SaveEvals and
// the merge of a turn_evals.parquet) and again on the way out: a row stored otherwise (an
// edit of the database, an older ponte) is left out of every reading by goodEvalSQL and
// named by BadEvals, so that no NaN, no chance outside [0, 1] and no word outside the
// vocabulary reaches ponte stats or a report (docs/annotate.md, "What is checked").

// ErrBadEval is the sentinel of a reading refused: the error of CheckEval wraps it.
var ErrBadEval = errors.New("not a reading of the engine")

// EvalError is a reading refused or skipped: the column and why, with where the row is.
// File and Row are set for a row of a Parquet file (Row from 1), Game for a stored one
// (games.id).
type EvalError struct {
	File   string
	Row    int64
	Game   int64
	GameID string
	Bot    string
	Turn   int64
	Column string
	Value  string // the value as stored, quoted when it is text
	Err    error  // why: wraps ErrBadEval
}

func (e *EvalError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File + ": ")
	}
	var where []string
	if e.Row > 0 {
		where = append(where, "row "+strconv.FormatInt(e.Row, 10))
	}
	switch {
	case e.Game != 0 && e.GameID != "":
		where = append(where, fmt.Sprintf("game %d (%s)", e.Game, cutName(e.GameID, 16)))
	case e.Game != 0:
		where = append(where, fmt.Sprintf("game %d", e.Game))
	case e.GameID != "":
		where = append(where, "game "+strconv.Quote(cutName(e.GameID, 40)))
	}
	if e.Bot != "" && e.Column != "bot" {
		where = append(where, "engine "+strconv.Quote(cutName(e.Bot, 40)))
	}
	if e.Column != "turn" {
		where = append(where, "turn "+strconv.FormatInt(e.Turn, 10))
	}
	b.WriteString("turn_evals")
	if len(where) > 0 {
		b.WriteString(" " + strings.Join(where, ", "))
	}
	if e.Column != "" {
		b.WriteString(", column " + e.Column)
	}
	if e.Value != "" {
		b.WriteString(": " + e.Value)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *EvalError) Unwrap() error { return e.Err }

// cutName keeps the first n bytes of s (a name in a message).
func cutName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// badEval is the reason of a refused value, which is an ErrBadEval.
func badEval(format string, a ...any) error { return &evalReason{fmt.Sprintf(format, a...)} }

// evalReason says why a value is refused; it is an ErrBadEval.
type evalReason struct{ why string }

func (e *evalReason) Error() string { return e.why }
func (e *evalReason) Unwrap() error { return ErrBadEval }

// The bounds of a reading (docs/annotate.md).
const (
	maxEvalTurn     = 1 << 16 // a turn number: no game is longer
	maxEvalPlayouts = 1 << 30
	maxEvalToken    = 24 // a turn's token: "z26,z25" is 7
	maxEvalBot      = 40
)

// Marks are the vocabulary of turn_evals.mark; a good turn has none (NULL).
var Marks = []string{"inaccuracy", "mistake", "blunder"}

// IsMark reports whether s is one of Marks.
func IsMark(s string) bool {
	for _, m := range Marks {
		if s == m {
			return true
		}
	}
	return false
}

// tokenOK reports whether s reads as a turn's token: letters, digits, ',' and '-' ("d4-e5",
// "a1,a2", "swap").
func tokenOK(s string) bool {
	if len(s) == 0 || len(s) > maxEvalToken {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ',' || c == '-') {
			return false
		}
	}
	return true
}

// botOK reports whether s reads as an engine's name: letters, digits, '.', '_' and '-'
// ("sage-100").
func botOK(s string) bool {
	if len(s) == 0 || len(s) > maxEvalBot {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// chance is the check of a value that must be a chance, a search value or a loss: a
// number from 0 to 1.
func chance(v float64) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return badEval("must be a number from 0 to 1")
	}
	return nil
}

// CheckEval checks a reading before it is stored: a turn from 1, an engine's name, its
// playouts, the mover's colour, the turns' tokens, every chance, search value and loss a
// number from 0 to 1 (no NaN, no infinity), the visit counts not below 0 and the mark one
// of Marks or none. The error is an *EvalError naming the first column refused.
func CheckEval(r *TurnEval) error {
	col, val, err := checkEval(r)
	if err == nil {
		return nil
	}
	return &EvalError{Game: r.Game, GameID: r.GameID, Bot: r.Bot, Turn: int64(r.Turn), Column: col, Value: val, Err: err}
}

func checkEval(r *TurnEval) (column, value string, err error) {
	q := func(s string) string { return strconv.Quote(cutName(s, 40)) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch {
	case r.GameID == "" || len(r.GameID) > 128:
		return "game_id", q(r.GameID), badEval("must be a game's stable id")
	case r.Turn < 1 || r.Turn > maxEvalTurn:
		return "turn", strconv.Itoa(int(r.Turn)), badEval("must be a turn from 1 to %d", maxEvalTurn)
	case !botOK(r.Bot):
		return "bot", q(r.Bot), badEval("must be an engine's name (letters, digits, '.', '_', '-')")
	case r.Playouts < 1 || r.Playouts > maxEvalPlayouts:
		return "playouts", strconv.Itoa(int(r.Playouts)), badEval("must be from 1 to %d", maxEvalPlayouts)
	case r.Colour != "light" && r.Colour != "dark":
		return "colour", q(r.Colour), badEval(`must be "light" or "dark"`)
	case !tokenOK(r.Played):
		return "played", q(r.Played), badEval("must be a turn's token")
	case r.Best != nil && !tokenOK(*r.Best):
		return "best", q(*r.Best), badEval("must be a turn's token or none")
	case r.BestN < 0:
		return "best_n", strconv.Itoa(int(r.BestN)), badEval("must be 0 or more")
	case r.PlayedN < 0:
		return "played_n", strconv.Itoa(int(r.PlayedN)), badEval("must be 0 or more")
	case r.Mark != nil && !IsMark(*r.Mark):
		return "mark", q(*r.Mark), badEval("must be %s or none", strings.Join(Marks, ", "))
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"raw_before", r.RawBefore}, {"raw_after", r.RawAfter}, {"best_q", r.BestQ}, {"played_q", r.PlayedQ},
		{"light_before", r.Before}, {"light_after", r.After}, {"loss", r.Loss}} {
		if err := chance(c.v); err != nil {
			return c.name, f(c.v), err
		}
	}
	return "", "", nil
}

// goodEvalSQL is true for a stored row of turn_evals e (joined with its game g) that
// CheckEval would take, of a turn the game has: the readers use no other row. A text
// where a number belongs (SQLite keeps 'NaN' as text), an infinity, a word outside the
// vocabulary are all left out.
const goodEvalSQL = `(typeof(e.turn) = 'integer' AND e.turn BETWEEN 1 AND g.turns
	AND typeof(e.playouts) = 'integer' AND e.playouts BETWEEN 1 AND 1073741824
	AND typeof(e.best_n) = 'integer' AND e.best_n BETWEEN 0 AND 2147483647
	AND typeof(e.played_n) = 'integer' AND e.played_n BETWEEN 0 AND 2147483647
	AND typeof(e.over_after) = 'integer' AND e.over_after IN (0, 1)
	AND e.colour IN ('light', 'dark')
	AND (e.mark IS NULL OR e.mark IN ('inaccuracy', 'mistake', 'blunder'))
	AND typeof(e.bot) = 'text' AND length(e.bot) BETWEEN 1 AND 40 AND e.bot NOT GLOB '*[^a-zA-Z0-9._-]*'
	AND typeof(e.played) = 'text' AND length(e.played) BETWEEN 1 AND 24 AND e.played NOT GLOB '*[^a-zA-Z0-9,-]*'
	AND (e.best IS NULL OR (typeof(e.best) = 'text' AND length(e.best) BETWEEN 1 AND 24 AND e.best NOT GLOB '*[^a-zA-Z0-9,-]*'))
	AND typeof(e.raw_before) IN ('real', 'integer') AND e.raw_before BETWEEN 0 AND 1
	AND typeof(e.raw_after) IN ('real', 'integer') AND e.raw_after BETWEEN 0 AND 1
	AND typeof(e.best_q) IN ('real', 'integer') AND e.best_q BETWEEN 0 AND 1
	AND typeof(e.played_q) IN ('real', 'integer') AND e.played_q BETWEEN 0 AND 1
	AND typeof(e.light_before) IN ('real', 'integer') AND e.light_before BETWEEN 0 AND 1
	AND typeof(e.light_after) IN ('real', 'integer') AND e.light_after BETWEEN 0 AND 1
	AND typeof(e.loss) IN ('real', 'integer') AND e.loss BETWEEN 0 AND 1)`

// badEvalColumns are the columns BadEvals reads, in the order storedEvalColumn checks them.
var badEvalColumns = []string{"turn", "bot", "playouts", "colour", "played", "best", "best_n", "played_n", "over_after",
	"mark", "raw_before", "raw_after", "best_q", "played_q", "light_before", "light_after", "loss"}

// storedEvalColumn names the first column of a stored row (its values in the order of
// badEvalColumns, as SQLite gives them) that goodEvalSQL refuses, and why.
func storedEvalColumn(vals []any, turns int64) (column, value string, err error) {
	show := func(v any) string {
		switch v := v.(type) {
		case nil:
			return "NULL"
		case string:
			return strconv.Quote(cutName(v, 40))
		case []byte:
			return strconv.Quote(cutName(string(v), 40))
		case float64:
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		return fmt.Sprint(v)
	}
	integer := func(v any, lo, hi int64) bool { n, ok := v.(int64); return ok && n >= lo && n <= hi }
	number := func(v any) bool {
		switch v := v.(type) {
		case int64:
			return v == 0 || v == 1
		case float64:
			return v >= 0 && v <= 1
		}
		return false
	}
	text := func(v any, ok func(string) bool) bool { s, is := v.(string); return is && ok(s) }
	for i, c := range badEvalColumns {
		v := vals[i]
		var why error
		switch c {
		case "turn":
			if !integer(v, 1, turns) {
				why = badEval("must be a turn of the game, from 1 to %d", turns)
			}
		case "playouts":
			if !integer(v, 1, maxEvalPlayouts) {
				why = badEval("must be from 1 to %d", maxEvalPlayouts)
			}
		case "best_n", "played_n":
			if !integer(v, 0, math.MaxInt32) {
				why = badEval("must be 0 or more")
			}
		case "over_after":
			if !integer(v, 0, 1) {
				why = badEval("must be 0 or 1")
			}
		case "colour":
			if v != "light" && v != "dark" {
				why = badEval(`must be "light" or "dark"`)
			}
		case "mark":
			if v != nil && !text(v, IsMark) {
				why = badEval("must be %s or none", strings.Join(Marks, ", "))
			}
		case "bot":
			if !text(v, botOK) {
				why = badEval("must be an engine's name (letters, digits, '.', '_', '-')")
			}
		case "played":
			if !text(v, tokenOK) {
				why = badEval("must be a turn's token")
			}
		case "best":
			if v != nil && !text(v, tokenOK) {
				why = badEval("must be a turn's token or none")
			}
		default:
			if !number(v) {
				why = badEval("must be a number from 0 to 1")
			}
		}
		if why != nil {
			return c, show(v), why
		}
	}
	return "", "", nil
}

// BadEvals calls fn with each stored reading of the games f selects that the readers
// leave out (goodEvalSQL), naming its first bad column, in the order of the games and
// turns; none when the database has no annotations.
func (r *Reader) BadEvals(ctx context.Context, f Filter, fn func(*EvalError) error) error {
	if ok, err := r.hasEvalsTable(ctx); !ok || err != nil {
		return err
	}
	counts, err := r.evalsCounts(ctx)
	if err != nil {
		return err
	}
	cols := make([]string, len(badEvalColumns))
	for i, c := range badEvalColumns {
		cols[i] = "e." + c
		if counts != withCounts && (c == "best_n" || c == "played_n") {
			cols[i] = "0" // a table made before the counts
		}
	}
	cond, args := f.where()
	q := `SELECT g.id, g.game_id, g.turns, ` + strings.Join(cols, ", ") + `
		FROM turn_evals e JOIN games g ON g.game_id = e.game_id WHERE NOT ` + goodEvalSQLFor(counts) + ` AND (` + cond + `)
		ORDER BY g.id, e.bot, e.turn`
	rows, err := r.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("turn_evals: %w", err)
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, 3+len(cols))
	var game, turns int64
	var gameID string
	ptrs[0], ptrs[1], ptrs[2] = &game, &gameID, &turns
	for i := range vals {
		ptrs[3+i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("turn_evals: %w", err)
		}
		e := &EvalError{Game: game, GameID: gameID}
		if s, ok := vals[1].(string); ok {
			e.Bot = s
		}
		if n, ok := vals[0].(int64); ok {
			e.Turn = n
		}
		e.Column, e.Value, e.Err = storedEvalColumn(vals, turns)
		if e.Err == nil {
			e.Err = badEval("refused") // SQLite and Go disagree: never expected
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("turn_evals: %w", err)
	}
	return nil
}

// goodEvalSQL for a table whose counts read as counts (countsSQL): a table made before
// the counts has no best_n and played_n to check.
func goodEvalSQLFor(counts string) string {
	if counts == withCounts {
		return goodEvalSQL
	}
	s := strings.Replace(goodEvalSQL, "AND typeof(e.best_n) = 'integer' AND e.best_n BETWEEN 0 AND 2147483647", "", 1)
	return strings.Replace(s, "AND typeof(e.played_n) = 'integer' AND e.played_n BETWEEN 0 AND 2147483647", "", 1)
}

// hasEvalsTable reports whether the database has a turn_evals table.
func (r *Reader) hasEvalsTable(ctx context.Context) (bool, error) {
	var n int
	err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'turn_evals'`).Scan(&n)
	return n > 0, err
}
