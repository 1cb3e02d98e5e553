package store

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// analysis is what a worker makes of one record: its id, its verdict, and the values of
// its rows in the column order of the tables. The writer fills in the game's number
// (column 0 of every row) and its source (games.source_id).
type analysis struct {
	id         string
	legal      bool
	unreadable bool
	game       []driver.Value // one games row
	turns      string         // game_turns.turns (turntext), "" when no turn was played legally
	byTurn     []byte         // game_turns.by_turn (turnsum): a part of the analyzer's sums, never written again
	nturns     int            // the turns in it
	tags       []tagPair      // the record's tags in order, each name and value valid UTF-8, whole
	tagsText   string         // game_tags.tags (appendTagsJSON); "" when the record has no tag
}

// Column positions the writer fills in.
const (
	gameColID       = 0
	gameColSourceID = 2
)

// analyzer replays records; each worker has its own.
type analyzer struct {
	g     replay.Game
	ft    replay.FeatureTracker
	feats []replay.Features
	raw   capWriter
	turns turntext.Builder
	// sums holds the summaries of the games' turns (game_turns.by_turn) one after the
	// other: each game's is a slice of it that the writer keeps until its row is inserted,
	// and a new one is made when it is full, so that a game costs no allocation of its own.
	sums  []byte
	comps [2][]int
	text  []byte
}

// sumsSize is the size of the analyzer's sums: the summaries of about 280 games of 45
// turns.
const sumsSize = 64 << 10

// analyze replays rec (read with readErr, nil or a *ingest.ParseError) and returns its rows.
// Every column that `ponte verify --json` also prints is taken from the record's verdict,
// so that the two never disagree. Every text is valid UTF-8 (text.go); the record's raw
// text and moves and its error message are bounded, its tags and its source kept whole.
func (a *analyzer) analyze(rec *ingest.Record, readErr error) analysis {
	var v verdict.Verdict
	var pe *ingest.ParseError
	unreadable := errors.As(readErr, &pe)
	if rec == nil { // the readers return what they read with a ParseError; be safe
		if pe == nil {
			pe = &ingest.ParseError{Err: readErr}
		}
		rec = verdict.UnreadableRecord(pe)
	}
	a.feats = a.feats[:0]
	if unreadable {
		v = verdict.Unreadable(rec, pe)
	} else {
		v, a.feats = verdict.Analyze(rec, &a.g, &a.ft, a.feats)
	}
	// A record was replayed when there was a board to replay on: not when it could not be
	// read, nor when the engine refuses its size or supply. Its scores say so.
	replayed := v.Score != nil
	out := analysis{id: v.GameID, legal: v.Legal, unreadable: v.Unreadable}

	swapped := false
	if replayed {
		swapped = a.g.Swapped()
	} else {
		swapped = len(rec.Moves) >= 2 && rec.Moves[1].Text == "swap"
	}
	opener, ok := tagValue(rec, "Light")
	if swapped {
		opener, ok = tagValue(rec, "Dark")
	}

	g := make([]driver.Value, 0, len(gamesTable.columns))
	g = append(g, int64(0), v.GameID, int64(0), validText(v.Source), num(v.Index), num(v.Line), v.Format)
	for _, name := range [...]string{"Event", "Site", "Date", "Round"} {
		g = append(g, optTag(rec, name))
	}
	g = append(g, optPtr(v.RecordID))
	for _, name := range [...]string{"Light", "Dark"} {
		g = append(g, optTag(rec, name))
	}
	g = append(g, optString(opener, ok), swapped, num(rec.Size), validText(rec.Supply), validText(v.ClaimedResult), optPtr(v.Termination))
	if rec.Score != nil {
		g = append(g, num(rec.Score[0]), num(rec.Score[1]))
	} else {
		g = append(g, nil, nil)
	}
	g = append(g, v.Legal, v.Unreadable)
	if e := v.Error; e != nil {
		var turn driver.Value
		if e.Turn != nil {
			turn = num(*e.Turn)
		}
		g = append(g, validText(e.Rule), turn, num(e.Line), num(e.Col), fitText(e.Message, len(e.Message), maxMessage, "the message", ' '))
	} else {
		g = append(g, nil, nil, nil, nil, nil)
	}
	g = append(g, tagErrorsJSON(v.TagErrors))
	g = append(g, num(v.Turns), v.Over)
	if v.Result != nil && replayed {
		result, by := a.g.Standing()
		var winner driver.Value
		switch result {
		case replay.LightWins:
			winner = "light"
		case replay.DarkWins:
			winner = "dark"
		}
		g = append(g, *v.Result, winner, by.String())
	} else {
		g = append(g, nil, nil, nil)
	}
	if replayed {
		g = append(g, num(v.Score[0]), num(v.Score[1]), num(v.Islands[0]), num(v.Islands[1]),
			num(v.Bridges[0]), num(v.Bridges[1]), num(abs(v.Score[0]-v.Score[1])))
	} else {
		g = append(g, nil, nil, nil, nil, nil, nil, nil)
	}
	if len(a.feats) > 0 && a.feats[0].Kind == replay.Tiles {
		g = append(g, cellValue(a.feats[0].Move.A), cellValue(a.feats[0].Move.B))
	} else {
		g = append(g, nil, nil)
	}
	g = append(g, movesText(rec, maxMoves))
	switch {
	case v.Legal:
		g = append(g, nil)
	case unreadable:
		g = append(g, fitText(string(rec.Raw), len(rec.Raw), maxRaw, "the record's text", '\n'))
	default:
		g = append(g, a.rawText(rec))
	}
	g = append(g, int64(0)) // duplicates
	if replayed {
		a.comps = finalComponents(&a.g, a.comps)
		g = append(g, a.components(replay.Light), a.components(replay.Dark))
	} else {
		g = append(g, nil, nil)
	}
	g = append(g, moveNumbers(rec))
	out.game = g

	if len(a.feats) > 0 {
		a.turns.Reset()
		if need := turnsum.Size * len(a.feats); cap(a.sums)-len(a.sums) < need {
			a.sums = make([]byte, 0, max(sumsSize, need))
		}
		start := len(a.sums)
		for i := range a.feats {
			millis := 0
			if i < len(rec.Moves) {
				millis = rec.Moves[i].Millis
			}
			t := turntext.Pack(&a.feats[i], millis)
			a.turns.Add(&t)
			sum := turnsum.OfFeatures(&a.feats[i])
			var err error
			if a.sums, err = turnsum.Append(a.sums, &sum); err != nil {
				// The engine's values on a board of at most 26×26 always fit (turnsum).
				panic(fmt.Sprintf("turn %d: %v", i+1, err))
			}
		}
		out.turns, out.nturns = a.turns.String(), a.turns.Len()
		out.byTurn = a.sums[start:len(a.sums):len(a.sums)]
	}
	if len(rec.Tags) > 0 {
		t := make([]tagPair, len(rec.Tags))
		for i, tag := range rec.Tags {
			t[i] = tagPair{validText(tag.Name), validText(tag.Value)}
		}
		out.tags = t
		a.text = appendTagsJSON(a.text[:0], t)
		out.tagsText = string(a.text)
	}
	return out
}

