package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/internal/inputs"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
	"github.com/ponte/ponte/verdict"
)

// exportOptions are the flags and arguments of `ponte export`.
type exportOptions struct {
	paths  []string
	db     string
	dbSet  bool
	out    string
	format ingest.Format // ingest.FormatUnknown: the name of --out chooses
	quiet  bool
	filter stats.Filter
	// only is "legal" or "illegal": the games written; "" writes both.
	only string
	// keepDuplicates writes a game each time the paths hold it, not once.
	keepDuplicates bool
}

func newExportCmd(s *streams) *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:     "export [flags] [PATH...]",
		Short:   "Write games, read from files or stored in the database, as .ponte or JSON Lines",
		Long:    help("export"),
		Example: `  ponte export --out boardspace.ponte archive/boardspace.zip`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			opts.dbSet = cmd.Flags().Changed("db")
			return runExport(s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "ponte.db", "the database to export from when no path is given")
	f.StringVarP(&opts.out, "out", "o", "-", `the file to write ("-" for standard output); .gz or .zst compresses`)
	f.Var(formatFlag(&opts.format), "format", `"ponte" or "jsonl" (default: jsonl when --out ends in .jsonl[.gz|.zst], else ponte)`)
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing on standard error but errors")
	f.StringVar(&opts.only, "only", "", `"legal" or "illegal": write only the games of that verdict (default both)`)
	f.BoolVar(&opts.keepDuplicates, "keep-duplicates", false, "with paths, write a game as often as the paths hold it (default: once, as ingest stores it)")
	_ = cmd.RegisterFlagCompletionFunc("only", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"legal\tthe games every rule allows", "illegal\tthe games that break a rule"}, cobra.ShellCompDirectiveNoFileComp
	})
	addFilterFlags(cmd, &opts.filter)
	addLimitFlags(cmd, s)
	return cmd
}

func runExport(s *streams, opts *exportOptions) error {
	format := cmp.Or(opts.format, archive.FormatOf(opts.out))
	if err := archive.CheckName(opts.out); err != nil {
		return err
	}
	if len(opts.paths) > 0 && (opts.dbSet || opts.filter != (stats.Filter{})) {
		return errors.New("the filters select stored games, and --db names where they are: give them without paths " +
			"(to filter the games of files, store them first: ponte ingest PATH..., then ponte export with the filters)")
	}
	if opts.only != "" && opts.only != "legal" && opts.only != "illegal" {
		return fmt.Errorf(`--only %q: want "legal" or "illegal"`, opts.only)
	}
	if err := opts.filter.Validate(); err != nil {
		return err
	}
	out, err := archive.Create(s.ctx, opts.out, s.out)
	if s.stopped("export", "; nothing written") {
		return interrupted
	}
	if err != nil {
		return usage(err)
	}
	defer out.Abort()
	if !opts.quiet {
		notes(s, out, "export")
	}
	w := ingest.NewWriter(out.W, format)

	var written, skipped, badPaths int
	sel := verdict.Selection{Only: opts.only, KeepDuplicates: opts.keepDuplicates}
	var writeErr error
	write := func(rec *ingest.Record) {
		if err := w.Write(rec); err != nil {
			if !errors.Is(err, ingest.ErrUnwritable) {
				writeErr = err
				return
			}
			skipped++
			fmt.Fprintf(s.err, "ponte export: %s:%d: game %d not written: %s\n", safe(rec.Source), rec.Line, rec.Index, safeErr(err))
			return
		}
		written++
	}
	if len(opts.paths) > 0 {
		step := func(rec *ingest.Record, err error) error {
			switch {
			case err != nil && errors.Is(err, context.Canceled) && s.ctx.Err() != nil:
				return err // standard input, interrupted while it waited
			case ingest.IsNotice(err):
				fmt.Fprintln(s.err, "ponte export: note:", safeErr(err))
				return nil
			case rec == nil:
				badPaths++
				fmt.Fprintln(s.err, "ponte export:", safeErr(err))
				return nil
			case err != nil:
				skipped++
				fmt.Fprintf(s.err, "ponte export: not written, cannot be read: %s\n", safeErr(err))
				return nil
			}
			if sel.Keep(rec) {
				write(rec)
			}
			return writeErr
		}
		var d pipeline.Detached // stops at once when interrupted, even on an input that waits for ever
		d.Run(s.ctx, func() error {
			for rec, err := range inputs.Records(s.ctx, opts.paths, s.in, nil, s.limits) {
				if d.Step(func() error { return step(rec, err) }) != nil {
					break
				}
			}
			return nil
		})
	} else {
		db, err := openStored(s, "export", opts.db)
		if err != nil {
			return err
		}
		defer db.Close()
		verdicts := store.AnyVerdict
		switch opts.only {
		case "legal":
			verdicts = store.LegalOnly
		case "illegal":
			verdicts = store.IllegalOnly
		}
		err = db.Records(s.ctx, opts.filter, verdicts, func(rec *ingest.Record, unreadable bool) error {
			if unreadable {
				skipped++
				fmt.Fprintf(s.err, "ponte export: %s:%d: game %d not written: it could not be read when ingested\n", safe(rec.Source), rec.Line, rec.Index)
				return nil
			}
			write(rec)
			return writeErr
		})
		if err != nil && writeErr == nil {
			if s.stopped("export", exportStopped(out, written)) {
				return interrupted
			}
			return usage(err)
		}
	}
	if s.stopped("export", exportStopped(out, written)) {
		return interrupted // the deferred abort removes the temporary file
	}
	if writeErr == nil {
		if writeErr = w.Flush(); writeErr == nil {
			writeErr = out.Commit()
		}
	}
	if writeErr != nil {
		return usage(writeErr)
	}
	if !opts.quiet {
		fmt.Fprintf(s.err, "%d %s written to %s (%s)", written, plural(written, "game", "games"), safe(out.Name()), format)
		if skipped > 0 {
			fmt.Fprintf(s.err, "; %d not written", skipped)
		}
		if n := sel.Duplicates; n > 0 {
			fmt.Fprintf(s.err, "; %d %s of a game written before left out (--keep-duplicates writes them)", n, plural(n, "copy", "copies"))
		}
		if n := sel.Unselected; n > 0 {
			fmt.Fprintf(s.err, "; %d %s left out (--only %s)", n, plural(n, "game", "games"), opts.only)
		}
		fmt.Fprintln(s.err)
	}
	if badPaths > 0 {
		return unreadPaths
	}
	return nil
}

// exportStopped says what an interrupted export wrote: nothing to a file, which keeps
// what it held, or the games sent to standard output, a FIFO or a device before it.
func exportStopped(out *archive.Output, written int) string {
	if out.Atomic() {
		return "; nothing written to " + safe(out.Name())
	}
	return fmt.Sprintf("; %d %s written to %s before, the rest not", written, plural(written, "game", "games"), safe(out.Name()))
}
