// Package store keeps verified games in a SQLite database and exports them as Parquet
// files, with one schema: the tables games, turns, tags and sources (README, "ponte
// ingest").
//
// [DB.Ingest] streams the records of files, directories, archives and standard input
// (every reader of package ingest), replays them on all cores with their per-turn
// features (verdict.Analyze) and stores them from one writer goroutine, in input order,
// in large transactions that hold whole games only and the progress of their source
// file. Every record is stored, the unreadable and illegal ones with their verdict and
// their text. A game met again (same [verdict.GameID]) is stored once and counted. A file whose
// content is already stored is skipped; a file whose ingest was interrupted is taken up
// where it stopped, so a killed ingest is finished by running it again.
//
// [DB.WriteParquet] writes games.parquet and turns.parquet from one snapshot of the
// database; [GameRow] and [TurnRow] are their rows.
//
// One process writes a database at a time: [Open] takes a lock that a second ingest of
// the same file finds taken ([ErrBusy]).
package store
