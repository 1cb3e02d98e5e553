package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/ponte/ponte/atlas"
	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/stats"
)

// atlasData is the report's section of one opening atlas.
type atlasData struct {
	Key      string
	Title    string
	Answer   string // the designer's answer in a sentence (atlas.Atlas.Answer), the section's lead
	Moves    string // whether p(o) moves with strength (atlas.Atlas.StabilitySentence), under it; "" without
	Strength string // the bot, its budget, the games
	V        string
	Fair     string
	Even     string
	Counts   string
	Stable   string
	Maps     []atlasMap
	Forest   chart
	Practice string // which population of the database is compared, and how often it agrees
	Classes  table
}

// atlasMap is one swap map: a value per cell, drawn on the board.
type atlasMap struct {
	Title, Caption string
	SVG            template.HTML
}

// atlasSection makes the section of a, compared with the openings of the board of its
// size in r (the report's population, named) when there is one.
func atlasSection(a *atlas.Atlas, r *stats.Report) (atlasData, error) {
	c := a.Config
	key := fmt.Sprintf("atlas-%d", c.Size)
	state := "complete"
	if !a.Done {
		state = "not complete: the rounds are still open (the figures are those of the games played)"
	}
	n := a.Counts()
	d := atlasData{Key: key, Title: fmt.Sprintf("Opening atlas, %d×%d", c.Size, c.Size), Answer: a.Answer(), Moves: a.StabilitySentence(),
		Strength: fmt.Sprintf("Every game played by the bot %s against itself (%s), from the position after the opening, %d×%d, supply %s, seed %d: %s games (%s in the main rounds); %s.",
			c.Bot, budgetWords(c.Bot), c.Size, c.Size, c.Supply, c.Seed, thousands(a.Games), thousands(a.MainGames), state),
		Counts: fmt.Sprintf("%d classes of openings (two tiles, folded by the board's 8 symmetries): swap %d, keep %d, fair within ±%g%% %d, open %d. Intervals: %g%% confidence sequences, valid whatever round a class stopped at.",
			len(a.Estimates), n[atlas.Swap], n[atlas.Keep], 100*c.Margin, n[atlas.Fair], n[atlas.Open], 100*(1-c.Spending.Alpha))}
	if a.Strength != "" {
		d.Strength += " Strength: " + a.Strength + "."
	}
	if math.IsNaN(a.V) {
		d.V = "not yet: the confirmation of the best candidates on fresh seeds is not complete."
	} else {
		e := a.Estimates[slices.IndexFunc(a.Estimates, func(e atlas.Estimate) bool { return e.ID == a.VClass })]
		d.V = fmt.Sprintf("%.1f%% [%.1f%%, %.1f%%]: the opener's score under the pie rule with the best opening, class %d (%s %s), re-estimated on %d fresh games.",
			100*a.V, 100*a.VLo, 100*a.VHi, a.VClass, e.A, e.B, a.VGames())
	}
	fair, even := a.Fair()
	d.Fair = estimateList(fair, 20)
	d.Even = estimateList(even, 20)
	if st := a.Stable; st != nil && len(st.Panel) < c.PanelSize {
		d.Stable = fmt.Sprintf("not yet: %d of the %d classes of the panel re-estimated by %s.", len(st.Panel), c.PanelSize, st.Bot)
	} else if st != nil && st.Compared != nil {
		pc := st.Compared
		d.Stable = fmt.Sprintf("%d classes played by %s and by %s, %d games a class each: rank correlation of p̂ %s [%s, %s], mean shift %+.1f points [%+.1f, %+.1f] (95%% bootstrap intervals, %d replicates), verdicts flipped %d%s.",
			len(st.Panel), c.Bot, st.Bot, c.PanelGames, atlas.RankText(pc.Spearman), atlas.RankText(pc.Lo), atlas.RankText(pc.Hi),
			100*pc.MeanShift, 100*pc.ShiftLo, 100*pc.ShiftHi, pc.Replicates, len(st.Flips), flipList(st.Flips))
	} else if st != nil {
		d.Stable = fmt.Sprintf("%d classes re-estimated by %s (4× the budget), %d games each: rank correlation of p̂ %s, mean shift %+.1f points, verdicts flipped %d%s.",
			len(st.Panel), st.Bot, c.PanelGames, atlas.RankText(st.Spearman), 100*st.MeanShift, len(st.Flips), flipList(st.Flips))
	}
	maps, err := swapMaps(a)
	if err != nil {
		return d, err
	}
	d.Maps = maps
	if d.Forest, err = forestChart(key, a); err != nil {
		return d, err
	}
	d.Forest.ID = key + "-forest"
	var practice map[[2]string]stats.Opening
	for i := range r.Boards {
		b := &r.Boards[i]
		if b.Size != c.Size {
			continue
		}
		practice = map[[2]string]stats.Opening{}
		for _, o := range b.Openings {
			practice[[2]string{o.A, o.B}] = o
		}
		d.Practice = "Beside each class, the " + popWords(b.Population) + " of the database with that opening (the report's population; the other is left out, not mixed in): how often the responder swapped, and the opener's score."
	}
	if practice == nil {
		d.Practice = fmt.Sprintf("The database holds no %d×%d games of the report's population to compare with.", c.Size, c.Size)
	}
	d.Classes = classTable(a, practice, &d.Practice)
	return d, nil
}

