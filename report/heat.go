package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	pgame "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/stats"
)

// Heat map geometry, in SVG user units.
const (
	heatCell   = 30
	heatMargin = 22
	legendH    = 94 // the colour bar, its title, and the line that says how cells fade
	// minHeatW is the narrowest a heat map's drawing is, and minLegendW its colour bar:
	// a small board's map is widened around it so that the legend's words fit.
	minHeatW   = 300
	minLegendW = 260
)

// Fading by uncertainty: a rate's cell is drawn at full strength when the 95% Wilson
// interval of its rate is at most fullWidth wide, and fades linearly, in proportion to
// the interval's width, to minAlpha at fadedWidth and wider. At a rate near ½ that is
// about 100 games for full strength, 25 for half, and 10 or fewer for nearly blank.
const (
	fullWidth  = 0.2
	fadedWidth = 0.6
	minAlpha   = 0.1
)

// fadeGrey is what a faded cell's colour fades towards: a grey that is on none of the
// scales, so a faint cell does not read as a low (or, on the opener's map, an even) value.
var fadeGrey = rgb{222, 222, 222}

// alpha is the strength at which a rate is drawn: 1 for an interval at most fullWidth
// wide, minAlpha at fadedWidth or wider (or without games), linear in between.
func alpha(r stats.Rate) float64 {
	if r.N == 0 {
		return minAlpha
	}
	w := r.Hi - r.Lo
	f := (w - fullWidth) / (fadedWidth - fullWidth)
	return 1 - (1-minAlpha)*math.Max(0, math.Min(1, f))
}

// rgb is a colour of a scale.
type rgb struct{ r, g, b float64 }

func (c rgb) hex() string {
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(c.r)), int(math.Round(c.g)), int(math.Round(c.b)))
}

// dark reports whether text on c should be white.
func (c rgb) dark() bool { return 0.299*c.r+0.587*c.g+0.114*c.b < 140 }

// fade mixes c with fadeGrey: all c at a = 1, all grey at a = 0.
func (c rgb) fade(a float64) rgb {
	return rgb{fadeGrey.r + a*(c.r-fadeGrey.r), fadeGrey.g + a*(c.g-fadeGrey.g), fadeGrey.b + a*(c.b-fadeGrey.b)}
}

// scale maps 0 … 1 to a colour through evenly spaced anchors.
type scale []rgb

func (s scale) at(v float64) rgb {
	v = math.Max(0, math.Min(1, v))
	f := v * float64(len(s)-1)
	i := int(math.Floor(f))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	t := f - float64(i)
	a, b := s[i], s[i+1]
	return rgb{a.r + t*(b.r-a.r), a.g + t*(b.g-a.g), a.b + t*(b.b-a.b)}
}

var (
	// ylGnBu is a sequential scale for counts.
	ylGnBu = scale{{255, 255, 217}, {199, 233, 180}, {127, 205, 187}, {65, 182, 196}, {29, 145, 192}, {34, 94, 168}, {12, 44, 132}}
	// purples is a sequential scale for the swap rate.
	purples = scale{{252, 251, 253}, {218, 218, 235}, {158, 154, 200}, {117, 107, 177}, {84, 39, 143}, {63, 0, 125}}
	// rdBu is a diverging scale for the opener's score, white at ½.
	rdBu = scale{{178, 24, 43}, {239, 138, 98}, {253, 219, 199}, {247, 247, 247}, {209, 229, 240}, {103, 169, 207}, {33, 102, 172}}
)

// orbitKey names the class of the cell (col, row) under the board's symmetries: its
// canonical cell (pgame.FoldCell, as stats folds openings), as col + 32*row.
func orbitKey(col, row, n int) int {
	c := pgame.FoldCell(pgame.CellAt(col, row), n)
	return c.Col() + 32*c.Row()
}

