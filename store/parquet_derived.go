package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/store/parquet"
)

// The Parquet files answer the report's questions in one GROUP BY: games.parquet holds,
// after the columns of the games table, what the statistics derive from a game (the
// opening folded by symmetry, the known result, the opener's score, the population), and
// its date as a DATE; tags.parquet holds the tags, keyed by the stable game id so that
// the files of many shards can be read as one table (docs/schema.md).

// parquetFiles are the files of a Parquet folder, in the order written.
var parquetFiles = []string{"games.parquet", "turns.parquet", "tags.parquet"}

// isParquetFile reports whether name is one of parquetFiles, or the annotations that
// ponte annotate adds to them (EvalsParquetName).
func isParquetFile(name string) bool {
	return slices.Contains(parquetFiles, name) || name == EvalsParquetName
}

// parquetVersion numbers the layout of the Parquet files (their columns and files): a
// folder written by a ponte of another layout is not current (ParquetCurrent) and is
// written again. 2: the derived columns of games.parquet, date as a DATE, tags.parquet.
const parquetVersion = 2

// gamesParquet documents the columns games.parquet adds after those of the games table
// (GameRow's fields after the table's). Their types are Parquet's: DOUBLE is a float64.
var gamesParquet = table{
	name: "games.parquet",
	doc:  "the games table, then what the statistics derive from each game",
	columns: []column{
		{"opening", "TEXT", true, "the opening (turn 1's two cells) folded by the board's 8 symmetries, as `ponte stats` names it (`game.FoldPair`): the two cells of the least image in reading order, `c3 e4`; the same for every opening a symmetry maps onto it; NULL when the game has no turn 1 that can be read"},
		{"final_result", "TEXT", true, "the result `ponte stats` knows for a legal game: the computed `result` when over, else the claimed result of a record that ended by resignation, on time or by an agreed draw (`termination` `resign`, `time`, `agreement`); NULL when unknown, and for every game not legal"},
		{"decided", "BOOLEAN", false, "`final_result` is known: the games `ponte stats` counts as decided (`boards[].decided`); false for every game not legal"},
		{"opener_score", "DOUBLE", true, "the opener's score in a decided game, from the opener's side whatever colour they ended with: 1 a win, 0.5 a draw, 0 a loss; NULL when not decided. `ponte stats`' swap rates and opener's scores are over the decided games with `turns >= 2`"},
		{"population", "TEXT", false, "`bots` for a game with a bot player, else `people`, as `ponte stats` tells them without `--bots` (`game.IsBot`): the `Site` tag is `ponte selfplay`, or a `LightIsAI` or `DarkIsAI` tag is `true`"},
		{"date_text", "TEXT", true, "the `Date` tag as the games table holds it, `YYYY.MM.DD` with `??` for an unknown part (`date` is that date as a DATE when it is a whole date, NULL otherwise)"},
	},
}

// tagsParquet documents tags.parquet: the tags table with the stable game id in place of
// the database's own number.
var tagsParquet = table{
	name: "tags.parquet",
	doc:  "every tag of every game, keyed by `games.game_id`",
	columns: []column{
		{"game_id", "TEXT", false, "`games.game_id`: the game's stable id, the same in every database and shard"},
		{"seq", "INTEGER", false, "the tag's place in the record, from 1"},
		{"name", "TEXT", false, "the tag's name (`Event`, `Light`, `Opener`, …)"},
		{"value", "TEXT", false, "its value, as written"},
	},
}

