// Package stats answers the questions people ask of an archive of Ponte del Diavolo games,
// from a database made by ponte ingest: is the pie rule balanced, which openings are
// played and swapped and how they turn out, how games are scored and how they end, and
// how islands, bridges, burned land and mobility evolve turn by turn.
//
// Every statistic is split by board size, and [Compute] takes a [Filter] (site, event,
// player or bot, source file, date range, size). Every rate is a [Rate]: its count, its
// number of games and a 95% Wilson score interval; every other estimate comes with its
// number of games and a 95% interval too.
//
// People's games and bots' games are never mixed silently: a game with a bot player (its
// Site "ponte selfplay", a player its record marks as a bot, or one named in Filter.Bots)
// is a bots' game, and a Report covers one population (Filter.Population: people by
// default when there are any, bots, or all), saying which, and counting the others.
//
// The answer comes first: [Report.Cards] give, per board size and population, the verdict
// on the pie rule ([Judge]: opener favoured, responder favoured, balanced within ±3%, or
// not enough games to tell) on the opener's expected score against an equal player, with
// the players' strength taken out by a rating model ([FitRatings]), and name the estimates
// that disagree ([Disagreements]). Per-opening rates are shrunk towards the board's average
// ([ShrinkAll]). The estimators are checked against simulated truth in the tests: their
// 95% intervals cover the planted values in 90–98% of simulated archives.
//
// The games each statistic counts, precisely:
//   - legal games: every turn legal and the record's claims true (games.legal);
//   - decided games: legal games whose result is known, either computed by the rules (the
//     game is over) or claimed by a record that ended by resignation or on time (R8 does
//     not check those claims; they are the only result there is). The swap balance and the
//     openings use the decided games that reached turn 2, where the second player chose;
//   - finished games: legal games that are over by the rules (R5); the scoring statistics
//     use them, since only their final position is a final score.
package stats
