package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// ErrNotAtlas is OpenAtlas's error (wrapped, with what the file holds) for a file that is
// not an atlas's database, or not one alone: one atlas a file, and nothing else in it.
var ErrNotAtlas = errors.New("not an atlas database")

// atlasTables are the tables of an atlas database.
var atlasTables = []string{"atlas_meta", "atlas_games", "atlas_classes"}

// atlasOnly says why the file at path cannot be written as an atlas database, reading it
// only: nil for an empty file, or a SQLite database with no tables but an atlas's.
func atlasOnly(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fileError(path, "cannot read the database", err)
	}
	var head [100]byte
	n, err := io.ReadFull(f, head[:])
	f.Close()
	switch {
	case n == 0 && (err == io.EOF || err == nil):
		return nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return fileError(path, "cannot read the database", err)
	case n < len(head) || string(head[:16]) != sqliteMagic:
		return fmt.Errorf("%s: %w: not an SQLite file (it begins %q); nothing was written to it", path, ErrNotAtlas, head[:min(n, 16)])
	}
	tables, views, _, _, err := schemaOf(path, head[18] == 2)
	if err != nil {
		return err
	}
	var other []string
	for name := range tables {
		if !slices.Contains(atlasTables, name) {
			other = append(other, name)
		}
	}
	if len(other) > 0 || len(views) > 0 {
		return fmt.Errorf("%s: %w: it has %s: one atlas a file, and nothing else in it; nothing was written to it: give another --db",
			path, ErrNotAtlas, listNames(tables, views))
	}
	return nil
}

// atlasFile is the error of Open and OpenReader for a file that inspect found not to be a
// games database (err): said plainly when the file is an opening atlas's.
func atlasFile(path string, err error) error {
	if !errors.Is(err, ErrForeign) {
		return err
	}
	tables, views, _, _, serr := schemaOf(path, true)
	if serr != nil || len(views) > 0 || !hasTable(tables, "atlas_games") {
		return err
	}
	for name := range tables {
		if !slices.Contains(atlasTables, name) {
			return err
		}
	}
	return fmt.Errorf("%s: %w: an opening atlas's database (ponte atlas show --db %s reads it), not a games database", path, ErrForeign, path)
}

func hasTable(tables map[string][]string, name string) bool {
	_, ok := tables[name]
	return ok
}

// CountAtlasGames is the number of games stored.
func (a *AtlasDB) CountAtlasGames(ctx context.Context) (int, error) {
	var n int
	err := a.q.QueryRowContext(ctx, "SELECT count(*) FROM atlas_games").Scan(&n)
	return n, err
}

// AtlasRowError is a row of a shard's atlas_games that cannot be merged: the shard's file,
// the row (from 1, in the order of stage, class and index), its key as stored, the column
// at fault, the value found and why.
type AtlasRowError struct {
	Path                string
	Row                 int
	Stage, Class, Index string // as stored, written as values: "main", 3, 3
	Column, Value       string
	Err                 error
}

func (e *AtlasRowError) Error() string {
	s := fmt.Sprintf("%s: atlas_games row %d (stage %s, class %s, game %s), column %s: ", e.Path, e.Row, e.Stage, e.Class, e.Index, e.Column)
	if e.Value != "" {
		s += e.Value + ": "
	}
	return s + e.Err.Error()
}

func (e *AtlasRowError) Unwrap() error { return e.Err }

// AtlasColumnError is what MergeAtlas's check returns for a game it refuses: the column,
// the value and why. MergeAtlas makes it an *AtlasRowError naming the row.
type AtlasColumnError struct {
	Column, Value string
	Err           error
}

func (e *AtlasColumnError) Error() string { return e.Column + ": " + e.Value + ": " + e.Err.Error() }
func (e *AtlasColumnError) Unwrap() error { return e.Err }

// The longest texts a shard's row may hold: far more than a game's (a 26×26 game's turns
// are some 20 KB), and bounded, so that a hostile row is refused without being read whole.
const (
	maxAtlasName  = 64
	maxAtlasMoves = 1 << 20
)

