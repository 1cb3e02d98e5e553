// Package store keeps verified games in a SQLite database and exports them as Parquet
// files, with one schema: the tables games, turns, tags and sources (docs/schema.md).
//
// The store only stores and reads games; the run that reads, replays and judges them is
// package intake's. [DB.Write] stores what a run hands it ([Entry]: a file's start and
// end, its games as [Replayed], the parts of it that cannot be read), from one goroutine,
// in input order, in large transactions that hold whole games only and the progress of
// their source file. Every record is stored, the unreadable and illegal ones with their
// verdict and their text. A game met again (same game_id) is stored once and counted. A
// file whose content is stored complete is found by its hash ([DB.SourceOf]) and not
// read again; one whose run was interrupted is taken up where it stopped ([File].Resume).
//
// [DB.WriteParquet] writes games.parquet, turns.parquet and tags.parquet from one
// snapshot of the database, through package store/parquet, which encodes the rows the
// store reads ([GameRow], [TurnRow] and [TagRow]). The folder belongs to the database:
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
