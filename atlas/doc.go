// Package atlas estimates, for every opening of Ponte del Diavolo (Light's two tiles at
// turn 1, folded by the board's 8 symmetries), Light's expected score p under strong play:
// games a bot plays against itself from the position after the opening, each seeded by
// the opening's class and the game's index, allocated in rounds to the openings whose
// verdict (swap, keep, fair within ±m) is still open, with intervals that stay valid
// although the rounds stop on the data. The rounds' state is plain data (a Plan), so that
// shards of a round can be played anywhere and merged. The method and its figures:
// docs/atlas.md.
package atlas