// orbit is one class of cells under the board's symmetries, with the opening statistics
// of its cells pooled.
type orbit struct {
	Cells []stats.CellStat // its cells, in board order (1, 4 or 8 of them)
	// PerCell is the mean, over its cells, of the openings with a tile on the cell.
	PerCell float64
	// Swapped and Opener are pooled over the orbit: the openings with a tile on at least
	// one of its cells, each counted once (each tile counted, when not exact).
	Swapped, Opener stats.Rate
}

// names lists the orbit's cells: "a1 a10 j1 j10".
func (o *orbit) names() string {
	s := make([]string, len(o.Cells))
	for i, c := range o.Cells {
		s[i] = c.Cell
	}
	return strings.Join(s, " ")
}

// folded is a board's heat map folded by its symmetries.
type folded struct {
	orbits []*orbit
	of     map[int]*orbit // col + 32*row -> its orbit
	// exact is true when the rates were pooled from the board's openings, each game
	// counted once in an orbit; false when they had to be pooled from the cells (the
	// openings do not add up to the board's games), where a game with both tiles in one
	// orbit counts twice.
	exact bool
}

// fold pools the cells of b over the board's 8 symmetries. The mean openings a cell
// comes from b.Cells; the rates come from b.Openings (folded pairs, whose cells lie in
// the same orbits as the cells played), so that an opening with both tiles in one orbit
// counts once, when the openings account for every game of b.Swap; else from b.Cells.
func fold(b *stats.Board) *folded {
	n := b.Size
	f := &folded{of: map[int]*orbit{}}
	byKey := map[int]*orbit{}
	for _, c := range b.Cells {
		k := orbitKey(c.Col, c.Row, n)
		o := byKey[k]
		if o == nil {
			o = &orbit{}
			byKey[k] = o
			f.orbits = append(f.orbits, o)
		}
		o.Cells = append(o.Cells, c)
		f.of[c.Col+32*c.Row] = o
	}
	type pool struct {
		swapped, opener float64
		games           int
	}
	pools := map[*orbit]*pool{}
	for _, o := range f.orbits {
		pools[o] = &pool{}
		games := 0
		for _, c := range o.Cells {
			games += c.Games
		}
		o.PerCell = float64(games) / float64(len(o.Cells))
	}
	games, ok := 0, true
	for _, op := range b.Openings {
		a, c := parseCellName(op.A), parseCellName(op.B)
		if a < 0 || c < 0 || a%32 >= n || c%32 >= n || a/32 >= n || c/32 >= n {
			ok = false
			break
		}
		oa, oc := f.of[a], f.of[c]
		if oa == nil || oc == nil {
			ok = false
			break
		}
		games += op.Games
		for _, o := range []*orbit{oa, oc} {
			p := pools[o]
			p.swapped += op.Swapped.Hits
			p.opener += op.Opener.Hits
			p.games += op.Games
			if oa == oc {
				break
			}
		}
	}
	f.exact = ok && games == b.Swap.Games
	if !f.exact {
		for _, o := range f.orbits {
			p := &pool{}
			for _, c := range o.Cells {
				p.swapped += c.Swapped.Hits
				p.opener += c.Opener.Hits
				p.games += c.Games
			}
			pools[o] = p
		}
	}
	for _, o := range f.orbits {
		p := pools[o]
		o.Swapped, o.Opener = stats.NewRate(p.swapped, p.games), stats.NewRate(p.opener, p.games)
	}
	return f
}

// heatMap is one opening heat map drawn as a board.
type heatMap struct {
	Title string
	SVG   template.HTML
}

// heatKind says what a heat map shows.
type heatKind struct {
	id, title, legend string
	scale             scale
	// value is the orbit's value on 0 … 1 and the strength it is drawn at; false for no
	// data.
	value func(o *orbit) (v, a float64, ok bool)
	text  func(o *orbit) string
	ticks [][2]string // legend ticks: position on 0 … 1, label
	// fades says whether the map fades its cells by uncertainty.
	fades bool
}

