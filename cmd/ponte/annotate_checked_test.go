package main

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/store"
)

// readingsSum is a digest of the readings stored in the database at path: every row of
// turn_evals, in the order of its key; "" when it has none.
func readingsSum(t *testing.T, path string) string {
	t.Helper()
	db := openDB(t, path)
	if queryInt(t, db, "SELECT count(*) FROM sqlite_schema WHERE name = 'turn_evals'") == 0 {
		return ""
	}
	var sum string
	if err := db.QueryRow(`SELECT count(*) || ':' || coalesce(group_concat(x, '|'), '') FROM
		(SELECT quote(game_id) || bot || turn || quote(loss) || quote(mark) AS x FROM turn_evals ORDER BY game_id, bot, turn)`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(sum))
	return hex.EncodeToString(h[:])
}

// editDB runs the statements on the database at path, as a hand edit would.
func editDB(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// TestAnnotateSkipsUnreplayable: issue 31 finding 9: a stored legal game whose turns no
// longer replay (its moves edited) stopped ponte annotate with exit status 3, and nothing
// after it was read, run after run. It is named on standard error and skipped; every other
// game is read, and the run ends with status 0.
func TestAnnotateSkipsUnreplayable(t *testing.T) {
	db := annotateDB(t, t.TempDir(), "ponte.db")
	// Game 2 of the club archive: turn 7 is the bridge i3-g4; a1-a3 cannot be played there.
	editDB(t, db, "UPDATE games SET moves = replace(moves, 'i3-g4', 'a1-a3') WHERE id = 2")
	raw := openDB(t, db)
	want := queryInt(t, raw, "SELECT sum(turns) FROM games WHERE legal AND id <> 2")
	for run := 1; run <= 2; run++ {
		out, errOut, status := runPonte(t, "", "annotate", "--db", db, "--engine", "sage-8", "--workers", "1")
		if status != exitOK {
			t.Fatalf("run %d: exit status %d: %s", run, status, errOut)
		}
		if !strings.Contains(errOut, "ponte annotate: warning: game 2: ") || !strings.Contains(errOut, `turn 7 "a1-a3"`) {
			t.Errorf("run %d: the game is not named: %q", run, errOut)
		}
		if !strings.Contains(out, "1 game skipped") {
			t.Errorf("run %d: the summary does not count it: %q", run, out)
		}
		if n := queryInt(t, raw, "SELECT count(*) FROM turn_evals"); n != want {
			t.Errorf("run %d: %d readings stored, want the %d turns of the other games", run, n, want)
		}
	}
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// mergeCase is a turn_evals.parquet to merge that must be refused, and what the refusal
// names.
type mergeCase struct {
	name  string
	file  func(t *testing.T, dir string) string // writes the file, returns its path
	wants []string                              // in the message
}

// writeEvals writes rows as a turn_evals.parquet at path.
func writeEvals(t *testing.T, path string, rows []store.TurnEval) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[store.TurnEval](f, parquet.PageBufferSize(4096))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnnotateMergeRefused: issue 31 finding 5: ponte annotate --merge took a
// games.parquet (300 rows "with no engine, turn 0"), values out of range, a game with only
// turns 1–5 (then counted as read for good), a damaged file (the rows before the damage
// kept). Now the file is read to its end and checked before one transaction: each bad
// file is refused with exit status 2, named with its row, game, turn and column, and the
// database's readings are left as they were (none); the good file then merges whole.
func TestAnnotateMergeRefused(t *testing.T) {
	dir := t.TempDir()
	src := annotateDB(t, dir, "src.db")
	annotateDB(t, dir, "dst0.db") // the database merged into, a copy for each case
	annotateJSON(t, "--db", src, "--games", "4", "--workers", "1")
	good := filepath.Join(dir, "src.parquet", "turn_evals.parquet")
	var rows []store.TurnEval
	if err := store.ReadWholeEvalsParquet(good, func(_ int64, r *store.TurnEval) error { rows = append(rows, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 100 || rows[0].Turn != 1 || rows[5].GameID != rows[0].GameID {
		t.Fatalf("%d rows read from %s", len(rows), good)
	}
	edited := func(name string, edit func(rows []store.TurnEval) []store.TurnEval) func(*testing.T, string) string {
		return func(t *testing.T, dir string) string {
			c := append([]store.TurnEval(nil), rows...)
			return writeEvals(t, filepath.Join(dir, name+".parquet"), edit(c))
		}
	}
	hostile := `" onmouseover="alert(1)`
	cases := []mergeCase{
		{"games.parquet", func(t *testing.T, dir string) string { return filepath.Join(dir, "src.parquet", "games.parquet") },
			[]string{"games.parquet: column ", "not a column of turn_evals"}},
		{"a text file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "notes.parquet")
			os.WriteFile(p, []byte("game_id,turn\nabc,1\n"), 0o644)
			return p
		}, []string{"notes.parquet", "not a readable Parquet file"}},
		{"a chance of -2", edited("minus2", func(r []store.TurnEval) []store.TurnEval { r[7].Before = -2; return r }),
			[]string{"row 8", "turn 8", "column light_before: -2: must be a number from 0 to 1"}},
		{"a loss of 7.5", edited("loss", func(r []store.TurnEval) []store.TurnEval { r[3].Loss = 7.5; return r }),
			[]string{"row 4", "column loss: 7.5"}},
		{"NaN", edited("nan", func(r []store.TurnEval) []store.TurnEval { r[2].RawAfter = math.NaN(); return r }),
			[]string{"row 3", "column raw_after: NaN"}},
		{"turn 0", edited("turn0", func(r []store.TurnEval) []store.TurnEval { r[0].Turn = 0; return r }),
			[]string{"row 1", "column turn: 0"}},
		{"a hostile mark", edited("mark", func(r []store.TurnEval) []store.TurnEval { r[9].Mark = &hostile; return r }),
			[]string{"row 10", "column mark: ", "must be inaccuracy, mistake, blunder or none"}},
		{"a game of turns 1-5 only", edited("part", func(r []store.TurnEval) []store.TurnEval {
			id := r[0].GameID
			var out []store.TurnEval
			for _, e := range r {
				if e.GameID != id || e.Turn <= 5 {
					out = append(out, e)
				}
			}
			return out
		}), []string{"column turn: 6: missing: the file has 5 of the game's"}},
		{"a game not of this database", edited("foreign", func(r []store.TurnEval) []store.TurnEval { r[len(r)-1].GameID = "0123456789abcdef"; return r }),
			[]string{fmt.Sprintf("row %d", len(rows)), `game "0123456789abcdef"`, "column game_id", "not a legal game of"}},
		{"a turn not the game's", edited("played", func(r []store.TurnEval) []store.TurnEval { r[4].Played = "a1,a2"; return r }),
			[]string{"row 5", "column played", "the game's turn 5 is"}},
		{"a row twice", edited("twice", func(r []store.TurnEval) []store.TurnEval { return append(r, r[6]) }),
			[]string{fmt.Sprintf("row %d", len(rows)+1), "a second row of the same game, engine and turn"}},
		{"damaged half-way", func(t *testing.T, dir string) string {
			// 40 engines' readings of the games (8,000 rows and more) in two row groups,
			// the second damaged in its middle: an old merge kept the rows before it.
			var many []store.TurnEval
			for b := range 40 {
				for _, r := range rows {
					r.Bot = fmt.Sprintf("sage-8-%d", b)
					many = append(many, r)
				}
			}
			p := filepath.Join(dir, "damaged.parquet")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			cw := &countWriter{w: f}
			w := parquet.NewGenericWriter[store.TurnEval](cw, parquet.PageBufferSize(4096))
			half := len(many) * 3 / 4
			if _, err := w.Write(many[:half]); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			first := cw.n
			if _, err := w.Write(many[half:]); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			second := cw.n
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			mid := (first + second) / 2
			for i := mid; i < mid+256; i++ {
				data[i] ^= 0x5a
			}
			os.WriteFile(p, data, 0o644)
			return p
		}, []string{"damaged.parquet"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cdir := t.TempDir()
			db := filepath.Join(cdir, "dst.db")
			copyFile(t, filepath.Join(dir, "dst0.db"), db)
			os.MkdirAll(filepath.Join(cdir, "src.parquet"), 0o755)
			copyFile(t, filepath.Join(dir, "src.parquet", "games.parquet"), filepath.Join(cdir, "src.parquet", "games.parquet"))
			path := tc.file(t, cdir)
			before := readingsSum(t, db)
			_, errOut, status := runPonte(t, "", "annotate", "--db", db, "--no-parquet", "--engine", "sage-8", "--merge", path)
			t.Log(errOut)
			if status != exitUsage {
				t.Fatalf("exit status %d, want %d: %s", status, exitUsage, errOut)
			}
			for _, w := range append([]string{"--merge " + path}, tc.wants...) {
				if !strings.Contains(errOut, w) {
					t.Errorf("the refusal does not say %q: %s", w, errOut)
				}
			}
			if readingsSum(t, db) != before {
				t.Error("the database's readings changed")
			}
		})
	}
	// The same database takes the good file whole.
	db := filepath.Join(dir, "dst.db")
	copyFile(t, filepath.Join(dir, "dst0.db"), db)
	r := annotateJSON(t, "--db", db, "--no-parquet", "--merge", good, "--games", "1")
	if r.Merged != int64(len(rows)) {
		t.Errorf("the good file: %d rows merged, want %d", r.Merged, len(rows))
	}
}

// TestBadReadingsSkipped: issue 31 finding 8 (on the way out): readings stored with NaN,
// infinities, chances outside [0, 1], negative turns or a mark outside the vocabulary (by
// SQL: ponte no longer stores them) were used as they were: ponte stats printed NaN% and
// +Inf%, --json failed ("unsupported value"), the report exited 0 with them. Now stats,
// stats --json and report leave them out, exit 0, name each (database, game, turn,
// column) in a warning, and print no NaN or infinity.
func TestBadReadingsSkipped(t *testing.T) {
	dir := t.TempDir()
	db := annotateDB(t, dir, "ponte.db")
	annotateJSON(t, "--db", db, "--games", "2", "--workers", "1", "--no-parquet")
	raw := openDB(t, db)
	good := queryInt(t, raw, "SELECT count(*) FROM turn_evals")
	game := queryInt(t, raw, "SELECT min(g.id) FROM games g JOIN turn_evals e ON e.game_id = g.game_id")
	editDB(t, db,
		"UPDATE turn_evals SET light_before = 'NaN' WHERE turn = 3",
		"UPDATE turn_evals SET loss = 9e999 WHERE turn = 4",
		"UPDATE turn_evals SET light_after = -2 WHERE turn = 5",
		`UPDATE turn_evals SET mark = '" onmouseover="alert(1)' WHERE turn = 6`,
		`INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, best, raw_before, raw_after, over_after, best_q, played_q, light_before, light_after, loss, mark)
			SELECT game_id, bot, -1, playouts, colour, played, best, raw_before, raw_after, over_after, best_q, played_q, light_before, light_after, loss, mark FROM turn_evals WHERE turn = 7`)
	bad := queryInt(t, raw, "SELECT count(*) FROM turn_evals WHERE turn IN (3, 4, 5, 6, -1)")
	if bad != 10 || queryInt(t, raw, "SELECT count(*) FROM turn_evals") != good+2 {
		t.Fatalf("%d bad readings made of %d", bad, good)
	}
	named := []string{
		fmt.Sprintf("game %d (", game),
		"turn 3, column light_before: \"NaN\": must be a number from 0 to 1; reading skipped",
		"turn 4, column loss: +Inf:",
		"turn 5, column light_after: -2:",
		"turn 6, column mark: ",
		"column turn: -1: must be a turn of the game",
	}
	check := func(name string, out, errOut string, status int) {
		t.Helper()
		if status != exitOK {
			t.Fatalf("%s: exit status %d: %s", name, status, errOut)
		}
		for _, w := range named {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: the warnings do not say %q:\n%s", name, w, errOut)
			}
		}
		for _, w := range []string{"NaN", "Inf", "onmouseover"} {
			if strings.Contains(out, w) {
				t.Errorf("%s: %q in the output", name, w)
			}
		}
	}
	out, errOut, status := runPonte(t, "", "stats", "--db", db, "--population", "all")
	check("stats", out, errOut, status)
	if !strings.Contains(out, "Accuracy by the engine") {
		t.Errorf("stats: no accuracy table:\n%s", out)
	}
	out, errOut, status = runPonte(t, "", "stats", "--db", db, "--population", "all", "--json")
	check("stats --json", out, errOut, status)
	var r struct {
		Accuracy []struct {
			Turns int `json:"turns"`
		} `json:"accuracy"`
		Skipped int64 `json:"skipped_readings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stats --json: %v", err)
	}
	turns := 0
	for _, a := range r.Accuracy {
		turns += a.Turns
	}
	if r.Skipped != bad || int64(turns) != good-8 {
		t.Errorf("stats --json: %d readings skipped, %d in the accuracy; want %d and %d", r.Skipped, turns, bad, good-8)
	}
	out, errOut, status = runPonte(t, "", "report", "--db", db, "--out", filepath.Join(dir, "report"), "--population", "all", "--json")
	check("report", out, errOut, status)
}
