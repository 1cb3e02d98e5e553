// Package game names the values that several of ponte's packages share about Ponte del
// Diavolo games, below the rules engine (package replay, which plays by them): a square
// of the board ([Cell], [ParseCell]), a game's result ([Result], [ParseResult]) and supply
// ([Supply], [ParseSupply]), how a record says a game ended ([Termination], [Ending]) and
// the result the statistics count ([Final]), the opening folded by the board's symmetries
// ([FoldPair]), and who is a bot ([SelfPlaySite], the [LightIsAI] and [DarkIsAI] tags,
// the populations people and bots).
//
// It imports no other package of ponte, so that every package, the rules engine
// included, can share it.
package game
