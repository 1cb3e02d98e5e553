package report

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/ponte/ponte/stats"
)

// findChromium returns the path of a Chromium (or Chrome) to drive, "" when there is none.
func findChromium() string {
	if p := os.Getenv("PONTE_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium for the test, with a fresh profile and nothing that
// reaches the network, and returns a tab whose console errors, uncaught exceptions and
// failed loads are collected by problems.
func browser(t *testing.T) (ctx context.Context, problems func() []string) {
	t.Helper()
	path := findChromium()
	if path == "" {
		if os.Getenv("PONTE_BROWSER_TEST") == "1" {
			t.Fatal("PONTE_BROWSER_TEST=1 but no Chromium found (install chromium, or set PONTE_CHROMIUM)")
		}
		t.Skip("no Chromium found; set PONTE_BROWSER_TEST=1 to make this a failure")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	var mu sync.Mutex
	var found []string
	add := func(format string, args ...any) {
		mu.Lock()
		found = append(found, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	tab, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				add("console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			add("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg)
		case *network.EventLoadingFailed:
			add("failed load (%s): %s", ev.Type, ev.ErrorText)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				add("log error: %s %s", ev.Entry.Text, ev.Entry.URL)
			}
		}
	}))
	ctx, cancelTimeout := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), found...)
	}
}