// budgetWords says what a bot's name says of its budget.
func budgetWords(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return "its default budget"
	}
	if ms, ok := strings.CutSuffix(name[i+1:], "ms"); ok {
		return ms + " ms a turn"
	}
	return name[i+1:] + " playouts a turn"
}

func estimateList(es []atlas.Estimate, most int) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i, e := range es {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-most))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s (%.1f%% [%.1f, %.1f])", e.A, e.B, 100*e.P, 100*e.Lo, 100*e.Hi))
	}
	return strings.Join(parts, "; ")
}

func flipList(ids []int) string {
	if len(ids) == 0 {
		return ""
	}
	var s []string
	for _, id := range ids {
		s = append(s, strconv.Itoa(id))
	}
	return " (classes " + strings.Join(s, ", ") + ")"
}

// swapMaps draws, for each cell, the best, the worst and the mean p̂ of the openings that
// put a tile there (every opening of every class, each counted once).
func swapMaps(a *atlas.Atlas) ([]atlasMap, error) {
	n := a.Config.Size
	byPair := map[[2]gamepkg.Cell]*atlas.Estimate{}
	for i := range a.Estimates {
		e := &a.Estimates[i]
		byPair[[2]gamepkg.Cell{e.A, e.B}] = e
	}
	cells := n * n
	best, worst, sum := make([]float64, cells), make([]float64, cells), make([]float64, cells)
	count := make([]int, cells)
	for i := range cells {
		best[i], worst[i] = math.Inf(-1), math.Inf(1)
	}
	for i := range cells {
		for j := i + 1; j < cells; j++ {
			fa, fb := atlas.Fold(gamepkg.CellAt(i%n, i/n), gamepkg.CellAt(j%n, j/n), n)
			e := byPair[[2]gamepkg.Cell{fa, fb}]
			if e == nil || e.Games() == 0 {
				continue
			}
			for _, k := range []int{i, j} {
				best[k] = math.Max(best[k], e.P)
				worst[k] = math.Min(worst[k], e.P)
				sum[k] += e.P
				count[k]++
			}
		}
	}
	mean := make([]float64, cells)
	for k := range cells {
		mean[k] = math.NaN()
		if count[k] > 0 {
			mean[k] = sum[k] / float64(count[k])
		} else {
			best[k], worst[k] = math.NaN(), math.NaN()
		}
	}
	return []atlasMap{
		{"Best opening through the cell", "The highest p̂ of the openings with a tile on the cell: the responder's best reason to swap.", cellSVG(n, best)},
		{"Worst opening through the cell", "The lowest p̂ of the openings with a tile on the cell.", cellSVG(n, worst)},
		{"Mean over the openings through the cell", "The mean p̂ of the openings with a tile on the cell.", cellSVG(n, mean)},
	}, nil
}