// heatMaps draws the three opening heat maps of a board, folded by its symmetries:
// frequency, swap rate and the opener's score.
func heatMaps(b *stats.Board, f *folded) []heatMap {
	most := 0.0
	for _, o := range f.orbits {
		most = math.Max(most, o.PerCell)
	}
	pctTicks := [][2]string{{"0", "0%"}, {"0.25", "25%"}, {"0.5", "50%"}, {"0.75", "75%"}, {"1", "100%"}}
	kinds := []heatKind{
		{
			id: "freq", title: "Openings with a tile on the cell", legend: "openings a cell (mean over its mirror images)",
			scale: ylGnBu,
			value: func(o *orbit) (float64, float64, bool) {
				if o.PerCell == 0 || most == 0 {
					return 0, 1, false
				}
				return o.PerCell / most, 1, true
			},
			text:  func(o *orbit) string { return count(o.PerCell) },
			ticks: countTicks(most),
		},
		{
			id: "swap", title: "Swap rate after an opening on the cell", legend: "second player swapped",
			scale: purples, fades: true,
			value: func(o *orbit) (float64, float64, bool) { return o.Swapped.P, alpha(o.Swapped), o.Swapped.N > 0 },
			text:  func(o *orbit) string { return fmt.Sprintf("%.0f", 100*o.Swapped.P) },
			ticks: pctTicks,
		},
		{
			id: "opener", title: "Opener's score after an opening on the cell", legend: "opener's score (win 1, draw ½)",
			scale: rdBu, fades: true,
			value: func(o *orbit) (float64, float64, bool) { return o.Opener.P, alpha(o.Opener), o.Opener.N > 0 },
			text:  func(o *orbit) string { return fmt.Sprintf("%.0f", 100*o.Opener.P) },
			ticks: pctTicks,
		},
	}
	out := make([]heatMap, len(kinds))
	for i, k := range kinds {
		out[i] = heatMap{Title: k.title, SVG: heatSVG(b.Size, boardKey(b), f, k)}
	}
	return out
}

