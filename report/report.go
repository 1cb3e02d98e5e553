package report

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/ponte/ponte/stats"
)

// Options tune Write.
type Options struct {
	// MaxGames is the most game pages written; 0 means 500. Illegal and unreadable games
	// come first (the verification table links to them), then legal games in stored order.
	MaxGames int
	// Title is the page title; "" means "Ponte del Diavolo games".
	Title string
	// Filter says in the page what was selected (normally r.Filter); the game pages are
	// chosen with the same filter.
	Filter stats.Filter
}

// Written says what Write made.
type Written struct {
	Dir       string `json:"dir"`        // the report's folder, as given
	Index     string `json:"index"`      // path of index.html
	GamePages int    `json:"game_pages"` // pages written under games/
	Games     int    `json:"games"`      // games in the report's statistics (r.Verification.Games)
	Charts    int    `json:"charts"`     // charts in index.html (plots and heat maps)
	Bytes     int64  `json:"bytes"`      // total size written
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
// is not empty and is not a report is refused.
func Write(ctx context.Context, db *sql.DB, r *stats.Report, dir string, opts Options) (*Written, error) {
	if r == nil {
		return nil, errors.New("writing the report: no statistics")
	}
	if opts.MaxGames <= 0 {
		opts.MaxGames = DefaultMaxGames
	}
	if opts.Title == "" {
		opts.Title = DefaultTitle
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(dir))+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	w := &writer{dir: tmp}
	games, err := loadGames(ctx, db, opts.Filter, opts.MaxGames)
	if err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	if err := w.gamePages(ctx, games); err != nil {
		return nil, err
	}
	charts, err := w.index(r, opts, games)
	if err != nil {
		return nil, err
	}
	if err := w.assets(); err != nil {
		return nil, err
	}
	if err := w.file(marker, []byte("a report written by ponte; the folder is replaced as a whole by the next report\n")); err != nil {
		return nil, err
	}
	if err := replaceDir(tmp, dir); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	done = true
	return &Written{
		Dir:       dir,
		Index:     filepath.Join(dir, "index.html"),
		GamePages: len(games),
		Games:     r.Verification.Games,
		Charts:    charts,
		Bytes:     w.bytes,
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
	mu    sync.Mutex
	bytes int64
}

func (w *writer) file(name string, data []byte) error {
	path := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	w.mu.Lock()
	w.bytes += int64(len(data))
	w.mu.Unlock()
	return nil
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

// gamePages renders and writes the game pages, on all cores.
func (w *writer) gamePages(ctx context.Context, games []*game) error {
	if err := os.Mkdir(filepath.Join(w.dir, "games"), 0o755); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	script, err := files.ReadFile("assets/game.js")
	if err != nil {
		return err
	}
	jobs := make(chan *game)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), 4)) {
		wg.Go(func() {
			var buf bytes.Buffer
			for g := range jobs {
				buf.Reset()
				page := gamePage(g, template.JS(script))
				if err := templates.ExecuteTemplate(&buf, "game.html", page); err != nil {
					select {
					case errs <- fmt.Errorf("writing the report: game %d: %w", g.ID, err):
					default:
					}
					continue
				}
				if err := w.file(g.pagePath(), buf.Bytes()); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		})
	}
	var cerr error
loop:
	for _, g := range games {
		select {
		case jobs <- g:
		case cerr = <-errs:
			break loop
		case <-ctx.Done():
			cerr = ctx.Err()
			break loop
		}
	}
	close(jobs)
	wg.Wait()
	if cerr != nil {
		return cerr
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	return nil
}
