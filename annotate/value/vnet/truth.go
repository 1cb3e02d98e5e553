package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/annotate/value"
	"github.com/ponte/ponte/internal/outfile"
	"github.com/ponte/ponte/internal/score"
)

// truthReading is a model's reading of a truth set: the value of the position after each
// candidate for the colour that played it, and each candidate's loss against the best of
// its position (all but the best).
type truthReading struct {
	rows     []annotate.TruthRow
	values   []float64
	readings []annotate.TruthReading
}

// readTruth reads every candidate of rows with the model. Without an engine, a candidate's
// loss is against its position's best candidate, the truth set's; with one, against the
// engine's best turn in the position (as ponte annotate finds it), 0 when the candidate is
// that turn and never below 0, as the reading clamps it.
func readTruth(m *value.Model, rows []annotate.TruthRow, e *annotate.Engine) (*truthReading, error) {
	r := &truthReading{rows: rows, values: make([]float64, len(rows))}
	best := map[[2]int32]float64{}
	// after is the model's value for the mover of the position after row's turns and token.
	after := func(row annotate.TruthRow, token string) (float64, error) {
		g, err := row.Replay()
		if err != nil {
			return 0, err
		}
		mover := g.ToMove()
		if _, err = g.PlayTurn(g.Turn()+1, token); err != nil {
			return 0, err
		}
		return m.Value(g, mover), nil
	}
	for i, row := range rows {
		v, err := after(row, row.Candidate)
		if err != nil {
			return nil, fmt.Errorf("%d×%d position %d, candidate %s: %w", row.Size, row.Size, row.Position, row.Candidate, err)
		}
		r.values[i] = v
		if e == nil && row.Kind == annotate.KindBest.String() {
			best[[2]int32{row.Size, row.Position}] = v
		}
	}
	bestTurn := map[[2]int32]string{}
	for i, row := range rows {
		if row.Kind == annotate.KindBest.String() {
			continue
		}
		key := [2]int32{row.Size, row.Position}
		var loss float64
		switch b, ok := best[key]; {
		case e == nil && !ok:
			return nil, fmt.Errorf("%d×%d position %d: no best candidate", row.Size, row.Size, row.Position)
		case e == nil:
			loss = b - r.values[i]
		default:
			if _, ok := bestTurn[key]; !ok {
				t, err := e.BestTurn(annotate.TruthGameID(row.Size, row.Position), int(row.Size), row.Turns())
				if err != nil {
					return nil, fmt.Errorf("%d×%d position %d: %w", row.Size, row.Size, row.Position, err)
				}
				bestTurn[key] = t
			}
			l, err := engineLoss(row, bestTurn[key], r.values[i], after)
			if err != nil {
				return nil, fmt.Errorf("%d×%d position %d, candidate %s: %w", row.Size, row.Size, row.Position, row.Candidate, err)
			}
			loss = l
		}
		r.readings = append(r.readings, annotate.TruthReading{TruthRow: row, Predicted: loss, Mark: annotate.MarkOf(loss)})
	}
	return r, nil
}

// engineLoss is the loss of row's candidate, valued v by the model, against an engine's best
// turn in its position ("" when the search had no choice), valued by the model.
func engineLoss(row annotate.TruthRow, best string, v float64, after func(annotate.TruthRow, string) (float64, error)) (float64, error) {
	if best == "" {
		return 0, nil
	}
	g, err := row.Replay()
	if err != nil {
		return 0, err
	}
	bm, err := g.ReadTurn(g.Turn()+1, best)
	if err != nil {
		return 0, err
	}
	cm, err := g.ReadTurn(g.Turn()+1, row.Candidate)
	if err != nil {
		return 0, err
	}
	if bm.Same(cm) {
		return 0, nil
	}
	b, err := after(row, best)
	if err != nil {
		return 0, err
	}
	return max(0, b-v), nil
}

// truthFigures are how a reading agrees with the truth set: its values with the measured
// means (every candidate), its losses and marks with the measured losses.
type truthFigures struct {
	values struct {
		n                      int
		mae, pearson, spearman float64
	}
	marks annotate.MarksFigures
}

func (r *truthReading) figures() truthFigures {
	var f truthFigures
	means := make([]float64, len(r.rows))
	for i, row := range r.rows {
		means[i] = row.Mean
		f.values.mae += math.Abs(r.values[i] - row.Mean)
	}
	f.values.n = len(r.rows)
	f.values.mae /= float64(len(r.rows))
	f.values.pearson = stat.Correlation(r.values, means, nil)
	f.values.spearman = score.Spearman(r.values, means)
	f.marks = annotate.Marks(r.readings)
	return f
}

// thresholds are the losses from which the table of truth marks a turn mistake.
var thresholds = []float64{0.05, 0.10, 0.15, 0.20, 0.25, 0.28, 0.35}

