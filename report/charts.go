package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ponte/ponte/stats"
)

// chartFont is the typeface of every chart. fonts.css embeds it once for the whole page,
// so that the text a chart measured is the text the browser draws.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// The colours of the report: the two sides and the plain series.
var (
	lightFill = color.RGBA{0xe6, 0xd3, 0xa3, 0xff}
	lightLine = color.RGBA{0x9a, 0x7b, 0x2f, 0xff}
	darkFill  = color.RGBA{0xc0, 0x39, 0x2b, 0xff}
	darkLine  = color.RGBA{0x8e, 0x22, 0x18, 0xff}
	blue      = color.RGBA{0x2a, 0x6f, 0x97, 0xff}
	teal      = color.RGBA{0x3a, 0x9d, 0x8f, 0xff}
	grey      = color.RGBA{0x88, 0x88, 0x88, 0xff}
	ink       = color.RGBA{0x33, 0x33, 0x33, 0xff}
)

// Chart sizes, in points.
const (
	chartW = 460
	chartH = 250
)

// chart is one figure of the index page: a drawing and the table of its numbers.
type chart struct {
	ID      string
	Title   string
	SVG     template.HTML
	Caption string
	Table   table
}

// table is a plain table of strings (html/template escapes them).
type table struct {
	Head []string
	Rows [][]string
	// Num marks the columns that hold numbers (right-aligned).
	Num []bool
}

// newPlot returns a plot with the report's fonts and sizes.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	style := func(s *text.Style, size vg.Length) {
		s.Font = font.From(chartFont, size)
		s.Color = ink
	}
	style(&p.Title.TextStyle, 12)
	p.Title.Padding = 6
	style(&p.X.Label.TextStyle, 10)
	style(&p.Y.Label.TextStyle, 10)
	style(&p.X.Tick.Label, 9)
	style(&p.Y.Tick.Label, 9)
	style(&p.Legend.TextStyle, 9.5)
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Color, p.Y.Color = grey, grey
	p.X.Tick.Color, p.Y.Tick.Color = grey, grey
	p.BackgroundColor = color.Transparent
	return p
}

// render draws p as an SVG element for inlining into a page.
func render(p *plot.Plot, w, h vg.Length, label string) (template.HTML, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", fmt.Errorf("chart %q: no svg element", label)
	}
	s = s[i:]
	// The page sizes the chart (CSS); the viewBox keeps its proportions.
	s = strings.Replace(s, "<svg ", `<svg class="plot" role="img" aria-label="`+template.HTMLEscapeString(label)+`" preserveAspectRatio="xMidYMid meet" `, 1)
	return template.HTML(s), nil
}

// niceStep returns a step of 1, 2 or 5 times a power of ten that cuts span into at most
// about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// intTicks labels whole numbers only, at a nice step, with minor ticks at every integer
// when there are not too many.
func intTicks(min, max float64) []plot.Tick {
	step := math.Max(1, niceStep(max-min, 8))
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max+1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(math.Round(v)))})
	}
	if step > 1 && max-min <= 60 {
		for v := math.Ceil(min); v <= max; v++ {
			if math.Mod(v, step) != 0 {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// numTicks labels a continuous axis with as few decimals as its step needs.
func numTicks(min, max float64) []plot.Tick {
	step := niceStep(max-min, 5)
	dec := max0(int(-math.Floor(math.Log10(step) + 1e-9)))
	var ticks []plot.Tick
	for v := math.Ceil(min/step-1e-9) * step; v <= max+step*1e-6; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v+0, 'f', dec, 64)})
	}
	return ticks
}

func max0(x int) int {
	if x < 0 {
		return 0
	}
	return x
}

