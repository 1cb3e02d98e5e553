package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/internal/inputs"
	"github.com/ponte/ponte/store"
)

// ingestOptions are the flags and arguments of `ponte ingest`.
type ingestOptions struct {
	paths     []string
	db        string
	parquet   string
	noParquet bool
	// parquetOnly: no database is kept; the games go to a temporary one inside --parquet,
	// removed once the Parquet files are written from it.
	parquetOnly bool
	dbGiven     bool // --db was given
	workers     int
	quiet       bool
	json        bool
	analyze     bool // run by ponte analyze: messages say so
}

// command names the command running the ingest, for messages.
func (o *ingestOptions) command() string {
	if o.analyze {
		return "analyze"
	}
	return "ingest"
}

func newIngestCmd(s *streams) *cobra.Command {
	opts := &ingestOptions{}
	cmd := &cobra.Command{
		Use:     "ingest [flags] PATH...",
		Short:   "Replay every game and store it, with its verdict and per-turn features, in SQLite (and Parquet)",
		Long:    help("ingest"),
		Example: `  ponte ingest sample_data`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			opts.dbGiven = cmd.Flags().Changed("db")
			return runIngest(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "ponte.db", "the SQLite database to store the games in (created if needed)")
	f.StringVar(&opts.parquet, "parquet", "", `the directory for games.parquet, turns.parquet and tags.parquet (default: beside the database, named after it: ponte.db, ponte.parquet)`)
	f.BoolVar(&opts.noParquet, "no-parquet", false, "do not write the Parquet files")
	f.BoolVar(&opts.parquetOnly, "parquet-only", false, "keep no database: write only the Parquet files of --parquet DIR (one folder per shard)")
	opts.workers = defaultWorkers()
	f.Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games replayed in parallel (1 to %d)", maxWorkers))
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar, no summary")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON on standard output")
	addLimitFlags(cmd, s)
	return cmd
}

// commitGames is the games of one transaction, 0 for the store's default; the tests of
// killed ingests lower it (TestMain).
var commitGames int

func runIngest(s *streams, opts *ingestOptions) error {
	report, err := ingestAndReport(s, opts)
	if err != nil {
		return err
	}
	sum := report.Summary
	switch {
	case len(sum.Errors) > 0:
		return unreadPaths
	case sum.Interrupted:
		return interrupted
	}
	return nil
}