// count writes a mean count briefly: 0.25, 7.3, 42, 1.2k.
func count(v float64) string {
	if v < 1 {
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
	if v < 10 {
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	}
	return compact(int(math.Round(v)))
}

// countTicks labels the colour bar of counts from 0 to most, in openings.
func countTicks(most float64) [][2]string {
	unit := func(v float64) string {
		if v == 1 {
			return "1 opening"
		}
		return count(v) + " openings"
	}
	if most <= 0 {
		return [][2]string{{"0", "0 openings"}}
	}
	return [][2]string{{"0", "0 openings"}, {"0.5", count(most / 2)}, {"1", unit(most)}}
}

// compact writes a count briefly: 950, 1.2k, 12k.
func compact(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return fmt.Sprintf("%dk", int(math.Round(float64(n)/1000)))
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// heatSVG draws one heat map: the board with coordinates, row 1 at the bottom, each cell
// coloured by the value of its orbit (so mirror images show the same colour), faded by
// the uncertainty of that value where k fades, and labelled; below it a colour legend and
// a line that says how the cells fade. The text is made only of numbers, cell names and
// fixed words.
// key tells the board apart from the other boards of the page (boardKey): the ids of its
// gradients and patterns are unique in the page.
func heatSVG(n int, key string, f *folded, k heatKind) template.HTML {
	side := 2*heatMargin + n*heatCell
	h := side + legendH
	width := max(side, minHeatW)
	dx := (width - side) / 2 // the board stays at x = 0 … side, centred
	gid := fmt.Sprintf("grad-%s-%s", key, k.id)
	var s strings.Builder
	fmt.Fprintf(&s, `<svg class="heat" viewBox="%d 0 %d %d" role="img" aria-label="%s, %d×%d, folded by the board's symmetries">`, -dx, width, h, k.title, n, n)
	fmt.Fprintf(&s, `<defs><linearGradient id="%s" x1="0" x2="1" y1="0" y2="0">`, gid)
	for i := range 11 {
		v := float64(i) / 10
		fmt.Fprintf(&s, `<stop offset="%.1f" stop-color="%s"/>`, v, k.scale.at(v).hex())
	}
	s.WriteString(`</linearGradient>`)
	// Cells without data are hatched, unlike any colour of a scale or a faded cell.
	nid := fmt.Sprintf("none-%s-%s", key, k.id)
	fmt.Fprintf(&s, `<pattern id="%s" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" fill="#fafafa"/><line x1="0" y1="0" x2="0" y2="5" stroke="#cfcfcf" stroke-width="1.5"/></pattern></defs>`, nid)
	fmt.Fprintf(&s, `<rect class="empty" x="%d" y="%d" width="%d" height="%d"/>`, heatMargin, heatMargin, n*heatCell, n*heatCell)
	for _, o := range f.orbits {
		v, a, ok := k.value(o)
		for _, c := range o.Cells {
			x := heatMargin + c.Col*heatCell
			y := heatMargin + (n-1-c.Row)*heatCell
			if !ok {
				fmt.Fprintf(&s, `<rect class="cell none" x="%d" y="%d" width="%d" height="%d" fill="url(#%s)"><title>%s: no openings on it or its mirror images</title></rect>`, x, y, heatCell, heatCell, nid, c.Cell)
				continue
			}
			col := k.scale.at(v).fade(a)
			fmt.Fprintf(&s, `<g class="cell" data-alpha="%.2f"><title>%s</title>`, a, cellTip(c, o, f.exact))
			fmt.Fprintf(&s, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, heatCell, heatCell, col.hex())
			tc := "#222"
			switch {
			case a < 0.5:
				tc = "#777"
			case col.dark():
				tc = "#fff"
			}
			fmt.Fprintf(&s, `<text x="%d" y="%d" fill="%s">%s</text></g>`, x+heatCell/2, y+heatCell/2+4, tc, k.text(o))
		}
	}
	fmt.Fprintf(&s, `<path class="grid" d="`)
	for i := 0; i <= n; i++ {
		v := heatMargin + i*heatCell
		fmt.Fprintf(&s, "M%d %dH%dM%d %dV%d", heatMargin, v, heatMargin+n*heatCell, v, heatMargin, heatMargin+n*heatCell)
	}
	s.WriteString(`"/><g class="coords">`)
	for i := 0; i < n; i++ {
		x := heatMargin + i*heatCell + heatCell/2
		fmt.Fprintf(&s, `<text x="%d" y="%d">%c</text>`, x, heatMargin+n*heatCell+15, 'a'+i)
		y := heatMargin + (n-1-i)*heatCell + heatCell/2 + 4
		fmt.Fprintf(&s, `<text x="%d" y="%d">%d</text>`, heatMargin/2, y, i+1)
	}
	s.WriteString(`</g>`)
	// The legend: a gradient bar as wide as the board, with its scale.
	ly := side + 4
	w := max(n*heatCell, minLegendW)
	lx := heatMargin
	if w > n*heatCell {
		lx = (side - w) / 2
	}
	fmt.Fprintf(&s, `<g class="legend"><rect x="%d" y="%d" width="%d" height="10" fill="url(#%s)" stroke="#999" stroke-width="0.5"/>`, lx, ly, w, gid)
	for _, t := range k.ticks {
		var at float64
		fmt.Sscan(t[0], &at)
		x := float64(lx) + at*float64(w)
		anchor := "middle"
		switch at {
		case 0:
			anchor = "start"
		case 1:
			anchor = "end"
		}
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/><text class="tick" x="%.1f" y="%d" text-anchor="%s">%s</text>`, x, ly+10, x, ly+14, x, ly+25, anchor, t[1])
	}
	fmt.Fprintf(&s, `<text class="legend-title" x="%d" y="%d">%s</text>`, side/2, ly+39, k.legend)
	// The fading: swatches of the scale's strongest colour at the strengths of five
	// interval widths.
	fy := ly + 48
	if k.fades {
		widths := []float64{0.2, 0.3, 0.4, 0.5, 0.6}
		sw := float64(w) / float64(len(widths))
		top := k.scale.at(1)
		for i, wd := range widths {
			a := alpha(stats.Rate{N: 1, Hi: wd})
			x := float64(lx) + float64(i)*sw
			fmt.Fprintf(&s, `<rect class="fade" x="%.1f" y="%d" width="%.1f" height="10" fill="%s"/>`, x, fy, sw, top.fade(a).hex())
			label := fmt.Sprintf("±%.0f", 50*wd)
			switch i {
			case 0:
				label = "≤ ±10"
			case len(widths) - 1:
				label = "≥ ±30 pts"
			}
			fmt.Fprintf(&s, `<text class="fade-tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x+sw/2, fy+21, label)
		}
		fmt.Fprintf(&s, `<text class="legend-title" x="%d" y="%d">paler: less certain (95%% interval, ± points)</text>`, side/2, fy+35)
	} else {
		fmt.Fprintf(&s, `<text class="legend-note" x="%d" y="%d">not faded: a count is its own sample size</text>`, side/2, fy+12)
	}
	s.WriteString(`</g></svg>`)
	return template.HTML(s.String())
}

// cellTip is the hover text of a cell: its own count, and its orbit's pooled numbers.
func cellTip(c stats.CellStat, o *orbit, exact bool) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: %d %s on this cell", c.Cell, c.Games, plural(c.Games, "opening", "openings"))
	if len(o.Cells) > 1 {
		fmt.Fprintf(&s, "; with its mirror images (%s): %s a cell", o.names(), count(o.PerCell))
	}
	what := plural(o.Swapped.N, "game", "games")
	if !exact {
		what = plural(o.Swapped.N, "tile", "tiles")
	}
	fmt.Fprintf(&s, "; swapped %s of %d %s (95%% interval %s); opener's score %s (95%% interval %s)",
		pct(o.Swapped), o.Swapped.N, what, interval(o.Swapped), pct(o.Opener), interval(o.Opener))
	return template.HTMLEscapeString(s.String())
}

