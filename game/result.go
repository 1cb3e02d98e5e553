package game

import "github.com/ponte/ponte/replay"

// Final is a game's known result, the one the statistics count: the computed result when
// the game is over (R5, R7), else the result its record claims when it ended by a
// resignation, on time or by an agreed draw (Termination.ClaimsResult), whose result the
// rules cannot check; replay.NoResult when neither is known.
func Final(over bool, computed replay.Result, t Termination, claimed replay.Result) replay.Result {
	switch {
	case over:
		return computed
	case t.ClaimsResult():
		return claimed
	}
	return replay.NoResult
}
