package store

import (
	"database/sql/driver"
	"runtime"

	"github.com/ponte/ponte/store/parquet"
)

// exportTurns writes turns.parquet to path: the rows of the view turns, in the order of
// the games and of their turns, made by reading game_turns and unpacking each game's text
// in Go (turntext.Scanner), which is many times faster than reading the view's 27 columns
// through the driver. Otherwise as exportRows: state goes in the file's metadata, and
// progress, when not nil, is told the rows written with the game of the last one.
func exportTurns(c *conn, path, state string, progress func(int64, driver.Value)) (rows, size int64, err error) {
	tf, err := parquet.CreateTurns(path, max(1, runtime.GOMAXPROCS(0)))
	if err != nil {
		return 0, 0, err
	}
	if progress != nil {
		progress(0, int64(0))
		tf.Progress = func(rows, game int64) { progress(rows, game) }
	}
	err = c.query("SELECT game, turns FROM game_turns ORDER BY game", nil, func(vals []driver.Value) error {
		game, ok := vals[0].(int64)
		if !ok {
			return typeError("game_turns.game", vals[0])
		}
		var text string
		switch v := vals[1].(type) {
		case string:
			text = v
		case []byte:
			text = string(v)
		default:
			return typeError("game_turns.turns", v)
		}
		return tf.AddGame(game, text)
	})
	return tf.Close(err, state)
}
