package store

import (
	"database/sql/driver"
	"strconv"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
)

// Replayed is a record as the intake hands it to the store: read, replayed and judged, with
// its turns and tags. Its fields are the columns of games ([schema.md](../docs/schema.md))
// but id, source_id and duplicates, which the writer fills in. A nil pointer is NULL, and
// so is "" in the fields that say so (their values are never empty). Every text is
// stored as valid UTF-8 (validText); the intake bounds the texts that it may cut (Moves,
// Raw, the error's message).
type Replayed struct {
	GameID    string
	Source    string
	FileIndex int
	Line      int
	Format    string
	// The tags of the same names (pointers into the record's tags, so that they cost
	// nothing), and the opener: the player who played turn 1.
	Event, Site, Date, Round, RecordID, Light, Dark, Opener *string
	Swapped                                                 bool
	Size                                                    int
	Supply                                                  game.Supply
	ClaimedResult                                           game.Result
	Termination                                             *string
	ClaimedScore                                            *[2]int // [light, dark]
	Legal, Unreadable                                       bool
	Error                                                   *FirstError // the first thing wrong; nil for a legal game
	TagErrors                                               string      // the JSON array, "" for NULL
	Turns                                                   int
	Over                                                    bool
	Result                                                  *game.Result // nil while the game is not over
	Winner, TieBreak                                        string       // "" for NULL
	// Scored: the record was replayed on a board, and Score, Islands and Bridges are
	// those after its last legal turn (else they and margin are NULL).
	Scored                          bool
	Score, Islands, Bridges         [2]int
	OpeningA, OpeningB              string // the cells of turn 1, "" for NULL
	Moves                           string
	Raw                             *string
	ComponentsLight, ComponentsDark string // "" for NULL
	MoveNumbers                     string // "" for NULL

	// PackedTurns is game_turns.turns (internal/turntext), "" when no turn was played
	// legally; TurnRows the turns in it.
	PackedTurns string
	TurnRows    int
	// Tags are the record's tags in order, each name and value valid UTF-8.
	Tags []ingest.Tag

	row      []driver.Value // games' values, made by Prepare
	tagsText string         // game_tags.tags, "" when there is no tag
	// The values of its game_turns and game_tags rows, boxed by Prepare but the game's
	// number (0), which the writer fills in.
	turnsRow [2]driver.Value
	tagsRow  [2]driver.Value
}

// FirstError is the first thing wrong with a game: games.error_rule and the columns after it.
type FirstError struct {
	Rule    string
	Turn    *int // nil for R8 and format
	Line    int
	Col     int
	Message string
}

// A Preparer makes a game's values ready for the writer on the caller's goroutine, so
// that the one writer only binds them: each worker of an ingest has its own.
type Preparer struct {
	text   []byte
	source driver.Value // the last game's source, boxed: a file's games share it
}

// Prepare makes g's values ready to store. The writer prepares a game that was not.
func (p *Preparer) Prepare(g *Replayed) {
	if g.row != nil {
		return
	}
	r := make([]driver.Value, 0, len(gamesTable.columns))
	if s, _ := p.source.(string); s != g.Source || p.source == nil {
		p.source = validText(g.Source)
	}
	r = append(r, int64(0), validText(g.GameID), int64(0), p.source, num(g.FileIndex), num(g.Line), word(g.Format))
	r = append(r, optPtr(g.Event), optPtr(g.Site), optPtr(g.Date), optPtr(g.Round), optPtr(g.RecordID),
		optPtr(g.Light), optPtr(g.Dark), optPtr(g.Opener))
	r = append(r, g.Swapped, num(g.Size), word(g.Supply.String()), word(g.ClaimedResult.String()), ptrWord(g.Termination))
	if s := g.ClaimedScore; s != nil {
		r = append(r, num(s[0]), num(s[1]))
	} else {
		r = append(r, nil, nil)
	}
	r = append(r, g.Legal, g.Unreadable)
	if e := g.Error; e != nil {
		var turn driver.Value
		if e.Turn != nil {
			turn = num(*e.Turn)
		}
		r = append(r, validText(e.Rule), turn, num(e.Line), num(e.Col), validText(e.Message))
	} else {
		r = append(r, nil, nil, nil, nil, nil)
	}
	r = append(r, optText(g.TagErrors), num(g.Turns), g.Over, resultWord(g.Result), optWord(g.Winner), optWord(g.TieBreak))
	if g.Scored {
		r = append(r, num(g.Score[0]), num(g.Score[1]), num(g.Islands[0]), num(g.Islands[1]),
			num(g.Bridges[0]), num(g.Bridges[1]), num(abs(g.Score[0]-g.Score[1])))
	} else {
		r = append(r, nil, nil, nil, nil, nil, nil, nil)
	}
	r = append(r, optWord(g.OpeningA), optWord(g.OpeningB), validText(g.Moves), optPtr(g.Raw), int64(0), // duplicates
		optWord(g.ComponentsLight), optWord(g.ComponentsDark), optText(g.MoveNumbers))
	g.row = r
	if g.TurnRows > 0 {
		g.turnsRow = [2]driver.Value{nil, g.PackedTurns}
	}
	if len(g.Tags) > 0 {
		p.text = appendTagsJSON(p.text[:0], g.Tags)
		g.tagsText = string(p.text)
		g.tagsRow = [2]driver.Value{nil, g.tagsText}
	}
}

// Column positions the writer fills in.
const (
	gameColID       = 0
	gameColSourceID = 2
)

// optPtr is *p (see validText), or NULL for nil.
func optPtr(p *string) driver.Value {
	if p == nil {
		return nil
	}
	return validText(*p)
}

// optText is s (see validText), or NULL for "".
func optText(s string) driver.Value {
	if s == "" {
		return nil
	}
	return validText(s)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Values boxed once, so that preparing a game allocates little: small integers, and the
// words most games hold (words).
var (
	smallInts [1024]driver.Value
	words     = map[string]driver.Value{}
)

func init() {
	for i := range smallInts {
		smallInts[i] = int64(i)
	}
	var common []string
	for col := range 26 { // the cells' names, a1 … z26
		for row := range 26 {
			common = append(common, string(rune('a'+col))+strconv.Itoa(row+1))
		}
	}
	common = append(common, "ponte", "jsonl", "boardspace", "abstractplay", "unlimited", "40/15", // formats, supplies
		"1-0", "0-1", "1/2-1/2", "*", "normal", "resign", "time", "abandoned", // results, terminations
		"light", "dark", "score", "islands", "bridges", "draw", // winners, tie-breaks
		"[]", "[1]", "[1,1]", "[1,1,1]", "[2]", "[2,1]", "[1,1,1,1]", "[2,1,1]", "[3]") // components
	for _, w := range common {
		words[w] = w
	}
}

// num boxes an int as the int64 SQLite binds.
func num(n int) driver.Value {
	if uint(n) < uint(len(smallInts)) {
		return smallInts[n]
	}
	return int64(n)
}

// word is s (see validText), boxed once when it is one of words.
func word(s string) driver.Value {
	if v, ok := words[s]; ok { // no allocation to look up
		return v
	}
	return validText(s)
}

// optWord is word(s), or NULL for "".
func optWord(s string) driver.Value {
	if s == "" {
		return nil
	}
	return word(s)
}

// resultWord is the token of *r, boxed once, or NULL for nil.
func resultWord(r *game.Result) driver.Value {
	if r == nil {
		return nil
	}
	return word(r.String())
}

// ptrWord is word(*p), or NULL for nil.
func ptrWord(p *string) driver.Value {
	if p == nil {
		return nil
	}
	return word(*p)
}
