package report

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// The fixture database, made once for the package's tests from testdata/: the autumn
// league (legal, illegal and unreadable games on 10×10), a few JSON Lines games (12×12,
// the 40/15 supply, more illegal games) and hostile.ponte, whose names, events and raw
// text hold markup.
var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

// fixtureDB returns the fixture database, opened read-only.
func fixtureDB(t testing.TB) *testDB {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureDir, fixtureErr = os.MkdirTemp("", "ponte-report-test-")
		if fixtureErr != nil {
			return
		}
		path := filepath.Join(fixtureDir, "ponte.db")
		d, err := store.Open(path)
		if err != nil {
			fixtureErr = err
			return
		}
		if _, err := intake.Run(context.Background(), d, []string{"testdata"}, intake.Options{Workers: 2}); err != nil {
			d.Close()
			fixtureErr = err
			return
		}
		fixtureErr = d.Close()
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return openTestDB(t, filepath.Join(fixtureDir, "ponte.db"))
}

// writeFixture writes the report of the fixture database into a new folder.
func writeFixture(t testing.TB, f stats.Filter, opts Options) (*Written, *stats.Report, *testDB) {
	t.Helper()
	db := fixtureDB(t)
	r, err := stats.Compute(context.Background(), db.Reader, f, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Filter = f
	w, err := Write(context.Background(), db.Reader, r, filepath.Join(t.TempDir(), "report"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return w, r, db
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var gameLink = regexp.MustCompile(`href="(games/(\d+)\.html)"`)

func TestWriteIndex(t *testing.T) {
	w, r, _ := writeFixture(t, stats.Filter{}, Options{})
	index := readFile(t, w.Index)
	if w.Games != r.Verification.Games || w.Games < 25 {
		t.Errorf("Written.Games = %d, report has %d games", w.Games, r.Verification.Games)
	}
	for _, want := range []string{`id="verification"`, `id="pages"`, `id="board-10-` + r.Population + `"`, `id="board-12-` + r.Population + `"`,
		"Swap balance", "Openings", "Scoring", "By turn", "Where the opening tiles go", `id="illegal"`, `id="formats"`, "JSON Lines",
		"<title>" + DefaultTitle + "</title>", "all games"} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	plots := strings.Count(index, `<svg class="plot"`)
	heats := strings.Count(index, `<svg class="heat"`)
	if heats != 3*len(r.Boards) {
		t.Errorf("%d heat maps for %d board sizes, want 3 each", heats, len(r.Boards))
	}
	if plots < 10*len(r.Boards) {
		t.Errorf("%d plots for %d board sizes, want at least 10 each", plots, len(r.Boards))
	}
	if w.Charts != plots+heats {
		t.Errorf("Written.Charts = %d, index.html holds %d plots and %d heat maps", w.Charts, plots, heats)
	}
	// Every chart has its table.
	if n := strings.Count(index, `<figure class="chart"`); n != plots || strings.Count(index, "The numbers: ") < plots+len(r.Boards) {
		t.Errorf("%d chart figures, %d tables of numbers, for %d plots", n, strings.Count(index, "The numbers: "), plots)
	}

	// Links to game pages lead to pages, and every page is linked.
	linked := map[string]bool{}
	for _, m := range gameLink.FindAllStringSubmatch(index, -1) {
		linked[m[1]] = true
		if _, err := os.Stat(filepath.Join(w.Dir, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("index links to %s: %v", m[1], err)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(w.Dir, "games", "*.html"))
	if len(pages) != w.GamePages || len(pages) != r.Verification.Games {
		t.Errorf("%d pages written, Written.GamePages %d, games %d", len(pages), w.GamePages, r.Verification.Games)
	}
	for _, p := range pages {
		if !linked["games/"+filepath.Base(p)] {
			t.Errorf("page %s is not linked from the index", p)
		}
	}
	// Every illegal game of the verification table links to its page.
	for _, ig := range r.Verification.IllegalGames {
		if !strings.Contains(index, fmt.Sprintf(`<a href="games/%d.html">game %d</a>`, ig.ID, ig.ID)) {
			t.Errorf("illegal game %d is not linked from the verification table", ig.ID)
		}
	}
	for _, name := range []string{"style.css", "fonts.css"} {
		if fi, err := os.Stat(filepath.Join(w.Dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	var total int64
	filepath.WalkDir(w.Dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			total += fi.Size()
		}
		return nil
	})
	if total != w.Bytes {
		t.Errorf("Written.Bytes = %d, the folder holds %d", w.Bytes, total)
	}
}

func TestEscaping(t *testing.T) {
	w, _, _ := writeFixture(t, stats.Filter{}, Options{})
	raw := []string{"<script>alert(1)</script>", "<b>x</b>", "<img src=x", "<Sons>"}
	escaped := map[string]bool{
		"&lt;script&gt;alert(1)&lt;/script&gt;":  false,
		"&lt;b&gt;x&lt;/b&gt; &amp; &#34;y&#34;": false,
		"O&#39;Brien &amp; &lt;Sons&gt;":         false,
	}
	err := filepath.WalkDir(w.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data := readFile(t, path)
		for _, s := range raw {
			if strings.Contains(data, s) {
				t.Errorf("%s holds %q unescaped", path, s)
			}
		}
		for s := range escaped {
			if strings.Contains(data, s) {
				escaped[s] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for s, seen := range escaped {
		if !seen {
			t.Errorf("no file shows %q", s)
		}
	}
	// The hostile unreadable record's raw text is on its page, escaped, in a <pre>.
	db := fixtureDB(t)
	var id int64
	if err := db.QueryRow(`SELECT id FROM games WHERE unreadable AND raw LIKE '%Mallory%'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", id)))
	if !strings.Contains(page, `<pre class="raw">`) || !strings.Contains(page, `[Size &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34;]`) {
		t.Errorf("the unreadable game's page does not show its raw text escaped:\n%s", page)
	}
}

var (
	boardRE  = regexp.MustCompile(`(?s)<svg id="board".*?</svg>`)
	turnRE   = regexp.MustCompile(`data-turn="(\d+)"`)
	turnsRE  = regexp.MustCompile(`data-turns="(\d+)"`)
	tileRE   = regexp.MustCompile(`<rect class="tile (light|dark)"`)
	bridgeRE = regexp.MustCompile(`<g class="bridge (light|dark)"`)
	islandRE = regexp.MustCompile(`<path class="island (light|dark)"`)
	waterRE  = regexp.MustCompile(`<rect class="water"`)
)

func TestGamePages(t *testing.T) {
	w, _, db := writeFixture(t, stats.Filter{}, Options{})
	rows, err := db.Query(`SELECT id, size, supply, moves, turns, legal, unreadable, coalesce(error_turn, 0) FROM games ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checked := 0
	for rows.Next() {
		var id int64
		var size, turns, errorTurn int
		var supply, moves string
		var legal, unreadable bool
		if err := rows.Scan(&id, &size, &supply, &moves, &turns, &legal, &unreadable, &errorTurn); err != nil {
			t.Fatal(err)
		}
		page := readFile(t, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", id)))
		if !strings.Contains(page, `href="../index.html"`) || !strings.Contains(page, `href="../style.css"`) {
			t.Errorf("game %d: no link back to the index or to the style sheet", id)
		}
		board := boardRE.FindString(page)
		if unreadable {
			if board != "" || strings.Contains(page, "<script>") {
				t.Errorf("game %d is unreadable but its page has a board or a script", id)
			}
			continue
		}
		if board == "" || !strings.Contains(page, "<script>") || !strings.Contains(page, `id="next"`) {
			t.Errorf("game %d: no board, script or controls", id)
			continue
		}
		// Replay the legal turns to know the final position.
		sup, _ := gamepkg.ParseSupply(supply)
		g, err := replay.NewGame(size, sup)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range strings.Fields(moves)[:turns] {
			if err := g.PlayText(tok); err != nil {
				t.Fatalf("game %d: %v", id, err)
			}
		}
		tiles, water := 0, 0
		for row := range size {
			for col := range size {
				c := gamepkg.CellAt(col, row)
				if _, ok := g.At(c); ok {
					tiles++
				}
				if g.Blocked(c) {
					water++
				}
			}
		}
		bridges := len(g.BuiltBridges(replay.Light)) + len(g.BuiltBridges(replay.Dark))
		groups, _ := g.Groups()
		islands := 0
		for _, gr := range groups {
			if gr.Island() {
				islands++
			}
		}
		if n := len(tileRE.FindAllString(board, -1)); n != tiles {
			t.Errorf("game %d: %d tiles drawn, the position has %d", id, n, tiles)
		}
		if n := len(bridgeRE.FindAllString(board, -1)); n != bridges {
			t.Errorf("game %d: %d bridges drawn, the position has %d", id, n, bridges)
		}
		if n := len(islandRE.FindAllString(board, -1)); n != islands {
			t.Errorf("game %d: %d islands outlined, the position has %d", id, n, islands)
		}
		if n := len(waterRE.FindAllString(board, -1)); n != water {
			t.Errorf("game %d: %d blocked cells drawn, the position has %d", id, n, water)
		}
		// data-turn goes up to the game's turns (one more: the illegal turn, drawn).
		most := 0
		for _, m := range turnRE.FindAllStringSubmatch(board, -1) {
			n, _ := strconv.Atoi(m[1])
			most = max(most, n)
		}
		last, _ := strconv.Atoi(turnsRE.FindStringSubmatch(board)[1])
		switch {
		case legal && (most != turns || last != turns):
			t.Errorf("game %d: data-turn up to %d, data-turns %d, want %d", id, most, last, turns)
		case !legal && (most < turns || most > turns+1 || last != most):
			t.Errorf("game %d (illegal after %d turns): data-turn up to %d, data-turns %d", id, turns, most, last)
		}
		// Every legal turn has its row in the move list and something on the board (a
		// piece, or the note of a swap or pass).
		onBoard := map[string]bool{}
		for _, m := range turnRE.FindAllStringSubmatch(board, -1) {
			onBoard[m[1]] = true
		}
		for turn := 1; turn <= turns; turn++ {
			if !strings.Contains(page, fmt.Sprintf(`<tr data-turn="%d"`, turn)) || !onBoard[strconv.Itoa(turn)] {
				t.Errorf("game %d: turn %d has no move row or nothing on the board", id, turn)
				break
			}
		}
		if !legal && errorTurn > 0 && !strings.Contains(page, fmt.Sprintf(`<tr data-turn="%d" data-move="illegal `, errorTurn)) {
			t.Errorf("game %d: illegal at turn %d, but the move list does not mark it", id, errorTurn)
		}
		checked++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("only %d game pages checked", checked)
	}
}

func TestMaxGamesAndReplace(t *testing.T) {
	db := fixtureDB(t)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Write(context.Background(), db.Reader, r, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	// A second, smaller report replaces the first: no stale pages.
	w, err := Write(context.Background(), db.Reader, r, dir, Options{MaxGames: 5, Title: "Five <games>"})
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "games", "*.html"))
	if w.GamePages != 5 || len(pages) != 5 {
		t.Fatalf("GamePages %d, %d pages on disk, want 5", w.GamePages, len(pages))
	}
	// The five are the first games not legal, in stored order.
	want := make(map[string]bool)
	ids, err := db.Query(`SELECT id FROM games WHERE NOT legal ORDER BY id LIMIT 5`)
	if err != nil {
		t.Fatal(err)
	}
	for ids.Next() {
		var id int64
		ids.Scan(&id)
		want[fmt.Sprintf("%d.html", id)] = true
	}
	ids.Close()
	for _, p := range pages {
		if !want[filepath.Base(p)] {
			t.Errorf("page %s is not one of the first 5 games that are not legal", p)
		}
	}
	index := readFile(t, filepath.Join(dir, "index.html"))
	if !strings.Contains(index, "<title>Five &lt;games&gt;</title>") || !strings.Contains(index, "5 of the") {
		t.Error("index.html does not show the title or the number of pages")
	}
	// Leftovers of the temporary folders are gone.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("beside the report: %v", entries)
	}
	// A folder that holds something else is not replaced.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "thesis.tex"), []byte("x"), 0o644)
	if _, err := Write(context.Background(), db.Reader, r, other, Options{}); err == nil {
		t.Error("Write replaced a folder that is not a report")
	}
	if _, err := os.Stat(filepath.Join(other, "thesis.tex")); err != nil {
		t.Error(err)
	}
}

func TestFilter(t *testing.T) {
	f := stats.Filter{Size: 12}
	w, r, db := writeFixture(t, f, Options{})
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM games WHERE size = 12`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if w.GamePages != n || r.Verification.Games != n || n == 0 {
		t.Errorf("%d pages, %d games in the statistics, %d games of size 12", w.GamePages, r.Verification.Games, n)
	}
	index := readFile(t, w.Index)
	if !strings.Contains(index, "size 12") || strings.Contains(index, `id="board-10-`) {
		t.Error("index.html does not show the selection")
	}
	pages, _ := filepath.Glob(filepath.Join(w.Dir, "games", "*.html"))
	for _, p := range pages {
		if !strings.Contains(readFile(t, p), "12×12") {
			t.Errorf("%s is not a 12×12 game", p)
		}
	}
}

// TestEmpty writes the report of a selection without games.
func TestEmpty(t *testing.T) {
	w, _, _ := writeFixture(t, stats.Filter{Player: "nobody"}, Options{})
	if w.GamePages != 0 || w.Games != 0 || w.Charts != 0 {
		t.Errorf("%+v", w)
	}
	if !strings.Contains(readFile(t, w.Index), "player <bdi>nobody</bdi>") {
		t.Error("index.html does not say what was selected")
	}
}

func BenchmarkWrite(b *testing.B) {
	db := fixtureDB(b)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "out")
	for b.Loop() {
		if _, err := Write(context.Background(), db.Reader, r, dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A boardspace game's page shows each of its 54 turns' think times; a game without them has no such
// column.
func TestThinkTimes(t *testing.T) {
	w, _, db := writeFixture(t, stats.Filter{}, Options{})
	var bs, other int64
	if err := db.QueryRow(`SELECT id FROM games WHERE format = 'boardspace'`).Scan(&bs); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT id FROM games WHERE format = 'ponte' AND legal`).Scan(&other); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", bs)))
	if !strings.Contains(page, `>think</th>`) || strings.Count(page, " s</td>") != 54 {
		t.Errorf("boardspace page: %d think times, want a column and one per turn (54)", strings.Count(page, " s</td>"))
	}
	if page := readFile(t, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", other))); strings.Contains(page, `>think</th>`) {
		t.Error("a game without think times has a think column")
	}
}

// The answer comes first: the cards stand before every other section, one per card of
// the report in its order, each with its verdict, n and interval; and every id of the
// page is unique, though a board size may appear once per population.
func TestAnswerFirst(t *testing.T) {
	w, r, _ := writeFixture(t, stats.Filter{}, Options{})
	index := readFile(t, w.Index)
	first := strings.Index(index, `<section id="answer">`)
	for _, other := range []string{`<section id="verification">`, `<section id="pages">`, `<section id="board-`} {
		if i := strings.Index(index, other); first < 0 || i < first {
			t.Errorf("%s comes before the cards (%d, cards at %d)", other, i, first)
		}
	}
	if len(r.Cards) == 0 {
		t.Fatal("the fixture has no cards")
	}
	cards := strings.Split(index[first:strings.Index(index, `<section id="verification">`)], `<article class="verdict-card`)[1:]
	if len(cards) != len(r.Cards) {
		t.Fatalf("%d cards on the page, %d in the report", len(cards), len(r.Cards))
	}
	for i, c := range r.Cards {
		html := cards[i]
		for _, want := range []string{
			fmt.Sprintf("%d×%d", c.Size, c.Size),
			`<p class="vc-verdict">` + c.Verdict + "</p>",
			fmt.Sprintf("n = %d ", c.N),
			fmt.Sprintf("95%% interval %.1f–%.1f%%", 100*c.Lo, 100*c.Hi),
			"Estimate: " + c.Estimate,
			"Covers " + popWords(c.Population),
		} {
			if !strings.Contains(html, want) {
				t.Errorf("card %d (%d×%d %s) lacks %q:\n%s", i, c.Size, c.Size, c.Population, want, html)
			}
		}
	}
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(index, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q appears %d times", id, n)
		}
	}
}

func TestAnswerPopulations(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    stats.Report
		want []string
		not  []string
	}{
		{"bots only", stats.Report{Population: stats.PopulationBots, Cards: []stats.Card{{Size: 10, Population: stats.PopulationBots, N: 40, Value: 0.6, Lo: 0.52, Hi: 0.68, Verdict: stats.OpenerFavoured, Estimate: stats.EstimateRaw}},
			Populations: []stats.PopulationCount{{Population: stats.PopulationBots, Games: 40}}},
			[]string{"The selection has no people's games: these are the bots' games.", "self-played games between bots"}, nil},
		{"bots main, people few", stats.Report{Population: stats.PopulationBots, Cards: []stats.Card{
			{Size: 10, Population: stats.PopulationBots, N: 2000, Value: 0.5, Lo: 0.48, Hi: 0.52, Verdict: "balanced within ±3%", Estimate: stats.EstimateAdjusted},
			{Size: 10, Population: stats.PopulationPeople, N: 23, Value: 0.6, Lo: 0.3, Hi: 0.85, Verdict: stats.NotEnoughGames, Estimate: stats.EstimateAdjusted, Few: true}},
			Populations: []stats.PopulationCount{{Population: stats.PopulationPeople, Games: 35}, {Population: stats.PopulationBots, Games: 3000}}},
			[]string{"The bots' games are the main population here: no board has 30 people's games (there are 35 in all).",
				"people's games and bots' games apart", "(every game with a bot player) balanced within ±3%", "games between people not enough games to tell"}, nil},
		{"bots asked for", stats.Report{Filter: stats.Filter{Population: stats.PopulationBots}, Population: stats.PopulationBots},
			[]string{"self-played games between bots"}, []string{"No people's games"}},
		{"people", stats.Report{Population: stats.PopulationPeople}, []string{"games between people"}, []string{"No people's games"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := answer(&tc.r)
			text := a.Note + " " + a.Population
			for _, c := range a.Cards {
				text += " " + c.PopWords + " " + c.Verdict + " " + c.Interval
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(text, w) {
					t.Errorf("%q holds %q", text, w)
				}
			}
		})
	}
}
