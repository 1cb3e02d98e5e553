// Package verdict replays game records and says whether each is legal: the verdict of a
// record, as `ponte verify` prints it and the store keeps it, and an ordered parallel
// pipeline that checks a stream of records on all cores with flat memory.
package verdict

import (
	"errors"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// Verdict is what the replay of one record says. Its JSON form is one line of
// `ponte verify --json`. Score, Islands and Bridges are [light, dark] in the last legal
// position.
type Verdict struct {
	Source  string  `json:"source"`
	Index   int     `json:"index"`
	Line    int     `json:"line"`
	GameID  string  `json:"game_id"`
	Legal   bool    `json:"legal"`
	Turns   int     `json:"turns"`
	Over    bool    `json:"over"`
	Result  *string `json:"result"`
	Score   [2]int  `json:"score"`
	Islands [2]int  `json:"islands"`
	Bridges [2]int  `json:"bridges"`
	Error   *Error  `json:"error"`

	// Unreadable is true when the record could not be read at all (a *ingest.ParseError);
	// such a record is also not Legal.
	Unreadable bool `json:"-"`
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
	v, _ := analyze(rec, g, nil, nil)
	return v
}

// Analyze is Of with the per-turn features: it appends the Features of every turn played
// legally to turns and returns them. ft is reset first.
func Analyze(rec *ingest.Record, g *replay.Game, ft *replay.FeatureTracker, turns []replay.Features) (Verdict, []replay.Features) {
	ft.Reset()
	return analyze(rec, g, ft, turns)
}

func analyze(rec *ingest.Record, g *replay.Game, ft *replay.FeatureTracker, turns []replay.Features) (v Verdict, _ []replay.Features) {
	v = Verdict{Source: rec.Source, Index: rec.Index, Line: rec.Line, GameID: rec.Tag("GameId")}
	supply, ok := replay.ParseSupply(rec.Supply)
	if !ok {
		v.Error = &Error{Rule: RuleFormat, Line: rec.Line, Col: 1, Message: "unknown supply " + rec.Supply}
		return v, turns
	}
	if err := g.Reset(rec.Size, supply); err != nil {
		v.Error = &Error{Rule: RuleFormat, Line: rec.Line, Col: 1, Message: err.Error()}
		return v, turns
	}
	defer func() {
		v.Turns, v.Over = g.Turn(), g.Over()
		v.Score, v.Islands, v.Bridges = g.Score(), g.Islands(), g.Bridges()
		if g.Over() {
			r := g.Result().String()
			v.Result = &r
		}
	}()
	for i := range rec.Moves {
		tok := &rec.Moves[i]
		m, err := g.ReadTurn(tok.Number, tok.Text)
		if err == nil {
			if ft != nil {
				var f replay.Features
				if f, err = ft.Play(g, m); err == nil {
					turns = append(turns, f)
				}
			} else {
				err = g.Play(m)
			}
		}
		if err != nil {
			re := err.(*replay.RuleError)
			turn := re.Turn
			line, col := tok.Line, tok.Col
			if re.Rule == replay.RuleNotation && tok.Number != 0 && tok.Number != turn {
				line, col = tok.NumberLine, tok.NumberCol // the number is at fault
			}
			v.Error = &Error{Rule: string(re.Rule), Turn: &turn, Line: line, Col: col, Message: re.Message}
			return v, turns
		}
	}
	result, _ := replay.ParseResult(rec.ClaimedResult())
	claim := replay.Claim{Result: result, Termination: rec.Termination, Score: rec.Score}
	if err := g.CheckClaim(claim); err != nil {
		re := err.(*replay.RuleError)
		v.Error = &Error{Rule: string(re.Rule), Line: rec.Line, Col: 1, Message: re.Message}
		return v, turns
	}
	v.Legal = true
	return v, turns
}

// Unreadable returns the verdict of a record that could not be read.
func Unreadable(rec *ingest.Record, pe *ingest.ParseError) Verdict {
	v := Verdict{Source: pe.Source, Index: pe.Game, Line: pe.StartLine, Unreadable: true}
	if rec != nil {
		v.GameID = rec.Tag("GameId")
	}
	rule := RuleFormat
	if errors.Is(pe.Err, ingest.ErrSyntax) {
		rule = RuleNotation
	}
	msg := ""
	if pe.Err != nil {
		msg = pe.Err.Error()
	}
	v.Error = &Error{Rule: rule, Line: pe.Line, Col: pe.Column, Message: msg}
	return v
}
