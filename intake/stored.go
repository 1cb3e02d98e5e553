package intake

import (
	"fmt"
	"strings"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/components"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/store"
)

// ReplayStored makes the replay of stored games that the store's upgrade of a database of
// schema version 1 to 3 needs ([store.OpenOptions].Replay): each game's turns played
// legally are replayed on a board of its own, kept from game to game, and its final
// components are those components.Final gives, as the ingest stores them.
func ReplayStored() store.ReplayStored {
	var g replay.Game
	var comps [2][]int
	return func(size int, supply game.Supply, moves string, turns int) ([2][]int, error) {
		if err := g.Reset(size, supply); err != nil {
			return comps, err
		}
		played := 0
		for tok := range strings.FieldsSeq(moves) {
			if played == turns {
				break
			}
			if err := g.PlayText(tok); err != nil {
				return comps, fmt.Errorf("replaying turn %d (%s): %w", played+1, tok, err)
			}
			played++
		}
		if played < turns {
			return comps, fmt.Errorf("%d turns played legally, but only %d moves stored", turns, played)
		}
		comps = components.Final(&g, comps)
		return comps, nil
	}
}

// Open opens the database at path for writing, as store.Open does, upgrading a database
// of any earlier schema version: those of version 1 to 3 by replaying their games
// (ReplayStored). The commands that write a database open it here.
func Open(path string) (*store.DB, error) {
	return store.OpenWith(path, store.OpenOptions{Replay: ReplayStored})
}
