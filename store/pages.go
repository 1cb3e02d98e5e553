package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
)

// PageLimits bound what a game page reads of a game: its texts, its moves and raw text,
// its turns and its tags.
type PageLimits struct {
	Text  int // characters of a text column: one more is read, so that the caller knows it was longer
	Moves int // characters of the moves
	Raw   int // bytes of the record's raw text
	Turns int // the turns 1 … Turns are read
	Tags  int // the first Tags tags are read
}

// Game is one stored game with what its page shows: the games table's columns, each text
// cut past PageLimits.Text characters (NULL as ""), the moves and the raw text cut to
// their limits with their full lengths. An unreadable record has no scores: they are 0.
type Game struct {
	ID                      int64
	GameID                  string
	Source                  string
	FileIndex, Line         int
	Format                  string
	Event, Site, Date       string
	Round, RecordID         string
	Light, Dark, Opener     string
	Swapped                 bool
	Size                    int
	Supply                  string
	ClaimedResult           string
	Termination             string
	ClaimedScore            [2]int // the Score tag's scores, when Scored
	Scored                  bool   // the record has a Score tag
	Legal, Unreadable       bool
	ErrorRule               string
	ErrorTurn               int
	ErrorLine, ErrorCol     int
	ErrorMessage            string
	Turns                   int
	Over                    bool
	Result, Winner          string
	TieBreak                string
	Score, Islands, Bridges [2]int
	Margin                  int
	Moves                   string // at most PageLimits.Moves characters of them
	MovesLen                int    // the characters of the moves in all
	Raw                     string // at most PageLimits.Raw bytes of it, as stored
	RawLen                  int    // its bytes in all
	Duplicates              int
}

// Turn is one row of the view turns, as a game page shows it: texts cut as Game's.
type Turn struct {
	Turn               int
	Colour, Kind       string
	A, B               string
	IslandsFormed      int
	GroupA, GroupB     int    // a tiles turn's group sizes; 0 for another turn
	BridgeShape        string // a bridge turn's shape; "" for another turn
	BridgeEndA         int    // a bridge turn's group sizes at its ends; 0 for another turn
	BridgeEndB         int
	BridgeMerged       bool // a bridge turn joined two components
	LargestComponent   int
	Score              [2]int
	Islands, Sandbanks [2]int
	Dead, DeadCreated  [2]int
	Mobility           [2]int
	ThinkMS            int64 // the mover's think time, when the record has it (boardspace); 0 when not
}

// textCol is the SQL of a text column as a page reads it: NULL as ”, and cut one
// character past limit, so that the caller knows whether it was longer.
func textCol(col string, limit int) string {
	return "substr(coalesce(" + col + ", ''), 1, " + strconv.Itoa(limit+1) + ")"
}

// gameColumns are the games columns a page shows, each text bounded.
func gameColumns(lim PageLimits) string {
	textCol := func(col string) string { return textCol(col, lim.Text) }
	return `id, ` + textCol("game_id") + `, ` + textCol("source") + `, file_index, line, ` + textCol("format") + `, ` +
		textCol("event") + `, ` + textCol("site") + `, ` + textCol("date") + `, ` + textCol("round") + `, ` + textCol("record_id") + `, ` +
		textCol("light") + `, ` + textCol("dark") + `, ` + textCol("opener") + `, swapped, size, ` + textCol("supply") + `, ` +
		textCol("claimed_result") + `, ` + textCol("termination") + `, claimed_score_light, claimed_score_dark, legal, unreadable, ` +
		textCol("error_rule") + `, coalesce(error_turn, 0), coalesce(error_line, 0), coalesce(error_col, 0), ` +
		textCol("error_message") + `, turns, over, ` + textCol("result") + `, ` + textCol("winner") + `, ` + textCol("tiebreak") + `,
	coalesce(score_light, 0), coalesce(score_dark, 0), coalesce(islands_light, 0), coalesce(islands_dark, 0),
	coalesce(bridges_light, 0), coalesce(bridges_dark, 0), coalesce(margin, 0),
	substr(moves, 1, ` + strconv.Itoa(lim.Moves) + `), length(moves),
	substr(CAST(coalesce(raw, '') AS BLOB), 1, ` + strconv.Itoa(lim.Raw) + `), length(CAST(coalesce(raw, '') AS BLOB)),
	duplicates`
}

func scanGame(rows *sql.Rows) (*Game, error) {
	g := &Game{}
	var raw []byte
	var score [2]sql.NullInt64
	err := rows.Scan(&g.ID, &g.GameID, &g.Source, &g.FileIndex, &g.Line, &g.Format, &g.Event, &g.Site,
		&g.Date, &g.Round, &g.RecordID, &g.Light, &g.Dark,
		&g.Opener, &g.Swapped, &g.Size, &g.Supply, &g.ClaimedResult, &g.Termination,
		&score[0], &score[1], &g.Legal, &g.Unreadable, &g.ErrorRule, &g.ErrorTurn,
		&g.ErrorLine, &g.ErrorCol, &g.ErrorMessage, &g.Turns, &g.Over,
		&g.Result, &g.Winner, &g.TieBreak, &g.Score[0], &g.Score[1],
		&g.Islands[0], &g.Islands[1], &g.Bridges[0], &g.Bridges[1], &g.Margin,
		&g.Moves, &g.MovesLen, &raw, &g.RawLen, &g.Duplicates)
	if err != nil {
		return nil, err
	}
	g.Raw = string(raw)
	g.ClaimedScore = [2]int{int(score[0].Int64), int(score[1].Int64)}
	g.Scored = score[0].Valid && score[1].Valid
	return g, nil
}

