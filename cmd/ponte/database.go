package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ponte/ponte/store"
)

// defaultDB is the database of every command when --db is not given.
const defaultDB = "ponte.db"

// openStored opens the database of a command that reads the stored games (stats, report,
// export, and the report of analyze). When there is no database at the path, or it holds
// no game at all, it says so with what to do, and returns exit status 2: a report of
// nothing is not an answer. (Filters that select no game are another matter: the command
// goes on, and says what it found.) Any other error is printed as it is, exit status 2.
func openStored(s *streams, command, path string) (*store.Reader, error) {
	db, err := store.OpenReader(path)
	if errors.Is(err, store.ErrNoDatabase) && command == "analyze" {
		// Its ingest stored nothing in a database it made, and removed it.
		return nil, usagef("%s", firstRun(command, path))
	}
	if errors.Is(err, store.ErrNoDatabase) {
		where := safe(path)
		if filepath.Dir(path) == "." {
			where += " here"
		}
		return nil, usagef("no database %s: %s", where, firstRun(command, path))
	}
	if err != nil {
		return nil, usage(err)
	}
	// Not cancelled with the command: an interrupt is told by what reads the games next.
	games, err := db.HasGames(context.WithoutCancel(s.ctx))
	if err != nil {
		db.Close()
		return nil, usagef("%s: %s", safe(path), safeErr(err))
	}
	if !games {
		db.Close()
		return nil, usagef("%s holds no games: %s", safe(path), firstRun(command, path))
	}
	return db, nil
}

// firstRun says how to store games in the database at path: the command to run first, or,
// for analyze, which has just run the ingest, that its paths held none.
func firstRun(command, path string) string {
	if command == "analyze" {
		return "no game was found in the paths given: no report written"
	}
	db := ""
	if path != defaultDB {
		db = " --db " + safe(path)
	}
	return fmt.Sprintf("run `ponte analyze%s` or `ponte ingest%s PATH` first", db, db)
}
