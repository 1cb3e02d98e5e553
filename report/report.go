package report

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/outfile"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// Options tune Write.
type Options struct {
	// MaxGames is the most game pages written; 0 means 500, and a negative number none. Illegal and unreadable games
	// come first (the verification table links to them), then legal games in stored order.
	MaxGames int
	// Title is the page title; "" means "Ponte del Diavolo games".
	Title string
	// Filter says in the page what was selected (normally r.Filter); the game pages are
	// chosen with the same filter.
	Filter stats.Filter
	// Progress, when not nil, is called after each game page is written, with the pages
	// written so far and the pages to write (MaxGames, or fewer when the statistics count
	// fewer games). It is called from several goroutines, one call at a time, in order.
	Progress func(pages, total int)
	// Atlases are the opening atlases to show, each in a section of its own beside the
	// database's games of its board (report/atlas.go).
	Atlases []*atlas.Atlas
}

// Written says what Write made.
type Written struct {
	Dir       string `json:"dir"`        // the report's folder, as given
	Index     string `json:"index"`      // path of index.html
	GamePages int    `json:"game_pages"` // pages written under games/
	Games     int    `json:"games"`      // games in the report's statistics (r.Verification.Games)
	Charts    int    `json:"charts"`     // charts in index.html (plots and heat maps)
	Bytes     int64  `json:"bytes"`      // total size written
	// RemovedStale names the temporary folders of killed runs that Write removed.
	RemovedStale []string `json:"removed_stale,omitempty"`
	// Kept names the files of the folder that ponte did not write, which were kept.
	Kept []string `json:"kept,omitempty"`
}

// DefaultMaxGames is the number of game pages written when Options.MaxGames is 0.
const DefaultMaxGames = 500

// DefaultTitle is the page title when Options.Title is "".
const DefaultTitle = "Ponte del Diavolo games"

// marker is the file that marks a folder as a report: Write writes only into a folder
// that holds it (or an empty one, or one of hidden files only), and replaces only the
// files of the report in it.
const marker = MarkerName

// MarkerName is the name of the marker file of a report's folder: the commands do not
// read the files of a folder that holds it.
const MarkerName = ".ponte-report"

//go:embed templates/*.html assets/*
var files embed.FS

var templates = template.Must(template.New("").Funcs(funcs).ParseFS(files, "templates/*.html"))

