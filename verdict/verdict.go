// Package verdict replays game records and says whether each is legal: the verdict of a
// record, as `ponte verify` prints it and the store keeps it, and an ordered parallel
// pipeline that checks a stream of records on all cores with flat memory.
package verdict

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// Verdict is what the replay of one record says. Its JSON form is one line of
// `ponte verify --json`, with the fields in this order and the names of the columns of
// the store's games table that hold the same values (docs/verdict.md).
// Score, Islands and Bridges are [light, dark] in the last legal position, nil when there
// was no board to replay on (an unreadable record).
type Verdict struct {
	Source        string       `json:"source"`         // the file's name as read
	Index         int          `json:"index"`          // the record's place in the file, from 1
	Line          int          `json:"line"`           // the line where the record starts
	Format        string       `json:"format"`         // ingest.Format.String(): ponte, jsonl, boardspace, abstractplay
	GameID        string       `json:"game_id"`        // GameID: the stable id of the game
	RecordID      *string      `json:"record_id"`      // the GameId tag, the archive's own id; nil when absent
	Legal         bool         `json:"legal"`          // every turn legal, every tag read, every claim true
	Unreadable    bool         `json:"unreadable"`     // the record could not be read at all (a *ingest.ParseError); then not Legal
	Turns         int          `json:"turns"`          // turns played legally
	Over          bool         `json:"over"`           // the game is over after them (R5)
	Result        *game.Result `json:"result"`         // the computed result when Over, else nil
	ClaimedResult game.Result  `json:"claimed_result"` // ingest.Record.ClaimedResult: 1-0, 0-1, 1/2-1/2 or *
	Termination   *string      `json:"termination"`    // the record's termination, nil when it has none
	Score         *[2]int      `json:"score"`
	Islands       *[2]int      `json:"islands"`
	Bridges       *[2]int      `json:"bridges"`
	Error         *Error       `json:"error"` // the first thing wrong, nil for a legal game

	// TagErrors are the record's tag values that could not be read (ingest.Record.TagErrors),
	// rule "format", in the order met; never nil in a verdict of Of, Analyze or Unreadable,
	// so that its JSON is [] when there are none.
	TagErrors []Error `json:"tag_errors"`
}

// values holds what the pointers of one Verdict point to, and the text of its strings,
// so that a verdict costs one allocation for all of them, and Check one per batch of
// verdicts. A verdict holds nothing of its record: the record may be released
// (ingest.Record.Release) as soon as its verdict is made.
type values struct {
	score, islands, bridges [2]int
	recordID, termination   string
	result                  game.Result
	gameID                  [32]byte // the text of GameID
	recordText              [48]byte // the text of RecordID, when it fits
}

// keepGameID makes the verdict's GameID the id of the hashed text b, its text in vals.
func keepGameID(v *Verdict, vals *values, b []byte) {
	appendID(vals.gameID[:0], b)
	v.GameID = unsafe.String(&vals.gameID[0], len(vals.gameID))
}

// keepRecordGameID makes the verdict's GameID that of rec, as GameID computes it.
func keepRecordGameID(v *Verdict, vals *values, rec *ingest.Record) {
	var buf [2048]byte
	keepGameID(v, vals, appendIDText(buf[:0], rec))
}

// keepRecordID makes id, a tag value of the record, the verdict's RecordID, copied into
// vals (or, when longer than that holds, into a string of its own).
func keepRecordID(v *Verdict, vals *values, id string) {
	switch {
	case id == "":
		vals.recordID = ""
	case len(id) <= len(vals.recordText):
		n := copy(vals.recordText[:], id)
		vals.recordID = unsafe.String(&vals.recordText[0], n)
	default:
		vals.recordID = strings.Clone(id)
	}
	v.RecordID = &vals.recordID
}

