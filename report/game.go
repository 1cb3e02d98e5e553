package report

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/store"
)

// game is one stored game with what its page shows.
type game struct {
	store.Game
	TurnRows  []store.Turn // the turns 1 … maxMoveRows
	Tags      [][2]string  // the first maxTags tags, cut to maxText characters
	TagsTotal int          // the tags of the game in all

	Evals *gameEvals // the engine's reading of the game (ponte annotate); nil when none
}

// pageLimits are what a page reads of a game.
var pageLimits = store.PageLimits{Text: maxText, Moves: maxMovesText, Raw: ingest.MaxRaw, Turns: maxMoveRows, Tags: maxTags}

// pagePath is the game page's path inside the report.
func (g *game) pagePath() string { return "games/" + strconv.FormatInt(g.ID, 10) + ".html" }

// pageGames calls fn with each game that gets a page, in order (store.Reader.PageGames),
// its texts cut for the page.
func pageGames(ctx context.Context, db *store.Reader, f store.Filter, limit int, fn func(*game) error) error {
	return db.PageGames(ctx, f, limit, pageLimits, func(sg *store.Game) error {
		g := &game{Game: *sg}
		for _, p := range []*string{&g.GameID, &g.Source, &g.Format, &g.Event, &g.Site, &g.Date, &g.Round, &g.RecordID,
			&g.Light, &g.Dark, &g.Opener, &g.Supply, &g.ClaimedResult, &g.Termination, &g.ErrorRule, &g.ErrorMessage,
			&g.Result, &g.Winner, &g.TieBreak} {
			*p = cutText(*p, maxText)
		}
		g.Moves = strings.ToValidUTF8(g.Moves, "\uFFFD")
		g.Raw = cutUTF8([]byte(g.Raw))
		return fn(g)
	})
}

// load reads g's turns 1 … maxMoveRows and its first maxTags tags.
func load(ctx context.Context, q *store.Details, g *game) error {
	err := q.Turns(ctx, g.ID, func(t *store.Turn) {
		for _, p := range []*string{&t.Colour, &t.Kind, &t.A, &t.B, &t.BridgeShape} {
			*p = cutText(*p, maxText)
		}
		g.TurnRows = append(g.TurnRows, *t)
	})
	if err != nil {
		return fmt.Errorf("game %d: turns: %w", g.ID, err)
	}
	g.TagsTotal, err = q.Tags(ctx, g.ID, func(name, value string) {
		g.Tags = append(g.Tags, [2]string{cutText(name, maxText), cutText(value, maxText)})
	})
	if err != nil {
		return fmt.Errorf("game %d: tags: %w", g.ID, err)
	}
	return nil
}
