package game

// Result is the outcome of a game.
type Result uint8

// The results, written as in the records: "*", "1-0", "0-1", "1/2-1/2".
const (
	NoResult  Result = iota // unknown or unfinished: "*"
	LightWins               // "1-0"
	DarkWins                // "0-1"
	Draw                    // "1/2-1/2"
)

// String returns the result token.
func (r Result) String() string {
	switch r {
	case LightWins:
		return "1-0"
	case DarkWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseResult reads a result token; "" counts as "*". ok is false for any other text.
func ParseResult(s string) (r Result, ok bool) {
	switch s {
	case "*", "":
		return NoResult, true
	case "1-0":
		return LightWins, true
	case "0-1":
		return DarkWins, true
	case "1/2-1/2":
		return Draw, true
	}
	return NoResult, false
}

// Final is a game's known result, the one the statistics count: the computed result when
// the game is over (R5, R7), else the result its record claims when it ended by a
// resignation, on time or by an agreed draw (Termination.ClaimsResult), whose result the
// rules cannot check; NoResult when neither is known.
func Final(over bool, computed Result, t Termination, claimed Result) Result {
	switch {
	case over:
		return computed
	case t.ClaimsResult():
		return claimed
	}
	return NoResult
}
