package replay

import (
	"fmt"
	"strconv"
)

// Rule is the id of a rule of docs/rules.md, the id every violation is reported with.
type Rule string

// The rule ids the engine reports. Families (R3, R4) are used for the plain cases of the
// family: a cell that is not free, an end that is not the mover's tile.
const (
	RuleSwap     Rule = "R1"   // swap not at turn 2
	RuleTile     Rule = "R3"   // a tile on a cell that is not empty, or blocked; too few tiles left
	RuleSize     Rule = "R3.1" // a group larger than 4 tiles
	RuleDistance Rule = "R3.2" // an island touching another group of its colour
	RuleBridge   Rule = "R4"   // a bridge end that is not the mover's tile; the pool is empty
	RuleWater    Rule = "R4.2" // a tile under the bridge
	RuleOneEnd   Rule = "R4.3" // a tile that already carries a bridge end
	RuleCrossing Rule = "R4.4" // a bridge crossing or touching another
	RulePass     Rule = "R5.1" // a pass while two tiles could be placed
	RuleOver     Rule = "R5.4" // a move after the end of the game
	RuleRecord   Rule = "R8"   // the record's claims disagree with the replay
	RuleNotation Rule = "R9"   // a move that cannot be read
)

// String returns the rule id, "R3.2".
func (r Rule) String() string { return string(r) }

// RuleError is a violation of the rules: which rule, at which turn, and a message that
// names the cells. Turn is 0 for a disagreement about the whole game (R8).
type RuleError struct {
	Rule    Rule
	Turn    int
	Message string
}

// Error returns "RULE: message", the form verify prints after the position (docs/formats.md).
func (e *RuleError) Error() string { return string(e.Rule) + ": " + e.Message }

// TurnString returns "turn N" or "the record" for an error without a turn.
func (e *RuleError) TurnString() string {
	if e.Turn == 0 {
		return "the record"
	}
	return "turn " + strconv.Itoa(e.Turn)
}

// notationError returns an R9 error; the turn is filled in by the caller.
func notationError(format string, args ...any) *RuleError {
	return &RuleError{Rule: RuleNotation, Message: fmt.Sprintf(format, args...)}
}