// pctTicks labels a 0–1 axis in per cent.
func pctTicks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for v := 0.0; v <= 1.0001; v += 0.1 {
		if v < min-1e-9 || v > max+1e-9 {
			continue
		}
		label := ""
		if int(math.Round(v*10))%2 == 0 {
			label = strconv.Itoa(int(math.Round(v*100))) + "%"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// rateRow is one bar of the swap chart.
type rateRow struct {
	Name string
	Rate stats.Rate
	Fill color.Color
	Line color.Color
}

// swapChart draws the rates of the pie rule as horizontal bars with their 95% intervals.
func swapChart(size int, s stats.Swap) (chart, error) {
	rows := []rateRow{
		{"second player swapped", s.Swapped, teal, nil},
		{"opener's score", s.Opener, blue, nil},
		{"… after a swap", s.OpenerSwapped, blue, nil},
		{"… without a swap", s.OpenerKept, blue, nil},
		{"Light wins", s.LightWins, lightFill, lightLine},
		{"Dark wins", s.DarkWins, darkFill, nil},
		{"draws", s.Draws, grey, nil},
	}
	p := newPlot(fmt.Sprintf("Pie rule on %d×%d (%s decided games)", size, size, thousands(s.Games)), "share of games (opener's score: win 1, draw ½)", "")
	names := make([]string, len(rows))
	var errXY plotter.XYs
	var errs plotter.XErrors
	var labels plotter.XYLabels
	for i, r := range rows {
		pos := float64(len(rows) - 1 - i) // first row on top
		names[len(rows)-1-i] = r.Name
		bar, err := plotter.NewBarChart(plotter.Values{r.Rate.P}, 14)
		if err != nil {
			return chart{}, err
		}
		bar.Horizontal = true
		bar.XMin = pos
		bar.Color = r.Fill
		bar.LineStyle.Width = 0.6
		bar.LineStyle.Color = r.Fill
		if r.Line != nil {
			bar.LineStyle.Color = r.Line
		}
		p.Add(bar)
		label := "no games"
		if r.Rate.N > 0 {
			errXY = append(errXY, plotter.XY{X: r.Rate.P, Y: pos})
			errs = append(errs, struct{ Low, High float64 }{r.Rate.P - r.Rate.Lo, r.Rate.Hi - r.Rate.P})
			label = fmt.Sprintf("%.1f%%", 100*r.Rate.P)
			labels.XYs = append(labels.XYs, plotter.XY{X: r.Rate.Hi, Y: pos})
		} else {
			labels.XYs = append(labels.XYs, plotter.XY{X: 0, Y: pos})
		}
		labels.Labels = append(labels.Labels, label)
	}
	half, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: -0.5}, {X: 0.5, Y: float64(len(rows)) - 0.5}})
	if err != nil {
		return chart{}, err
	}
	half.LineStyle.Color = grey
	half.LineStyle.Dashes = []vg.Length{3, 3}
	p.Add(half)
	if len(errXY) > 0 {
		eb, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{errXY, errs})
		if err != nil {
			return chart{}, err
		}
		eb.LineStyle.Color = ink
		eb.LineStyle.Width = 1
		eb.CapWidth = 6
		p.Add(eb)
	}
	lab, err := plotter.NewLabels(labels)
	if err != nil {
		return chart{}, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].Font = font.From(chartFont, 8.5)
		lab.TextStyle[i].Color = ink
		lab.TextStyle[i].YAlign = text.YCenter
	}
	lab.Offset = vg.Point{X: 5}
	p.Add(lab)
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, 1.12
	p.X.Tick.Marker = plot.TickerFunc(pctTicks)
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	svg, err := render(p, chartW, chartH, p.Title.Text)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{"", "rate", "95% interval", "games", "hits"}, Num: []bool{false, true, true, true, true}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Name, pct(r.Rate), interval(r.Rate), strconv.Itoa(r.Rate.N), hits(r.Rate.Hits)})
	}
	return chart{ID: fmt.Sprintf("swap-%d", size), Title: "Swap balance", SVG: svg, Table: t,
		Caption: "Bars: the share of decided games; whiskers: 95% Wilson intervals; dashed line: ½. The opener played turn 1, whatever colour they ended with."}, nil
}

