package report

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/ponte/ponte/annotate"
	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// annotatedDB stores the report's test archive in a new database and reads its first
// games with a small engine, as ponte annotate does.
func annotatedDB(t *testing.T, games int) *store.Reader {
	t.Helper()
	return annotatedDBAs(t, games, "sage-8")
}

// annotatedDBAs is annotatedDB with the rows stored under each engine name of bots.
func annotatedDBAs(t *testing.T, games int, bots ...string) *store.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ponte.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := intake.Run(ctx, d, []string{"testdata"}, intake.Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	todo, err := d.GamesToAnnotate(ctx, store.Filter{}, bots[0])
	if err != nil {
		t.Fatal(err)
	}
	e, err := annotate.NewEngine("sage-8", annotate.Fitted)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range todo[:min(games, len(todo))] {
		supply, _ := gamepkg.ParseSupply(g.Supply)
		turns, err := e.Analyse(annotate.Game{GameID: g.GameID, Size: g.Size, Supply: supply, Moves: strings.Fields(g.Moves)[:g.Turns]}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rows []store.TurnEval
		for _, bot := range bots {
			for _, tu := range turns {
				r := store.TurnEval{GameID: g.GameID, Turn: int32(tu.Turn), Bot: bot, Playouts: 8, Colour: strings.ToLower(tu.Colour.String()),
					Played: tu.Played, RawBefore: tu.RawBefore, RawAfter: tu.RawAfter, OverAfter: tu.OverAfter, BestQ: tu.BestQ, PlayedQ: tu.PlayedQ, Before: tu.Before, After: tu.After, Loss: tu.Loss}
				if tu.Best != "" {
					best := tu.Best
					r.Best = &best
				}
				if m := tu.Mark.String(); m != "" {
					r.Mark = &m
				}
				rows = append(rows, r)
			}
		}
		if _, err := d.SaveEvals(ctx, rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestEvalsPage: an annotated game's page has the graph, the marks and the best turns;
// the graph follows the turn shown, and a click on a point shows its turn. The index
// lists the swings.
func TestEvalsPage(t *testing.T) {
	db := annotatedDB(t, 3)
	ctx := context.Background()
	w := writeAll(t, db)
	index := readFile(t, w.Index)
	if !strings.Contains(index, `id="evals"`) || strings.Count(index, "<td class=\"num\">") == 0 {
		t.Fatal("index: no section of the engine's reading")
	}
	// The calibration's own check is shown with it, one row per decile.
	fitted := regexp1(t, index, `(?s)<table class="data narrow reliability fitted">(.*?)</table>`)
	if got := strings.Count(fitted[1], "<tr"); got != 11 {
		t.Errorf("the calibration's check has %d rows, want a head and 10 deciles", got)
	}
	if !strings.Contains(index, strconv.Itoa(annotate.FittedCheck.Games)+" other such games") {
		t.Error("the index does not say on how many held-out games the calibration was checked")
	}
	m := regexp1(t, index, `<table class="data narrow swings">.*?<a href="(games/(\d+)\.html)">`)
	page := filepath.Join(filepath.Dir(w.Index), m[1])
	id, _ := strconv.ParseInt(m[2], 10, 64)
	rows, err := db.EvalsOf(ctx, id)
	if err != nil || len(rows) == 0 {
		t.Fatalf("game %d: %d rows, %v", id, len(rows), err)
	}
	html := readFile(t, page)
	marks := 0
	for _, r := range rows {
		if r.Mark != nil {
			marks++
		}
	}
	if got := strings.Count(html, `<span class="mark `); got != marks {
		t.Errorf("%d marks in the move list, %d rows marked", got, marks)
	}

	bctx, problems := browser(t)
	open(t, bctx, page)
	n := len(rows)
	if got := eval[int](t, bctx, `document.querySelectorAll("#evalgraph circle[data-turn]").length`); got != n+1 {
		t.Errorf("%d points for %d turns", got, n)
	}
	shownBest := `Array.from(document.querySelectorAll("#board g.best")).filter(g => !g.classList.contains("hidden")).map(g => g.getAttribute("data-best")).join(",")`
	if got := eval[string](t, bctx, shownBest); got != "" {
		t.Errorf("the last position shows best turns %q, want none", got)
	}
	if got := eval[string](t, bctx, `document.querySelector("#evalgraph circle.shown").getAttribute("data-turn")`); got != strconv.Itoa(n) {
		t.Errorf("the graph marks turn %s, the page shows turn %d", got, n)
	}
	// A click on the point of turn 3 shows turn 3.
	if err := chromedp.Do(bctx, chromedp.Click(`#evalgraph circle[data-turn="3"]`)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, bctx, `document.getElementById("counter").textContent`); !strings.HasPrefix(got, "turn 3 of ") {
		t.Errorf("after a click on the point of turn 3 the counter says %q", got)
	}
	want := ""
	if rows[3].Best != nil {
		want = "3"
	}
	if got := eval[string](t, bctx, shownBest); got != want {
		t.Errorf("turn 3 shows best turns %q, want %q", got, want)
	}
	if got := eval[string](t, bctx, `document.getElementById("evalcursor").getAttribute("x1") === document.querySelector('#evalgraph circle[data-turn="3"]').getAttribute("cx") ? "ok" : "off"`); got != "ok" {
		t.Error("the graph's cursor is not on turn 3")
	}
	// The keys step the graph too.
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, bctx, `document.querySelector("#evalgraph circle.shown").getAttribute("data-turn")`); got != "4" {
		t.Errorf("after → the graph marks turn %s, want 4", got)
	}
	screenshot(t, bctx, "evals-game.png")
	if p := problems(); len(p) > 0 {
		t.Errorf("problems in the browser: %v", p)
	}
}

func regexp1(t *testing.T, s, expr string) []string {
	t.Helper()
	m := regexpMust(expr).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no match for %s", expr)
	}
	return m
}

func regexpMust(expr string) *regexp.Regexp { return regexp.MustCompile("(?s)" + expr) }

// TestEvalsByPlay: a game read by a search and by play shows the reading by play, which says
// that its chances are measured by games, not calibrated, with its own thresholds and what
// they meant in the truth set; the index shows no fitted calibration for it. (The rows are a
// small search's, stored under the names lore-8 and play-64: what is tested is which reading
// the report shows and how it presents a reading by play.)
func TestEvalsByPlay(t *testing.T) {
	w := writeAll(t, annotatedDBAs(t, 2, "play-64"))
	index := readFile(t, w.Index)
	if !strings.Contains(index, "The chance shown is measured, not fitted") || strings.Contains(index, "logistic regression") {
		t.Error("index: a reading by play presented as a fitted calibration")
	}
	checkPlayPages(t, w)
	// Read by a search too, whose name comes first: the pages show the reading by play.
	checkPlayPages(t, writeAll(t, annotatedDBAs(t, 2, "play-64", "lore-8")))
}

// checkPlayPages checks that the game pages with a reading show play-64's.
func checkPlayPages(t *testing.T, w *Written) {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(filepath.Dir(w.Index), "games", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, p := range pages {
		page := readFile(t, p)
		if !strings.Contains(page, `id="evals"`) {
			continue
		}
		found++
		if !strings.Contains(page, "measured by games of lore-100") || !strings.Contains(page, annotate.PlayThresholds.String()) || strings.Contains(page, "calibrated on self-play") ||
			!strings.Contains(page, "read by play-64") {
			t.Errorf("%s: a reading by play's page does not say so, or shows other thresholds", p)
		}
	}
	if found == 0 {
		t.Error("no game page with the engine's reading")
	}
}

// writeAll writes the report of every population of db into a new folder.
func writeAll(t *testing.T, db *store.Reader) *Written {
	t.Helper()
	ctx := context.Background()
	f := stats.Filter{Population: stats.PopulationAll}
	r, err := stats.Compute(ctx, db, f, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Write(ctx, db, r, filepath.Join(t.TempDir(), "report"), Options{Filter: f})
	if err != nil {
		t.Fatal(err)
	}
	return w
}
