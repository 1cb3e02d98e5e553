package intake

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/components"
	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/store"
	"github.com/ponte/ponte/verdict"
)

// analyzer replays records; each worker has its own.
type analyzer struct {
	g     replay.Game
	ft    replay.FeatureTracker
	feats []replay.Features
	raw   capWriter
	turns turntext.Builder
	comps [2][]int
	text  []byte
	prep  store.Preparer
}

// analyze replays rec (read with readErr, nil or a *ingest.ParseError) and returns it as the
// store takes it, prepared. Every value that `ponte verify --json` also prints is taken
// from the record's verdict, so that the two never disagree. The record's raw text and
// moves and its error message are bounded (text.go), its tags and its source kept whole.
func (a *analyzer) analyze(rec *ingest.Record, readErr error, g *store.Replayed) {
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

	swapped := false
	if replayed {
		swapped = a.g.Swapped()
	} else {
		swapped = len(rec.Moves) >= 2 && rec.Moves[1].Text == "swap"
	}
	*g = store.Replayed{GameID: v.GameID, Source: v.Source, FileIndex: v.Index, Line: v.Line, Format: v.Format,
		Event: tagValue(rec, "Event"), Site: tagValue(rec, "Site"), Date: tagValue(rec, "Date"), Round: tagValue(rec, "Round"),
		RecordID: v.RecordID, Light: tagValue(rec, "Light"), Dark: tagValue(rec, "Dark"),
		Swapped: swapped, Size: rec.Size, Supply: rec.Supply, ClaimedResult: v.ClaimedResult, Termination: v.Termination,
		ClaimedScore: rec.Score, Legal: v.Legal, Unreadable: v.Unreadable, Turns: v.Turns, Over: v.Over,
		Moves: movesText(rec, maxMoves), MoveNumbers: moveNumbers(rec), Tags: rec.Tags}
	g.Opener = g.Light
	if swapped {
		g.Opener = g.Dark
	}
	if e := v.Error; e != nil {
		g.Error = &store.FirstError{Rule: e.Rule, Turn: e.Turn, Line: e.Line, Col: e.Col,
			Message: fitText(e.Message, len(e.Message), maxMessage, "the message", ' ')}
	}
	g.TagErrors = tagErrorsJSON(v.TagErrors)
	if v.Result != nil && replayed {
		result, by := a.g.Standing()
		switch result {
		case game.LightWins:
			g.Winner = "light"
		case game.DarkWins:
			g.Winner = "dark"
		}
		g.Result, g.TieBreak = v.Result, by.String()
	}
	if replayed {
		g.Scored, g.Score, g.Islands, g.Bridges = true, *v.Score, *v.Islands, *v.Bridges
	}
	if len(a.feats) > 0 && a.feats[0].Kind == replay.Tiles {
		g.OpeningA, g.OpeningB = cellName(a.feats[0].Move.A), cellName(a.feats[0].Move.B)
	}
	switch {
	case v.Legal:
	case unreadable:
		raw := fitText(string(rec.Raw), len(rec.Raw), maxRaw, "the record's text", '\n')
		g.Raw = &raw
	default:
		raw := a.rawText(rec)
		g.Raw = &raw
	}
	if replayed {
		a.comps = components.Final(&a.g, a.comps)
		g.ComponentsLight, g.ComponentsDark = a.components(replay.Light), a.components(replay.Dark)
	}

	if len(a.feats) > 0 {
		a.turns.Reset()
		for i := range a.feats {
			millis := 0
			if i < len(rec.Moves) {
				millis = rec.Moves[i].Millis
			}
			a.turns.AddFeatures(&a.feats[i], millis)
		}
		g.PackedTurns, g.TurnRows = a.turns.String(), a.turns.Len()
	}
	a.prep.Prepare(g)
}

// components is games.components_light or components_dark of a.comps (components.Final).
func (a *analyzer) components(c replay.Colour) string {
	a.text = components.Append(a.text[:0], a.comps[c])
	return components.Text(a.text)
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
// are not their turn's, "turn:number" pairs separated by spaces; "" when there are none.
func moveNumbers(rec *ingest.Record) string {
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

// tagValue points to the value of the tag name in the record, or is nil when the record
// does not have it.
func tagValue(rec *ingest.Record, name string) *string {
	for i := range rec.Tags {
		if rec.Tags[i].Name == name {
			return &rec.Tags[i].Value
		}
	}
	return nil
}

// tagErrorsJSON is the games.tag_errors of a verdict's TagErrors: their JSON array as
// `ponte verify --json` prints it, or "" (NULL) when there are none.
func tagErrorsJSON(errs []verdict.Error) string {
	if len(errs) == 0 {
		return ""
	}
	b, err := json.Marshal(errs)
	if err != nil { // strings and integers: cannot fail
		panic(err)
	}
	return string(b)
}

// cellNames are the cells' names, made once.
var cellNames [1024]string

func init() {
	for col := range game.MaxSize {
		for row := range game.MaxSize {
			c := game.CellAt(col, row)
			cellNames[c] = c.String()
		}
	}
}

// cellName is the notation of a cell ("d4").
func cellName(c game.Cell) string {
	if int(c) < len(cellNames) && cellNames[c] != "" {
		return cellNames[c]
	}
	return c.String()
}
