package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A Parquet-only ingest (`ponte ingest --parquet-only --parquet DIR`) keeps no database:
// it stores the games in a temporary database beside DIR (.DIR.ponte-ingest.db, hidden),
// writes DIR's Parquet files from it, and removes it. Machines that ingest the shards of a large archive in parallel each
// write one such folder; DuckDB or Spark read them as one table (docs/schema.md, "Many
// archives").

// ParquetOnlyID is the database identity that the marker of a Parquet-only folder names:
// no database, so that a database never writes into the folder, and a Parquet-only
// ingest writes only into a folder that is new, empty or Parquet-only.
const ParquetOnlyID = "parquet-only"

// parquetOnlyDB ends the name of the temporary database of a Parquet-only ingest, beside
// the folder: .NAME.ponte-ingest.db for the folder NAME (hidden: an ingest of the folder
// above does not read it). Older versions kept it inside the folder, named so.
const parquetOnlyDB = ".ponte-ingest.db"

const parquetOnlyNote = "The Parquet files of this folder were written by ponte ingest --parquet-only, which keeps no database: running it again rewrites them. A database does not write into this folder."

// OpenParquetOnly opens a new temporary database for an ingest that writes only the
// Parquet files of dir: dir must not exist, be empty (hidden files aside) or hold the
// files of an earlier Parquet-only ingest (ClaimParquet says why not otherwise). The
// database is made beside dir under a hidden name (dir itself changes only when its new
// state is switched in, as a whole); Close and CloseDiscard remove it. A temporary
// database left there (or, by an older version, inside dir) by a run that was killed is
// removed first; one that another run is writing makes this an error wrapping ErrBusy.
func OpenParquetOnly(dir string) (*DB, error) {
	if err := claimParquetOnly(dir); err != nil {
		return nil, err
	}
	live, err := resolveFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	parent, name := filepath.Split(live)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return nil, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	path := filepath.Join(parent, "."+name+parquetOnlyDB)
	fail := func(err error) (*DB, error) {
		if errors.Is(err, ErrBusy) {
			err = fmt.Errorf("%w: %s: another ponte ingest --parquet-only is writing to this folder", ErrBusy, dir)
		}
		return nil, err
	}
	// A database left by a killed run: nobody holds its lock. Removed while locked.
	for _, left := range []string{path, filepath.Join(live, parquetOnlyDB)} {
		if _, err := os.Lstat(left); err != nil {
			continue
		}
		lock, _, err := lockFile(left)
		if err != nil {
			return fail(err)
		}
		err = removeFiles(left)
		lock.Close()
		if err != nil {
			return fail(fmt.Errorf("removing the temporary database %s left by an earlier run: %w", left, unwrapPath(err)))
		}
	}
	d, err := Open(path)
	if err != nil {
		return fail(err)
	}
	d.parquetOnly = dir
	return d, nil
}

// closeParquetOnly closes a Parquet-only database and removes it.
func (d *DB) closeParquetOnly() error {
	if d.closed {
		return nil
	}
	d.closed = true
	err := d.db.Close()
	rerr := removeFiles(d.path)
	d.lock.Close()
	if err == nil {
		err = rerr
	}
	return err
}

// claimParquetOnly checks that a Parquet-only ingest may write into dir (OpenParquetOnly).
func claimParquetOnly(dir string) error {
	files, m, exists, err := parquetFolder(dir)
	if err != nil || !exists {
		return err
	}
	switch {
	case m != nil && m.DatabaseID == ParquetOnlyID:
		return nil
	case m != nil:
		return fmt.Errorf("%w: %s holds the Parquet files of the database %s, written %s: ponte ingest --parquet-only does not overwrite them; give --parquet a folder of its own",
			ErrParquetDir, dir, m.Database, m.Written)
	case len(files) > 0:
		return fmt.Errorf("%w: %s holds Parquet files that do not say where they come from (an older ponte wrote them): they are not overwritten; remove %s first, or give --parquet another folder",
			ErrParquetDir, dir, dir)
	}
	return nil
}

// parquetOnlyFolder is ClaimParquet's error for a database that would write into the
// folder of a Parquet-only ingest, whose marker is m.
func parquetOnlyFolder(dir string, m *marker) error {
	return fmt.Errorf("%w: %s holds the Parquet files of a ponte ingest --parquet-only, written %s, not of a database: they are not overwritten; write this database's files to another folder with --parquet DIR, or remove %s first",
		ErrParquetDir, dir, m.Written, dir)
}
