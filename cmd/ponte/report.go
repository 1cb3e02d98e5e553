package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/report"
	"github.com/ponte/ponte/stats"
)

// reportOptions are the flags of `ponte report`.
type reportOptions struct {
	db       string
	out      string
	maxGames int
	title    string
	json     bool
	quiet    bool
	filter   stats.Filter
	// atlases are opening atlases' databases (ponte atlas) shown in sections of their own.
	atlases []string
	loaded  []*atlas.Atlas
}

func newReportCmd(s *streams) *cobra.Command {
	opts := &reportOptions{}
	cmd := &cobra.Command{
		Use:     "report [flags]",
		Short:   "Write a static HTML report of the stored games: statistics, charts and game pages",
		Long:    help("report"),
		Example: `  ponte report`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "ponte.db", "the database made by ponte ingest")
	f.StringVarP(&opts.out, "out", "o", "ponte-report", "the folder to write the report into")
	addPagesFlag(cmd, &opts.maxGames)
	addAtlasFlag(cmd, &opts.atlases)
	f.StringVar(&opts.title, "title", "", `the report's title (default "`+report.DefaultTitle+`")`)
	f.BoolVar(&opts.json, "json", false, "print what was written as JSON on standard output")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing but errors")
	addFilterFlags(cmd, &opts.filter)
	return cmd
}

// addPagesFlag adds --pages, the most game pages of a report (0: none), and its old name
// --games, which selfplay uses for the games to play.
func addPagesFlag(cmd *cobra.Command, pages *int) {
	f := cmd.Flags()
	*pages = report.DefaultMaxGames
	f.Var(countFlag(pages, 0, maxCount), "pages", fmt.Sprintf("the most game pages written (0: none; to %d)", maxCount))
	f.Var(countFlag(pages, 0, maxCount), "games", "the most game pages written")
	_ = f.MarkHidden("games")
	cmd.PreRun = func(c *cobra.Command, _ []string) {
		if c.Flags().Changed("games") { // said on standard error: standard output may be --json
			fmt.Fprintf(c.ErrOrStderr(), "%s: note: --games is now --pages (selfplay's --games is the games to play)\n", c.CommandPath())
		}
	}
}

func runReport(s *streams, opts *reportOptions) error {
	if opts.out == "" {
		return errors.New("--out must name a folder")
	}
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	w, err := writeReport(s, "report", opts)
	if err != nil {
		return err
	}
	return printWritten(s, opts, w)
}

// writeReport computes the statistics and writes the report; errors are printed with the
// command's name and returned as exit status 2.
func writeReport(s *streams, command string, opts *reportOptions) (*reportResult, error) {
	start := time.Now()
	db, err := openStored(s, command, opts.db)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ctx := s.ctx
	statsBar := progress.NewStage(s.err, bars(s.err, opts.quiet), func(b *progress.Bars) *progress.Phase { return b.Spinner("statistics") })
	r, err := stats.Compute(ctx, db, opts.filter, stats.Options{MaxIllegal: opts.maxGames})
	statsBar.End(err == nil && ctx.Err() == nil)
	if s.stopped(command, "; no report written") {
		return nil, interrupted
	}
	if err != nil {
		return nil, usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	if opts.loaded, err = atlas.ReadAll(ctx, opts.atlases); err != nil {
		return nil, usage(err)
	}
	pages := pagesBar(s.err, opts.quiet, min(opts.maxGames, r.Verification.Games))
	w, err := report.Write(ctx, db, r, opts.out, report.Options{MaxGames: cmp.Or(opts.maxGames, -1), Title: opts.title, Filter: opts.filter,
		Progress: pages.Pages(), Atlases: opts.loaded})
	pages.End(err == nil && ctx.Err() == nil)
	if s.stopped(command, "; no report written") {
		return nil, interrupted
	}
	if err != nil {
		return nil, usage(err)
	}
	skipped, err := annotate.WarnBadReadings(s.ctx, s.err, "ponte "+command, opts.db, db, opts.filter)
	if err != nil {
		return nil, usagef("%s: %s", safe(opts.db), safeErr(err))
	}
	return &reportResult{Written: w, Seconds: time.Since(start).Seconds(), SkippedReadings: skipped, stats: r}, nil
}

// pagesBar is the bar of the report's game pages: those written of the total; none
// when no page is written.
func pagesBar(w io.Writer, quiet bool, total int) *progress.Stage {
	if total <= 0 {
		return nil
	}
	return progress.CountStage(w, bars(w, quiet), "game pages", int64(total), "pages", nil)
}

// reportResult is what ponte report prints with --json.
type reportResult struct {
	*report.Written
	Seconds float64 `json:"seconds"`
	// SkippedReadings are the stored readings left out of the report (annotate.WarnBadReadings).
	SkippedReadings int           `json:"skipped_readings,omitempty"`
	stats           *stats.Report // for analyze's summary
}

func printWritten(s *streams, opts *reportOptions, w *reportResult) error {
	switch {
	case opts.json:
		return json.NewEncoder(s.out).Encode(w)
	case !opts.quiet:
		fmt.Fprintln(s.out, w.Summary(w.Seconds))
	}
	return nil
}
