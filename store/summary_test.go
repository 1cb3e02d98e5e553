package store

import (
	"fmt"

	"github.com/ponte/ponte/internal/turnsum"
	"github.com/ponte/ponte/internal/turntext"
)

// appendSummary appends to dst the summary (internal/turnsum) of the turns of a
// game_turns.turns, text, of the game game, read with turntext.Scanner: what the
// statistics read of the turns (Reader.TurnSummaries).
func appendSummary(dst []byte, game int64, text string) ([]byte, error) {
	var sc turntext.Scanner
	for sc.Reset(text); sc.Next(); {
		sum := turnsum.OfText(sc.Turn())
		var err error
		if dst, err = turnsum.Append(dst, &sum); err != nil {
			return nil, fmt.Errorf("game_turns.turns of game %d, turn %d: %w", game, sc.N(), err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("game_turns.turns of game %d: %w", game, err)
	}
	if dst == nil {
		dst = []byte{}
	}
	return dst, nil
}