// binsChart draws one distribution of whole numbers as bars.
func binsChart(id, title, xlabel, ylabel string, bins []stats.Bin, fill, line color.Color) (chart, error) {
	p := newPlot(title, xlabel, ylabel)
	h := &plotter.Histogram{FillColor: fill}
	h.LineStyle.Width = 0.5
	h.LineStyle.Color = line
	total, most := 0, 0
	for _, b := range bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(b.Value) - 0.42, Max: float64(b.Value) + 0.42, Weight: float64(b.Count)})
		total += b.Count
		most = max(most, b.Count)
	}
	p.Add(h)
	p.X.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Min, p.Y.Max = 0, float64(most)*1.08
	p.X.Min, p.X.Max = float64(bins[0].Value)-0.6, float64(bins[len(bins)-1].Value)+0.6
	svg, err := render(p, chartW, chartH, title)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{xlabel, ylabel, "share"}, Num: []bool{true, true, true}}
	for _, b := range bins {
		t.Rows = append(t.Rows, []string{strconv.Itoa(b.Value), strconv.Itoa(b.Count), share(b.Count, total)})
	}
	return chart{ID: id, Title: title, SVG: svg, Table: t}, nil
}

// sideChart draws two distributions of whole numbers, Light's and Dark's, bars side by side.
func sideChart(id, title, xlabel string, light, dark []stats.Bin) (chart, error) {
	p := newPlot(title, xlabel, "games")
	counts := map[int][2]int{}
	lo, hi, most := math.MaxInt, math.MinInt, 0
	for side, bins := range [2][]stats.Bin{light, dark} {
		for _, b := range bins {
			c := counts[b.Value]
			c[side] = b.Count
			counts[b.Value] = c
			lo, hi, most = min(lo, b.Value), max(hi, b.Value), max(most, b.Count)
		}
	}
	hl := &plotter.Histogram{FillColor: lightFill}
	hl.LineStyle = draw.LineStyle{Color: lightLine, Width: 0.6}
	hd := &plotter.Histogram{FillColor: darkFill}
	hd.LineStyle = draw.LineStyle{Color: darkLine, Width: 0.6}
	for _, b := range light {
		v := float64(b.Value)
		hl.Bins = append(hl.Bins, plotter.HistogramBin{Min: v - 0.42, Max: v, Weight: float64(b.Count)})
	}
	for _, b := range dark {
		v := float64(b.Value)
		hd.Bins = append(hd.Bins, plotter.HistogramBin{Min: v, Max: v + 0.42, Weight: float64(b.Count)})
	}
	p.Add(hl, hd)
	p.Legend.Add("Light", hl)
	p.Legend.Add("Dark", hd)
	p.Legend.Top = true
	p.Legend.YOffs = -2
	p.X.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Min, p.Y.Max = 0, float64(most)*1.25
	p.X.Min, p.X.Max = float64(lo)-0.6, float64(hi)+0.6
	svg, err := render(p, chartW, chartH, title)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{xlabel, "Light", "Dark"}, Num: []bool{true, true, true}}
	for v := lo; v <= hi; v++ {
		if c, ok := counts[v]; ok {
			t.Rows = append(t.Rows, []string{strconv.Itoa(v), strconv.Itoa(c[0]), strconv.Itoa(c[1])})
		}
	}
	return chart{ID: id, Title: title, SVG: svg, Table: t}, nil
}

// series is one line of a by-turn chart.
type series struct {
	name  string
	style draw.LineStyle
	value func(stats.TurnStat) float64
	// on says which turns the line has; nil means every turn.
	on func(turn int) bool
}

