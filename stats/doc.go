// Package stats answers the questions people ask of an archive of Ponte del Diavolo games,
// from a database made by ponte ingest: is the pie rule balanced, which openings are
// played and swapped and how they turn out, how games are scored and how they end, and
// how islands, bridges, burned land and mobility evolve turn by turn.
//
// Every statistic is split by board size, and [Compute] takes a [Filter] (site, event,
// player or bot, source file, date range, size). Every rate is a [Rate]: its count, its
// number of games and a 95% Wilson score interval.
//
// The populations, precisely:
//   - legal games: every turn legal and the record's claims true (games.legal);
//   - decided games: legal games whose result is known, either computed by the rules (the
//     game is over) or claimed by a record that ended by resignation or on time (R8 does
//     not check those claims; they are the only result there is). The swap balance and the
//     openings use the decided games that reached turn 2, where the second player chose;
//   - finished games: legal games that are over by the rules (R5); the scoring statistics
//     use them, since only their final position is a final score.
package stats