func truth(_ context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("vnet truth", flag.ContinueOnError)
	modelPath := fs.String("model", "", "the model file (train --out)")
	size := fs.Int("size", 0, "read only the positions of this board side (0: all)")
	csvOut := fs.String("csv", "", "write every candidate's value and loss to this CSV file")
	search := fs.String("search", "", "a reading of the truth set by the search (truthset marks --csv FILE): the blend of its losses and the model's")
	engine := fs.String("engine", "", "measure a loss against this engine's best turn in the position (lore-200: as ponte annotate would with the model's values), not the truth set's best candidate")
	files, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(files) != 1 {
		return errors.New("truth: --model FILE and one truth set file")
	}
	m, err := value.LoadFile(*modelPath)
	if err != nil {
		return err
	}
	rows, err := annotate.ReadTruthSet(files[0])
	if err != nil {
		return err
	}
	if *size > 0 {
		rows = slices.DeleteFunc(rows, func(r annotate.TruthRow) bool { return int(r.Size) != *size })
		if len(rows) == 0 {
			return fmt.Errorf("%s: no position on %d×%d", files[0], *size, *size)
		}
	}
	var e *annotate.Engine
	against := "the truth set's best candidate"
	if *engine != "" {
		if e, err = annotate.NewEngine(*engine, annotate.CalibrationOf(*engine)); err != nil {
			return fmt.Errorf("truth: --engine: %w", err)
		}
		against = *engine + "'s best turn"
	}
	r, err := readTruth(m, rows, e)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	f := r.figures()
	fmt.Fprintf(out, "%s read by %s: %d candidates, %d of them not the best of their position, each against %s\n", files[0], *modelPath, len(rows), len(r.readings), against)
	fmt.Fprintf(out, "values against the measured means: mean absolute error %.3f, Pearson %.3f, Spearman %.3f, %d candidates\n",
		f.values.mae, f.values.pearson, f.values.spearman, f.values.n)
	fmt.Fprintf(out, "losses and marks (today's thresholds, %s):\n", annotate.DefaultThresholds)
	for _, l := range f.marks.Lines() {
		fmt.Fprintln(out, "  "+l)
	}
	if th, err := annotate.FitThresholds(r.readings); err == nil {
		fmt.Fprintf(out, "thresholds this truth set sets for the model (docs/annotate.md): %s\n", th)
	}
	fmt.Fprintln(out, "\nmarking mistake-or-blunder from a predicted loss t upwards:")
	fmt.Fprintln(out, "\n| t (points) | turns marked | precision (≥ 10) | recall (≥ 25) | false alarms (≤ 3) |\n|---|---|---|---|---|")
	for _, t := range thresholds {
		g, marked := annotate.MarksFrom(r.readings, t)
		fmt.Fprintf(out, "| %.0f | %d | %s | %s | %s |\n", 100*t, marked, g.Precision.Percent(), g.Recall.Percent(), g.FalseAlarms.Percent())
	}
	if *csvOut != "" {
		if err := writeTruthCSV(*csvOut, r); err != nil {
			return err
		}
	}
	if *search != "" {
		return blend(out, r, *search, *size)
	}
	return nil
}

func writeTruthCSV(path string, r *truthReading) error {
	records := [][]string{{"size", "position", "kind", "candidate", "value", "mean", "loss", "loss_se", "predicted"}}
	pred := map[truthKey]float64{}
	for _, t := range r.readings {
		pred[keyOf(t.TruthRow)] = t.Predicted
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 5, 64) }
	for i, row := range r.rows {
		p := ""
		if v, ok := pred[keyOf(row)]; ok {
			p = f(v)
		}
		records = append(records, []string{strconv.Itoa(int(row.Size)), strconv.Itoa(int(row.Position)), row.Kind, row.Candidate,
			f(r.values[i]), f(row.Mean), f(row.Loss), f(row.LossSE), p})
	}
	return outfile.WriteFile(context.Background(), path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(records); err != nil {
			return err
		}
		return cw.Error()
	})
}

// truthKey names a candidate of the truth set.
type truthKey struct {
	size, position int32
	candidate      string
}

func keyOf(r annotate.TruthRow) truthKey { return truthKey{r.Size, r.Position, r.Candidate} }