// The lines of the by-turn charts. Two lines of one chart differ in lightness and in
// dashes as well as in hue, so that a reader who does not tell red from green, or who
// prints the page in grey, tells them apart.
var (
	plainLine = draw.LineStyle{Color: blue, Width: 1.6}
	// Light's line is a bright gold, solid; Dark's a very dark red, dashed.
	lightSeries = draw.LineStyle{Color: color.RGBA{0xd8, 0x9b, 0x00, 0xff}, Width: 2.2}
	darkSeries  = draw.LineStyle{Color: color.RGBA{0x5b, 0x10, 0x10, 0xff}, Width: 1.8, Dashes: []vg.Length{5, 3}}
	// The opener's line is dark blue, solid; the second player's orange, dashed: blue and
	// orange stay apart for red–green colour blindness, and differ in lightness too.
	openerSeries = draw.LineStyle{Color: color.RGBA{0x1f, 0x4e, 0x99, 0xff}, Width: 1.8}
	secondSeries = draw.LineStyle{Color: color.RGBA{0xe6, 0x9f, 0x00, 0xff}, Width: 2, Dashes: []vg.Length{5, 3}}
)

// turnChart draws means by turn number as lines.
func turnChart(id, title, ylabel string, all []stats.TurnStat, lines []series, decimals int) (chart, error) {
	p := newPlot(title, "turn", ylabel)
	ts := drawnTurns(all)
	top := 0.0
	for _, s := range lines {
		xys := make(plotter.XYs, 0, len(ts))
		for _, t := range ts {
			if s.on == nil || s.on(t.Turn) {
				xys = append(xys, plotter.XY{X: float64(t.Turn), Y: s.value(t)})
				top = math.Max(top, s.value(t))
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return chart{}, err
		}
		l.LineStyle = s.style
		p.Add(l)
		if len(lines) > 1 {
			p.Legend.Add(s.name, l)
		}
	}
	p.Legend.Top = true
	p.X.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Tick.Marker = plot.TickerFunc(numTicks)
	p.Y.Min = 0
	if len(lines) > 1 && top > 0 {
		// Room above the lines for the legend.
		p.Y.Max = top * 1.3
	}
	p.X.Min, p.X.Max = float64(ts[0].Turn), float64(ts[len(ts)-1].Turn)
	if p.X.Min == p.X.Max {
		p.X.Min, p.X.Max = p.X.Min-1, p.X.Max+1
	}
	svg, err := render(p, chartW, chartH, title)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{"turn", "games"}, Num: []bool{true, true}}
	for _, s := range lines {
		t.Head = append(t.Head, s.name)
		t.Num = append(t.Num, true)
	}
	for _, ts := range all {
		row := []string{strconv.Itoa(ts.Turn), strconv.Itoa(ts.Games)}
		for _, s := range lines {
			v := ""
			if s.on == nil || s.on(ts.Turn) {
				v = strconv.FormatFloat(s.value(ts), 'f', decimals, 64)
			}
			row = append(row, v)
		}
		t.Rows = append(t.Rows, row)
	}
	caption := "Means over the legal games that reached the turn."
	if len(ts) < len(all) {
		caption += fmt.Sprintf(" Drawn up to turn %d, the last that at least %d%% of the games reached; the table has every turn.", ts[len(ts)-1].Turn, tailPercent)
	}
	return chart{ID: id, Title: title, SVG: svg, Table: t, Caption: caption}, nil
}

// tailPercent is the share of the games, in per cent, that a turn must reach to be drawn
// in the by-turn charts: the means of the last turns, over a handful of long games, are
// noise.
const tailPercent = 1

// drawnTurns cuts off the tail of turns that few games reached.
func drawnTurns(ts []stats.TurnStat) []stats.TurnStat {
	most := 0
	for _, t := range ts {
		most = max(most, t.Games)
	}
	end := len(ts)
	for end > 1 && ts[end-1].Games*100 < most*tailPercent {
		end--
	}
	return ts[:end]
}

// pct writes a rate as a percentage, "–" without games.
func pct(r stats.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*r.P)
}

// interval writes a rate's 95% interval in per cent.
func interval(r stats.Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f–%.1f%%", 100*r.Lo, 100*r.Hi)
}

// hits writes a count that may hold halves (draws in a score).
func hits(h float64) string {
	if h == math.Trunc(h) {
		return strconv.Itoa(int(h))
	}
	return strconv.FormatFloat(h, 'f', 1, 64)
}

func share(n, total int) string {
	if total == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}
