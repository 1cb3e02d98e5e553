package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/report"
	"github.com/ponte/ponte/stats"
)

// analyzeOptions are the flags and arguments of `ponte analyze`: those of ingest and of
// report together.
type analyzeOptions struct {
	ingest   ingestOptions
	report   reportOptions
	annotate string // --annotate: "" none, "all", or a number of games
	evals    string // --evals: a turn_evals.parquet to merge
}

func newAnalyzeCmd(s *streams) *cobra.Command {
	opts := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:     "analyze [flags] [PATH...]",
		Short:   "Ingest, compute the statistics and write the HTML report, in one command",
		Long:    help("analyze"),
		Example: `  ponte analyze`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				// The README's first command, run in the repository. Elsewhere there
				// is no sample_data: say what to do rather than which file is missing.
				if _, err := os.Stat("sample_data"); err != nil {
					return usagef("no sample_data folder here: run it in the ponte repository, or name your archives: ponte analyze PATH...")
				}
				args = []string{"sample_data"}
				if opts.evals == "" && !cmd.Flags().Changed("evals") {
					opts.evals = sampleEvals // the sample data's games read by the engine
				}
				if !cmd.Flags().Changed("atlas") {
					// The atlases committed beside the sample data (atlas/data).
					opts.report.atlases, _ = filepath.Glob(filepath.Join("atlas", "data", "*.db"))
				}
			}
			opts.ingest.paths = args
			return runAnalyze(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.ingest.db, "db", "ponte.db", "the SQLite database to store the games in (created if needed)")
	f.StringVarP(&opts.report.out, "out", "o", "ponte-report", "the folder to write the report into")
	f.StringVar(&opts.ingest.parquet, "parquet", "", `the directory for games.parquet and turns.parquet (default: beside the database, named after it: ponte.db, ponte.parquet)`)
	f.BoolVar(&opts.ingest.noParquet, "no-parquet", false, "do not write the Parquet files")
	opts.ingest.workers = defaultWorkers()
	f.Var(countFlag(&opts.ingest.workers, 1, maxWorkers), "workers", fmt.Sprintf("games replayed in parallel (1 to %d)", maxWorkers))
	addPagesFlag(cmd, &opts.report.maxGames)
	addAtlasFlag(cmd, &opts.report.atlases)
	f.StringVar(&opts.report.title, "title", "", `the report's title (default "`+report.DefaultTitle+`")`)
	f.BoolVarP(&opts.ingest.quiet, "quiet", "q", false, "print nothing but errors")
	f.BoolVar(&opts.report.json, "json", false, "print the ingest's summary and what the report holds as JSON on standard output")
	f.StringVar(&opts.annotate, "annotate", "", "read the games with the engine (ponte annotate) before the report: all of them, or --annotate=N for N games")
	f.Lookup("annotate").NoOptDefVal = "all"
	f.StringVar(&opts.evals, "evals", "", "merge the engine's readings of a turn_evals.parquet (default with no PATH: "+sampleEvals+")")
	addLimitFlags(cmd, s)
	return cmd
}

// analyzeResult is what ponte analyze prints with --json: the ingest's summary, what the
// report holds, and the verdicts on the pie rule that the text output ends with.
type analyzeResult struct {
	Ingest *intake.Report `json:"ingest"`
	Report *reportResult  `json:"report"`
	// Population is the population the report and the cards cover; Populations counts the
	// legal games of each by format and site (stats.Report).
	Population  string                  `json:"population"`
	Populations []stats.PopulationCount `json:"populations"`
	Cards       []stats.Card            `json:"cards"`
	// Atlases summarise the opening atlases shown (--atlas), without their classes.
	Atlases []*atlas.Result `json:"atlases"`
}

func runAnalyze(s *streams, opts *analyzeOptions) error {
	if _, err := analyzeGames(opts.annotate); err != nil {
		return err
	}
	in := &opts.ingest
	in.analyze = true
	in.quiet = in.quiet || opts.report.json // the JSON carries the summary
	ing, err := ingestAndReport(s, in)
	if err != nil {
		return err
	}
	switch {
	case len(ing.Summary.Errors) > 0:
		return unreadPaths
	case ing.Summary.Interrupted:
		return interrupted
	}
	if err := analyzeEvals(s, opts); err != nil {
		return err
	}
	opts.report.db = in.db
	opts.report.quiet = in.quiet // no bars either
	w, err := writeReport(s, "analyze", &opts.report)
	if err != nil {
		return err
	}
	if opts.report.json {
		atlases := []*atlas.Result{}
		for _, a := range opts.report.loaded {
			atlases = append(atlases, a.JSON(false))
		}
		return json.NewEncoder(s.out).Encode(analyzeResult{Ingest: ing, Report: w,
			Population: w.stats.Population, Populations: w.stats.Populations, Cards: w.stats.Cards, Atlases: atlases})
	}
	if in.quiet {
		return nil
	}
	fmt.Fprintln(s.out, w.Summary(w.Seconds))
	fmt.Fprintln(s.out)
	w.stats.WritePopulation(s.out)
	fmt.Fprintln(s.out)
	w.stats.WriteCards(s.out)
	for _, a := range opts.report.loaded {
		fmt.Fprintln(s.out)
		a.PrintSummary(s.out)
	}
	return nil
}
