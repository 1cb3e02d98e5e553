// Package store keeps verified games in a SQLite database and exports them as Parquet
// files, with one schema: the tables games, turns, tags and sources (docs/schema.md).
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
// database; [GameRow] and [TurnRow] are their rows. The folder belongs to the database:
// by default beside it and named after it ([ParquetDirFor]: ponte.db → ponte.parquet),
// with a marker file ([MarkerName]) naming the database and its identity ([DB.ID]); a
// folder written from another database, or holding files that are not ponte's, is
// refused ([DB.ClaimParquet], [ErrParquetDir]), never overwritten.
//
// One process writes a database at a time: [Open] takes a lock that a second ingest of
// the same file finds taken ([ErrBusy]). The database is in WAL mode while it is written
// and back in rollback mode after [DB.Close], so that readers ([OpenReader]) create no
// -wal or -shm file beside it; [DB.CloseDiscard] removes a database that its run created
// and stored nothing in.
package store