// shotDir is where the screenshots go: $PONTE_SCREENSHOTS, else a temporary folder.
func shotDir(t *testing.T) string {
	if d := os.Getenv("PONTE_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// open loads a page and waits for it and its fonts.
func open(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(path)), chromedp.WaitReady("body")); err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("fonts of %s: %v", path, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(shotDir(t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s (%d bytes)", path, len(png))
}

// visibleSVGs counts the svg elements matched by sel that have a nonzero box, and all of
// them.
const visibleSVGs = `(sel => {
	const all = Array.from(document.querySelectorAll(sel));
	const shown = all.filter(e => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; });
	return [shown.length, all.length];
})`

// legendOverlaps lists the labels under the heat maps that overlap the label before them
// on their line, and the labels and titles that reach past the drawing's edges.
const legendOverlaps = `Array.from(document.querySelectorAll("svg.heat")).flatMap(svg => {
	const box = svg.getBoundingClientRect(), out = [], name = svg.getAttribute("aria-label");
	for (const row of [".tick", ".fade-tick", ".legend-title", ".legend-note"]) {
		const r = Array.from(svg.querySelectorAll(".legend " + row)).map(e => [e.textContent, e.getBoundingClientRect()]);
		r.forEach(([s, b], i) => {
			if (b.left < box.left - 0.5 || b.right > box.right + 0.5) { out.push(name + ": " + s + " outside"); }
			if (i > 0 && Math.abs(r[i-1][1].top - b.top) < 1 && r[i-1][1].right > b.left + 0.5) { out.push(name + ": " + r[i-1][0] + " over " + s); }
		});
	}
	return out;
})`

func TestBrowser(t *testing.T) {
	ctx, problems := browser(t)
	w, r, db := writeFixture(t, stats.Filter{}, Options{})

	// The index: every chart drawn with a box, the charts' font loaded, no errors.
	open(t, ctx, w.Index)
	counts := eval[[]int](t, ctx, visibleSVGs+`("svg.plot, svg.heat")`)
	if counts[0] != w.Charts || counts[1] != w.Charts || w.Charts < 20 {
		t.Errorf("index: %d of %d charts visible, Written.Charts %d", counts[0], counts[1], w.Charts)
	}
	if !eval[bool](t, ctx, `document.fonts.check('12px "Liberation Sans"')`) {
		t.Error(`index: the font "Liberation Sans" is not available`)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('a[href^="games/"]').length`); n < w.GamePages {
		t.Errorf("index: %d links to game pages, %d pages", n, w.GamePages)
	}
	// The openings' thumbnails draw turn 1's tiles in Light's colour.
	if fills := eval[[]string](t, ctx, `Array.from(new Set(Array.from(document.querySelectorAll("svg.mini .pick")).map(e => getComputedStyle(e).fill)))`); len(fills) != 1 || fills[0] != "rgb(230, 211, 163)" {
		t.Errorf("index: the thumbnails' tiles are filled %q, want Light's rgb(230, 211, 163)", fills)
	}
	if overlaps := eval[[]string](t, ctx, legendOverlaps); len(overlaps) > 0 {
		t.Errorf("index: heat map labels overlap:\n%s", strings.Join(overlaps, "\n"))
	}
	screenshot(t, ctx, "index.png")

	// The heat maps of the smallest and the largest boards: their legends fit too.
	sized := *r
	sized.Boards = []stats.Board{syntheticBoard(5), syntheticBoard(26)}
	ws, err := Write(context.Background(), db.Reader, &sized, filepath.Join(t.TempDir(), "sizes"), Options{MaxGames: 1})
	if err != nil {
		t.Fatal(err)
	}
	open(t, ctx, ws.Index)
	if c := eval[[]int](t, ctx, visibleSVGs+`("svg.heat")`); c[0] != 6 || c[1] != 6 {
		t.Errorf("5×5 and 26×26: %d of %d heat maps visible", c[0], c[1])
	}
	if overlaps := eval[[]string](t, ctx, legendOverlaps); len(overlaps) > 0 {
		t.Errorf("5×5 and 26×26: heat map labels overlap:\n%s", strings.Join(overlaps, "\n"))
	}
	screenshot(t, ctx, "index-sizes.png")

	// A legal game: step through it.
	var id int64
	var turns int
	if err := db.QueryRow(`SELECT id, turns FROM games WHERE legal AND over AND swapped AND size = 10 ORDER BY id LIMIT 1`).Scan(&id, &turns); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", id)))
	if c := eval[[]int](t, ctx, visibleSVGs+`("svg.board")`); c[0] != 1 {
		t.Fatalf("game %d: board not visible (%v)", id, c)
	}
	counter := func() string { return eval[string](t, ctx, `document.getElementById("counter").textContent`) }
	hidden := func() int { return eval[int](t, ctx, `document.querySelectorAll("#board .hidden").length`) }
	tiles := func() int {
		return eval[int](t, ctx, `Array.from(document.querySelectorAll("#board .tile")).filter(e => e.getBoundingClientRect().width > 0).length`)
	}
	if got, want := counter(), fmt.Sprintf("turn %d of %d", turns, turns); !strings.HasPrefix(got, want) {
		t.Errorf("game %d opens at %q, want %q", id, got, want)
	}
	if hidden() != 0 {
		t.Errorf("game %d: pieces hidden at the last turn", id)
	}
	allTiles := tiles()
	if err := chromedp.Do(ctx, chromedp.Click("#first")); err != nil {
		t.Fatal(err)
	}
	if got := counter(); got != fmt.Sprintf("turn 0 of %d", turns) || tiles() != 0 {
		t.Errorf("after first: %q, %d tiles shown", got, tiles())
	}
	if err := chromedp.Do(ctx, chromedp.Click("#next")); err != nil {
		t.Fatal(err)
	}
	if got := counter(); !strings.HasPrefix(got, fmt.Sprintf("turn 1 of %d: light ", turns)) || tiles() != 2 {
		t.Errorf("after next: %q, %d tiles shown, want 2", got, tiles())
	}
	if err := chromedp.Do(ctx, chromedp.Click("#next")); err != nil {
		t.Fatal(err)
	}
	if got := counter(); !strings.HasPrefix(got, fmt.Sprintf("turn 2 of %d: dark swap", turns)) || tiles() != 2 ||
		eval[int](t, ctx, `document.querySelectorAll("#board .event.current").length`) != 1 {
		t.Errorf("at the swap: %q, %d tiles shown", got, tiles())
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if got := counter(); !strings.HasPrefix(got, fmt.Sprintf("turn 1 of %d", turns)) {
		t.Errorf("after ←: %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#moves tr[data-turn="10"]`)); err != nil {
		t.Fatal(err)
	}
	if got := counter(); !strings.HasPrefix(got, fmt.Sprintf("turn 10 of %d", turns)) || hidden() == 0 ||
		eval[int](t, ctx, `document.querySelectorAll("#moves tr.current").length`) != 1 {
		t.Errorf("after clicking move 10: %q, %d hidden", got, hidden())
	}
	if err := chromedp.Do(ctx, chromedp.Click("#last")); err != nil {
		t.Fatal(err)
	}
	if hidden() != 0 || tiles() != allTiles {
		t.Errorf("after last: %d hidden, %d of %d tiles", hidden(), tiles(), allTiles)
	}
	screenshot(t, ctx, "game.png")

	// An illegal game and the unreadable hostile one load without errors.
	for _, ig := range r.Verification.IllegalGames {
		if ig.Rule == "R4.4" || ig.Rule == "format" {
			open(t, ctx, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", ig.ID)))
			if ig.Rule == "R4.4" {
				if n := eval[int](t, ctx, `document.querySelectorAll("#board .illegal").length`); n != 1 {
					t.Errorf("game %d (R4.4): %d illegal turns drawn", ig.ID, n)
				}
				screenshot(t, ctx, "game-illegal.png")
			}
		}
	}
	// A player named with a right-to-left override and an event with an embedding: each
	// name is drawn in its own box, in the order of the line, the override reversing only
	// the name itself.
	var bidi int64
	if err := db.QueryRow("SELECT id FROM games WHERE light = ?", "\u202Eevil").Scan(&bidi); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, filepath.Join(w.Dir, "games", fmt.Sprintf("%d.html", bidi)))
	if order := eval[string](t, ctx, `(() => {
		const h = document.querySelector("h1"), b = Array.from(h.querySelectorAll("bdi"));
		const r = b.map(e => e.getBoundingClientRect()), t = document.createRange();
		t.setStart(h.firstChild, 0); t.setEnd(h.firstChild, h.firstChild.length);
		const lead = t.getBoundingClientRect();
		if (b.length !== 3) { return "bdi: " + b.length; }
		if (!(lead.right <= r[0].left + 0.5 && r[0].right <= r[1].left + 0.5 && r[1].right <= r[2].left + 0.5)) {
			return JSON.stringify([lead, ...r].map(x => [x.left, x.right]));
		}
		return "in order";
	})()`); order != "in order" {
		t.Errorf("game %d: the title line's parts are out of order: %s", bidi, order)
	}

	// The listener works: a probe error and exception are seen (and then left out).
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`console.error("ponte-probe"); setTimeout(() => { throw new Error("ponte-probe") }, 0)`)); err != nil {
		t.Fatal(err)
	}
	var real []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		probes := 0
		real = real[:0]
		for _, p := range problems() {
			if strings.Contains(p, "ponte-probe") {
				probes++
			} else {
				real = append(real, p)
			}
		}
		if probes == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the listener saw %d of the 2 probe errors", probes)
		}
	}
	if len(real) > 0 {
		t.Errorf("the browser reported %d problems:\n%s", len(real), strings.Join(real, "\n"))
	}
}
