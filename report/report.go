package report

import (
	"bufio"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/stats"
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
}

// DefaultMaxGames is the number of game pages written when Options.MaxGames is 0.
const DefaultMaxGames = 500

// DefaultTitle is the page title when Options.Title is "".
const DefaultTitle = "Ponte del Diavolo games"

// marker is the file that marks a folder as a report: Write replaces only a folder that
// holds it (or an empty one), never another folder.
const marker = ".ponte-report"

//go:embed templates/*.html assets/*
var files embed.FS

var templates = template.Must(template.New("").Funcs(funcs).ParseFS(files, "templates/*.html"))

// Write writes the report of r, the statistics of the games in db (opened with
// store.OpenReader), into the folder dir, and returns what it wrote. It replaces an earlier
// report in dir as a whole: the new report is written into a temporary folder beside dir
// and renamed into place, so no page of an earlier run is left behind. A dir that exists,
// is not empty and is not a report is refused. The temporary folders that killed runs left
// beside dir are removed first (see removeStale).
//
// The game pages are read from db and written one at a time, so that the memory Write
// uses does not grow with their number; each page shows at most bounded parts of its
// record (see maxText and the constants beside it).
func Write(ctx context.Context, db *sql.DB, r *stats.Report, dir string, opts Options) (*Written, error) {
	if r == nil {
		return nil, errors.New("writing the report: no statistics")
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
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	removed := removeStale(parent, start)
	tmp, err := makeTemp(dir)
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
	if err := w.file(marker, []byte("a report written by ponte; the folder is replaced as a whole by the next report\n")); err != nil {
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
	charts, err := w.index(r, opts, pages, hasPage, pageList)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(pageList); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	if err := w.assets(); err != nil {
		return nil, err
	}
	if err := replaceDir(tmp, dir); err != nil {
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
	}, nil
}

// checkDir refuses to replace a folder that is not a report.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("writing the report: %s exists and is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("writing the report: %s is not empty and holds no earlier report: choose another folder", dir)
	}
	return nil
}

// replaceDir moves the finished report tmp to dir, removing the report that was there.
func replaceDir(tmp, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
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
func (w *writer) gamePages(ctx context.Context, db *sql.DB, opts Options, listed map[int64]bool, pageList string) (int, map[int64]bool, error) {
	if err := os.Mkdir(filepath.Join(w.dir, "games"), 0o755); err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	script, err := files.ReadFile("assets/game.js")
	if err != nil {
		return 0, nil, err
	}
	list, err := os.Create(pageList)
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	defer list.Close()
	listOut := bufio.NewWriterSize(list, 64<<10)

	queries, err := prepareDetails(ctx, db)
	if err != nil {
		return 0, nil, fmt.Errorf("writing the report: %w", err)
	}
	defer queries.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *game)
	var werr error // the first worker's error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { werr = err })
		cancel()
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
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), 4)) {
		wg.Go(func() {
			defer bug.Recover()
			for g := range jobs {
				if ctx.Err() != nil {
					continue
				}
				page := gamePage(g, template.JS(script))
				if err := w.create(g.pagePath(), func(out io.Writer) error {
					return templates.ExecuteTemplate(out, "game.html", page)
				}); err != nil {
					fail(fmt.Errorf("game %d: %w", g.ID, err))
					continue
				}
				pageDone()
			}
		})
	}
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
		if err := queries.load(ctx, g); err != nil {
			return err
		}
		select {
		case jobs <- g:
		case <-ctx.Done():
			return ctx.Err()
		}
		pages++
		return nil
	})
	close(jobs)
	wg.Wait()
	if werr != nil {
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
