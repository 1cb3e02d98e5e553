package report

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

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
	Moves                   string
	Raw                     string
	Duplicates              int

	TurnRows []turnRow
	Tags     [][2]string
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

// gameColumns are the games columns a page shows. An unreadable record has no scores
// (NULL); its page shows none, so they are read as 0.
const gameColumns = `id, game_id, source, file_index, line, format, coalesce(event, ''), coalesce(site, ''),
	coalesce(date, ''), coalesce(round, ''), coalesce(record_id, ''), coalesce(light, ''), coalesce(dark, ''),
	coalesce(opener, ''), swapped, size, supply, claimed_result, coalesce(termination, ''),
	claimed_score_light, claimed_score_dark, legal, unreadable, coalesce(error_rule, ''), coalesce(error_turn, 0),
	coalesce(error_line, 0), coalesce(error_col, 0), coalesce(error_message, ''), turns, over,
	coalesce(result, ''), coalesce(winner, ''), coalesce(tiebreak, ''), coalesce(score_light, 0),
	coalesce(score_dark, 0), coalesce(islands_light, 0), coalesce(islands_dark, 0), coalesce(bridges_light, 0),
	coalesce(bridges_dark, 0), coalesce(margin, 0), moves, coalesce(raw, ''), duplicates`

func scanGame(rows *sql.Rows) (*game, error) {
	g := &game{}
	err := rows.Scan(&g.ID, &g.GameID, &g.Source, &g.FileIndex, &g.Line, &g.Format, &g.Event, &g.Site,
		&g.Date, &g.Round, &g.RecordID, &g.Light, &g.Dark,
		&g.Opener, &g.Swapped, &g.Size, &g.Supply, &g.ClaimedResult, &g.Termination,
		&g.ClaimedScore[0], &g.ClaimedScore[1], &g.Legal, &g.Unreadable, &g.ErrorRule, &g.ErrorTurn,
		&g.ErrorLine, &g.ErrorCol, &g.ErrorMessage, &g.Turns, &g.Over,
		&g.Result, &g.Winner, &g.TieBreak, &g.Score[0], &g.Score[1],
		&g.Islands[0], &g.Islands[1], &g.Bridges[0], &g.Bridges[1], &g.Margin, &g.Moves, &g.Raw, &g.Duplicates)
	return g, err
}

// loadGames reads the games that get a page: the games f selects that are not legal, in
// stored order, then the legal ones, at most limit in all; with their turns and tags.
func loadGames(ctx context.Context, db *sql.DB, f stats.Filter, limit int) ([]*game, error) {
	where, args := f.SQL()
	var games []*game
	for _, legal := range []string{"NOT legal", "legal"} {
		if len(games) >= limit {
			break
		}
		q := `SELECT ` + gameColumns + ` FROM games g WHERE ` + legal + ` AND ` + where + ` ORDER BY id LIMIT ?`
		rows, err := db.QueryContext(ctx, q, append(append([]any(nil), args...), limit-len(games))...)
		if err != nil {
			return nil, fmt.Errorf("games: %w", err)
		}
		for rows.Next() {
			g, err := scanGame(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("games: %w", err)
			}
			games = append(games, g)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("games: %w", err)
		}
	}
	byID := make(map[int64]*game, len(games))
	for _, g := range games {
		byID[g.ID] = g
	}
	const chunk = 500
	for start := 0; start < len(games); start += chunk {
		part := games[start:min(start+chunk, len(games))]
		in := strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")
		ids := make([]any, len(part))
		for i, g := range part {
			ids[i] = g.ID
		}
		if err := loadTurns(ctx, db, in, ids, byID); err != nil {
			return nil, err
		}
		if err := loadTags(ctx, db, in, ids, byID); err != nil {
			return nil, err
		}
	}
	return games, nil
}

func loadTurns(ctx context.Context, db *sql.DB, in string, ids []any, byID map[int64]*game) error {
	rows, err := db.QueryContext(ctx, `SELECT game, turn, colour, kind, coalesce(a, ''), coalesce(b, ''), islands_formed,
		group_a, group_b, bridge_shape, bridge_end_a, bridge_end_b, bridge_merged, largest_component,
		score_light, score_dark, islands_light, islands_dark, sandbanks_light, sandbanks_dark,
		dead_light, dead_dark, dead_created_light, dead_created_dark, mobility_light, mobility_dark, think_ms
		FROM turns WHERE game IN (`+in+`) ORDER BY game, turn`, ids...)
	if err != nil {
		return fmt.Errorf("turns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t turnRow
		if err := rows.Scan(&id, &t.Turn, &t.Colour, &t.Kind, &t.A, &t.B, &t.IslandsFormed,
			&t.GroupA, &t.GroupB, &t.BridgeShape, &t.BridgeEndA, &t.BridgeEndB, &t.BridgeMerged, &t.LargestComponent,
			&t.Score[0], &t.Score[1], &t.Islands[0], &t.Islands[1], &t.Sandbanks[0], &t.Sandbanks[1],
			&t.Dead[0], &t.Dead[1], &t.DeadCreated[0], &t.DeadCreated[1], &t.Mobility[0], &t.Mobility[1], &t.ThinkMS); err != nil {
			return fmt.Errorf("turns: %w", err)
		}
		if g := byID[id]; g != nil {
			g.TurnRows = append(g.TurnRows, t)
		}
	}
	return rows.Err()
}

func loadTags(ctx context.Context, db *sql.DB, in string, ids []any, byID map[int64]*game) error {
	rows, err := db.QueryContext(ctx, `SELECT game, name, value FROM tags WHERE game IN (`+in+`) ORDER BY game, seq`, ids...)
	if err != nil {
		return fmt.Errorf("tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name, value string
		if err := rows.Scan(&id, &name, &value); err != nil {
			return fmt.Errorf("tags: %w", err)
		}
		if g := byID[id]; g != nil {
			g.Tags = append(g.Tags, [2]string{name, value})
		}
	}
	return rows.Err()
}