// blend compares the model's losses, the search's (the first engine of a truthset marks
// CSV) and their blends by how they rank the measured losses, and chooses the blend's
// weight on the even positions to test it on the odd ones, and the reverse.
func blend(out io.Writer, r *truthReading, path string, size int) error {
	search, engine, err := readSearchCSV(path, size)
	if err != nil {
		return err
	}
	type turn struct {
		key             truthKey
		net, srch, meas float64
	}
	var turns []turn
	for _, t := range r.readings {
		k := keyOf(t.TruthRow)
		if s, ok := search[k]; ok {
			turns = append(turns, turn{k, t.Predicted, s, t.Loss})
		}
	}
	if len(turns) != len(search) || len(turns) < 4 {
		return fmt.Errorf("%s: %d readings of %s, %d of them of the truth set's candidates that are not the best", path, len(search), engine, len(turns))
	}
	blended := func(ix []int, w float64) (pred, meas []float64) {
		for _, i := range ix {
			pred = append(pred, w*turns[i].net+(1-w)*turns[i].srch)
			meas = append(meas, turns[i].meas)
		}
		return pred, meas
	}
	all := make([]int, len(turns))
	for i := range all {
		all[i] = i
	}
	report := func(name string, w float64) {
		pred, meas := blended(all, w)
		fmt.Fprintf(out, "%s: Spearman %.3f\n", name, score.Spearman(pred, meas))
		var rn, fn int
		for _, m := range meas {
			if m >= annotate.RecallLoss {
				rn++
			}
			if m <= annotate.FalseAlarmLoss {
				fn++
			}
		}
		order := slices.Clone(all)
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case pred[a] > pred[b]:
				return -1
			case pred[a] < pred[b]:
				return 1
			}
			return 0
		})
		for _, n := range []int{40, 50, 60, 80, 100} {
			if n > len(order) {
				break
			}
			var pk, rk, fk int
			for _, i := range order[:n] {
				if meas[i] >= annotate.PrecisionLoss {
					pk++
				}
				if meas[i] >= annotate.RecallLoss {
					rk++
				}
				if meas[i] <= annotate.FalseAlarmLoss {
					fk++
				}
			}
			fmt.Fprintf(out, "   top %3d marked: precision %5.1f%% recall %5.1f%% false alarms %5.1f%%\n", n, pct(pk, n), pct(rk, rn), pct(fk, fn))
		}
	}
	fmt.Fprintf(out, "\nthe model's losses blended with %s's (%s), %d turns:\n", engine, path, len(turns))
	report("search "+engine, 0)
	report("network", 1)
	for _, w := range []float64{0.25, 0.5, 0.75} {
		report(fmt.Sprintf("blend %.2f network", w), w)
	}
	fmt.Fprintln(out, "\nby size (network / search / blend 0.5):")
	var sizes []int32
	for _, t := range turns {
		if !slices.Contains(sizes, t.key.size) {
			sizes = append(sizes, t.key.size)
		}
	}
	slices.Sort(sizes)
	for _, sz := range sizes {
		var ix []int
		for i, t := range turns {
			if t.key.size == sz {
				ix = append(ix, i)
			}
		}
		for _, c := range []struct {
			name string
			w    float64
		}{{"network", 1}, {"search", 0}, {"blend", 0.5}} {
			pred, meas := blended(ix, c.w)
			fmt.Fprintf(out, "  %dx%d %s: Spearman %.3f (%d turns)\n", sz, sz, c.name, score.Spearman(pred, meas), len(ix))
		}
	}
	fmt.Fprintln(out, "\ncross-validated blend: the weight chosen on the even positions, tested on the odd, and the reverse")
	for fold := int32(0); fold < 2; fold++ {
		var fit, test []int
		for i, t := range turns {
			if t.key.position%2 == fold {
				fit = append(fit, i)
			} else {
				test = append(test, i)
			}
		}
		sp := func(ix []int, w float64) float64 { return score.Spearman(blended(ix, w)) }
		best, bestSp := 0.0, math.Inf(-1)
		for k := 0; k <= 20; k++ {
			if s := sp(fit, float64(k)/20); s > bestSp {
				best, bestSp = float64(k)/20, s
			}
		}
		fmt.Fprintf(out, "  fold %d: weight %.2f, fit %.3f, test %.3f (search alone on test %.3f, network alone %.3f)\n",
			fold, best, bestSp, sp(test, best), sp(test, 0), sp(test, 1))
	}
	return nil
}

// readSearchCSV reads the predicted losses of the first engine of a readings file
// (truthset marks --csv), those of size (0: all).
func readSearchCSV(path string, size int) (map[truthKey]float64, string, error) {
	rows, err := annotate.ReadReadings(path)
	if err != nil {
		return nil, "", err
	}
	if len(rows) == 0 {
		return nil, "", fmt.Errorf("%s: no reading", path)
	}
	engine := rows[0].Engine
	out := map[truthKey]float64{}
	for _, r := range rows {
		if r.Engine == engine && (size == 0 || int(r.Size) == size) {
			out[keyOf(r.TruthRow)] = r.Predicted
		}
	}
	return out, engine, nil
}

func pct(k, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return 100 * float64(k) / float64(n)
}
