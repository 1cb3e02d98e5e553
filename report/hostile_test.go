package report

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// editedDB ingests sample_data/autumn-league.ponte (17 records: game 3 is a legal 12×12
// game, game 5 an illegal 10×10 one) into a new database, applies the statements edits to
// it as a hand edit would, and opens it for reading.
func editedDB(t *testing.T, edits ...string) *testDB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "edited.db")
	w, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := intake.Run(context.Background(), w, []string{"../sample_data/autumn-league.ponte"}, intake.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	for _, e := range edits {
		if _, err := raw.Exec(e); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
	}
	raw.Close()
	return openTestDB(t, path)
}

// copies returns the statement that adds n copies of the rows of table that match where,
// i running from 1 to n, with the columns named in set given the values of its SQL
// expressions of i; the other columns are copied as they are. The columns are the
// store's, read from a database it makes.
func copies(t *testing.T, table, where string, n int, set map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "schema.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	schema, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	rows, err := schema.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols, exprs []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
		if e, ok := set[c]; ok {
			exprs = append(exprs, e)
		} else {
			exprs = append(exprs, c)
		}
	}
	if err := rows.Err(); err != nil || len(cols) == 0 {
		t.Fatalf("the columns of %s: %v", table, err)
	}
	return fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) INSERT INTO %s (%s) SELECT %s FROM %s, n WHERE %s",
		n, table, strings.Join(cols, ", "), strings.Join(exprs, ", "), table, where)
}

// heapBytes is the heap the program's objects take now, live or not yet collected.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// peakHeap runs f and returns the most heap it held above what was held before, sampled
// every millisecond, and what it allocated in all. Past limit bytes of heap, a watchdog
// stops the test binary at once, so that a giant allocation fails the test instead of
// exhausting the machine.
func peakHeap(t *testing.T, limit uint64, f func()) (peak, total uint64) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	base := heapBytes()
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		most := uint64(0)
		for {
			select {
			case <-done:
				result <- most
				return
			case <-time.After(time.Millisecond):
			}
			if h := heapBytes(); h > base {
				most = max(most, h-base)
				if most > limit {
					panic(fmt.Sprintf("%s: %d MB of heap, more than the %d MB allowed", t.Name(), most>>20, limit>>20))
				}
			}
		}
	}()
	f()
	close(done)
	peak = <-result
	runtime.ReadMemStats(&after)
	return peak, after.TotalAlloc - before.TotalAlloc
}

