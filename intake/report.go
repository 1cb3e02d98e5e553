package intake

import (
	"fmt"
	"strings"
	"time"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
	"github.com/ponte/ponte/store"
)

// Report is the summary of an ingest as ponte ingest prints it (--json): the run's
// Summary, where the games went and what became of the Parquet folder.
type Report struct {
	DB string `json:"db"`
	// DBRemoved: the run made the database and stored nothing in it, so it was removed.
	DBRemoved bool `json:"db_removed,omitempty"`
	// ParquetOnly: --parquet-only, no database kept (DB is "").
	ParquetOnly bool `json:"parquet_only,omitempty"`
	*Summary
	Parquet *ParquetReport `json:"parquet,omitempty"`
}

// ParquetReport says what an ingest did to the Parquet folder Dir.
type ParquetReport struct {
	Dir string `json:"dir"`
	*store.ParquetStats
	// UpToDate: nothing was stored since the files were written, so they were left alone
	// (ParquetStats is then nil).
	UpToDate bool `json:"up_to_date,omitempty"`
}

// UpdateParquet brings the Parquet folder dir of db up to date after the run sum, begun
// at start. It first removes the temporary files that killed runs left (naming each to
// removed, and its error to failed: the run goes on); then, unless the run was
// interrupted, it writes the files with write, except when the run read nothing and they
// are current (rewriting 100,000 games takes longer than ingesting them). The report is
// nil when the run was interrupted.
func UpdateParquet(db *store.DB, dir string, sum *Summary, start time.Time, removed func(path string), failed func(error),
	write func() (*store.ParquetStats, error)) (*ParquetReport, error) {
	paths, err := store.RemoveStaleTemps(dir, start)
	for _, p := range paths {
		removed(p)
	}
	if err != nil {
		failed(err)
	}
	if sum.Interrupted {
		return nil, nil
	}
	current := false
	if sum.Games == 0 && sum.Resumed == 0 {
		if current, err = db.ParquetCurrent(dir); err != nil {
			return nil, err
		}
	}
	var st *store.ParquetStats
	if !current {
		if st, err = write(); err != nil {
			return nil, err
		}
	}
	return &ParquetReport{Dir: dir, ParquetStats: st, UpToDate: current}, nil
}

// Text is the summary printed at the end of a run: the games, the files, the rows and the
// time, then the Parquet files.
func (r *Report) Text() string {
	s := r.Summary
	plural := termtext.Plural
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s: %d new, %d %s; %d legal, %d illegal, %d unreadable",
		s.Games, plural(s.Games, "game", "games"), s.New, s.Duplicates, plural(s.Duplicates, "duplicate", "duplicates"),
		s.Legal, s.Illegal, s.Unreadable)
	fmt.Fprintf(&b, "\n%d %s", s.Files, plural(s.Files, "file", "files"))
	if s.Skipped > 0 {
		fmt.Fprintf(&b, " (%d already ingested, skipped)", s.Skipped)
	}
	if s.Resumed > 0 {
		fmt.Fprintf(&b, " (%d taken up where an interrupted ingest stopped)", s.Resumed)
	}
	where := termtext.Safe(r.DB)
	if r.ParquetOnly {
		where = "a temporary database (--parquet-only)"
	}
	fmt.Fprintf(&b, "; %s rows stored in %s; %s", numtext.Thousands(s.Rows), where, termtext.Seconds(s.Seconds))
	if s.Games > 0 {
		secs := max(s.Seconds, 1e-9)
		fmt.Fprintf(&b, " (%s games/s, %s rows/s)", termtext.Rate(float64(s.Games)/secs), numtext.Thousands(int64(float64(s.Rows)/secs)))
	}
	if p := r.Parquet; p != nil && p.UpToDate {
		fmt.Fprintf(&b, "\nparquet: %s is up to date (nothing stored since it was written)", termtext.Safe(p.Dir))
	} else if p != nil {
		fmt.Fprintf(&b, "\nparquet: %s games, %s turns and %s tags written to %s; %s",
			numtext.Thousands(p.Games), numtext.Thousands(p.Turns), numtext.Thousands(p.Tags), termtext.Safe(p.Dir), termtext.Seconds(p.Seconds))
	}
	return b.String()
}
