package annotate

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Reading is one row of a readings file: a candidate of the truth set, the engine that read
// it, and its predicted loss and mark (truthset marks --csv, truthset byplay --csv).
type Reading struct {
	TruthReading
	Engine string // "" when the file names none
	Line   int    // the row's line in the file it was read from, from 2
}

// readingsColumns are the columns WriteReadings writes, in order.
var readingsColumns = []string{"engine", "size", "position", "kind", "candidate", "loss", "loss_se", "predicted", "mark"}

// WriteReadings writes rows as a readings file (CSV, losses to 4 decimals).
func WriteReadings(w io.Writer, rows []Reading) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(readingsColumns); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, r := range rows {
		if err := cw.Write([]string{r.Engine, strconv.Itoa(int(r.Size)), strconv.Itoa(int(r.Position)), r.Kind, r.Candidate,
			f(r.Loss), f(r.LossSE), f(r.Predicted), r.Mark.String()}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadReadings reads a readings file: its columns by their names in the first line, of
// which loss, loss_se and predicted must be there (engine, size, position, kind, candidate
// and mark are read when they are). A row whose predicted is empty (a position's best in
// vnet truth --csv) is left out. An error names the file, the line and the column.
func ReadReadings(path string) ([]Reading, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, c := range []string{"loss", "loss_se", "predicted"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s: no column %q (truthset marks --csv writes it)", path, c)
		}
	}
	text := func(rec []string, c string) string {
		if i, ok := col[c]; ok {
			return rec[i]
		}
		return ""
	}
	var out []Reading
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if text(rec, "predicted") == "" {
			continue
		}
		r := Reading{Engine: text(rec, "engine"), Line: line}
		r.Kind, r.Candidate = text(rec, "kind"), text(rec, "candidate")
		for _, x := range []struct {
			name string
			to   *float64
		}{{"loss", &r.Loss}, {"loss_se", &r.LossSE}, {"predicted", &r.Predicted}} {
			if *x.to, err = strconv.ParseFloat(text(rec, x.name), 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %w", path, line, x.name, err)
			}
		}
		for _, x := range []struct {
			name string
			to   *int32
		}{{"size", &r.Size}, {"position", &r.Position}} {
			if _, ok := col[x.name]; !ok {
				continue
			}
			n, err := strconv.ParseInt(text(rec, x.name), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %w", path, line, x.name, err)
			}
			*x.to = int32(n)
		}
		if r.Mark, err = parseMark(text(rec, "mark")); err != nil {
			return nil, fmt.Errorf("%s:%d: mark: %w", path, line, err)
		}
		out = append(out, r)
	}
}

// parseMark reads a mark as Mark.String writes it ("" for none).
func parseMark(s string) (Mark, error) {
	for m := Good; m <= Blunder; m++ {
		if m.String() == s {
			return m, nil
		}
	}
	return Good, fmt.Errorf("%q: must be inaccuracy, mistake, blunder or empty", s)
}
