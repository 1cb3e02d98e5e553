package report

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// hostile is a text that breaks out of every context a page puts a stored string in: an
// attribute (either quote), an element, a script, a CDATA section and a comment; name
// marks where it was stored.
func hostile(name string) string {
	return `x"><script>alert("` + name + `")</script>' onmouseover='alert(1)' " onmouseover="alert(1)</script>]]></svg><!--`
}

// hostileRaw are the parts of hostile that only an unescaped copy shows in a page.
var hostileRaw = []string{`<script>alert(`, `onmouseover="alert(1)`, `onmouseover='alert(1)'`, `]]></svg>`, `"><script>`}

// TestHostileText: issue 31 finding 7: a stored mark reached a game page unescaped in an
// attribute (<circle class="pt x" onmouseover="alert(1)">). Here every text column that
// reaches the report holds a string that breaks out of an attribute, an element, a script,
// a CDATA section or a comment, written with SQL where the ingest would refuse it: the
// games' players, event, site, round, date, termination, openings, tie-break, error and raw
// text, their tags (names and values), the source's path, the move tokens, and turn_evals'
// bot, played, best and mark. The whole report is written, and no file of it holds any of
// the strings' breaking parts unescaped.
func TestHostileText(t *testing.T) {
	// Game 3 (legal, 75 turns) gets a reading of every turn, good but for the hostile
	// rows, and hostile names; game 5 (illegal at turn 42) a hostile error and tokens.
	var evals []string
	for turn := 1; turn <= 75; turn++ {
		evals = append(evals, fmt.Sprintf(`INSERT INTO turn_evals (game_id, bot, turn, playouts, colour, played, best, raw_before, raw_after, over_after,
			best_q, played_q, light_before, light_after, loss, mark)
			SELECT game_id, 'sage-8', %d, 8, '%s', 'a1,a2', 'b2,b3', 0.5, 0.5, 0, 0.6, 0.4, %.3f, %.3f, 0.2, 'inaccuracy' FROM games WHERE id = 3`,
			turn, map[bool]string{true: "light", false: "dark"}[turn%2 == 1], 0.3+0.005*float64(turn), 0.3+0.005*float64(turn+1)))
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	edits := append(evals,
		// Each reading's turn as game 3 played it.
		`UPDATE turn_evals SET played = (SELECT value FROM json_each('["' || replace((SELECT moves FROM games WHERE id = 3), ' ', '","') || '"]') WHERE key = turn - 1)`,
		// Hostile readings of game 3: the readers leave them out.
		`INSERT INTO turn_evals SELECT game_id, `+q(hostile("bot"))+`, turn, playouts, colour, played, best, raw_before, raw_after, over_after, best_q, played_q, best_n, played_n, light_before, light_after, loss, mark FROM turn_evals WHERE turn <= 3`,
		`UPDATE turn_evals SET mark = `+q(hostile("mark"))+` WHERE turn = 5 AND bot = 'sage-8'`,
		`UPDATE turn_evals SET best = `+q(hostile("best"))+` WHERE turn = 6 AND bot = 'sage-8'`,
		`UPDATE turn_evals SET played = `+q(hostile("played"))+` WHERE turn = 7 AND bot = 'sage-8'`,
	)
	var sets []string
	for _, c := range []string{"event", "site", "round", "date", "record_id", "light", "dark", "opener", "termination", "tiebreak", "opening_a", "opening_b", "raw", "source", "claimed_result"} {
		sets = append(sets, c+" = "+q(hostile(c)))
	}
	edits = append(edits,
		`UPDATE games SET `+strings.Join(sets, ", ")+` WHERE id IN (3, 5)`,
		`UPDATE games SET error_rule = `+q(hostile("error_rule"))+`, error_message = `+q(hostile("error_message"))+`,
			moves = moves || ' '  || `+q(strings.ReplaceAll(hostile("moves"), " ", "_"))+` WHERE id = 5`,
		`UPDATE games SET tag_errors = `+q(hostile("tag_errors"))+` WHERE id = 3`,
		`UPDATE game_tags SET tags = json_insert(tags, '$[#]', json_array(`+q(hostile("tag name"))+`, `+q(hostile("tag value"))+`)) WHERE game IN (3, 5)`,
		`UPDATE sources SET path = `+q(hostile("source path"))+`, error = `+q(hostile("source error")),
	)
	db := hostileDB(t, edits...)
	if n := db.count(t, "SELECT count(*) FROM turn_evals"); n != 78 {
		t.Fatalf("%d readings stored", n)
	}
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{Population: stats.PopulationAll}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Write(context.Background(), db.Reader, r, filepath.Join(t.TempDir(), "report"), Options{Filter: stats.Filter{Population: stats.PopulationAll}})
	if err != nil {
		t.Fatal(err)
	}
	page3 := readFile(t, filepath.Join(w.Dir, "games", "3.html"))
	if !strings.Contains(page3, `id="evalgraph"`) || !strings.Contains(page3, "&lt;script&gt;alert(&#34;light&#34;)") {
		t.Fatalf("game 3's page shows no reading or no hostile name escaped")
	}
	files := 0
	var all strings.Builder
	err = filepath.WalkDir(w.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data := readFile(t, path)
		all.WriteString(data)
		for _, s := range hostileRaw {
			for i := 0; ; {
				j := strings.Index(data[i:], s)
				if j < 0 {
					break
				}
				at := i + j
				t.Errorf("%s: %q unescaped at byte %d: …%s…", path, s, at, data[max(0, at-80):min(len(data), at+80)])
				i = at + len(s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Errorf("%d files written", files)
	}
	// The columns that reach the report are in it, escaped. (The hostile readings are left
	// out, and named by BadEvals; the openings and the sources' table reach no page.)
	for _, c := range []string{"event", "site", "round", "date", "light", "dark", "termination",
		"raw", "source", "error_rule", "error_message", "moves", "tag name", "tag value"} {
		if !strings.Contains(all.String(), "alert(&#34;"+c+"&#34;)") {
			t.Errorf("no file shows the hostile %s escaped", c)
		}
	}
}

// hostileDB is editedDB with turn_evals made first, as the store makes it.
func hostileDB(t *testing.T, edits ...string) *testDB {
	t.Helper()
	return editedDB(t, append([]string{evalsTable(t)}, edits...)...)
}

// evalsTable is the statement that makes turn_evals as the store does: read from a
// database the store made it in.
func evalsTable(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "schema.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.CountEvals(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.Close()
	db := openTestDB(t, path)
	var sql string
	if err := db.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = 'turn_evals'`).Scan(&sql); err != nil {
		t.Fatal(err)
	}
	return sql
}

// count is the number a query of db gives.
func (db *testDB) count(t *testing.T, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestEvalGraphHostileMark: issue 31 finding 7: the graph of a game's chances wrote a
// reading's mark into a point's class attribute as it was. A mark outside the vocabulary
// is left out, and what the graph writes of a reading is escaped.
func TestEvalGraphHostileMark(t *testing.T) {
	mark := `x" onmouseover="alert(1)`
	good := "blunder"
	played := `a1"><script>alert(2)</script>`
	rows := []store.TurnEval{
		{Turn: 1, Colour: "light", Played: "a1,a2", Before: 0.5, After: 0.4, Loss: 0.5, Mark: &good},
		{Turn: 2, Colour: "dark", Played: played, Before: 0.4, After: 0.6, Loss: 0.5, Mark: &mark},
	}
	svg := string(evalGraph(rows))
	for _, s := range []string{`onmouseover="alert(1)`, "<script>", `x"`} {
		if strings.Contains(svg, s) {
			t.Errorf("the graph holds %q unescaped: %s", s, svg)
		}
	}
	if !strings.Contains(svg, `class="pt blunder"`) || strings.Contains(svg, "onmouseover") {
		t.Errorf("want the mark in the vocabulary kept, the other left out: %s", svg)
	}
}