// cellSVG draws a board of side n with each cell coloured by its value (Light's expected
// score: red below ½, blue above, white at ½) and the value written in it.
func cellSVG(n int, v []float64) template.HTML {
	const cell = 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" role="img" viewBox="0 0 %d %d" width="%d" height="%d">`, n*cell+20, n*cell+20, n*cell+20, n*cell+20)
	for k, x := range v {
		col, row := k%n, k/n
		px, py := 20+col*cell, (n-1-row)*cell
		fill := "#dddddd"
		text := "–"
		tip := gamepkg.CellAt(col, row).String() + ": no opening"
		ink := "#333333"
		if !math.IsNaN(x) {
			c := rdBu.at(x)
			fill = c.hex()
			text = strconv.Itoa(int(math.Round(100 * x)))
			tip = fmt.Sprintf("%s: %.1f%%", gamepkg.CellAt(col, row), 100*x)
			if c.dark() {
				ink = "#ffffff"
			}
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff"><title>%s</title></rect>`, px, py, cell, cell, fill, template.HTMLEscapeString(tip))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="%s">%s</text>`, px+cell/2, py+cell/2+4, ink, text)
	}
	for i := range n {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="9" text-anchor="middle" fill="#666666">%c</text>`, 20+i*cell+cell/2, n*cell+14, 'a'+i)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="9" text-anchor="middle" fill="#666666">%d</text>`, 9, (n-1-i)*cell+cell/2+4, i+1)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// forestChart draws every class's p̂ with its interval, sorted, and the fair band.
func forestChart(key string, a *atlas.Atlas) (chart, error) {
	es := slices.Clone(a.Estimates)
	slices.SortStableFunc(es, func(x, y atlas.Estimate) int { return cmp.Compare(x.P, y.P) })
	p := newPlot(fmt.Sprintf("p̂ of the %d classes, sorted, with intervals", len(es)), "class, by p̂", "Light's expected score")
	var xys plotter.XYs
	var errs plotter.YErrors
	for i, e := range es {
		xys = append(xys, plotter.XY{X: float64(i + 1), Y: e.P})
		errs = append(errs, struct{ Low, High float64 }{e.P - e.Lo, e.Hi - e.P})
	}
	m := a.Config.Margin
	for _, y := range []float64{0.5 - m, 0.5, 0.5 + m} {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: y}, {X: float64(len(es) + 1), Y: y}})
		if err != nil {
			return chart{}, err
		}
		l.LineStyle.Color = grey
		if y != 0.5 {
			l.LineStyle.Dashes = []vg.Length{3, 3}
		}
		p.Add(l)
	}
	if len(xys) > 0 {
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{xys, errs})
		if err != nil {
			return chart{}, err
		}
		eb.LineStyle.Color = teal
		eb.LineStyle.Width = 0.5
		eb.CapWidth = 0
		p.Add(eb)
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return chart{}, err
		}
		sc.GlyphStyle.Color = blue
		sc.GlyphStyle.Radius = 1.2
		p.Add(sc)
	}
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.TickerFunc(pctTicks)
	svg, err := render(p, chartW, chartH, p.Title.Text)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{"rank", "class", "opening", "p̂", "interval"}, Num: []bool{true, true, false, true, true}}
	for i, e := range es {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i + 1), strconv.Itoa(e.ID), e.A.String() + " " + e.B.String(),
			fmt.Sprintf("%.1f%%", 100*e.P), fmt.Sprintf("%.1f–%.1f%%", 100*e.Lo, 100*e.Hi)})
	}
	return chart{Title: "p̂ by class", SVG: svg, Table: t,
		Caption: fmt.Sprintf("Dots: p̂, Light's expected score after the opening (Dark to move); bars: the intervals; dashed lines: the fair band ½ ± %g%%.", 100*m)}, nil
}

// classTable lists every class by p̂, highest first, beside the database's games with the
// same opening, and counts in note how often practice agrees with the atlas.
func classTable(a *atlas.Atlas, practice map[[2]string]stats.Opening, note *string) table {
	es := slices.Clone(a.Estimates)
	slices.SortStableFunc(es, func(x, y atlas.Estimate) int { return cmp.Compare(y.P, x.P) })
	t := table{Head: []string{"class", "opening", "edge", "apart", "games", "p̂", "interval", "verdict", "Elo", "games in the database", "swapped", "opener's score"},
		Num: []bool{true, false, true, true, true, true, true, false, true, true, true, true}}
	agree, compared := 0, 0
	for _, e := range es {
		row := []string{strconv.Itoa(e.ID), e.A.String() + " " + e.B.String(), strconv.Itoa(e.Edge), strconv.Itoa(e.Apart),
			strconv.Itoa(e.Games()), fmt.Sprintf("%.1f%%", 100*e.P), fmt.Sprintf("%.1f–%.1f%%", 100*e.Lo, 100*e.Hi),
			e.Verdict.String(), eloText(e.Elo), "", "", ""}
		if o, ok := practice[[2]string{e.A.String(), e.B.String()}]; ok && o.Games > 0 {
			row[9] = strconv.Itoa(o.Games)
			row[10] = pct(o.Swapped)
			row[11] = pct(o.Opener)
			if (e.Verdict == atlas.Swap || e.Verdict == atlas.Keep) && o.Swapped.N > 0 {
				compared++
				if (o.Swapped.P > 0.5) == (e.Verdict == atlas.Swap) {
					agree++
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	if practice != nil {
		*note += fmt.Sprintf(" Of the classes the atlas decides (swap or keep) and the database has games of, the responders' majority agrees with the atlas in %d of %d.", agree, compared)
	}
	return t
}

func eloText(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+∞"
	case math.IsInf(x, -1):
		return "−∞"
	}
	return fmt.Sprintf("%+.0f", x)
}
