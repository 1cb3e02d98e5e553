package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ponte/ponte/annotate"
)

// The bars for the marks (issue 33): what ceiling compares each cell with.
const (
	barPrecision   = 0.85
	barRecall      = 0.75
	barFalseAlarms = 0.05
)

// ceiling prints what marks a reading of unbiased normal error would reach against the
// truth set, by error and threshold, and how large the error of given readings is.
func ceiling(_ context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("truthset ceiling", flag.ContinueOnError)
	sigmas := fs.String("sigma", "0,0.05,0.08,0.10,0.12,0.15", "the readings' errors (sd of the loss, in points ÷ 100), separated by commas")
	ts := fs.String("t", "0.10,0.15,0.20,0.25", "the losses from which a turn is marked mistake, separated by commas")
	sims := fs.Int("sims", 200, "draws of each cell")
	readings := fs.String("readings", "", "CSV files of readings (truthset marks --csv, vnet truth --csv), separated by commas: the error of each")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("ceiling: one truth set file")
	}
	sg, err := floats(*sigmas)
	if err != nil {
		return fmt.Errorf("--sigma: %w", err)
	}
	tt, err := floats(*ts)
	if err != nil {
		return fmt.Errorf("--t: %w", err)
	}
	if *sims < 1 {
		return errors.New("--sims: at least 1")
	}
	rows, err := annotate.ReadTruthSet(fs.Arg(0))
	if err != nil {
		return err
	}
	var cands []annotate.TruthRow
	for _, r := range rows {
		if r.Kind != annotate.KindBest.String() {
			cands = append(cands, r)
		}
	}
	fmt.Fprintf(out, "%s: %d candidates not the best of their position; a reading of the true loss plus an unbiased normal error of sd σ, the truth measured again with its own standard error, %d draws a cell; precision / recall / false alarms of marks from t (✓: the issue's bars met, precision ≥ %.0f %%, recall ≥ %.0f %%, false alarms ≤ %.0f %%)\n\n",
		fs.Arg(0), len(cands), *sims, 100*barPrecision, 100*barRecall, 100*barFalseAlarms)
	fmt.Fprint(out, "| σ (points) |")
	for _, t := range tt {
		fmt.Fprintf(out, " t = %.0f |", 100*t)
	}
	fmt.Fprint(out, "\n|---|")
	for range tt {
		fmt.Fprint(out, "---|")
	}
	fmt.Fprintln(out)
	for _, s := range sg {
		fmt.Fprintf(out, "| %.0f |", 100*s)
		for _, t := range tt {
			p, r, f := annotate.Ceiling(cands, s, t, *sims, 1)
			ok := ""
			if p >= barPrecision && r >= barRecall && f <= barFalseAlarms {
				ok = " ✓"
			}
			fmt.Fprintf(out, " %.0f / %.0f / %.1f%s |", 100*p, 100*r, 100*f, ok)
		}
		fmt.Fprintln(out)
	}
	if *readings == "" {
		return nil
	}
	fmt.Fprintln(out, "\nthe readings' error against the truth set, beyond the truth set's own noise:")
	for _, path := range strings.Split(*readings, ",") {
		byEngine, order, err := readReadings(path)
		if err != nil {
			return err
		}
		for _, name := range order {
			e := annotate.ErrorOf(byEngine[name])
			fmt.Fprintf(out, "  %s: %d turns, bias %+.1f points, error sd %.1f points, Pearson %.2f: as a rescaled reading, an error sd of %.1f points\n", name, e.N, 100*e.Bias, 100*e.SD, e.Pearson, 100*e.Equivalent)
		}
	}
	return nil
}

func floats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// readReadings reads a readings file (truthset marks --csv, vnet truth --csv) by engine
// (the file's name when it names none), in the order the engines first come.
func readReadings(path string) (map[string][]annotate.TruthReading, []string, error) {
	rows, err := annotate.ReadReadings(path)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]annotate.TruthReading{}
	var order []string
	for _, r := range rows {
		name := r.Engine
		if name == "" {
			name = path
		}
		if _, ok := out[name]; !ok {
			order = append(order, name)
		}
		out[name] = append(out[name], r.TruthReading)
	}
	return out, order, nil
}
