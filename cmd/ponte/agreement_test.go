package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/store"
)

// sharedFields are the fields of a game that `ponte verify --json`, the games table and
// games.parquet all hold, under the names of the games columns (index is file_index, the
// verdict's [light, dark] pairs and its error are several columns).
var sharedFields = []string{
	"game_id", "record_id", "source", "file_index", "line", "format", "legal", "unreadable", "turns", "over",
	"result", "claimed_result", "termination", "score_light", "score_dark", "islands_light", "islands_dark",
	"bridges_light", "bridges_dark", "error_rule", "error_turn", "error_line", "error_col", "error_message", "tag_errors",
}

// gameFields is a game's sharedFields as text: NULL and null as "NULL", booleans as 0 or 1,
// tag_errors as its JSON ("NULL" for none: verify's []).
type gameFields map[string]string

// One game has one identity everywhere (the done-when): for every game ponte
// verify reports on the other sites' samples, the shipped sample data and a file of tag
// slips and copies, the games row with its game_id and the games.parquet row with its
// game_id agree with verify's first verdict for that id on every field they share.
func TestVerifyIngestParquetAgree(t *testing.T) {
	const samples = "../../ingest/testdata/samples"
	dir := t.TempDir()
	slips := filepath.Join(dir, "slips.ponte")
	const slipText = `[GameId "s-1"]
[Date "2026-3-1"]
[Size "6"]
[Result "1-0"]
[Termination "forfeit"]

1. a1,a2 2. f1,f2 3. b1,b2 0-1

[GameId "s-2"]
[Date "2026-3-1"]
[Size "6"]

1. a1,a2 2. f1,f2 3. b1,b2 4. f4,f5 5. c3,e5 *

[GameId "s-3, the game of s-1 again"]
[Size "6"]

1. a1,a2 2. f1,f2 3. b1,b2 *

[Size "ten"]

1. a1,a2 *
`
	if err := os.WriteFile(slips, []byte(slipText), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{samples, "../../sample_data", slips}

	out, errOut, status := runPonte(t, "", append([]string{"verify", "--json"}, paths...)...)
	if status != exitFindings {
		t.Fatalf("verify: exit status %d: %s", status, errOut)
	}
	db, pq := filepath.Join(dir, "ponte.db"), filepath.Join(dir, "parquet")
	if _, errOut, status := runPonte(t, "", append([]string{"ingest", "--quiet", "--db", db, "--parquet", pq}, paths...)...); status != exitOK {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}

	verified := map[string]gameFields{}
	var order []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		g := verdictFields(t, line)
		if _, ok := verified[g["game_id"]]; !ok { // the first record met of a game is stored
			verified[g["game_id"]] = g
			order = append(order, g["game_id"])
		}
	}
	stored := sqliteFields(t, db)
	exported := parquetFields(t, filepath.Join(pq, "games.parquet"))
	if len(stored) != len(verified) || len(exported) != len(verified) {
		t.Errorf("%d games verified, %d rows in games, %d in games.parquet", len(verified), len(stored), len(exported))
	}
	// Every kind of game is among them, so that every field is compared with a value.
	kinds := map[string]int{}
	for _, g := range verified {
		switch {
		case g["unreadable"] == "1":
			kinds["unreadable"]++
		case g["tag_errors"] != "NULL":
			kinds["tag slips"]++
		case g["legal"] == "1":
			kinds["legal"]++
		default:
			kinds["illegal"]++
		}
		if g["record_id"] != "NULL" {
			kinds["record_id"]++
		}
		if g["termination"] != "NULL" {
			kinds["termination"]++
		}
	}
	for _, k := range []string{"legal", "illegal", "unreadable", "tag slips", "record_id", "termination"} {
		if kinds[k] == 0 {
			t.Errorf("no game with %s among the %d verified", k, len(verified))
		}
	}
	for _, id := range order {
		want := verified[id]
		for _, other := range []struct {
			name string
			rows map[string]gameFields
		}{{"games", stored}, {"games.parquet", exported}} {
			got, ok := other.rows[id]
			if !ok {
				t.Errorf("game %s (%s game %s): no row in %s", id, want["source"], want["file_index"], other.name)
				continue
			}
			for _, f := range sharedFields {
				if got[f] != want[f] {
					t.Errorf("game %s (%s game %s): %s %s in %s, %s in ponte verify --json", id, want["source"], want["file_index"],
						f, got[f], other.name, want[f])
				}
			}
		}
	}
	t.Logf("%d games compared on %d fields: %v", len(order), len(sharedFields), kinds)
}