// components is games.components_light or components_dark of a.comps (finalComponents):
// the islands of each of the colour's components that holds an island, largest first, as
// a JSON array.
func (a *analyzer) components(c replay.Colour) string {
	a.text = appendComponents(a.text[:0], a.comps[c])
	return componentsText(a.text)
}

// finalComponents fills comps[colour] with the islands of each component of the colour
// in g's position that holds an island, largest first. Every tile of a 4-tile group (an
// island) names its component, and each component is counted once.
func finalComponents(g *replay.Game, comps [2][]int) [2][]int {
	var seen [2][]int // component ids
	comps[0], comps[1] = comps[0][:0], comps[1][:0]
	size := g.Size()
	for row := range size {
		for col := range size {
			cell := replay.CellAt(col, row)
			colour, ok := g.At(cell)
			if !ok || g.GroupSize(cell) != 4 {
				continue
			}
			id, islands := g.ComponentOf(cell)
			if slices.Contains(seen[colour], id) {
				continue
			}
			seen[colour] = append(seen[colour], id)
			comps[colour] = append(comps[colour], islands)
		}
	}
	for c := range comps {
		slices.Sort(comps[c])
		slices.Reverse(comps[c])
	}
	return comps
}

// appendComponents appends the JSON array of islands.
func appendComponents(dst []byte, islands []int) []byte {
	dst = append(dst, '[')
	for i, n := range islands {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, ']')
}

// commonComponents are the texts of components most games end with, made once.
var commonComponents = map[string]string{}

func init() {
	for _, c := range [][]int{{}, {1}, {1, 1}, {1, 1, 1}, {2}, {2, 1}, {1, 1, 1, 1}, {2, 1, 1}, {3}} {
		s := string(appendComponents(nil, c))
		commonComponents[s] = s
	}
}

