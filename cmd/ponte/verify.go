package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/inputs"
	"github.com/ponte/ponte/internal/progress"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/verdict"
)

// verifyOptions are the flags and arguments of `ponte verify`.
type verifyOptions struct {
	paths   []string
	json    bool
	workers int
	quiet   bool
}

func newVerifyCmd(s *streams) *cobra.Command {
	opts := &verifyOptions{}
	cmd := &cobra.Command{
		Use:     "verify [flags] PATH...",
		Short:   "Replay every game and report the illegal and unreadable ones",
		Long:    help("verify"),
		Example: `  ponte verify sample_data`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runVerify(s, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print one JSON object per game on standard output")
	opts.workers = defaultWorkers()
	cmd.Flags().Var(countFlag(&opts.workers, 1, maxWorkers), "workers", fmt.Sprintf("games replayed in parallel (1 to %d)", maxWorkers))
	cmd.Flags().BoolVarP(&opts.quiet, "quiet", "q", false, "no progress bar, no summary")
	addLimitFlags(cmd, s)
	return cmd
}

func runVerify(s *streams, opts *verifyOptions) error {
	bar := progress.NewVerify(s.err, bars(s.err, opts.quiet), inputs.Size(opts.paths))
	stdout, stderr := bar.Writers(s.out, s.err, isTerminal(s.out)) // above the bar while it is drawn
	out := bufio.NewWriterSize(stdout, 64<<10)
	enc := json.NewEncoder(out)
	var n verdict.Counts
	var line []byte
	records := inputs.Records(s.ctx, opts.paths, s.in, bar.Counter(), s.limits)
	emitVerdict := func(v verdict.Verdict, err error) error {
		if ingest.IsNotice(err) { // skipped on purpose (another game's record): said, not counted
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
			fmt.Fprintln(stderr, "ponte verify: note:", safeErr(err))
			return nil
		}
		if err != nil && errors.Is(err, context.Canceled) && s.ctx.Err() != nil {
			return err // standard input, interrupted while it waited
		}
		if err != nil { // a path that cannot be read: said at once, counted, the run goes on
			n.BadPaths++
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
			fmt.Fprintln(stderr, "ponte verify:", safeErr(err))
			return nil
		}
		n.Add(&v)
		bar.Game(n.Games)
		if opts.json {
			return enc.Encode(v)
		}
		line = v.AppendText(line[:0])
		_, err = out.Write(line)
		return err
	}
	var d pipeline.Detached // the run stops at once when interrupted, even on an input that waits for ever
	err := d.Run(s.ctx, func() error {
		return verdict.CheckWithin(records, opts.workers, s.limits.MaxInFlight, func(v verdict.Verdict, err error) error {
			return d.Step(func() error { return emitVerdict(v, err) })
		})
	})
	if errors.Is(err, context.Canceled) {
		err = nil // said below
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	bar.End(err == nil && s.ctx.Err() == nil)
	if err != nil {
		return err
	}
	stopped := s.ctx.Err() != nil
	if stopped {
		fmt.Fprint(s.err, "ponte verify: interrupted; verified so far: ")
	}
	if !opts.quiet || stopped {
		fmt.Fprintln(s.err, n)
	}
	switch {
	case stopped:
		return interrupted
	case n.BadPaths > 0:
		return unreadPaths
	case n.Games == 0:
		// Nothing to verify is not "every game legal": a wrong folder, or files of
		// another kind, must not pass a script's check.
		return usagef("no game record in %s: nothing verified", strings.Join(opts.paths, ", "))
	case n.Illegal > 0 || n.Unreadable > 0:
		return findings
	}
	return nil
}
