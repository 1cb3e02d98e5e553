// Command duckdb-check prints the answers of a few queries on a ponte database, as JSON,
// for check.mjs to ask DuckDB the same queries on the Parquet files that `ponte ingest
// --parquet` wrote and compare (.ci/run):
//
//	go run ./scripts/duckdb-check ponte.db > expected.json
//	node check.mjs PARQUET_DIR expected.json
//
// The queries are written in the SQL that SQLite and DuckDB share, over the tables games
// and turns (DuckDB sees the Parquet files as views of those names).
package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

// queries are the checks: counts, sums and averages over every kind of column.
var queries = []struct{ Name, SQL string }{
	{"games", "SELECT count(*) FROM games"},
	{"turns", "SELECT count(*) FROM turns"},
	{"legal games", "SELECT count(*) FROM games WHERE legal"},
	{"illegal games", "SELECT count(*) FROM games WHERE NOT legal AND NOT unreadable"},
	{"unreadable records", "SELECT count(*) FROM games WHERE unreadable"},
	{"sum of games.turns", "SELECT sum(turns) FROM games"},
	{"average light score of finished legal games", "SELECT avg(score_light) FROM games WHERE legal AND over"},
	{"average margin", "SELECT avg(margin) FROM games"},
	{"games without a score (unreadable records)", "SELECT count(*) FROM games WHERE score_light IS NULL AND margin IS NULL"},
	{"bridges of every game", "SELECT sum(bridges_light + bridges_dark) FROM games"},
	{"games with an archive's id", "SELECT count(*) FROM games WHERE record_id IS NOT NULL"},
	{"games with tag values that could not be read", "SELECT count(*) FROM games WHERE tag_errors IS NOT NULL"},
	{"length of the tag errors", "SELECT coalesce(sum(length(tag_errors)), 0) FROM games"},
	{"swapped games", "SELECT count(*) FROM games WHERE swapped"},
	{"games won by the opener", "SELECT count(*) FROM games WHERE winner = CASE WHEN swapped THEN 'dark' ELSE 'light' END"},
	{"games not over", "SELECT count(*) FROM games WHERE result IS NULL"},
	{"games decided by a tie-break", "SELECT count(*) FROM games WHERE tiebreak IN ('islands', 'bridges')"},
	{"R3.2 errors", "SELECT count(*) FROM games WHERE error_rule = 'R3.2'"},
	{"length of the raw texts", "SELECT sum(length(raw)) FROM games"},
	{"knight bridges", "SELECT count(*) FROM turns WHERE bridge_shape = 'knight'"},
	{"bridges that merged components", "SELECT count(*) FROM turns WHERE bridge_merged"},
	{"bridges onto an island", "SELECT count(*) FROM turns WHERE bridge_end_a = 4 OR bridge_end_b = 4"},
	{"islands formed", "SELECT sum(islands_formed) FROM turns"},
	{"dead sandbanks created", "SELECT sum(dead_created_light + dead_created_dark) FROM turns"},
	{"average mobility", "SELECT avg(mobility_light + mobility_dark) FROM turns"},
	{"turns of 12×12 games", "SELECT count(*) FROM turns t JOIN games g ON t.game = g.id WHERE g.size = 12"},
	{"last turns' scores equal the games'", "SELECT count(*) FROM turns t JOIN games g ON t.game = g.id AND t.turn = g.turns WHERE t.score_light = g.score_light AND t.score_dark = g.score_dark"},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: duckdb-check DATABASE")
		os.Exit(2)
	}
	db, err := sql.Open("sqlite", "file:"+os.Args[1]+"?mode=ro")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	type answer struct {
		Name  string `json:"name"`
		SQL   string `json:"sql"`
		Value any    `json:"value"`
	}
	var out []answer
	for _, q := range queries {
		var v any
		if err := db.QueryRow(q.SQL).Scan(&v); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", q.SQL, err)
			os.Exit(1)
		}
		out = append(out, answer{q.Name, q.SQL, v})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