// ingestAndReport runs the ingest, prints its errors and its summary (or the JSON report),
// and returns the report; the error is an exitError when the ingest could not run.
// ponte analyze shares it.
func ingestAndReport(s *streams, opts *ingestOptions) (*intake.Report, error) {
	if err := checkWorkers(opts.workers); err != nil {
		return nil, err
	}
	if opts.db == "" {
		return nil, errors.New("--db must name a file")
	}
	if err := checkParquetOnly(opts); err != nil {
		return nil, err
	}
	runStart := time.Now() // temporary files older than this are not being written by this run
	var db *store.DB
	var err error
	if opts.parquetOnly {
		db, err = store.OpenParquetOnly(opts.parquet)
	} else {
		db, err = intake.Open(opts.db)
	}
	if err != nil {
		return nil, usage(err)
	}
	// A database this run made and stored nothing in (the run failed, or found no game)
	// is not left behind; one that was there before is always kept.
	defer db.CloseDiscard()
	if dir := parquetDir(opts); dir != "" && !opts.parquetOnly { // OpenParquetOnly has claimed its folder
		// Another database's Parquet folder is refused before anything is stored.
		if err := db.ClaimParquet(dir); err != nil {
			return nil, usage(err)
		}
	}

	ctx := s.ctx

	sopts := intake.Options{Workers: opts.workers, Stdin: s.in, Limits: s.limits, Skip: inputs.Skip(opts.paths),
		Store: store.WriteOptions{CommitGames: commitGames, ParquetDir: outputDir(opts), StreamParquet: parquetDir(opts) != ""}}
	bar := ingestProgress(s.err, opts.quiet, "ingest", &sopts)
	sum, err := intake.Run(ctx, db, opts.paths, sopts)
	bar.End(err == nil && !sum.Interrupted)
	if err != nil {
		// A path that does not exist, a busy database, a database that cannot be written.
		return nil, usage(err)
	}
	for _, n := range sum.Notices {
		fmt.Fprintf(s.err, "ponte %s: note: %s\n", opts.command(), safe(n))
	}
	for _, e := range sum.Errors {
		fmt.Fprintf(s.err, "ponte %s: %s\n", opts.command(), safe(e))
	}

	report := intake.Report{DB: opts.db, Summary: sum}
	nothing := false // the run made the database and stored nothing in it
	if db.Created() {
		if empty, err := db.Empty(); err == nil && empty {
			nothing = true // said after the summary
		}
	}
	if opts.parquetOnly {
		report.DB, report.ParquetOnly = "", true
	} else {
		report.DBRemoved = nothing
	}
	if dir := parquetDir(opts); dir != "" && !nothing {
		report.Parquet, err = intake.UpdateParquet(db, dir, sum, runStart, func(p string) {
			fmt.Fprintf(s.err, "ponte %s: note: %s: removed, a temporary file left by a run that was stopped\n", opts.command(), safe(p))
		}, func(err error) { fmt.Fprintf(s.err, "ponte %s: %s\n", opts.command(), safeErr(err)) },
			func() (*store.ParquetStats, error) { return writeParquet(s.err, opts.quiet, db, dir) })
		if err != nil {
			return nil, usage(err)
		}
	}

	if opts.json {
		if err := json.NewEncoder(s.out).Encode(report); err != nil {
			return nil, err
		}
	} else if !opts.quiet {
		fmt.Fprintln(s.err, report.Text())
	}
	switch {
	case sum.Interrupted && opts.parquetOnly:
		fmt.Fprintf(s.err, "ponte %s: interrupted: nothing written to %s; run the same command again (--parquet-only keeps no database: it starts over)\n",
			opts.command(), safe(opts.parquet))
	case sum.Interrupted && !opts.quiet:
		fmt.Fprintf(s.err, "ponte %s: interrupted: run the same command again to finish\n", opts.command())
	}
	switch {
	case report.DBRemoved:
		fmt.Fprintf(s.err, "ponte %s: note: nothing was stored, so %s, made by this run, is removed\n", opts.command(), safe(opts.db))
	case opts.parquetOnly && nothing && !sum.Interrupted:
		fmt.Fprintf(s.err, "ponte %s: note: nothing was stored, so no Parquet files are written to %s\n", opts.command(), safe(opts.parquet))
	}
	return &report, nil
}

// outputDir is the directory of this database's Parquet files, --no-parquet or not (its
// files are not read as input).
func outputDir(opts *ingestOptions) string {
	if opts.parquet != "" {
		return opts.parquet
	}
	return store.ParquetDirFor(opts.db)
}

// parquetDir is where the Parquet files go: --parquet, else the database's own folder
// beside it (store.ParquetDirFor: ponte.db, ponte.parquet); "" with --no-parquet.
func parquetDir(opts *ingestOptions) string {
	switch {
	case opts.noParquet:
		return ""
	}
	return outputDir(opts)
}

// checkParquetOnly refuses the flags that --parquet-only cannot honour: it needs the
// folder (--parquet DIR), and keeps no database (--db) and writes Parquet (--no-parquet).
func checkParquetOnly(opts *ingestOptions) error {
	switch {
	case !opts.parquetOnly:
		return nil
	case opts.noParquet:
		return errors.New("--parquet-only and --no-parquet: choose one")
	case opts.parquet == "":
		return errors.New("--parquet-only needs --parquet DIR, the folder to write (one per shard)")
	case opts.dbGiven:
		return errors.New("--parquet-only keeps no database: leave out --db")
	}
	return nil
}