// writeEdited computes the statistics of db and writes its report into a new folder.
func writeEdited(t *testing.T, db *testDB, opts Options) *Written {
	t.Helper()
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Write(context.Background(), db.Reader, r, filepath.Join(t.TempDir(), "report"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestEditedIDs writes the report of databases whose games.id were edited to values no
// ingest writes: no panic, no memory sized by the ids, and the game keeps its page.
func TestEditedIDs(t *testing.T) {
	for _, id := range []string{"-5", "9223372036854775000"} {
		t.Run(id, func(t *testing.T) {
			db := editedDB(t,
				"UPDATE games SET id = "+id+" WHERE id = 3",
				"UPDATE game_turns SET game = "+id+" WHERE game = 3",
				"UPDATE game_tags SET game = "+id+" WHERE game = 3")
			var w *Written
			_, total := peakHeap(t, 64<<20, func() { w = writeEdited(t, db, Options{}) })
			if total > 64<<20 {
				t.Errorf("allocated %d MB", total>>20)
			}
			page := readFile(t, filepath.Join(w.Dir, "games", id+".html"))
			if !strings.Contains(page, "<h1>Game "+id+":") || !strings.Contains(page, `<svg id="board"`) {
				t.Errorf("the page of game %s does not show it", id)
			}
			if index := readFile(t, w.Index); !strings.Contains(index, `<a href="games/`+id+`.html">`+id+`</a>`) {
				t.Errorf("the index does not link to game %s", id)
			}
		})
	}
}

// TestPageBounded writes the pages of games edited to hold far more than any record
// should: a million moves, 3 MB of raw text, a megabyte-long event, 2,000 tags of 5,000
// characters and 20,000 turn rows. Each page shows a bounded part of it, says what it left
// out, and the report costs little memory.
func TestPageBounded(t *testing.T) {
	db := editedDB(t,
		// Game 5 (illegal at turn 42): a million more tokens after its moves, 3 MB of raw
		// text of 3-byte characters (cut inside one), 2,000 long tags.
		`UPDATE games SET moves = moves || replace(hex(zeroblob(1000000)), '00', ' a1,a2'),
			raw = replace(hex(zeroblob(500000)), '0', '€') WHERE id = 5`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
			UPDATE game_tags SET tags = substr(tags, 1, length(tags) - 1) || ','
				|| (SELECT group_concat(json_array('Long' || i, hex(zeroblob(2500))), ',') FROM n) || ']' WHERE game = 5`,
		// Game 3 (legal, 75 turns): a megabyte-long event and player. Game 5 (41 legal
		// turns): 20,000 turn rows.
		`UPDATE games SET event = 'E' || hex(zeroblob(500000)), light = '<b>' || hex(zeroblob(500000)) WHERE id = 3`,
		// (internal/turntext: the header counts 20,000 turns, 'R4"'; after the 41 records,
		// passes that change nothing.)
		"UPDATE game_turns SET turns = 'R4\"' || substr(turns, 4, 7 + 9 * 41 - 3)"+
			" || replace(hex(zeroblob(20000 - 41)), '00', '_uE-c`!  ') || substr(turns, 8 + 9 * 41) WHERE game = 5",
	)
	var w *Written
	_, total := peakHeap(t, 256<<20, func() { w = writeEdited(t, db, Options{}) })
	if total > 128<<20 {
		t.Errorf("allocated %d MB", total>>20)
	}
	five := filepath.Join(w.Dir, "games", "5.html")
	page := readFile(t, five)
	if fi, _ := os.Stat(five); fi.Size() > 2<<20 {
		t.Errorf("game 5's page has %d bytes", fi.Size())
	}
	for _, want := range []string{
		fmt.Sprintf("The list stops at move %s: the record has more moves", thousands(maxMoveRows)),
		"The text is cut here: these are the first 65,535 of its 3,000,000 bytes.",
		"The first 100 of the record&#39;s 2,0",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("game 5's page does not say %q", want)
		}
	}
	if n := strings.Count(page, "<tr "); n > maxMoveRows+maxTags+10 {
		t.Errorf("game 5's page has %d rows", n)
	}
	if n := strings.Count(page, "<tr><td><bdi>"); n != maxTags {
		t.Errorf("game 5's page lists %d tags, want %d", n, maxTags)
	}
	if !strings.Contains(page, strings.Repeat("0", maxText)+"…</bdi>") || strings.Contains(page, strings.Repeat("0", maxText+1)) {
		t.Error("game 5's tag values are not cut to maxText characters")
	}
	three := filepath.Join(w.Dir, "games", "3.html")
	if fi, _ := os.Stat(three); fi.Size() > 256<<10 {
		t.Errorf("game 3's page has %d bytes", fi.Size())
	}
	page = readFile(t, three)
	if !strings.Contains(page, "<bdi>E"+strings.Repeat("0", maxText-1)+"…</bdi>") || !strings.Contains(page, "&lt;b&gt;") {
		t.Error("game 3's event and player are not cut to maxText characters")
	}
	if n := strings.Count(page, `<tr data-turn=`); n != 76 {
		t.Errorf("game 3's move list has %d rows, want its 75 turns and the start", n)
	}
	if fi, _ := os.Stat(w.Index); fi.Size() > 1<<20 {
		t.Errorf("index.html has %d bytes", fi.Size())
	}
}

// TestPagesStream: the memory a report takes does not grow with its number of pages. A
// database of 2,000 copies of a 75-turn game is reported with 100 pages and with all 2,000;
// the heap held at the peak differs by less than the 2,000 games' turns would take.
func TestPagesStream(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2,000 pages")
	}
	db := editedDB(t,
		copies(t, "games", "id = 3", 2000, map[string]string{"id": "1000 + i", "game_id": "game_id || i"}),
		copies(t, "game_turns", "game = 3", 2000, map[string]string{"game": "1000 + i"}),
		copies(t, "game_tags", "game = 3", 2000, map[string]string{"game": "1000 + i"}),
	)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(25)) // the heap follows what is live
	peaks := map[int]uint64{}
	for _, pages := range []int{100, 2017} {
		dir := filepath.Join(t.TempDir(), "report")
		var w *Written
		peaks[pages], _ = peakHeap(t, 1<<30, func() {
			if w, err = Write(context.Background(), db.Reader, r, dir, Options{MaxGames: pages}); err != nil {
				t.Fatal(err)
			}
		})
		if w.GamePages != pages {
			t.Fatalf("%d pages written, want %d", w.GamePages, pages)
		}
		t.Logf("%d pages: %.1f MB of heap at the peak", pages, float64(peaks[pages])/(1<<20))
	}
	if grow := int64(peaks[2017]) - int64(peaks[100]); grow > 12<<20 {
		t.Errorf("the heap at the peak grows by %.1f MB from 100 to 2,017 pages", float64(grow)/(1<<20))
	}
}