// MergeAtlas adds to this database the games of the atlas database shard that it lacks, in
// one transaction, and returns how many it added. Every row of the shard is read and
// checked first (in the order of its key): the types of its columns and their lengths
// (here), check (the caller's rules of a game), and that a game stored under its key is
// the same in every column. The first row that fails is the error, an *AtlasRowError, and
// nothing is added. Then finish, given the database inside the transaction (its games
// with the shard's), writes what follows from them (the estimates), and the transaction
// commits: the games and the estimates change together or not at all.
func (a *AtlasDB) MergeAtlas(ctx context.Context, shard *AtlasDB, check func(AtlasGame) error, finish func(tx *AtlasDB) error) (int, error) {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, dbError(a.path, err)
	}
	defer tx.Rollback()
	added := 0
	err = shard.rawAtlasGames(ctx, func(row int, g AtlasGame, key [3]string) error {
		fault := func(column, value string, err error) error {
			return &AtlasRowError{Path: shard.path, Row: row, Stage: key[0], Class: key[1], Index: key[2], Column: column, Value: value, Err: err}
		}
		if err := check(g); err != nil {
			if ce, ok := errors.AsType[*AtlasColumnError](err); ok {
				return fault(ce.Column, ce.Value, ce.Err)
			}
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO atlas_games(stage, class, idx, seed, points, turns, swapped, bot, moves)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.Stage, g.Class, g.Index, fmt.Sprint(g.Seed), g.Points, g.Turns, g.Swapped, g.Bot, g.Moves)
		if err != nil {
			return dbError(a.path, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			added++
			return err
		}
		var s AtlasGame
		var seed string
		if err := tx.QueryRowContext(ctx, `SELECT seed, points, turns, swapped, bot, moves FROM atlas_games WHERE stage = ? AND class = ? AND idx = ?`,
			g.Stage, g.Class, g.Index).Scan(&seed, &s.Points, &s.Turns, &s.Swapped, &s.Bot, &s.Moves); err != nil {
			return dbError(a.path, err)
		}
		for _, c := range []struct {
			column       string
			theirs, ours any
		}{{"seed", fmt.Sprint(g.Seed), seed}, {"points", g.Points, s.Points}, {"turns", g.Turns, s.Turns},
			{"swapped", g.Swapped, s.Swapped}, {"bot", g.Bot, s.Bot}, {"moves", g.Moves, s.Moves}} {
			if c.theirs != c.ours {
				return fault(c.column, short(fmt.Sprint(c.theirs)), fmt.Errorf("%s holds this game with %s: not a shard of the same atlas", a.path, short(fmt.Sprint(c.ours))))
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := finish(&AtlasDB{path: a.path, db: a.db, q: tx, tx: tx}); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, dbError(a.path, err)
	}
	return added, nil
}

// short is s, cut to 40 bytes.
func short(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:37] + "...")
	}
	return s
}

// rawAtlasGames calls f with every row of atlas_games in the order of its key, its number
// (from 1), and its key as stored, written as values; a value of the wrong type or too long
// is an *AtlasRowError.
func (a *AtlasDB) rawAtlasGames(ctx context.Context, f func(row int, g AtlasGame, key [3]string) error) error {
	text := func(col string, limit int) string { // a text or blob cut past limit, keeping its type
		return fmt.Sprintf("iif(typeof(%[1]s) IN ('text', 'blob'), substr(%[1]s, 1, %[2]d), %[1]s)", col, limit+1)
	}
	rows, err := a.q.QueryContext(ctx, fmt.Sprintf(`SELECT %s, class, idx, %s, points, turns, swapped, %s, %s
		FROM atlas_games ORDER BY stage, class, idx`, text("stage", maxAtlasName), text("seed", maxAtlasName),
		text("bot", maxAtlasName), text("moves", maxAtlasMoves)))
	if err != nil {
		return dbError(a.path, fmt.Errorf("not an atlas database: %w", err))
	}
	defer rows.Close()
	for row := 1; rows.Next(); row++ {
		var v [9]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]); err != nil {
			return dbError(a.path, err)
		}
		key := [3]string{value(v[0]), value(v[1]), value(v[2])}
		fault := func(column string, x any, why string) error {
			return &AtlasRowError{Path: a.path, Row: row, Stage: key[0], Class: key[1], Index: key[2], Column: column, Value: value(x), Err: errors.New(why)}
		}
		var g AtlasGame
		for i, c := range []struct {
			name string
			p    any // *string, *int or *bool
			max  int
		}{{"stage", &g.Stage, maxAtlasName}, {"class", &g.Class, 0}, {"idx", &g.Index, 0}, {"seed", nil, maxAtlasName},
			{"points", &g.Points, 0}, {"turns", &g.Turns, 0}, {"swapped", &g.Swapped, 0}, {"bot", &g.Bot, maxAtlasName},
			{"moves", &g.Moves, maxAtlasMoves}} {
			switch p := c.p.(type) {
			case *string, nil:
				s, ok := v[i].(string)
				switch {
				case !ok:
					return fault(c.name, v[i], "must be text")
				case len(s) > c.max:
					return fault(c.name, v[i], fmt.Sprintf("longer than %d bytes", c.max))
				}
				if p, ok := p.(*string); ok {
					*p = s
					continue
				}
				seed, err := strconv.ParseUint(s, 10, 64)
				if err != nil || strconv.FormatUint(seed, 10) != s {
					return fault(c.name, v[i], "must be a whole number from 0 to 18446744073709551615 in decimal")
				}
				g.Seed = seed
			case *int:
				n, ok := v[i].(int64)
				if !ok {
					return fault(c.name, v[i], "must be a whole number")
				}
				*p = int(n)
			case *bool:
				n, ok := v[i].(int64)
				if !ok || n != 0 && n != 1 {
					return fault(c.name, v[i], "must be 0 or 1")
				}
				*p = n == 1
			}
		}
		if err := f(row, g, key); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return dbError(a.path, err)
	}
	return nil
}

// value writes a value as SQLite returned it: a number as it is, a text quoted, a blob by
// its length, NULL.
func value(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if len(x) > 40 {
			return strconv.Quote(x[:37]+"...") + " (" + strconv.Itoa(len(x)) + " bytes)"
		}
		return strconv.Quote(x)
	case []byte:
		return fmt.Sprintf("a blob of %d bytes", len(x))
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64) + " (a real)"
	}
	return fmt.Sprint(v)
}
