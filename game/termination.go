package game

import "fmt"

// Termination is how a game ended, by its record's word (the Termination tag).
type Termination uint8

// The terminations a record may state.
const (
	Unstated  Termination = iota // the record says nothing: ""
	Normal                       // over by the rules (R5): "normal"
	Resign                       // a player resigned: "resign"
	Time                         // a player lost on time: "time"
	Abandoned                    // the game was abandoned: "abandoned"
	Agreement                    // a draw agreed before the end: "agreement"
)

var terminationNames = [...]string{"", "normal", "resign", "time", "abandoned", "agreement"}

// String returns the word a record writes: "normal", "resign", …; "" for Unstated.
func (t Termination) String() string {
	if int(t) < len(terminationNames) {
		return terminationNames[t]
	}
	return fmt.Sprintf("Termination(%d)", uint8(t))
}

// ParseTermination reads a Termination tag's value; "" is Unstated. ok is false for any
// other word.
func ParseTermination(s string) (t Termination, ok bool) {
	for i, name := range terminationNames {
		if s == name {
			return Termination(i), true
		}
	}
	return Unstated, false
}

// ClaimsResult tells whether a record that ended this way carries a result that is its
// word alone: a resignation, a loss on time or an agreed draw, whose result the rules
// cannot check (R8).
func (t Termination) ClaimsResult() bool {
	return t == Resign || t == Time || t == Agreement
}

// Unfinished is the ending of a record that stops before the end without saying why.
const Unfinished = "unfinished"

// Endings are the ways a stored legal game ends, as the statistics count them, in their
// order: normal, resign, time, abandoned, agreement, unfinished.
var Endings = [...]string{"normal", "resign", "time", "abandoned", "agreement", Unfinished}

// Ending is how a game ended: "normal" when it is over by the rules, else its record's
// termination when it states one other than normal, else Unfinished.
func Ending(over bool, t Termination) string {
	switch {
	case over:
		return Normal.String()
	case t != Unstated && t != Normal:
		return t.String()
	}
	return Unfinished
}
