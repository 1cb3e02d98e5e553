package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/internal/outfile"
)

// An atlas database holds one opening atlas (ponte atlas): its settings, one row per game
// as it is played, and the table of its estimates. It is a SQLite file of its own, apart
// from the games' database, so that shards on other machines can each write one and a
// merge adds them up. docs/atlas.md describes its tables.
type AtlasDB struct {
	path     string
	db       *sql.DB
	q        querier // db, or the transaction of Update and MergeAtlas
	tx       *sql.Tx
	lock     *os.File // the flock of a writer, held from OpenAtlas to Close
	created  bool
	readOnly bool
}

// querier is what the methods of AtlasDB query: the database or a transaction of it.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// AtlasGame is a row of atlas_games: one game, keyed by stage, class and index.
type AtlasGame struct {
	Stage   string
	Class   int
	Index   int
	Seed    uint64
	Points  int // Light's points in halves: 2 a win, 1 a draw, 0 a loss
	Turns   int
	Swapped bool
	Bot     string
	Moves   string
}

// AtlasClass is a row of atlas_classes: the estimate of one class of openings.
type AtlasClass struct {
	Class               int
	A, B                string // the representative's cells
	Edge, Apart, Size   int
	Games               int
	Wins, Draws, Losses int
	P, Lo, Hi           float64
	Verdict             string
	Elo                 float64
	Rounds              int
}

const atlasDDL = `
CREATE TABLE IF NOT EXISTS atlas_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS atlas_games (
	stage TEXT NOT NULL, class INTEGER NOT NULL, idx INTEGER NOT NULL,
	seed TEXT NOT NULL, points INTEGER NOT NULL, turns INTEGER NOT NULL, swapped INTEGER NOT NULL,
	bot TEXT NOT NULL, moves TEXT NOT NULL,
	PRIMARY KEY (stage, class, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS atlas_classes (
	class INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL, edge INTEGER NOT NULL,
	apart INTEGER NOT NULL, size INTEGER NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL,
	draws INTEGER NOT NULL, losses INTEGER NOT NULL, p REAL NOT NULL, lo REAL NOT NULL,
	hi REAL NOT NULL, verdict TEXT NOT NULL, elo REAL, rounds INTEGER NOT NULL);`

// OpenAtlas opens the atlas database at path for writing, creating it when create is true
// and the file does not exist. With create false it is opened for reading only: it must
// exist (else an error wrapping ErrNoDatabase), and nothing is written to it.
//
// A writer takes the file's flock first and holds it until Close, as Open does for a games
// database: a second writer (ponte atlas run or merge) is refused at once with an error
// wrapping ErrBusy, so that whatever it reads (the settings) stays true while it writes.
// One atlas a file: a file that holds other tables than an atlas's (a games database) is
// refused before anything is written to it (ErrNotAtlas), and so is a file that is not
// SQLite's. A file OpenAtlas made and cannot use is removed again.
func OpenAtlas(path string, create bool) (*AtlasDB, error) {
	if !create {
		return openAtlasReader(path)
	}
	lock, created, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*AtlasDB, error) {
		lock.Close()
		if created {
			removeFiles(path)
		}
		return nil, err
	}
	if err := atlasOnly(path); err != nil {
		return fail(err)
	}
	query := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=journal_mode(WAL)&_txlock=immediate", busyTimeout)
	db, err := sql.Open("sqlite", fileURI(path, query))
	if err != nil {
		return fail(dbError(path, err))
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(atlasDDL); err != nil {
		db.Close()
		return fail(dbError(path, fmt.Errorf("not an atlas database: %w", err)))
	}
	return &AtlasDB{path: path, db: db, q: db, lock: lock, created: created}, nil
}

// openAtlasReader opens the atlas database at path for reading only.
func openAtlasReader(path string) (*AtlasDB, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNoDatabase)
		}
		return nil, err
	}
	db, err := sql.Open("sqlite", fileURI(path, fmt.Sprintf("mode=ro&_pragma=busy_timeout(%d)", busyTimeout)))
	if err != nil {
		return nil, dbError(path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SELECT 1 FROM atlas_meta, atlas_games, atlas_classes LIMIT 0"); err != nil {
		db.Close()
		return nil, dbError(path, fmt.Errorf("not an atlas database: %w", err))
	}
	return &AtlasDB{path: path, db: db, q: db, readOnly: true}, nil
}

// Close closes the database, leaving one written in rollback mode (one file), and lets
// go of its lock.
func (a *AtlasDB) Close() error {
	var err error
	if !a.readOnly {
		_, err = a.db.Exec("PRAGMA journal_mode=DELETE")
	}
	if cerr := a.db.Close(); err == nil {
		err = cerr
	}
	if a.lock != nil {
		a.lock.Close()
	}
	return err
}

// CloseDiscard closes the database, and removes it when OpenAtlas made it and it holds no
// atlas yet (no settings): a run or merge refused leaves no file behind.
func (a *AtlasDB) CloseDiscard() error {
	if a.created && !a.readOnly {
		if config, err := a.AtlasMeta(context.Background(), "config"); err == nil && config == "" {
			a.db.Close()
			err := removeFiles(a.path) // while the lock is held: lockFile opens again a path found gone
			a.lock.Close()
			return err
		}
	}
	return a.Close()
}

// Path is the database's file.
func (a *AtlasDB) Path() string { return a.path }

