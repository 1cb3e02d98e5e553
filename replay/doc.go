// Package replay is the Ponte del Diavolo rules engine: the board, the moves and their
// notation, the legality of every turn as docs/rules.md defines it (R1 … R9), scoring and
// tie-breaks, and the check of a record's claims against the replay.
//
// The engine is built for replaying large archives: a Game is reused across games with
// Reset, every turn's legality is decided by looking only at the cells around the move
// (group ids per cell are kept incrementally, bridges are indexed by their end cells), and
// nothing is allocated on a legal turn. Only a pass needs the whole board, to decide whether
// the player could still have placed two tiles (R5.1).
//
// The values it shares with every other package are package game's, below it: a Cell, a
// Result and a Supply are game.Cell, game.Result and game.Supply, named here too (type
// aliases) for the engine's callers.
package replay
