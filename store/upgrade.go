package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/components"
	"github.com/ponte/ponte/internal/turntext"
)

// OpenOptions are what [OpenWith] is given beyond the path.
type OpenOptions struct {
	// Replay makes a replay of stored games ([ReplayStored]) for each goroutine of the
	// upgrade of a database of schema version 1 to 3, whose games' components
	// (games.components_light and components_dark) only a replay of their turns can
	// give; the ingest gives intake.ReplayStored. Nil refuses such a database, as
	// OpenReader does, with the advice to run ponte ingest on it once.
	Replay func() ReplayStored
}

// ReplayStored replays a stored game played legally, from its board side, its supply, its
// moves as stored (games.moves: turn tokens separated by blanks) and the number of its
// turns played legally (the first turns tokens), and returns the islands of each component
// of each colour at its end, largest first ([light, dark], as internal/components.Final
// gives them), or why it cannot. One is called from one goroutine only, and may reuse the
// memory of what it returned before.
type ReplayStored func(size int, supply game.Supply, moves string, turns int) ([2][]int, error)

// OpenWith is [Open] with the options o.
func OpenWith(path string, o OpenOptions) (*DB, error) { return open(path, o, nil) }

// upgrade brings a database of schema version 1 to 6 to SchemaVersion in place, in
// one transaction (a failure leaves it as it was):
//   - version 2 added turns.think_ms, NULL for the turns stored before;
//   - version 3 made the scores, islands, bridges and margin of games nullable (NULL for
//     an unreadable record, which has none) and added games.tag_errors (NULL for the games
//     stored before: older versions refused a record with such a slip as unreadable);
//   - version 4 keeps a game's turns as one row of game_turns instead of a row per turn
//     (the table turns becomes a view of the same columns), and adds
//     games.components_light and components_dark (upgradeTo4);
//   - version 5 adds game_turns.by_turn, the summary of the turns the statistics sum,
//     made from game_turns.turns, and its index, and keeps a game's tags as one row of
//     game_tags instead of a row per tag (the table tags becomes a view) (upgradeTo5);
//   - version 6 adds games.move_numbers, the turn numbers written that are not their
//     turn's: NULL for the games stored before, whose numbers were not kept;
//   - version 7 keeps game_turns.turns in about 9 bytes a turn instead of JSON, and drops
//     game_turns.by_turn and its index, which the statistics no longer read (upgradeTo7).
//
// An upgrade from before version 5 no longer makes game_turns.by_turn, which version 7
// drops.
//
// The table meta, added later within version 3, is added by identify, after this.
func (d *DB) upgrade(ctx context.Context, conn *sql.Conn, version int) error {
	if version < 4 && d.replay == nil {
		return fmt.Errorf("%s: a database of schema version %d: run ponte ingest on it once to upgrade it to version %d", d.path, version, SchemaVersion)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrapBusy(err)
	}
	err := func() error {
		if version < 3 {
			if err := upgradeTo3(ctx, conn, version); err != nil {
				return err
			}
		}
		if version < 4 {
			if err := upgradeTo4(ctx, conn, d.replay); err != nil {
				return err
			}
		}
		if version < 5 {
			if err := upgradeTo5(ctx, conn); err != nil {
				return err
			}
		}
		if version < 6 {
			if _, err := conn.ExecContext(ctx, "ALTER TABLE games ADD COLUMN move_numbers TEXT"); err != nil {
				return err
			}
		}
		if err := upgradeTo7(ctx, conn); err != nil {
			return err
		}
		_, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
		return err
	}()
	if err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("%s: upgrading schema version %d to %d: %w", d.path, version, SchemaVersion, wrapBusy(err))
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return wrapBusy(err)
	}
	return nil
}

// strict is the CREATE statement ddl without IF NOT EXISTS: an upgrade makes its tables
// and views anew, and one already there is an error, not something to keep.
func strict(ddl string) string { return strings.Replace(ddl, "IF NOT EXISTS ", "", 1) }

