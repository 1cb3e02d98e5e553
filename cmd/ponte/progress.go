package main

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/store"
)

// progressRefresh is how often the bars are drawn; the tests on a terminal lower it.
var progressRefresh = 150 * time.Millisecond

// bars are the progress bars' settings on w: drawn on a terminal, unless quiet
// (internal/progress).
func bars(w io.Writer, quiet bool) progress.Settings {
	return progress.Settings{Show: !quiet && isTerminal(w), Refresh: progressRefresh}
}

// isTerminal reports whether w is a terminal (a progress bar would be seen, not stored).
func isTerminal(w io.Writer) bool {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ingestProgress sets opts.Progress to draw the ingest's bar on w, named name.
func ingestProgress(w io.Writer, quiet bool, name string, opts *intake.Options) *progress.Ingest {
	bar := progress.NewIngest(w, bars(w, quiet), name)
	if bar != nil {
		opts.Progress = func(pr intake.Progress) { bar.Update(pr.TotalBytes, pr.Files, pr.Bytes, pr.Games, pr.FilesDone) }
	}
	return bar
}

// writeParquet writes the Parquet files of db into dir, with a bar per file on w when it
// shows bars.
func writeParquet(w io.Writer, quiet bool, db *store.DB, dir string) (*store.ParquetStats, error) {
	bar := progress.NewFiles(w, bars(w, quiet))
	if bar == nil {
		return db.WriteParquet(dir)
	}
	st, err := db.WriteParquetProgress(dir, func(pr store.ParquetProgress) {
		bar.Update(pr.File, pr.TotalGames, pr.Games, pr.Rows, pr.Streamed)
	})
	bar.End(err == nil)
	return st, err
}