// Error is the first thing wrong with a record: the rule it breaks, the turn (nil for a
// disagreement about the whole game, R8, and for a record that cannot be read), and where.
type Error struct {
	Rule    string `json:"rule"`
	Turn    *int   `json:"turn"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// Rules for records that cannot be read. A malformed movetext (a stray brace, a turn
// number without a turn) is notation, R9; anything else (a tag line, a tag value, a JSON
// line) is the record's format. A wrong turn number does not make a record unreadable:
// the replay reports it as R9 at its turn.
const (
	RuleNotation = string(replay.RuleNotation)
	RuleFormat   = "format"
)

// Of replays rec on g (which is reset first, so one Game serves many records) and returns
// its verdict.
func Of(rec *ingest.Record, g *replay.Game) Verdict {
	v, _ := analyze(rec, g, nil, nil, new(values))
	return v
}

// Analyze is Of with the per-turn features: it appends the Features of every turn played
// legally to turns and returns them. ft is reset first.
func Analyze(rec *ingest.Record, g *replay.Game, ft *replay.FeatureTracker, turns []replay.Features) (Verdict, []replay.Features) {
	ft.Reset()
	return analyze(rec, g, ft, turns, new(values))
}

// head returns the verdict's fields that come from the record alone but its GameID, their
// values in vals.
func head(rec *ingest.Record, vals *values) Verdict {
	v := Verdict{Source: rec.Source, Index: rec.Index, Line: rec.Line, Format: rec.Format.String(),
		ClaimedResult: rec.ClaimedResult(), TagErrors: []Error{}}
	for i := range rec.Tags {
		if rec.Tags[i].Name == "GameId" {
			keepRecordID(&v, vals, rec.Tags[i].Value)
			break
		}
	}
	if rec.Termination != game.Unstated {
		vals.termination = rec.Termination.String()
		v.Termination = &vals.termination
	}
	if len(rec.TagErrors) > 0 {
		v.TagErrors = make([]Error, len(rec.TagErrors))
		for i, pe := range rec.TagErrors {
			v.TagErrors[i] = Error{Rule: RuleFormat, Line: pe.Line, Col: pe.Column, Message: causeOf(pe)}
		}
	}
	return v
}

// causeOf is the message of a ParseError's cause, without the position it adds.
func causeOf(pe *ingest.ParseError) string {
	if pe.Err == nil {
		return ""
	}
	return pe.Err.Error()
}

func analyze(rec *ingest.Record, g *replay.Game, ft *replay.FeatureTracker, turns []replay.Features, vals *values) (v Verdict, _ []replay.Features) {
	v = head(rec, vals)
	supply := rec.Supply
	if supply != game.Unlimited && supply != game.Supply40x15 {
		keepRecordGameID(&v, vals, rec)
		v.Error = &Error{Rule: RuleFormat, Line: rec.Line, Col: 1, Message: fmt.Sprintf("unknown supply %d", supply)}
		return v, turns
	}
	if err := g.Reset(rec.Size, supply); err != nil || rec.Raw != nil {
		keepRecordGameID(&v, vals, rec)
		if err != nil {
			v.Error = &Error{Rule: RuleFormat, Line: rec.Line, Col: 1, Message: err.Error()}
			return v, turns
		}
	}
	// The game's id is hashed as the moves are read: a token the replay parsed is not
	// parsed again (GameID gives the same id).
	var idBuf [1024]byte // a game of a hundred turns; a longer one grows it on the heap
	id := appendGameHead(idBuf[:0], rec)
	for i := range rec.Moves {
		tok := &rec.Moves[i]
		var m replay.Move // the zero Move while the token is not read
		var err error
		if ft == nil {
			m, err = g.PlayTurn(tok.Number, tok.Text)
		} else {
			n := len(turns)
			turns = slices.Grow(turns, 1)[:n+1]
			if m, err = ft.PlayTurn(g, tok.Number, tok.Text, &turns[n]); err != nil {
				turns = turns[:n]
			}
		}
		if m != (replay.Move{}) {
			id = appendMove(appendTokenHead(id, tok, i), tok.Text, m)
			if err != nil {
				id = appendTokens(id, rec, i+1)
			}
		} else {
			id = appendTokens(id, rec, i)
		}
		if err != nil {
			re := err.(*replay.RuleError)
			turn := re.Turn
			line, col := tok.Line, tok.Col
			if re.Rule == replay.RuleNotation && tok.Number != 0 && tok.Number != turn {
				line, col = tok.NumberLine, tok.NumberCol // the number is at fault
			}
			v.Error = &Error{Rule: string(re.Rule), Turn: &turn, Line: line, Col: col, Message: re.Message}
			break
		}
	}
	if v.GameID == "" {
		keepGameID(&v, vals, id)
	}
	v.Turns, v.Over = g.Turn(), g.Over()
	vals.score, vals.islands, vals.bridges = g.Score(), g.Islands(), g.Bridges()
	v.Score, v.Islands, v.Bridges = &vals.score, &vals.islands, &vals.bridges
	if g.Over() {
		vals.result = g.Result()
		v.Result = &vals.result
	}
	if v.Error != nil {
		return v, turns
	}
	// Every turn is legal. A tag that could not be read comes next: the record's claims
	// are not what it meant to say, so they are not checked (R8).
	if len(v.TagErrors) > 0 {
		e := v.TagErrors[0]
		v.Error = &e
		return v, turns
	}
	claim := replay.Claim{Result: rec.ClaimedResult(), Termination: rec.Termination.String(), Score: rec.Score}
	if err := g.CheckClaim(claim); err != nil {
		re := err.(*replay.RuleError)
		v.Error = &Error{Rule: string(re.Rule), Line: rec.Line, Col: 1, Message: re.Message}
		return v, turns
	}
	v.Legal = true
	return v, turns
}

// asParseError returns err as a *ingest.ParseError, nil when it is none. Only an error
// costs an allocation (that of errors.As's target).
func asParseError(err error) *ingest.ParseError {
	if err == nil {
		return nil
	}
	var pe *ingest.ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// Unreadable returns the verdict of a record that could not be read: rec is what the
// reader returned with pe (nil when nothing), and the verdict's Score, Islands and Bridges
// are nil.
func Unreadable(rec *ingest.Record, pe *ingest.ParseError) Verdict {
	return unreadable(rec, pe, new(values))
}

func unreadable(rec *ingest.Record, pe *ingest.ParseError, vals *values) Verdict {
	if rec == nil {
		rec = UnreadableRecord(pe)
	}
	v := head(rec, vals)
	keepRecordGameID(&v, vals, rec)
	v.Source, v.Index, v.Line, v.Unreadable = pe.Source, pe.Game, pe.StartLine, true
	rule := RuleFormat
	if errors.Is(pe.Err, ingest.ErrSyntax) {
		rule = RuleNotation
	}
	v.Error = &Error{Rule: rule, Line: pe.Line, Col: pe.Column, Message: causeOf(pe)}
	return v
}

// UnreadableRecord is the record that stands for an unreadable one when its reader
// returned none: the default board, where pe says, and the error's text as its Raw text
// (so that its GameID is that of the text).
func UnreadableRecord(pe *ingest.ParseError) *ingest.Record {
	return &ingest.Record{Size: 10, Supply: game.Unlimited, Source: pe.Source, Index: pe.Game, Line: pe.StartLine,
		Raw: []byte(pe.Error())}
}
