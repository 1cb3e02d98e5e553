package store

import (
	"strings"
	"testing"
)

// The writer's INSERTs never need a statement journal: OR FAIL, and games without their
// id, which SQLite assigns.
func TestInsertSQL(t *testing.T) {
	for _, c := range []struct {
		t    *table
		from int
		want string
	}{
		{&gamesTable, gameColID + 1, "INSERT OR FAIL INTO games (game_id, source_id, "},
		{&gameTurnsTable, 0, "INSERT OR FAIL INTO game_turns (game, turns) VALUES (?,?),(?,?)"},
		{&gameTagsTable, 0, "INSERT OR FAIL INTO game_tags (game, tags) VALUES (?,?),(?,?)"},
	} {
		got := insertSQL(c.t, c.from, 2)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("insertSQL(%s, %d, 2) = %.80s…, want %s…", c.t.name, c.from, got, c.want)
		}
		if n, want := strings.Count(got, "?"), 2*(len(c.t.columns)-c.from); n != want {
			t.Errorf("insertSQL(%s, %d, 2) has %d parameters, want %d", c.t.name, c.from, n, want)
		}
	}
}

// A game that SQLite numbers otherwise than the writer (here after a row the writer does
// not know of) stops the run before its transaction is committed: its turns and tags
// would name another game.
func TestWriterChecksGameIDs(t *testing.T) {
	for _, sneak := range []bool{false, true} {
		d := openTemp(t)
		f := &File{Path: "a.ponte", Size: 1, Hash: "00"}
		game := func(id string) Entry {
			return Entry{Kind: EntryGame, File: f, Game: Replayed{GameID: id, Source: f.Path, Format: "ponte", Legal: true}}
		}
		_, err := d.Write(WriteOptions{}, func(x *Writer) (bool, error) {
			if err := x.Put([]Entry{{Kind: EntryFileStart, File: f}, game("g1")}); err != nil {
				return false, err
			}
			if sneak {
				if err := x.w.games.flush(x.w.c); err != nil {
					return false, err
				}
				if _, err := x.w.c.exec("UPDATE games SET id = 1000 WHERE id = 1"); err != nil {
					return false, err
				}
			}
			return false, x.Put([]Entry{game("g2"), {Kind: EntryFileEnd, File: f}})
		})
		stored := count(t, d.db, "SELECT count(*) FROM games")
		switch {
		case !sneak && (err != nil || stored != 2):
			t.Errorf("Write = %v, %d games stored, want 2", err, stored)
		case sneak && (err == nil || !strings.Contains(err.Error(), "writer counted 2") || stored != 0):
			t.Errorf("Write after a game renumbered = %v, %d games stored, want an error and none", err, stored)
		}
		d.Close()
	}
}
