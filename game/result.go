package game

import (
	"errors"
	"fmt"
	"strconv"
)

// Result is the outcome of a game.
type Result uint8

// The results, written as in the records: "*", "1-0", "0-1", "1/2-1/2".
const (
	NoResult  Result = iota // unknown or unfinished: "*"
	LightWins               // "1-0"
	DarkWins                // "0-1"
	Draw                    // "1/2-1/2"
)

// String returns the result token: "*", "1-0", "0-1" or "1/2-1/2"; "Result(N)" for a
// value that is none of the four.
func (r Result) String() string {
	switch r {
	case NoResult:
		return "*"
	case LightWins:
		return "1-0"
	case DarkWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "Result(" + strconv.Itoa(int(r)) + ")"
}

// LightScore is Light's score of the result: 1 a win, ½ a draw, 0 a loss (and 0 for
// NoResult, the result of no finished game).
func (r Result) LightScore() float64 {
	switch r {
	case LightWins:
		return 1
	case Draw:
		return 0.5
	}
	return 0
}

// ErrResult is the error of a text that is no result token, or of a Result value that is
// none of the four.
var ErrResult = errors.New("not a result: must be 1-0, 0-1, 1/2-1/2 or *")

// MarshalText writes the result token, so that a Result is its token in JSON.
func (r Result) MarshalText() ([]byte, error) {
	if r > Draw {
		return nil, fmt.Errorf("%v: %w", r, ErrResult)
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a result token, as ParseResult does.
func (r *Result) UnmarshalText(b []byte) error {
	v, ok := ParseResult(string(b))
	if !ok {
		return fmt.Errorf("%q: %w", b, ErrResult)
	}
	*r = v
	return nil
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
