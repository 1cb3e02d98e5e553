package replay

import (
	"fmt"

	"github.com/ponte/ponte/game"
)

// Result is the outcome of a game: game.Result, named here for the engine's callers.
type Result = game.Result

// The results, written as in the records: "*", "1-0", "0-1", "1/2-1/2" (game's).
const (
	NoResult  = game.NoResult  // unknown or unfinished: "*"
	LightWins = game.LightWins // "1-0"
	DarkWins  = game.DarkWins  // "0-1"
	Draw      = game.Draw      // "1/2-1/2"
)

// ParseResult reads a result token; "" counts as "*" (game.ParseResult).
func ParseResult(s string) (Result, bool) { return game.ParseResult(s) }

// TieBreak says what decided a game under R7.
type TieBreak uint8

// What decides, in the order R7 applies them.
const (
	ByScore   TieBreak = iota // the higher score
	ByIslands                 // equal scores, more islands
	ByBridges                 // equal scores and islands, more bridges
	Drawn                     // all equal: a draw
)

// String returns "score", "islands", "bridges" or "draw".
func (t TieBreak) String() string {
	switch t {
	case ByScore:
		return "score"
	case ByIslands:
		return "islands"
	case ByBridges:
		return "bridges"
	}
	return "draw"
}

// Score returns each colour's score (R6) as [light, dark].
func (g *Game) Score() [2]int { return [2]int{g.tally[Light].score, g.tally[Dark].score} }

// Islands returns each colour's number of islands as [light, dark].
func (g *Game) Islands() [2]int { return [2]int{g.tally[Light].islands, g.tally[Dark].islands} }

// Sandbanks returns each colour's number of sandbanks as [light, dark].
func (g *Game) Sandbanks() [2]int { return [2]int{g.tally[Light].sandbanks, g.tally[Dark].sandbanks} }

// Bridges returns each colour's number of bridges as [light, dark].
func (g *Game) Bridges() [2]int { return [2]int{g.tally[Light].bridges, g.tally[Dark].bridges} }

// Tiles returns each colour's number of tiles on the board as [light, dark].
func (g *Game) Tiles() [2]int { return [2]int{g.tally[Light].tiles, g.tally[Dark].tiles} }

// Standing applies R7 to the current position, over or not: who is ahead and what decides it.
func (g *Game) Standing() (Result, TieBreak) {
	l, d := &g.tally[Light], &g.tally[Dark]
	for i, pair := range [3][2]int{{l.score, d.score}, {l.islands, d.islands}, {l.bridges, d.bridges}} {
		switch {
		case pair[0] > pair[1]:
			return LightWins, TieBreak(i)
		case pair[0] < pair[1]:
			return DarkWins, TieBreak(i)
		}
	}
	return Draw, Drawn
}

// Result returns the outcome of a finished game (R7), NoResult while it is not over.
func (g *Game) Result() Result {
	if !g.over {
		return NoResult
	}
	r, _ := g.Standing()
	return r
}

// ResultFor is colour c's share of the finished game's result: 1 a win, ½ a draw, 0 a
// loss; 0 while the game is not over.
func (g *Game) ResultFor(c Colour) float64 {
	if !g.over {
		return 0
	}
	s := g.Result().LightScore()
	if c != Light {
		s = 1 - s
	}
	return s
}

// Claim is what a record states about its end: the result, how the game ended
// ("normal", "resign", "time", "abandoned", or "" when nothing is said) and the final score.
type Claim struct {
	Result      Result
	Termination string
	Score       *[2]int // [light, dark], nil when not stated
}

// CheckClaim checks a record's claims against the replayed game (R8): a normal end must be
// a real end (R5), a result claimed for a normal end must be the one R6/R7 give, and a
// stated score must be the score of the last position. Results of games that ended by
// resignation, time or abandonment are the record's word and are not checked. It returns
// an R8 *RuleError with Turn 0, or nil.
func (g *Game) CheckClaim(cl Claim) error {
	if cl.Termination == "normal" && !g.over {
		return &RuleError{Rule: RuleRecord, Message: fmt.Sprintf("the record claims a normal end, but the game is not over after turn %d: %s is to move", g.turn, g.ToMove())}
	}
	if cl.Termination == "normal" && cl.Result != NoResult {
		if got, by := g.Standing(); got != cl.Result {
			s := g.Score()
			return &RuleError{Rule: RuleRecord, Message: fmt.Sprintf("the record claims %s, but the replay gives %s (score %d-%d, decided by %s)", cl.Result, got, s[0], s[1], by)}
		}
	}
	if cl.Score != nil && *cl.Score != g.Score() {
		s := g.Score()
		return &RuleError{Rule: RuleRecord, Message: fmt.Sprintf("the record claims the score %d-%d, but the replay scores %d-%d", cl.Score[0], cl.Score[1], s[0], s[1])}
	}
	return nil
}