// verdictFields reads one line of ponte verify --json, checking that it has exactly the
// documented fields.
func verdictFields(t *testing.T, line string) gameFields {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &raw); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range raw {
			if !yield(k) {
				return
			}
		}
	})
	want := strings.Fields("bridges claimed_result error format game_id index islands legal line over record_id result score source tag_errors termination turns unreadable")
	if !slices.Equal(keys, want) {
		t.Fatalf("verdict fields %v, want %v", keys, want)
	}
	var v struct {
		Source        string
		Index         int
		Line          int
		Format        string
		GameID        string  `json:"game_id"`
		RecordID      *string `json:"record_id"`
		Legal         bool
		Unreadable    bool
		Turns         int
		Over          bool
		Result        *string
		ClaimedResult string `json:"claimed_result"`
		Termination   *string
		Score         *[2]int
		Islands       *[2]int
		Bridges       *[2]int
		Error         *struct {
			Rule      string
			Turn      *int
			Line, Col int
			Message   string
		}
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	g := gameFields{
		"game_id": v.GameID, "record_id": optText(v.RecordID), "source": v.Source, "file_index": strconv.Itoa(v.Index),
		"line": strconv.Itoa(v.Line), "format": v.Format, "legal": boolText(v.Legal), "unreadable": boolText(v.Unreadable),
		"turns": strconv.Itoa(v.Turns), "over": boolText(v.Over), "result": optText(v.Result), "claimed_result": v.ClaimedResult,
		"termination": optText(v.Termination),
	}
	for _, p := range []struct {
		name string
		v    *[2]int
	}{{"score", v.Score}, {"islands", v.Islands}, {"bridges", v.Bridges}} {
		g[p.name+"_light"], g[p.name+"_dark"] = "NULL", "NULL"
		if p.v != nil {
			g[p.name+"_light"], g[p.name+"_dark"] = strconv.Itoa(p.v[0]), strconv.Itoa(p.v[1])
		}
	}
	g["error_rule"], g["error_turn"], g["error_line"], g["error_col"], g["error_message"] = "NULL", "NULL", "NULL", "NULL", "NULL"
	if e := v.Error; e != nil {
		g["error_rule"], g["error_line"], g["error_col"], g["error_message"] = e.Rule, strconv.Itoa(e.Line), strconv.Itoa(e.Col), e.Message
		if e.Turn != nil {
			g["error_turn"] = strconv.Itoa(*e.Turn)
		}
	}
	g["tag_errors"] = string(raw["tag_errors"])
	if g["tag_errors"] == "[]" {
		g["tag_errors"] = "NULL"
	}
	return g
}

// sqliteFields reads the shared fields of every games row, by game_id.
func sqliteFields(t *testing.T, path string) map[string]gameFields {
	t.Helper()
	db := openDB(t, path)
	rows, err := db.Query("SELECT " + strings.Join(sharedFields, ", ") + " FROM games")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]gameFields{}
	vals := make([]any, len(sharedFields))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		g := gameFields{}
		for i, f := range sharedFields {
			switch v := vals[i].(type) {
			case nil:
				g[f] = "NULL"
			case []byte:
				g[f] = string(v)
			case bool:
				g[f] = boolText(v)
			default:
				g[f] = fmt.Sprint(v)
			}
		}
		out[g["game_id"]] = g
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// parquetFields reads the shared fields of every row of games.parquet, by game_id.
func parquetFields(t *testing.T, path string) map[string]gameFields {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[store.GameRow](f)
	defer r.Close()
	out := map[string]gameFields{}
	buf := make([]store.GameRow, 256)
	for {
		n, err := r.Read(buf)
		for _, row := range buf[:n] { // the last rows come with io.EOF
			out[row.GameID] = gameFields{
				"game_id": row.GameID, "record_id": optText(row.RecordID), "source": row.Source,
				"file_index": fmt.Sprint(row.FileIndex), "line": fmt.Sprint(row.Line), "format": row.Format,
				"legal": boolText(row.Legal), "unreadable": boolText(row.Unreadable), "turns": fmt.Sprint(row.Turns),
				"over": boolText(row.Over), "result": optText(row.Result), "claimed_result": row.ClaimedResult,
				"termination": optText(row.Termination), "score_light": num32(row.ScoreLight), "score_dark": num32(row.ScoreDark),
				"islands_light": num32(row.IslandsLight), "islands_dark": num32(row.IslandsDark),
				"bridges_light": num32(row.BridgesLight), "bridges_dark": num32(row.BridgesDark),
				"error_rule": optText(row.ErrorRule), "error_turn": num32(row.ErrorTurn), "error_line": num32(row.ErrorLine),
				"error_col": num32(row.ErrorCol), "error_message": optText(row.ErrorMessage), "tag_errors": optText(row.TagErrors),
			}
		}
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func optText(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

func num32(n *int32) string {
	if n == nil {
		return "NULL"
	}
	return strconv.Itoa(int(*n))
}

func boolText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