// componentsText is text as a string, shared when it is a common one.
func componentsText(text []byte) string {
	if s, ok := commonComponents[string(text)]; ok { // no allocation to look up
		return s
	}
	return string(text)
}

// rawText writes a record that was read but is not legal back in its format (in the other
// one if its own cannot hold it; a record of another site's format, which ponte does not
// write, in .ponte, else JSON Lines), so that the store keeps every illegal turn and what
// follows it. Turn numbers are written afresh, but one that is not the turn's (an R9 error),
// which is written as it was read. Only the first maxRaw bytes of the text are
// kept: a longer one is cut, with a last line that says so.
func (a *analyzer) rawText(rec *ingest.Record) string {
	formats := [2]ingest.Format{ingest.FormatPonte, ingest.FormatJSONL}
	if rec.Format == ingest.FormatJSONL {
		formats = [2]ingest.Format{ingest.FormatJSONL, ingest.FormatPonte}
	}
	for _, f := range formats {
		a.raw.reset(maxRaw)
		w := ingest.NewWriter(&a.raw, f)
		if w.Write(rec) == nil && w.Flush() == nil {
			return fitText(string(a.raw.b), a.raw.n, maxRaw, "the record's text", '\n')
		}
	}
	return movesText(rec, maxRaw)
}

// moveNumbers is games.move_numbers of rec: the turn numbers written before its moves that
// are not their turn's, "turn:number" pairs separated by spaces; nil when there are none.
func moveNumbers(rec *ingest.Record) driver.Value {
	var b []byte
	for i := range rec.Moves {
		if n := rec.Moves[i].Number; n != 0 && n != i+1 {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(i+1), 10)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	if b == nil {
		return nil
	}
	return string(b)
}

// movesText is the record's move tokens separated by spaces, as valid UTF-8 of at most
// limit bytes: a longer text is cut after a token, with a note that says so.
func movesText(rec *ingest.Record, limit int) string {
	n := -1
	for i := range rec.Moves {
		n += len(rec.Moves[i].Text) + 1
	}
	n = max(n, 0)
	var b strings.Builder
	b.Grow(min(n, limit))
	for i := range rec.Moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		t := rec.Moves[i].Text
		if room := limit - b.Len(); len(t) >= room { // the rest cannot fit: fitText cuts
			b.WriteString(t[:max(room, 0)])
			break
		}
		b.WriteString(t)
	}
	return fitText(b.String(), n, limit, "the move text", ' ')
}

// tagValue returns the value of the tag name and whether the record has it.
func tagValue(rec *ingest.Record, name string) (string, bool) {
	for i := range rec.Tags {
		if rec.Tags[i].Name == name {
			return rec.Tags[i].Value, true
		}
	}
	return "", false
}

func optTag(rec *ingest.Record, name string) driver.Value {
	v, ok := tagValue(rec, name)
	return optString(v, ok)
}

// optPtr is *p (see validText), or NULL for nil.
func optPtr(p *string) driver.Value {
	if p == nil {
		return nil
	}
	return validText(*p)
}

// tagErrorsJSON is the games.tag_errors of a verdict's TagErrors: their JSON array as
// `ponte verify --json` prints it, or NULL when there are none.
func tagErrorsJSON(errs []verdict.Error) driver.Value {
	if len(errs) == 0 {
		return nil
	}
	b, err := json.Marshal(errs)
	if err != nil { // strings and integers: cannot fail
		panic(err)
	}
	return validText(string(b)) // encoding/json writes valid UTF-8: a guard that costs no copy
}

// optString is s (see validText), or NULL when not ok.
func optString(s string, ok bool) driver.Value {
	if !ok {
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

// Values boxed once, so that building rows allocates little: small integers and the cells.
var (
	smallInts  [1024]driver.Value
	cellValues [1024]driver.Value
)

func init() {
	for i := range smallInts {
		smallInts[i] = int64(i)
	}
	for col := range replay.MaxSize {
		for row := range replay.MaxSize {
			c := replay.CellAt(col, row)
			cellValues[c] = c.String()
		}
	}
}

// num boxes an int as the int64 SQLite binds.
func num(n int) driver.Value {
	if uint(n) < uint(len(smallInts)) {
		return smallInts[n]
	}
	return int64(n)
}

// cellValue is the notation of a cell ("d4").
func cellValue(c replay.Cell) driver.Value {
	if int(c) < len(cellValues) && cellValues[c] != nil {
		return cellValues[c]
	}
	return c.String()
}
