// Command duckdb-check prints the answers of a few queries on a ponte database, as JSON,
// for check.mjs to ask DuckDB the same queries on the Parquet files that `ponte ingest`
// wrote from it (into ponte.parquet beside ponte.db, or --parquet DIR) and compare
// (.ci/run):
//
//	go run ./scripts/duckdb-check ponte.db > expected.json
//	node check.mjs ponte.parquet expected.json
//
// The queries are written in the SQL that SQLite and DuckDB share, over the tables games,
// turns and tags (DuckDB sees the Parquet files as views of those names). Some read every text
// column: DuckDB refuses a whole file for one string that is not valid UTF-8.
//
// With -generate DIR it adds to DIR the part of the hostile corpus (store/testdata/hostile)
// that is not committed: a file whose name holds the Latin-1 byte 0xE9 (git may mangle such
// names) and an illegal game of a few megabytes.
//
//	cp -r store/testdata/hostile DIR && go run ./scripts/duckdb-check -generate DIR
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/ponte/ponte/store"
)

// queries are the checks: counts, sums and averages over every kind of column.
var queries = []struct{ Name, SQL string }{
	{"games", "SELECT count(*) FROM games"},
	{"turns", "SELECT count(*) FROM turns"},
	{"tags", "SELECT count(*) FROM tags"},
	{"Site tags", "SELECT count(*) FROM tags WHERE name = 'Site'"},
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

// textQueries are, for each exported table, the characters of all its text columns and the
// U+FFFD among them: the text columns of the Parquet file that the database's table has
// too (not the derived ones of games.parquet, nor tags.parquet's game_id). To answer,
// DuckDB decodes every string of the file; SQLite's length counts characters as DuckDB's
// does when the text is valid UTF-8.
func textQueries(ctx context.Context, r *store.Reader) ([]struct{ Name, SQL string }, error) {
	var out []struct{ Name, SQL string }
	for _, t := range []struct {
		name string
		row  any
	}{{"games", store.GameRow{}}, {"turns", store.TurnRow{}}, {"tags", store.TagRow{}}} {
		names, err := r.Columns(ctx, t.name)
		if err != nil {
			return nil, err
		}
		inTable := map[string]bool{}
		for _, name := range names {
			inTable[name] = true
		}
		typ := reflect.TypeOf(t.row)
		var cols []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
			if inTable[name] && (f.Type.Kind() == reflect.String || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.String) {
				cols = append(cols, "coalesce("+name+", '')")
			}
		}
		all := strings.Join(cols, " || ")
		out = append(out,
			struct{ Name, SQL string }{"characters of the " + t.name + "' texts", "SELECT coalesce(sum(length(" + all + ")), 0) FROM " + t.name},
			struct{ Name, SQL string }{"U+FFFD in the " + t.name + "' texts", "SELECT coalesce(sum(length(" + all + ") - length(replace(" + all + ", '\uFFFD', ''))), 0) FROM " + t.name})
	}
	return out, nil
}

func main() {
	generate := flag.String("generate", "", "add the generated part of the hostile corpus to this directory, and stop")
	flag.Parse()
	if *generate != "" {
		if err := generateHostile(*generate); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: duckdb-check DATABASE | duckdb-check -generate DIR")
		os.Exit(2)
	}
	ctx := context.Background()
	r, err := store.OpenReader(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer r.Close()
	type answer struct {
		Name  string `json:"name"`
		SQL   string `json:"sql"`
		Value any    `json:"value"`
	}
	texts, err := textQueries(ctx, r)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var out []answer
	for _, q := range append(queries, texts...) {
		v, err := r.Value(ctx, q.SQL)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
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

// generateHostile writes the generated files of the hostile corpus into dir: a game in a
// file named in Latin-1 ("caf\xe9.ponte"), and an illegal game of about 400 KB, within the
// readers' limits of one record (a 200 KB tag value, a 60 KB comment, 9,000 turns), whose
// raw text and tag value the store must cut. store's TestHostileCorpus writes the same.
func generateHostile(dir string) error {
	latin1 := "[Event \"A file name in Latin-1\"]\n[Size \"6\"]\n[Result \"*\"]\n\n1. a1,a2 2. f1,f2 *\n"
	if err := os.WriteFile(filepath.Join(dir, "caf\xe9.ponte"), []byte(latin1), 0o644); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("[Event \"A big illegal game\"]\n[Size \"12\"]\n[Result \"*\"]\n[Annotator \"")
	b.Write(bytes.Repeat([]byte("y"), 200_000))
	b.WriteString("\"]\n\n1. a1,a2 2. a1,a2 {")
	b.Write(bytes.Repeat([]byte("x"), 60_000))
	b.WriteString("}")
	for i := 3; i <= 9000; i++ {
		c := strconv.Itoa(i%12 + 1)
		b.WriteString(" " + strconv.Itoa(i) + ". b" + c + ",c" + c)
	}
	b.WriteString(" *\n")
	return os.WriteFile(filepath.Join(dir, "big-illegal.ponte"), b.Bytes(), 0o644)
}