// Write writes the report of r, the statistics of the games in db (opened with
// store.OpenReader), into the folder dir, and returns what it wrote. The report is
// written into a temporary folder and moved into place at the end by
// outfile.InstallFolder: renamed to dir when dir does not exist; else file by file, each of an earlier report's files (index.html,
// the style sheets, the games folder as a whole, so that no page of an earlier run is
// left behind) replaced by the new one, and every other file kept (a .git folder, a
// user's notes: Written.Kept names them). A dir that holds files but no earlier report
// is refused, naming them, unless all are hidden (a new site's .git); so is a games
// folder holding files ponte did not write. The temporary folders that killed runs left
// are removed first (see removeStale).
//
// The game pages are read from db and written one at a time, so that the memory Write
// uses does not grow with their number; each page shows at most bounded parts of its
// record (see maxText and the constants beside it).
func Write(ctx context.Context, db *store.Reader, r *stats.Report, dir string, opts Options) (*Written, error) {
	if r == nil {
		return nil, errors.New("writing the report: no statistics")
	}
	if dir == "" {
		return nil, errors.New("writing the report: no folder named")
	}
	switch {
	case opts.MaxGames == 0:
		opts.MaxGames = DefaultMaxGames
	case opts.MaxGames < 0: // no game pages
		opts.MaxGames = 0
	}
	if opts.Title == "" {
		opts.Title = DefaultTitle
	}
	start := time.Now()
	exists, kept, err := checkDir(dir)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	removed := removeStale(parent, start)
	var tmp string
	if exists { // the temporary folder inside dir: dir may be ".", or a mount point
		removed = append(removed, removeStale(dir, start)...)
		tmp, err = makeTemp(dir, inside)
	} else {
		tmp, err = makeTemp(dir, beside)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	defer releaseTemp(tmp)
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	w := &writer{dir: tmp, games: r.Verification.Games}
	// The marker goes first: it tells removeStale that a folder a killed run left is a
	// report's.
	if err := w.file(marker, []byte("a report written by ponte; its files are replaced by the next report, other files are kept\n")); err != nil {
		return nil, err
	}
	listed := make(map[int64]bool, len(r.Verification.IllegalGames))
	for _, ig := range r.Verification.IllegalGames {
		listed[ig.ID] = true
	}
	pageList := filepath.Join(tmp, ".pages.part")
	pages, hasPage, err := w.gamePages(ctx, db, opts, listed, pageList)
	if err != nil {
		return nil, err
	}
	evals, err := indexEvals(ctx, db, opts.Filter)
	if err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	w.linkSwings(evals)
	charts, err := w.index(r, opts, pages, hasPage, pageList, evals)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(pageList); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	if err := w.assets(); err != nil {
		return nil, err
	}
	if err := outfile.InstallFolder(tmp, dir, installed); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	done = true
	return &Written{
		Dir:          dir,
		Index:        filepath.Join(dir, "index.html"),
		GamePages:    pages,
		Games:        r.Verification.Games,
		Charts:       charts,
		Bytes:        w.bytes,
		RemovedStale: removed,
		Kept:         kept,
	}, nil
}

// installed are the files of a report, in the order outfile.InstallFolder moves them into
// place into a folder that exists: the
// marker first, index.html, which links to the rest, last.
var installed = []string{marker, "games", "style.css", "fonts.css", "index.html"}

// checkDir looks at dir, the report's folder: whether it exists, and the files in it that
// ponte did not write, which are kept. It refuses a dir that is not a folder, one that
// holds files but no report (hidden files aside: a new site's .git), and a report whose
// games folder holds files that are not game pages; the error names the files.
func checkDir(dir string) (exists bool, kept []string, err error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, fmt.Errorf("writing the report: %w", err)
	}
	if !fi.IsDir() {
		return false, nil, fmt.Errorf("writing the report: %s exists and is not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, nil, fmt.Errorf("writing the report: %w", err)
	}
	isReport := false
	var visible []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == marker:
			isReport = e.Type().IsRegular()
		case reportNames[name]:
		case tempRE.MatchString(name) || oldTempRE.MatchString(name):
			// a temporary folder of a report (removeStale's)
		default:
			kept = append(kept, name)
			if !strings.HasPrefix(name, ".") {
				visible = append(visible, name)
			}
		}
	}
	if !isReport && len(visible) > 0 {
		return false, nil, fmt.Errorf("writing the report: %s holds files but no report ponte wrote (%s): nothing is written there; choose another folder, or an empty one",
			dir, listNames(visible))
	}
	if !isReport && len(visible) == 0 {
		for _, e := range entries {
			if reportNames[e.Name()] { // a report's names, without its marker: not ponte's
				return false, nil, fmt.Errorf("writing the report: %s holds %s but no report ponte wrote: nothing is written there; choose another folder, or an empty one",
					dir, e.Name())
			}
		}
	}
	games, err := os.ReadDir(filepath.Join(dir, "games"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, nil, fmt.Errorf("writing the report: %w", err)
	}
	var foreign []string
	for _, e := range games {
		if !pageName.MatchString(e.Name()) || !e.Type().IsRegular() {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		return false, nil, fmt.Errorf("writing the report: %s holds files that are not game pages ponte wrote (%s): the folder games is replaced as a whole by the next report, so nothing is written; move those files out",
			filepath.Join(dir, "games"), listNames(foreign))
	}
	return true, kept, nil
}

// pageName matches the names of the game pages (game.pagePath).
var pageName = regexp.MustCompile(`^[0-9]+\.html$`)

// listNames lists at most 5 names, and how many more there are.
func listNames(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// writer writes the files of one report and counts their bytes.
type writer struct {
	dir   string
	games int // in the statistics: the most game pages (Options.Progress)
	mu    sync.Mutex
	bytes int64
}

func (w *writer) file(name string, data []byte) error {
	return w.create(name, func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	})
}

// create writes the file name of the report with what fill writes to it, through a
// buffer, and counts its bytes.
func (w *writer) create(name string, fill func(io.Writer) error) error {
	f, err := os.Create(filepath.Join(w.dir, filepath.FromSlash(name)))
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	cw := &countingWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the report: %s: %w", name, err)
	}
	w.mu.Lock()
	w.bytes += cw.n
	w.mu.Unlock()
	return nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// assets writes the style sheet and the chart font.
func (w *writer) assets() error {
	css, err := files.ReadFile("assets/style.css")
	if err != nil {
		return err
	}
	if err := w.file("style.css", css); err != nil {
		return err
	}
	fonts, err := fontCSS()
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return w.file("fonts.css", fonts)
}

// gamePages writes the game pages, as pageGames reads the games, on up to 4 cores: the
// calling goroutine reads each game's turns and tags, and a worker writes its page straight
// to its file. The
// lines of the index's list of pages are written, in order, to the file pageList. It
// returns the number of pages and which of the games listed (the verification table's)
// have one.
func (w *writer) gamePages(ctx context.Context, db *store.Reader, opts Options, listed map[int64]bool, pageList string) (int, map[int64]bool, error) {
	if err := os.Mkdir(filepath.Join(w.dir, "games"), 0o755); err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	script, err := files.ReadFile("assets/game.js")
	if err != nil {
		return 0, nil, err
	}
	evalsJS, err := files.ReadFile("assets/evals.js")
	if err != nil {
		return 0, nil, err
	}
	script = append(append(script[:len(script):len(script)], '\n'), evalsJS...)
	list, err := os.Create(pageList)
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	defer list.Close()
	listOut := bufio.NewWriterSize(list, 64<<10)

	queries, err := db.Details(ctx, pageLimits)
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	defer queries.Close()
	// Whether any game was read by the engine: asked once, not for each page.
	annotated, err := db.HasEvals(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	// Progress: the pages written, told one at a time, in order.
	total := min(opts.MaxGames, w.games)
	var written int // pages written, under progress
	var progress sync.Mutex
	pageDone := func() {
		if opts.Progress != nil {
			progress.Lock()
			written++
			opts.Progress(written, max(total, written))
			progress.Unlock()
		}
	}
	// Each page is written by a goroutine of its own, at most 4 at a time; the first
	// error stops the others and the reading.
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(max(1, min(runtime.GOMAXPROCS(0), 4)))
	pages := 0
	hasPage := make(map[int64]bool, len(listed))
	err = pageGames(ctx, db, opts.Filter, opts.MaxGames, func(g *game) error {
		if err := templates.ExecuteTemplate(listOut, "pagerow", linkTo(g)); err != nil {
			return fmt.Errorf("writing the report: index: %w", err)
		}
		if listed[g.ID] {
			hasPage[g.ID] = true
		}
		// The details are read here, by one goroutine: the driver's locks make readers on
		// several goroutines slower, not faster.
		if err := load(ctx, queries, g); err != nil {
			return err
		}
		if annotated {
			if err := loadEvals(ctx, db, g); err != nil {
				return fmt.Errorf("game %d: %w", g.ID, err)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		eg.Go(func() error {
			defer bug.Recover()
			if ctx.Err() != nil {
				return nil // another page failed: its error is the one told
			}
			page := gamePage(g, template.JS(script))
			if err := w.create(g.pagePath(), func(out io.Writer) error {
				return templates.ExecuteTemplate(out, "game.html", page)
			}); err != nil {
				return fmt.Errorf("game %d: %w", g.ID, err)
			}
			pageDone()
			return nil
		})
		pages++
		return nil
	})
	if werr := eg.Wait(); werr != nil {
		return 0, nil, werr
	}
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	if err := listOut.Flush(); err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	if err := list.Close(); err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	return pages, hasPage, nil
}
