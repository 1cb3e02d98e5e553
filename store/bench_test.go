package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/internal/turntext"
)

// benchCorpus is what the ingest benchmarks read: the shipped sample archives, 3,043
// records (about 158,000 turns).
var benchCorpus = []string{"../sample_data"}

// BenchmarkIngestParquet measures the Parquet export of the database that ingesting the
// sample archives makes: both files, from SQLite to zstd-compressed Parquet.
func BenchmarkIngestParquet(b *testing.B) {
	d := openTemp(b)
	defer d.Close()
	if _, err := d.Ingest(context.Background(), benchCorpus, Options{}); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var games, rows int64
	for b.Loop() {
		st, err := d.WriteParquet(dir)
		if err != nil {
			b.Fatal(err)
		}
		games += st.Games
		rows += st.Games + st.Turns
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(games)/secs, "games/s")
	b.ReportMetric(float64(rows)/secs, "rows/s")
}

// BenchmarkRawInsert is the limit the ingest is compared with: SQLite alone inserting
// 200,000 rows in one transaction into a new database with the writer's multi-row INSERT
// statements (500 rows each, values bound through the driver) and nothing else.
// "turns-rows" inserts rows shaped like turns into the table of schema version 3, one row
// per turn (27 columns, realistic values); "narrow" rows of 8 integers, the shape of the
// ~1M rows/s figure of LIBRARIES.md, to show what the width of a row costs; "turns-sql" is
// the ceiling for such rows: SQLite makes them itself (a recursive CTE, one INSERT …
// SELECT), so no value crosses from Go at all. "game-turns" inserts rows of game_turns as
// the writer does, each the text of a game of 46 turns and its summary: its turns/s
// compares with the rows/s of the others.
func BenchmarkRawInsert(b *testing.B) {
	turnRow := []driver.Value{int64(0), int64(17), "light", "tiles", "d4", "e5", int64(0), int64(2), int64(1),
		nil, nil, nil, nil, int64(2), int64(3), int64(1), int64(2), int64(1), int64(5), int64(6),
		int64(1), int64(0), int64(0), int64(0), int64(41), int64(38), nil}
	narrow := &table{name: "narrow", key: "PRIMARY KEY (game, turn)"}
	for _, name := range []string{"game", "turn", "c2", "c3", "c4", "c5", "c6", "c7"} {
		narrow.columns = append(narrow.columns, column{name: name, typ: "INTEGER"})
	}
	narrowRow := []driver.Value{int64(0), int64(0), int64(3), int64(1), int64(2), int64(1), int64(5), int64(41)}
	rows := turnsV3()
	rows.name = "turns_v3" // beside the view turns
	b.Run("turns-rows", func(b *testing.B) { rawInsert(b, &rows, turnRow, 60) })
	b.Run("narrow", func(b *testing.B) { rawInsert(b, narrow, narrowRow, 60) })
	b.Run("turns-sql", func(b *testing.B) { sqlInsert(b, &rows, turnRow) })
	var tb turntext.Builder
	feats, millis := turntext.RandomGame(rand.New(rand.NewPCG(1, 2)), 46, 0)
	for i := range feats {
		tt := turntext.Pack(&feats[i], millis[i])
		tb.Add(&tt)
	}
	b.Run("game-turns", func(b *testing.B) {
		rawInsert(b, &gameTurnsTable, []driver.Value{int64(0), tb.String()}, 1)
	})
}

// turnsV3 is the table turns of schema version 3: a row per turn, the view's columns.
func turnsV3() table {
	return table{name: "turns", doc: turnsTable.doc, columns: turnsTable.columns, key: "PRIMARY KEY (game, turn)"}
}

// sqlInsert inserts 200,000 rows shaped like row into t with one INSERT … SELECT from a
// recursive CTE: the first two columns count, the others are row's values as literals.
func sqlInsert(b *testing.B, t *table, row []driver.Value) {
	const n = 200_000
	sel := []string{"k/60 + 1", "k%60 + 1"}
	for _, v := range row[2:] {
		switch v := v.(type) {
		case nil:
			sel = append(sel, "NULL")
		case string:
			sel = append(sel, "'"+v+"'")
		default:
			sel = append(sel, fmt.Sprint(v))
		}
	}
	insert := fmt.Sprintf("WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k+1 FROM s WHERE k < %d) "+
		"INSERT INTO %s SELECT %s FROM s", n-1, t.name, strings.Join(sel, ", "))
	var rows int64
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		d := openTemp(b)
		if _, err := d.db.Exec(t.create()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := d.db.Exec(insert); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		rows += n
		b.StopTimer()
		d.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
}

// rawInsert inserts 200,000 rows like row into t, numbered by their first column, or by
// their first two when perGame is more than 1 (a game and its turns). It reports rows/s,
// and turns/s when a row holds the 46 turns of a game.
func rawInsert(b *testing.B, t *table, row []driver.Value, perGame int) {
	n := 200_000
	if perGame == 1 {
		n = 20_000
	}
	if len(row) != len(t.columns) {
		b.Fatalf("%d values for %d columns", len(row), len(t.columns))
	}
	var rows int64
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		d := openTemp(b)
		conn, err := d.db.Conn(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := conn.ExecContext(context.Background(), t.create()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		err = conn.Raw(func(dc any) error {
			c := newConn(dc.(driver.Conn))
			defer c.close()
			buf := newRowBuffer(t, 0)
			if _, err := c.exec("BEGIN IMMEDIATE"); err != nil {
				return err
			}
			vals := make([]driver.Value, len(row))
			for i := range n {
				copy(vals, row)
				vals[0] = int64(i/perGame + 1)
				if perGame > 1 {
					vals[1] = int64(i%perGame + 1)
				}
				if err := buf.add(c, vals); err != nil {
					return err
				}
			}
			if err := buf.flush(c); err != nil {
				return err
			}
			_, err := c.exec("COMMIT")
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		rows += int64(n)
		b.StopTimer()
		conn.Close()
		d.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	if perGame == 1 {
		b.ReportMetric(46*float64(rows)/elapsed.Seconds(), "turns/s")
	}
}

func openTemp(tb testing.TB) *DB {
	tb.Helper()
	d, err := Open(filepath.Join(tb.TempDir(), "bench.db"))
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
