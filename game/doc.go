// Package game names what several of ponte's packages say about Ponte del Diavolo games
// beyond one game's rules (which are package replay's): the opening folded by the board's
// symmetries ([FoldPair]), who is a bot ([SelfPlaySite], the [LightIsAI] and [DarkIsAI]
// tags, the populations people and bots), and how a record says a game ended
// ([Termination], [Ending]). The result and the supply of a game are typed values of the
// rules engine: replay.Result and replay.Supply, with their String and parsing.
//
// It imports no other package of ponte but replay, so that ingest, store, stats and report
// can all share it.
package game