// editedAdvice ends the errors of an upgrade that meets what only an edit of the database
// makes: the upgrade stops and leaves the database as it was.
const editedAdvice = "the database was edited; ingest its records into a new database"

// gamesV3 is the games table of schema version 3: this version's without the columns
// versions 4 and 6 added.
func gamesV3() table {
	t := gamesV5()
	t.columns = nil
	for _, c := range gamesV5().columns {
		if c.name != "components_light" && c.name != "components_dark" {
			t.columns = append(t.columns, c)
		}
	}
	return t
}

// gamesV5 is the games table of schema versions 4 and 5: this version's without
// move_numbers, the column version 6 added (last).
func gamesV5() table {
	t := gamesTable
	t.columns = slices.DeleteFunc(slices.Clone(gamesTable.columns), func(c column) bool { return c.name == "move_numbers" })
	return t
}

// upgradeTo3 brings a database of version 1 or 2 to version 3, in the connection's
// transaction. SQLite cannot drop a NOT NULL constraint, so games is rebuilt the way SQLite
// documents (create the new table, copy, drop the old one, rename the new one, create its
// indexes again); the ids are kept, so turns and tags still refer to their games.
func upgradeTo3(ctx context.Context, conn *sql.Conn, version int) error {
	var stmts []string
	if version < 2 {
		stmts = append(stmts, "ALTER TABLE turns ADD COLUMN think_ms INTEGER")
	}
	// The indexes made with CREATE INDEX go with the table; its UNIQUE index is made again
	// by its CREATE TABLE.
	rows, err := conn.QueryContext(ctx, "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'games' AND sql IS NOT NULL")
	if err != nil {
		return err
	}
	var indexes []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			rows.Close()
			return err
		}
		indexes = append(indexes, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	v3 := gamesV3()
	v3.name = "games_v3"
	var cols []string // the columns of version 2, in the new table's order
	for _, c := range v3.columns {
		if c.name != "tag_errors" {
			cols = append(cols, c.name)
		}
	}
	names := strings.Join(cols, ", ")
	stmts = append(stmts,
		strict(v3.create()),
		"INSERT INTO games_v3 ("+names+") SELECT "+names+" FROM games ORDER BY id",
		`UPDATE games_v3 SET score_light = NULL, score_dark = NULL, islands_light = NULL, islands_dark = NULL,
			bridges_light = NULL, bridges_dark = NULL, margin = NULL WHERE unreadable`,
		"DROP TABLE games",
		"ALTER TABLE games_v3 RENAME TO games",
	)
	stmts = append(stmts, indexes...)
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// repackSQL makes the text of one turn, as turntext.AppendV6 writes it, from a row of the
// table turns of version 3: the inverse of the expressions of version 6's view turns.
const repackSQL = `'[' || (
		(colour = 'dark')
		| (CASE kind WHEN 'tiles' THEN 0 WHEN 'bridge' THEN 1 WHEN 'swap' THEN 2 ELSE 3 END << 1)
		| (islands_formed << 3) | (coalesce(group_a, 0) << 6) | (coalesce(group_b, 0) << 9)
		| (CASE bridge_shape WHEN 'straight' THEN 1 WHEN 'diagonal' THEN 2 WHEN 'knight' THEN 3 ELSE 0 END << 12)
		| (coalesce(bridge_end_a, 0) << 14) | (coalesce(bridge_end_b, 0) << 17)
		| (CASE bridge_merged WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 0 END << 20)
		| (largest_component << 22) | (mobility_dark << 30)
	) || ',' || (
		score_light | (score_dark << 16) | (islands_light << 32) | (islands_dark << 40) | (sandbanks_light << 48)
	) || ',' || (
		sandbanks_dark | (dead_light << 10) | (dead_dark << 20) | (dead_created_light << 30)
		| (dead_created_dark << 37) | (mobility_light << 44)
	) || CASE WHEN a IS NULL AND b IS NULL AND coalesce(think_ms, 0) = 0 THEN '' ELSE
		',' || coalesce(json_quote(a), 'null') || ',' || coalesce(json_quote(b), 'null')
		|| CASE WHEN coalesce(think_ms, 0) = 0 THEN '' ELSE ',' || think_ms END
	END || ']'`

// upgradeTo4 brings a database of version 3 to version 4, in the connection's
// transaction: the turns of each game become one row of game_turns, made in SQL from the
// rows of the table turns (repackSQL), which is dropped (upgradeTo7 makes the view); games
// gets components_light and components_dark, filled by replaying every game that was
// replayed when stored (fillComponents, by the replays newReplay makes). A game whose
// turns are not numbered 1, 2, … in order (only an edited database holds one) stops the
// upgrade: its turns would come back renumbered.
func upgradeTo4(ctx context.Context, conn *sql.Conn, newReplay func() ReplayStored) error {
	var game, n, first, last int64
	err := conn.QueryRowContext(ctx, `SELECT game, count(*), min(turn), max(turn) FROM turns GROUP BY game
		HAVING min(turn) != 1 OR max(turn) != count(*) ORDER BY game LIMIT 1`).Scan(&game, &n, &first, &last)
	switch {
	case err == nil:
		return fmt.Errorf("turns of game %d are not numbered 1 to %d (they run from %d to %d): %s", game, n, first, last, editedAdvice)
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	v4 := gameTurnsV4()
	for _, q := range []string{
		strict(v4.create()),
		`INSERT INTO game_turns (game, turns) SELECT game, '[' || group_concat(` + repackSQL + `, ',' ORDER BY turn) || ']'
			FROM turns GROUP BY game ORDER BY game`,
		"DROP TABLE turns",
		"ALTER TABLE games ADD COLUMN components_light TEXT",
		"ALTER TABLE games ADD COLUMN components_dark TEXT",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return fillComponents(ctx, conn, newReplay)
}

// gameTurnsV4 is the table game_turns of schema versions 4 to 6: this version's, its turns
// the JSON text of turntext's legacy.go.
func gameTurnsV4() table { return gameTurnsTable }

// upgradeTo5 brings a database of version 4 to version 5 but for game_turns.by_turn,
// which version 7 drops: the tags of each game become one row of game_tags, made in SQL from the rows of the
// table tags (json_array of each tag in its order), which is dropped and made again as a
// view of the same columns.
func upgradeTo5(ctx context.Context, conn *sql.Conn) error {
	for _, q := range []string{
		strict(gameTagsTable.create()),
		`INSERT INTO game_tags (game, tags) SELECT game, '[' || group_concat(json_array(name, value), ',' ORDER BY seq) || ']'
			FROM tags GROUP BY game ORDER BY game`,
		"DROP TABLE tags",
		strict(tagsViewSQL),
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// componentsJob is a stored game to replay for its components, and what it gets.
type componentsJob struct {
	id          int64
	size        int
	supply      string
	turns       int
	moves       string
	light, dark string
	err         error
}

// fillComponents sets games.components_light and components_dark of every game that was
// replayed when stored (its scores are not NULL), by replaying its turns played legally
// (the first games.turns tokens of games.moves) on every core, a replay made by newReplay
// on each, a chunk of games at a time.
func fillComponents(ctx context.Context, conn *sql.Conn, newReplay func() ReplayStored) error {
	const chunk = 4096
	update, err := conn.PrepareContext(ctx, "UPDATE games SET components_light = ?, components_dark = ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer update.Close()
	workers := runtime.GOMAXPROCS(0)
	jobs := make([]componentsJob, 0, chunk)
	var after int64 = -1 << 63
	for {
		jobs = jobs[:0]
		rows, err := conn.QueryContext(ctx, `SELECT id, size, supply, turns, moves FROM games
			WHERE id > ? AND score_light IS NOT NULL ORDER BY id LIMIT ?`, after, chunk)
		if err != nil {
			return err
		}
		for rows.Next() {
			var j componentsJob
			if err := rows.Scan(&j.id, &j.size, &j.supply, &j.turns, &j.moves); err != nil {
				rows.Close()
				return err
			}
			jobs = append(jobs, j)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(jobs) == 0 {
			return nil
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				defer bug.Recover()
				replayGame := newReplay()
				var text []byte
				for i := w; i < len(jobs); i += workers {
					j := &jobs[i]
					sup, ok := game.ParseSupply(j.supply)
					if !ok {
						j.err = fmt.Errorf("supply %q cannot be read", j.supply)
						continue
					}
					var comps [2][]int
					if comps, j.err = replayGame(j.size, sup, j.moves, j.turns); j.err != nil {
						continue
					}
					text = components.Append(text[:0], comps[0])
					j.light = string(text)
					text = components.Append(text[:0], comps[1])
					j.dark = string(text)
				}
			})
		}
		wg.Wait()
		for i := range jobs {
			j := &jobs[i]
			if j.err != nil {
				return fmt.Errorf("game %d: %w: %s", j.id, j.err, editedAdvice)
			}
			if _, err := update.ExecContext(ctx, j.light, j.dark, j.id); err != nil {
				return err
			}
		}
		after = jobs[len(jobs)-1].id
	}
}

// upgradeTo7 brings a database of version 6 (or one of an earlier version on its way) to
// version 7, in the connection's transaction: each game's turns text of version 6 (JSON,
// turntext.V6Scanner) is made again as turntext.Builder writes it, into a new game_turns
// without by_turn, which replaces the old one and its index; the view turns is made anew.
// A turns text that cannot be read or kept (only an edited database holds one) stops the
// upgrade and names the game.
func upgradeTo7(ctx context.Context, conn *sql.Conn) error {
	v7 := gameTurnsTable
	v7.name = "game_turns_v7"
	for _, q := range []string{
		"DROP VIEW IF EXISTS turns",
		"DROP INDEX IF EXISTS game_turns_by_turn",
		strict(v7.create()),
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	const chunk = 4096
	insert, err := conn.PrepareContext(ctx, "INSERT INTO game_turns_v7 (game, turns) VALUES (?, ?)")
	if err != nil {
		return err
	}
	defer insert.Close()
	var sc turntext.V6Scanner
	var b turntext.Builder
	type row struct {
		game      int64
		turns, of string
	}
	var rowsOf []row
	var after int64 = -1 << 63
	for {
		rowsOf = rowsOf[:0]
		rows, err := conn.QueryContext(ctx, "SELECT game, turns, typeof(turns) FROM game_turns WHERE game > ? ORDER BY game LIMIT ?", after, chunk)
		if err != nil {
			return err
		}
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.game, &r.turns, &r.of); err != nil {
				rows.Close()
				return fmt.Errorf("game_turns: %w: %s", err, editedAdvice)
			}
			rowsOf = append(rowsOf, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(rowsOf) == 0 {
			break
		}
		for _, r := range rowsOf {
			if r.of != "text" {
				return fmt.Errorf("game_turns.turns of game %d is not text but %s: %s", r.game, r.of, editedAdvice)
			}
			b.Reset()
			for sc.Reset(r.turns); sc.Next(); {
				t := sc.Turn().Turn()
				b.Add(&t)
			}
			if err := sc.Err(); err != nil {
				return fmt.Errorf("game_turns.turns of game %d: %w: %s", r.game, err, editedAdvice)
			}
			if err := b.Err(); err != nil {
				return fmt.Errorf("game_turns.turns of game %d: %w: %s", r.game, err, editedAdvice)
			}
			if _, err := insert.ExecContext(ctx, r.game, b.String()); err != nil {
				return err
			}
		}
		after = rowsOf[len(rowsOf)-1].game
	}
	for _, q := range []string{
		"DROP TABLE game_turns",
		"ALTER TABLE game_turns_v7 RENAME TO game_turns",
		strict(viewSQL()),
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