// pageChunk is how many games' rows are read at a time.
const pageChunk = 32

// PageGames calls fn with each game that gets a page, in order: the games f selects that
// are not legal, in stored order, then the legal ones, at most limit in all. The games are
// read pageChunk at a time, so that what is held does not grow with the number of pages;
// fn's error stops the reading and is returned.
func (r *Reader) PageGames(ctx context.Context, f Filter, limit int, lim PageLimits, fn func(*Game) error) error {
	where, args := f.where()
	cols := gameColumns(lim)
	n := 0
	for _, legal := range []string{"NOT legal", "legal"} {
		var after *int64 // the last id read: the next chunk starts past it
		for n < limit {
			q := `SELECT ` + cols + ` FROM games g WHERE ` + legal + ` AND ` + where
			qargs := slices.Clone(args)
			if after != nil {
				q += ` AND g.id > ?`
				qargs = append(qargs, *after)
			}
			want := min(pageChunk, limit-n)
			q += ` ORDER BY g.id LIMIT ?`
			games, err := r.queryGames(ctx, q, append(qargs, want))
			if err != nil {
				return err
			}
			for _, g := range games {
				if err := fn(g); err != nil {
					return err
				}
				n++
			}
			if len(games) < want {
				break
			}
			last := games[len(games)-1].ID
			after = &last
		}
	}
	return nil
}

func (r *Reader) queryGames(ctx context.Context, q string, args []any) ([]*Game, error) {
	rows, err := r.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	defer rows.Close()
	var games []*Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("games: %w", err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	return games, nil
}

// Details reads the turns and tags of games, its statements prepared once for all the
// pages of a report. Close it when done.
type Details struct {
	turns, tagCount, tags *sql.Stmt
}

// Details prepares the reading of games' turns and tags within lim.
func (r *Reader) Details(ctx context.Context, lim PageLimits) (*Details, error) {
	var q Details
	var err error
	textCol := func(col string) string { return textCol(col, lim.Text) }
	if q.turns, err = r.db.PrepareContext(ctx, `SELECT turn, `+textCol("colour")+`, `+textCol("kind")+`, `+textCol("a")+`, `+textCol("b")+`,
		islands_formed, coalesce(group_a, 0), coalesce(group_b, 0), `+textCol("bridge_shape")+`,
		coalesce(bridge_end_a, 0), coalesce(bridge_end_b, 0), coalesce(bridge_merged, 0), largest_component,
		score_light, score_dark, islands_light, islands_dark, sandbanks_light, sandbanks_dark,
		dead_light, dead_dark, dead_created_light, dead_created_dark, mobility_light, mobility_dark, coalesce(think_ms, 0)
		FROM turns WHERE game = ? AND turn BETWEEN 1 AND `+strconv.Itoa(lim.Turns)+` ORDER BY turn LIMIT `+strconv.Itoa(lim.Turns)); err != nil {
		return nil, fmt.Errorf("turns: %w", err)
	}
	if q.tagCount, err = r.db.PrepareContext(ctx, `SELECT count(*) FROM tags WHERE game = ?`); err != nil {
		q.Close()
		return nil, fmt.Errorf("tags: %w", err)
	}
	if q.tags, err = r.db.PrepareContext(ctx, `SELECT `+textCol("name")+`, `+textCol("value")+` FROM tags WHERE game = ?
		ORDER BY seq LIMIT `+strconv.Itoa(lim.Tags)); err != nil {
		q.Close()
		return nil, fmt.Errorf("tags: %w", err)
	}
	return &q, nil
}

// Close releases the statements.
func (q *Details) Close() {
	for _, st := range []*sql.Stmt{q.turns, q.tagCount, q.tags} {
		if st != nil {
			st.Close()
		}
	}
}

// Turns calls fn with the game's turns 1 … PageLimits.Turns, in order; the Turn passed is
// the caller's to keep.
func (q *Details) Turns(ctx context.Context, game int64, fn func(*Turn)) error {
	rows, err := q.turns.QueryContext(ctx, game)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t Turn
		if err := rows.Scan(&t.Turn, &t.Colour, &t.Kind, &t.A, &t.B, &t.IslandsFormed,
			&t.GroupA, &t.GroupB, &t.BridgeShape, &t.BridgeEndA, &t.BridgeEndB, &t.BridgeMerged, &t.LargestComponent,
			&t.Score[0], &t.Score[1], &t.Islands[0], &t.Islands[1], &t.Sandbanks[0], &t.Sandbanks[1],
			&t.Dead[0], &t.Dead[1], &t.DeadCreated[0], &t.DeadCreated[1], &t.Mobility[0], &t.Mobility[1], &t.ThinkMS); err != nil {
			return err
		}
		fn(&t)
	}
	return rows.Err()
}

// Tags returns how many tags the game has, and calls fn with the name and value of its
// first PageLimits.Tags tags, in their order.
func (q *Details) Tags(ctx context.Context, game int64, fn func(name, value string)) (total int, err error) {
	if err := q.tagCount.QueryRowContext(ctx, game).Scan(&total); err != nil {
		return 0, err
	}
	if total == 0 {
		return 0, nil
	}
	rows, err := q.tags.QueryContext(ctx, game)
	if err != nil {
		return total, err
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return total, err
		}
		fn(name, value)
	}
	return total, rows.Err()
}