// orbitTable lists the classes of cells the maps show, most played first.
func orbitTable(f *folded) table {
	n := "openings"
	if !f.exact {
		n = "tiles"
	}
	t := table{Head: []string{"cells (mirror images)", "openings a cell", n, "swapped", "95% interval", "opener's score", "95% interval"},
		Num: []bool{false, true, true, true, true, true, true}}
	os := make([]*orbit, 0, len(f.orbits))
	for _, o := range f.orbits {
		if o.Swapped.N > 0 {
			os = append(os, o)
		}
	}
	slices.SortStableFunc(os, func(x, y *orbit) int { return cmp.Compare(y.PerCell, x.PerCell) })
	for _, o := range os {
		t.Rows = append(t.Rows, []string{o.names(), count(o.PerCell), strconv.Itoa(o.Swapped.N), pct(o.Swapped), interval(o.Swapped), pct(o.Opener), interval(o.Opener)})
	}
	return t
}

// cellTable lists the cells with openings, most played first.
func cellTable(b *stats.Board) table {
	t := table{Head: []string{"cell", "openings", "swapped", "95% interval", "opener's score", "95% interval"},
		Num: []bool{false, true, true, true, true, true}}
	cells := make([]stats.CellStat, 0, len(b.Cells))
	for _, c := range b.Cells {
		if c.Games > 0 {
			cells = append(cells, c)
		}
	}
	// Most played first; ties in board order.
	slices.SortStableFunc(cells, func(x, y stats.CellStat) int { return cmp.Compare(y.Games, x.Games) })
	for _, c := range cells {
		t.Rows = append(t.Rows, []string{c.Cell, fmt.Sprint(c.Games), pct(c.Swapped), interval(c.Swapped), pct(c.Opener), interval(c.Opener)})
	}
	return t
}