// exportTags writes tags.parquet to path: the tags with their games' stable ids, in the
// order of the games and of each game's tags, read from game_tags and unpacked in Go
// (parseTagsJSON). The game's number comes first in each row read, for progress
// (tableProgress). The games' ids are read alongside, a few thousand at a time in the
// same order (a join would make SQLite read the games table once per game, and the driver
// copy the id into a string of its own for each), and shared by their tags' rows.
func exportTags(c *conn, path, state string, progress func(int64, driver.Value)) (rows, size int64, err error) {
	rf, err := parquet.Create[TagRow](path, parquet.TagsPerRowGroup)
	if err != nil {
		return 0, 0, err
	}
	if progress != nil {
		progress(0, int64(0))
	}
	var ids gameIDs
	err = c.query("SELECT game, tags FROM game_tags ORDER BY game", nil, func(vals []driver.Value) error {
		game, ok := vals[0].(int64)
		if !ok {
			return typeError("game_tags.game", vals[0])
		}
		text, err := textValue("game_tags.tags", vals[1])
		if err != nil {
			return err
		}
		tags, err := parseTagsJSON(text)
		if err != nil {
			return fmt.Errorf("game_tags.tags of game %d: %w", game, err)
		}
		gameID, err := ids.of(c, game)
		if err != nil {
			return err
		}
		for i, t := range tags {
			r, _ := rf.Next()
			r.GameID, r.Seq, r.Name, r.Value = gameID, int32(i+1), t[0], t[1]
			if rf.Full() {
				if progress != nil {
					progress(rf.Rows(), game)
				}
				if err := rf.Send(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return rf.Close(err, state)
}

// gameIDs reads the stable ids of the games in the order of their numbers, a chunk at a
// time, for rows that come in that order.
type gameIDs struct {
	nums []int64
	ids  []string
	next int // nums[next] is the first game not behind the last one asked for
}

// gameIDsChunk is the games whose ids gameIDs reads at once; tests lower it.
var gameIDsChunk = 4096

// of returns the stable id of the game numbered game, which is not behind the last one
// asked for; an error when the games table holds no such game (only an edited database
// has tags of no game).
func (g *gameIDs) of(c *conn, game int64) (string, error) {
	for {
		for g.next < len(g.nums) && g.nums[g.next] < game {
			g.next++
		}
		if g.next < len(g.nums) {
			if g.nums[g.next] != game {
				return "", fmt.Errorf("tags of game %d, which the games table does not hold: %w", game, errEditedTags)
			}
			return g.ids[g.next], nil
		}
		g.nums, g.ids, g.next = g.nums[:0], g.ids[:0], 0
		err := c.query("SELECT id, game_id FROM games WHERE id >= ? ORDER BY id LIMIT "+strconv.Itoa(gameIDsChunk), []driver.Value{game}, func(row []driver.Value) error {
			num, ok := row[0].(int64)
			if !ok {
				return typeError("id", row[0])
			}
			id, err := textValue("game_id", row[1])
			g.nums, g.ids = append(g.nums, num), append(g.ids, id)
			return err
		})
		if err != nil {
			return "", err
		}
		if len(g.nums) == 0 {
			return "", fmt.Errorf("tags of game %d, which the games table does not hold: %w", game, errEditedTags)
		}
	}
}

// errEditedTags is wrapped by the error of a tag whose game is not stored.
var errEditedTags = errors.New("the database was edited: run ponte ingest into a new file")

// textValue is a TEXT NOT NULL value as a valid UTF-8 string (validText).
func textValue(col string, v driver.Value) (string, error) {
	switch x := v.(type) {
	case string:
		return validText(x), nil
	case []byte:
		return validText(string(x)), nil
	}
	return "", typeError(col, v)
}

// exportGames writes games.parquet to path: the games table, in the order stored, with
// the derived columns (gamesParquet). tagged, when not nil, tells the games whose tags mark
// a bot player where the database keeps no tags (a Parquet-only ingest's).
func exportGames(c *conn, path, state string, progress func(int64, driver.Value), tagged func(id int64) bool) (rows, size int64, err error) {
	gm, err := newGameRows()
	if err != nil {
		return 0, 0, err
	}
	// Whether the game has a bot player, as ponte stats decides without --bots.
	bot, _ := botSQL(nil)
	n := len(gamesTable.columns)
	set := func(g *GameRow, vals []driver.Value, sl *parquet.Slab) error {
		isBot, ok := vals[n].(int64)
		if !ok {
			return typeError("population", vals[n])
		}
		if tagged != nil && isBot == 0 {
			id, ok := vals[gm.id].(int64)
			if !ok {
				return typeError("id", vals[gm.id])
			}
			if tagged(id) {
				isBot = 1
			}
		}
		return gm.set(g, vals[:n], isBot != 0, sl)
	}
	return exportRows(c, "SELECT "+gamesTable.names()+", "+bot+" FROM games g ORDER BY id", set,
		path, parquet.GamesPerRowGroup, state, progress, gamesBlobs...)
}

// gameRows makes the rows of games.parquet from the values of the games table's columns,
// as read from the database or as the writer stores them.
type gameRows struct {
	plan rowPlan
	id   int // the index of the column id
	date int // of date, or -1
	site int // of site
	dv   parquet.Deriver
}

func newGameRows() (*gameRows, error) {
	plan, err := planOf[GameRow](&gamesTable)
	if err != nil {
		return nil, err
	}
	gm := &gameRows{plan: plan, date: -1, site: -1}
	for i, col := range gamesTable.columns {
		switch col.name {
		case "id":
			gm.id = i
		case "date":
			gm.date = i
		case "site":
			gm.site = i
		}
	}
	return gm, nil
}

// set fills g from the values of the table's columns, vals, given whether the game has a
// bot player (botSQL).
func (gm *gameRows) set(g *GameRow, vals []driver.Value, bot bool, sl *parquet.Slab) error {
	if err := gm.plan.set(unsafe.Pointer(g), vals, sl); err != nil {
		return err
	}
	if gm.date >= 0 && vals[gm.date] != nil {
		text, err := textValue("date", vals[gm.date])
		if err != nil {
			return err
		}
		g.DateText = sl.Stringp(text)
	}
	gm.dv.Derive(g, bot)
	return nil
}

// hasBot is botSQL(nil) of a game as the writer stores it: its site (a value of the
// column site), or tagged, what tagsMarkBot says of its tags.
func (gm *gameRows) hasBot(vals []driver.Value, tagged bool) bool {
	site, _ := vals[gm.site].(string)
	return tagged || site == game.SelfPlaySite
}

// tagsMarkBot is the part of botSQL(nil) that reads a game's tags: a LightIsAI or DarkIsAI
// tag that is true. game_tags holds them as valid text (appendTagsJSON), which botSQL
// compares with SQLite's lower(), lowering ASCII letters only.
func tagsMarkBot(tags []ingest.Tag) bool {
	for _, t := range tags {
		if name := validText(t.Name); (name == game.LightIsAI || name == game.DarkIsAI) && asciiLower(validText(t.Value)) == game.IsAIValue {
			return true
		}
	}
	return false
}

// asciiLower is s with its ASCII capitals lowered, as SQLite's lower() does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// parquetExtra is the columns the Parquet file of t derives, after t's own.
func parquetExtra(t *table) []column {
	if t == &gamesTable {
		return gamesParquet.columns
	}
	return nil
}

// hasOption reports whether the options of a parquet struct tag ("optional,dict") hold opt.
func hasOption(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = cutComma(opts)
		if o == opt {
			return true
		}
	}
	return false
}
