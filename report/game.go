package report

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/stats"
)

// game is one stored game with what its page shows.
type game struct {
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
	ClaimedScore            [2]sql.NullInt64
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
	Moves                   string // at most maxMovesText characters of them
	MovesLen                int    // the characters of the moves in all
	Raw                     string // at most ingest.MaxRaw bytes of it
	RawLen                  int    // its bytes in all
	Duplicates              int

	TurnRows  []turnRow   // the turns 1 … maxMoveRows
	Tags      [][2]string // the first maxTags tags, cut to maxText characters
	TagsTotal int         // the tags of the game in all

	Evals *gameEvals // the engine's reading of the game (ponte annotate); nil when none
}

// turnRow is one row of the turns table.
type turnRow struct {
	Turn               int
	Colour, Kind       string
	A, B               string
	IslandsFormed      int
	GroupA, GroupB     sql.NullInt64
	BridgeShape        sql.NullString
	BridgeEndA         sql.NullInt64
	BridgeEndB         sql.NullInt64
	BridgeMerged       sql.NullBool
	LargestComponent   int
	Score              [2]int
	Islands, Sandbanks [2]int
	Dead, DeadCreated  [2]int
	Mobility           [2]int
	ThinkMS            sql.NullInt64 // the mover's think time, when the record has it (boardspace)
}

// pagePath is the game page's path inside the report.
func (g *game) pagePath() string { return "games/" + strconv.FormatInt(g.ID, 10) + ".html" }

// textCol is the SQL of a text column as a page reads it: NULL as ”, and cut one character
// past maxText, so that cutText knows whether it was longer.
func textCol(col string) string {
	return "substr(coalesce(" + col + ", ''), 1, " + strconv.Itoa(maxText+1) + ")"
}

// gameColumns are the games columns a page shows, each text bounded (text, the moves to
// maxMovesText characters, the raw text to ingest.MaxRaw bytes, with their full lengths).
// An unreadable record has no scores (NULL); its page shows none, so they are read as 0.
var gameColumns = `id, ` + textCol("game_id") + `, ` + textCol("source") + `, file_index, line, ` + textCol("format") + `, ` +
	textCol("event") + `, ` + textCol("site") + `, ` + textCol("date") + `, ` + textCol("round") + `, ` + textCol("record_id") + `, ` +
	textCol("light") + `, ` + textCol("dark") + `, ` + textCol("opener") + `, swapped, size, ` + textCol("supply") + `, ` +
	textCol("claimed_result") + `, ` + textCol("termination") + `, claimed_score_light, claimed_score_dark, legal, unreadable, ` +
	textCol("error_rule") + `, coalesce(error_turn, 0), coalesce(error_line, 0), coalesce(error_col, 0), ` +
	textCol("error_message") + `, turns, over, ` + textCol("result") + `, ` + textCol("winner") + `, ` + textCol("tiebreak") + `,
	coalesce(score_light, 0), coalesce(score_dark, 0), coalesce(islands_light, 0), coalesce(islands_dark, 0),
	coalesce(bridges_light, 0), coalesce(bridges_dark, 0), coalesce(margin, 0),
	substr(moves, 1, ` + strconv.Itoa(maxMovesText) + `), length(moves),
	substr(CAST(coalesce(raw, '') AS BLOB), 1, ` + strconv.Itoa(ingest.MaxRaw) + `), length(CAST(coalesce(raw, '') AS BLOB)),
	duplicates`

func scanGame(rows *sql.Rows) (*game, error) {
	g := &game{}
	var raw []byte
	err := rows.Scan(&g.ID, &g.GameID, &g.Source, &g.FileIndex, &g.Line, &g.Format, &g.Event, &g.Site,
		&g.Date, &g.Round, &g.RecordID, &g.Light, &g.Dark,
		&g.Opener, &g.Swapped, &g.Size, &g.Supply, &g.ClaimedResult, &g.Termination,
		&g.ClaimedScore[0], &g.ClaimedScore[1], &g.Legal, &g.Unreadable, &g.ErrorRule, &g.ErrorTurn,
		&g.ErrorLine, &g.ErrorCol, &g.ErrorMessage, &g.Turns, &g.Over,
		&g.Result, &g.Winner, &g.TieBreak, &g.Score[0], &g.Score[1],
		&g.Islands[0], &g.Islands[1], &g.Bridges[0], &g.Bridges[1], &g.Margin,
		&g.Moves, &g.MovesLen, &raw, &g.RawLen, &g.Duplicates)
	if err != nil {
		return nil, err
	}
	for _, p := range []*string{&g.GameID, &g.Source, &g.Format, &g.Event, &g.Site, &g.Date, &g.Round, &g.RecordID,
		&g.Light, &g.Dark, &g.Opener, &g.Supply, &g.ClaimedResult, &g.Termination, &g.ErrorRule, &g.ErrorMessage,
		&g.Result, &g.Winner, &g.TieBreak} {
		*p = cutText(*p, maxText)
	}
	g.Moves = strings.ToValidUTF8(g.Moves, "\uFFFD")
	g.Raw = cutUTF8(raw)
	return g, nil
}

