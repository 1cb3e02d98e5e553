package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/internal/turntext"
)

// Reader reads the stored games of a database opened with [OpenReader]: the one way the
// other packages read what the store wrote. A method takes a [Filter] (the games it
// selects) and returns typed rows or calls a function with each; no SQL leaves the
// package. Each method is one query and may be called from several goroutines at once.
//
// The methods are grouped by the package that asks: the verification and the tallies of
// ponte stats (reader.go), the game pages of ponte report (pages.go), the records of
// ponte export (records.go). A new question is a new method in a file of its own.
type Reader struct {
	db *sql.DB

	// evals is what the queries of turn_evals read as best_n and played_n once the table
	// is found (evalsCounts): asked once per Reader, not once per game.
	evalsMu sync.Mutex
	evals   string
}

// Close closes the database.
func (r *Reader) Close() error { return r.db.Close() }

// HasGames tells whether the database holds any game at all.
func (r *Reader) HasGames(ctx context.Context) (bool, error) {
	var games bool
	err := r.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM games)").Scan(&games)
	return games, err
}

// Tally counts the games f selects by their verdict.
type Tally struct {
	Games      int // distinct games stored
	Legal      int // every turn legal, every claim true
	Illegal    int // read, but a rule broken
	Unreadable int // not readable as a record
	Duplicates int // further copies met of the stored games
}