// bidiRE finds the Unicode controls that reorder text, and the elements that isolate them.
var bidiRE = regexp.MustCompile("[\u202A-\u202E\u2066-\u2069]|<bdi>|</bdi>|<pre class=\"raw\">|</pre>")

// TestBidiIsolated: the record testdata/bidi.ponte names its players and its event with
// right-to-left overrides, embeddings and isolates. In every file of the report, every such
// control is inside a <bdi> element (or the raw text's <pre>, a block of its own), where it
// cannot reorder the text around it; in the <title> and the attributes, where no element
// can isolate it, it is left out and the text is isolated by U+2068 … U+2069.
func TestBidiIsolated(t *testing.T) {
	w, _, db := writeFixture(t, stats.Filter{}, Options{})
	var id int64
	if err := db.QueryRow("SELECT id FROM games WHERE light = ?", "\u202Eevil").Scan(&id); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", id)))
	for _, want := range []string{
		fmt.Sprintf("<h1>Game %d: <bdi>\u202Eevil</bdi> – <bdi>bob\u2066</bdi>, <bdi>\u202Bcup \u2067final</bdi></h1>", id),
		fmt.Sprintf("<title>Game %d: \u2068evil\u2069 – \u2068bob\u2069, \u2068cup final\u2069</title>", id),
		"<td><bdi>Comment</bdi></td><td><bdi>\u202Dleft \u202Cpop \u2069close</bdi></td>",
		`<dd><span class="swatch light"></span><bdi>` + "\u202Eevil</bdi> (opener)</dd>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("game %d's page lacks %q", id, want)
		}
	}
	index := readFile(t, w.Index)
	if !strings.Contains(index, "<td><bdi>\u202Eevil</bdi></td><td><bdi>bob\u2066</bdi></td>") {
		t.Error("the index's list of pages does not isolate the players")
	}
	checked := 0
	err := filepath.WalkDir(w.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		data := readFile(t, path)
		depth, pre, isolate := 0, false, -1 // isolate: where plain's U+2068 opened, -1 when none
		for _, m := range bidiRE.FindAllStringIndex(data, -1) {
			switch s := data[m[0]:m[1]]; {
			case s == "<bdi>":
				depth++
			case s == "</bdi>":
				depth--
			case s == `<pre class="raw">`:
				pre = true
			case s == "</pre>":
				pre = false
			case depth > 0 || pre:
				checked++
			case s == "\u2068" && isolate < 0:
				isolate = m[0]
			case s == "\u2069" && isolate >= 0:
				isolate = -1
			default:
				t.Errorf("%s: %+q outside <bdi> at byte %d: …%s…", path, s, m[0], data[max(0, m[0]-60):min(len(data), m[1]+20)])
			}
		}
		if isolate >= 0 {
			t.Errorf("%s: U+2068 at byte %d is not closed", path, isolate)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 8 {
		t.Errorf("only %d controls found in the report", checked)
	}
}

// TestPlain: plain leaves ASCII alone and isolates anything else, without its controls.
func TestPlain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"alice", "alice"},
		{"a<b>&\"", "a<b>&\""},
		{"\u202Eevil", "\u2068evil\u2069"},
		{"\u2069\u202Eevil\u2066", "\u2068evil\u2069"},
		{"Ærø", "\u2068Ærø\u2069"},
		{"שלום", "\u2068שלום\u2069"},
		{"a\xffb", "\u2068a\uFFFDb\u2069"},
	} {
		if got := plain(tc.in); got != tc.want {
			t.Errorf("plain(%+q) = %+q, want %+q", tc.in, got, tc.want)
		}
	}
}

// TestCut: cutText keeps at most n characters and says it cut; cutUTF8 drops a character
// cut in two.
func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "ééé…"},
		{"a\xffb", 5, "a\uFFFDb"},
	} {
		if got := cutText(tc.in, tc.n); got != tc.want {
			t.Errorf("cutText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"ab", "ab"},
		{"a€", "a€"},
		{"a€"[:3], "a"},
		{"a€"[:2], "a"},
		{"€"[:1], ""},
		{"a\xffb", "a\uFFFDb"},
	} {
		if got := cutUTF8([]byte(tc.in)); got != tc.want {
			t.Errorf("cutUTF8(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