// pageChunk is how many games' rows are read at a time; their turns and tags are read by
// the worker that writes the page.
const pageChunk = 32

// pageGames calls fn with each game that gets a page, in order: the games f selects that
// are not legal, in stored order, then the legal ones, at most limit in all. The games are
// read pageChunk at a time, so that what is held does not grow with the number of pages;
// fn's error stops the reading and is returned.
func pageGames(ctx context.Context, db *sql.DB, f stats.Filter, limit int, fn func(*game) error) error {
	where, args := f.SQL()
	n := 0
	for _, legal := range []string{"NOT legal", "legal"} {
		var after *int64 // the last id read: the next chunk starts past it
		for n < limit {
			q := `SELECT ` + gameColumns + ` FROM games g WHERE ` + legal + ` AND ` + where
			qargs := slices.Clone(args)
			if after != nil {
				q += ` AND g.id > ?`
				qargs = append(qargs, *after)
			}
			want := min(pageChunk, limit-n)
			q += ` ORDER BY g.id LIMIT ?`
			games, err := queryGames(ctx, db, q, append(qargs, want))
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

func queryGames(ctx context.Context, db *sql.DB, q string, args []any) ([]*game, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	defer rows.Close()
	var games []*game
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

// detailQueries are the statements that read a game's turns and tags, prepared once for
// all the pages of a report.
type detailQueries struct {
	turns, tagCount, tags *sql.Stmt
}

func prepareDetails(ctx context.Context, db *sql.DB) (*detailQueries, error) {
	var q detailQueries
	var err error
	if q.turns, err = db.PrepareContext(ctx, `SELECT turn, `+textCol("colour")+`, `+textCol("kind")+`, `+textCol("a")+`, `+textCol("b")+`,
		islands_formed, group_a, group_b, `+textCol("bridge_shape")+`, bridge_end_a, bridge_end_b, bridge_merged, largest_component,
		score_light, score_dark, islands_light, islands_dark, sandbanks_light, sandbanks_dark,
		dead_light, dead_dark, dead_created_light, dead_created_dark, mobility_light, mobility_dark, think_ms
		FROM turns WHERE game = ? AND turn BETWEEN 1 AND `+strconv.Itoa(maxMoveRows)+` ORDER BY turn LIMIT `+strconv.Itoa(maxMoveRows)); err != nil {
		return nil, fmt.Errorf("turns: %w", err)
	}
	if q.tagCount, err = db.PrepareContext(ctx, `SELECT count(*) FROM tags WHERE game = ?`); err != nil {
		q.close()
		return nil, fmt.Errorf("tags: %w", err)
	}
	if q.tags, err = db.PrepareContext(ctx, `SELECT `+textCol("name")+`, `+textCol("value")+` FROM tags WHERE game = ?
		ORDER BY seq LIMIT `+strconv.Itoa(maxTags)); err != nil {
		q.close()
		return nil, fmt.Errorf("tags: %w", err)
	}
	return &q, nil
}

func (q *detailQueries) close() {
	for _, st := range []*sql.Stmt{q.turns, q.tagCount, q.tags} {
		if st != nil {
			st.Close()
		}
	}
}

// load reads g's turns 1 … maxMoveRows and its first maxTags tags.
func (q *detailQueries) load(ctx context.Context, g *game) error {
	if err := q.loadTurns(ctx, g); err != nil {
		return fmt.Errorf("game %d: turns: %w", g.ID, err)
	}
	if err := q.loadTags(ctx, g); err != nil {
		return fmt.Errorf("game %d: tags: %w", g.ID, err)
	}
	return nil
}

func (q *detailQueries) loadTurns(ctx context.Context, g *game) error {
	rows, err := q.turns.QueryContext(ctx, g.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t turnRow
		var shape string
		if err := rows.Scan(&t.Turn, &t.Colour, &t.Kind, &t.A, &t.B, &t.IslandsFormed,
			&t.GroupA, &t.GroupB, &shape, &t.BridgeEndA, &t.BridgeEndB, &t.BridgeMerged, &t.LargestComponent,
			&t.Score[0], &t.Score[1], &t.Islands[0], &t.Islands[1], &t.Sandbanks[0], &t.Sandbanks[1],
			&t.Dead[0], &t.Dead[1], &t.DeadCreated[0], &t.DeadCreated[1], &t.Mobility[0], &t.Mobility[1], &t.ThinkMS); err != nil {
			return err
		}
		for _, p := range []*string{&t.Colour, &t.Kind, &t.A, &t.B, &shape} {
			*p = cutText(*p, maxText)
		}
		t.BridgeShape = sql.NullString{String: shape, Valid: shape != ""}
		g.TurnRows = append(g.TurnRows, t)
	}
	return rows.Err()
}

func (q *detailQueries) loadTags(ctx context.Context, g *game) error {
	if err := q.tagCount.QueryRowContext(ctx, g.ID).Scan(&g.TagsTotal); err != nil {
		return err
	}
	if g.TagsTotal == 0 {
		return nil
	}
	rows, err := q.tags.QueryContext(ctx, g.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return err
		}
		g.Tags = append(g.Tags, [2]string{cutText(name, maxText), cutText(value, maxText)})
	}
	return rows.Err()
}