// Tally counts the games f selects by their verdict.
func (r *Reader) Tally(ctx context.Context, f Filter) (Tally, error) {
	where, args := f.where()
	var t Tally
	err := r.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(legal), 0), coalesce(sum(NOT legal AND NOT unreadable), 0),
		coalesce(sum(unreadable), 0), coalesce(sum(duplicates), 0) FROM games g WHERE `+where, args...).
		Scan(&t.Games, &t.Legal, &t.Illegal, &t.Unreadable, &t.Duplicates)
	if err != nil {
		return t, fmt.Errorf("verification summary: %w", err)
	}
	return t, nil
}

// RuleCount is how many games first broke one rule.
type RuleCount struct {
	Rule  string `json:"rule"`
	Games int    `json:"games"`
}

// ByRule counts the games f selects that are not legal by the first rule they broke, most
// first (then by rule).
func (r *Reader) ByRule(ctx context.Context, f Filter) ([]RuleCount, error) {
	where, args := f.where()
	return collect(ctx, r.db, "verification by rule", `SELECT error_rule, count(*) FROM games g WHERE NOT legal AND `+where+`
		GROUP BY error_rule ORDER BY count(*) DESC, error_rule`, args,
		func(rows *sql.Rows, rc *RuleCount) error { return rows.Scan(&rc.Rule, &rc.Games) })
}

// FormatCount is how many games were read from one format, from how many files, and how
// many of them are legal.
type FormatCount struct {
	Format string `json:"format"`
	Files  int    `json:"files"` // source files (zip entries count one each)
	Games  int    `json:"games"`
	Legal  int    `json:"legal"`
}

// ByFormat counts the games f selects by the format they were read from, most first (then
// by format).
func (r *Reader) ByFormat(ctx context.Context, f Filter) ([]FormatCount, error) {
	where, args := f.where()
	return collect(ctx, r.db, "verification by format", `SELECT format, count(DISTINCT source), count(*), sum(legal)
		FROM games g WHERE `+where+` GROUP BY format ORDER BY count(*) DESC, format`, args,
		func(rows *sql.Rows, fc *FormatCount) error {
			return rows.Scan(&fc.Format, &fc.Files, &fc.Games, &fc.Legal)
		})
}

// IllegalGame is a stored game that is not legal, with where and why.
type IllegalGame struct {
	ID      int64  `json:"id"`      // games.id
	GameID  string `json:"game_id"` // the stable game id
	Source  string `json:"source"`
	Line    int    `json:"line"` // where the error is (the game's line when unknown)
	Col     int    `json:"col"`
	Rule    string `json:"rule"`
	Turn    int    `json:"turn,omitempty"` // 0 when the error is not at a turn
	Message string `json:"message"`
	Event   string `json:"event,omitempty"`
	Light   string `json:"light,omitempty"`
	Dark    string `json:"dark,omitempty"`
}

// IllegalGames returns the first limit games f selects that are not legal, in the order
// stored.
func (r *Reader) IllegalGames(ctx context.Context, f Filter, limit int) ([]IllegalGame, error) {
	where, args := f.where()
	return collect(ctx, r.db, "illegal games", `SELECT id, game_id, source, coalesce(error_line, line), coalesce(error_col, 1),
		error_rule, coalesce(error_turn, 0), coalesce(error_message, ''), coalesce(event, ''), coalesce(light, ''), coalesce(dark, '')
		FROM games g WHERE NOT legal AND `+where+` ORDER BY id LIMIT ?`, append(slices.Clone(args), limit),
		func(rows *sql.Rows, ig *IllegalGame) error {
			return rows.Scan(&ig.ID, &ig.GameID, &ig.Source, &ig.Line, &ig.Col, &ig.Rule, &ig.Turn, &ig.Message, &ig.Event, &ig.Light, &ig.Dark)
		})
}

// SiteCount is how many legal games of one population (bots' or people's) come from one
// format and site.
type SiteCount struct {
	Bot    bool   // the games have a bot player (game.IsBot)
	Format string // ponte, jsonl, boardspace, abstractplay
	Site   string // the Site tag; "" when absent
	Games  int
}

// SiteCounts counts the legal games f selects by population, format and site: the most
// first, then by format and site.
func (r *Reader) SiteCounts(ctx context.Context, f Filter) ([]SiteCount, error) {
	where, args := f.where()
	bot, botArgs := botSQL(f.BotNames())
	return collect(ctx, r.db, "populations", `SELECT `+bot+`, format, coalesce(site, ''), count(*) FROM games g
		WHERE legal AND `+where+` GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2, 3`, append(botArgs, args...),
		func(rows *sql.Rows, c *SiteCount) error { return rows.Scan(&c.Bot, &c.Format, &c.Site, &c.Games) })
}

// MostOnABoard is the most legal games f selects on one board size (0 when none).
func (r *Reader) MostOnABoard(ctx context.Context, f Filter) (int, error) {
	where, args := f.where()
	var n int
	err := r.db.QueryRowContext(ctx, `SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM games g
			WHERE legal AND `+where+` GROUP BY size)`, args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("populations: %w", err)
	}
	return n, nil
}

// IDs returns the least and the greatest games.id stored; ok is false when there is no
// game.
func (r *Reader) IDs(ctx context.Context) (lo, hi int64, ok bool, err error) {
	var l, h sql.NullInt64
	if err := r.db.QueryRowContext(ctx, "SELECT min(id), max(id) FROM games").Scan(&l, &h); err != nil {
		return 0, 0, false, fmt.Errorf("games: %w", err)
	}
	return l.Int64, h.Int64, l.Valid, nil
}

// LegalGame is what the statistics read of one legal game. A text column that is NULL
// reads as "".
type LegalGame struct {
	ID                     int64
	Size                   int
	Swapped, Over, Bot     bool             // Bot: the game has a bot player (game.IsBot)
	Result                 game.Result      // the computed result; NoResult while not over
	TieBreak               string           // what decided it (R7); "" while not over
	Termination            game.Termination // the record's Termination (Unstated for a word it does not know)
	Claimed                game.Result      // the result the record claims
	Score, Islands, Bridge [2]int           // [light, dark], as the replay ends
	Margin, Turns          int
	OpeningA, OpeningB     string // the cells of turn 1; "" when none
	// Components are games.components_light and _dark, read for a finished game only;
	// HasComponents[c] is false when a finished game's are NULL (only an edit makes them so).
	Components          [2]string
	HasComponents       [2]bool
	Light, Dark, Opener string
	Date                string
	Format              string
}

// Final is the game's known result (game.Final): the computed one when it is over, else
// the one claimed by a record that ended by resignation, on time or by an agreed draw.
func (g *LegalGame) Final() game.Result {
	return game.Final(g.Over, g.Result, g.Termination, g.Claimed)
}

// Ending is how the game ended (game.Ending).
func (g *LegalGame) Ending() string { return game.Ending(g.Over, g.Termination) }

// LegalGames calls fn with each legal game f selects whose id is from … to, in the order
// of their ids. The row passed is reused for the next game. With f.Population people or
// bots only that population is read (and Bot says so); otherwise (all, or "") every game
// is, with Bot telling its population.
func (r *Reader) LegalGames(ctx context.Context, f Filter, from, to int64, fn func(*LegalGame) error) error {
	where, args := f.selection()
	bot, botArgs := "0", []any(nil)
	switch f.Population {
	case game.PopulationPeople, game.PopulationBots:
		cond, condArgs := f.populationSQL(f.Population)
		where += " AND " + cond
		args = append(args, condArgs...)
		if f.Population == game.PopulationBots {
			bot = "1"
		}
	default:
		bot, botArgs = botSQL(f.BotNames())
	}
	rows, err := r.db.QueryContext(ctx, `SELECT id, size, swapped, over, result, tiebreak, termination, claimed_result,
		score_light, score_dark, islands_light, islands_dark, bridges_light, bridges_dark, margin, turns,
		opening_a, opening_b, CASE WHEN over THEN components_light END, CASE WHEN over THEN components_dark END,
		light, dark, opener, date, format, `+bot+`
		FROM games g WHERE legal AND id BETWEEN ? AND ? AND `+where+` ORDER BY id`, append(append(botArgs, from, to), args...)...)
	if err != nil {
		return fmt.Errorf("games: %w", err)
	}
	defer rows.Close()
	var g LegalGame
	var result, termination, claimed sql.NullString
	var text [9]sql.NullString // tiebreak, opening_a, opening_b, components ×2, light, dark, opener, date
	for rows.Next() {
		if err := rows.Scan(&g.ID, &g.Size, &g.Swapped, &g.Over, &result, &text[0], &termination, &claimed,
			&g.Score[0], &g.Score[1], &g.Islands[0], &g.Islands[1], &g.Bridge[0], &g.Bridge[1], &g.Margin, &g.Turns,
			&text[1], &text[2], &text[3], &text[4], &text[5], &text[6], &text[7], &text[8], &g.Format, &g.Bot); err != nil {
			return fmt.Errorf("games: %w", err)
		}
		g.Result, _ = game.ParseResult(result.String)
		g.Termination, _ = game.ParseTermination(termination.String)
		g.Claimed, _ = game.ParseResult(claimed.String)
		g.TieBreak, g.OpeningA, g.OpeningB = text[0].String, text[1].String, text[2].String
		g.Components = [2]string{text[3].String, text[4].String}
		g.HasComponents = [2]bool{text[3].Valid, text[4].Valid}
		g.Light, g.Dark, g.Opener, g.Date = text[5].String, text[6].String, text[7].String, text[8].String
		if err := fn(&g); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	return nil
}

// TurnSummary is what the statistics sum of one game's turns (read from game_turns.turns),
// one Turn for each turn played legally, in turn order; Turns is valid only during the
// call it is passed to.
type TurnSummary struct {
	Game  int64
	Turns []turnsum.Turn
}

// TurnsError is a game's row of game_turns whose turns cannot be read: only an edit of
// the database makes one.
type TurnsError struct {
	Game int64
	Err  error
}

func (e *TurnsError) Error() string {
	return fmt.Sprintf("game %d: game_turns.turns: %v", e.Game, e.Err)
}

func (e *TurnsError) Unwrap() error { return e.Err }

// errNotText is a turns value stored as another type than text.
var errNotText = errors.New("not text")

// TurnSummaries calls fn with the turn summary of each game whose id is from … to that
// has one, in the order of the ids, read from each game's turns
// (turntext.AppendSummaries). Turns that cannot be read stop it with a *TurnsError.
func (r *Reader) TurnSummaries(ctx context.Context, from, to int64, fn func(*TurnSummary) error) error {
	rows, err := r.db.QueryContext(ctx, `SELECT game, turns FROM game_turns WHERE game >= ? AND game <= ? ORDER BY game`, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	var t TurnSummary
	// The driver's own values, without database/sql's conversions: the key an int64,
	// the turns a string when they are text (not copied).
	var game, turns any
	for rows.Next() {
		if err := rows.Scan(&game, &turns); err != nil {
			return err
		}
		t.Game, _ = game.(int64) // game_turns.game is the table's INTEGER PRIMARY KEY
		text, ok := turns.(string)
		if !ok {
			return &TurnsError{t.Game, errNotText}
		}
		if t.Turns, err = turntext.AppendSummaries(t.Turns[:0], text); err != nil {
			return &TurnsError{t.Game, err}
		}
		if err := fn(&t); err != nil {
			return err
		}
	}
	return rows.Err()
}

// collect runs query and returns its rows, each read by scan; errors name what was asked.
func collect[T any](ctx context.Context, db *sql.DB, what, query string, args []any, scan func(*sql.Rows, *T) error) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var x T
		if err := scan(rows, &x); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