// AtlasMeta returns the value of a setting, "" when there is none.
func (a *AtlasDB) AtlasMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := a.q.QueryRowContext(ctx, "SELECT value FROM atlas_meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetAtlasMeta sets a setting.
func (a *AtlasDB) SetAtlasMeta(ctx context.Context, key, value string) error {
	_, err := a.q.ExecContext(ctx, "INSERT INTO atlas_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

// AddAtlasGame stores a game; a game already stored under its key is left as it is.
func (a *AtlasDB) AddAtlasGame(ctx context.Context, g AtlasGame) error {
	_, err := a.q.ExecContext(ctx, `INSERT OR IGNORE INTO atlas_games(stage, class, idx, seed, points, turns, swapped, bot, moves)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.Stage, g.Class, g.Index, fmt.Sprint(g.Seed), g.Points, g.Turns, g.Swapped, g.Bot, g.Moves)
	return err
}

// AtlasGames calls f with every game stored, by stage, class and index.
func (a *AtlasDB) AtlasGames(ctx context.Context, f func(AtlasGame) error) error {
	rows, err := a.q.QueryContext(ctx, `SELECT stage, class, idx, seed, points, turns, swapped, bot, moves
		FROM atlas_games ORDER BY stage, class, idx`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g AtlasGame
		var seed string
		if err := rows.Scan(&g.Stage, &g.Class, &g.Index, &seed, &g.Points, &g.Turns, &g.Swapped, &g.Bot, &g.Moves); err != nil {
			return err
		}
		if _, err := fmt.Sscan(seed, &g.Seed); err != nil {
			return fmt.Errorf("%s: atlas_games %s class %d game %d: seed %q: %w", a.path, g.Stage, g.Class, g.Index, seed, err)
		}
		if err := f(g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SetAtlasClasses replaces the table of estimates.
func (a *AtlasDB) SetAtlasClasses(ctx context.Context, rows []AtlasClass) error {
	if a.tx != nil {
		return setAtlasClasses(ctx, a.tx, rows)
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := setAtlasClasses(ctx, tx, rows); err != nil {
		return err
	}
	return tx.Commit()
}

func setAtlasClasses(ctx context.Context, tx *sql.Tx, rows []AtlasClass) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM atlas_classes"); err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO atlas_classes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Class, r.A, r.B, r.Edge, r.Apart, r.Size, r.Games, r.Wins, r.Draws, r.Losses, r.P, r.Lo, r.Hi, r.Verdict, finiteOrNil(r.Elo), r.Rounds); err != nil {
			return err
		}
	}
	return nil
}

// AtlasClasses returns the table of estimates, by class.
func (a *AtlasDB) AtlasClasses(ctx context.Context) ([]AtlasClass, error) {
	rows, err := a.q.QueryContext(ctx, `SELECT class, a, b, edge, apart, size, games, wins, draws, losses, p, lo, hi, verdict, elo, rounds
		FROM atlas_classes ORDER BY class`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AtlasClass
	for rows.Next() {
		var r AtlasClass
		var elo sql.NullFloat64
		if err := rows.Scan(&r.Class, &r.A, &r.B, &r.Edge, &r.Apart, &r.Size, &r.Games, &r.Wins, &r.Draws, &r.Losses,
			&r.P, &r.Lo, &r.Hi, &r.Verdict, &elo, &r.Rounds); err != nil {
			return nil, err
		}
		r.Elo = elo.Float64
		if !elo.Valid { // ±Inf are stored as NULL; the sign is p̂'s side of ½
			r.Elo = math.Inf(1)
			if r.P < 0.5 {
				r.Elo = math.Inf(-1)
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// finiteOrNil is x, or nil (NULL) when x is infinite or NaN.
func finiteOrNil(x float64) any {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return x
}

// AtlasClassRow is a row of atlas.parquet: an AtlasClass with the atlas's bot and board.
type AtlasClassRow struct {
	Size    int32    `parquet:"size"`
	Supply  string   `parquet:"supply"`
	Bot     string   `parquet:"bot"`
	Class   int32    `parquet:"class"`
	A       string   `parquet:"a"`
	B       string   `parquet:"b"`
	Edge    int32    `parquet:"edge"`
	Apart   int32    `parquet:"apart"`
	Members int32    `parquet:"members"`
	Games   int32    `parquet:"games"`
	Wins    int32    `parquet:"wins"`
	Draws   int32    `parquet:"draws"`
	Losses  int32    `parquet:"losses"`
	P       float64  `parquet:"p"`
	Lo      float64  `parquet:"lo"`
	Hi      float64  `parquet:"hi"`
	Verdict string   `parquet:"verdict"`
	Elo     *float64 `parquet:"elo,optional"`
	Rounds  int32    `parquet:"rounds"`
}

// AtlasGameRow is a row of atlas_games.parquet.
type AtlasGameRow struct {
	Stage   string `parquet:"stage"`
	Class   int32  `parquet:"class"`
	Index   int32  `parquet:"idx"`
	Seed    uint64 `parquet:"seed"`
	Points  int32  `parquet:"points"`
	Turns   int32  `parquet:"turns"`
	Swapped bool   `parquet:"swapped"`
	Bot     string `parquet:"bot"`
	Moves   string `parquet:"moves"`
}

// WriteAtlasParquet writes rows to the Parquet file path (zstd), replacing it whole
// (outfile.WriteFile: a temporary file beside it, synced, renamed, the folder synced).
func WriteAtlasParquet[T AtlasClassRow | AtlasGameRow](path string, rows []T) error {
	return outfile.WriteFile(context.Background(), path, func(out io.Writer) error {
		w := parquet.NewGenericWriter[T](out, parquet.Compression(&parquet.Zstd))
		if _, err := w.Write(rows); err != nil {
			return err
		}
		return w.Close()
	})
}
