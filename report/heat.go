package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/ponte/ponte/stats"
)

// Heat map geometry, in SVG user units.
const (
	heatCell   = 30
	heatMargin = 22
	legendH    = 46
)

// minCellGames is the fewest openings a cell needs for its rates to be drawn at full
// strength; rarer cells are faded.
const minCellGames = 5

// rgb is a colour of a scale.
type rgb struct{ r, g, b float64 }

func (c rgb) hex() string {
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(c.r)), int(math.Round(c.g)), int(math.Round(c.b)))
}

// dark reports whether text on c should be white.
func (c rgb) dark() bool { return 0.299*c.r+0.587*c.g+0.114*c.b < 140 }

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

// heatMap is one opening heat map drawn as a board.
type heatMap struct {
	Title string
	SVG   template.HTML
}

// heatKind says what a heat map shows.
type heatKind struct {
	id, title, legend string
	scale             scale
	value             func(c stats.CellStat) (float64, bool) // the value on 0 … 1, false for no data
	text              func(c stats.CellStat) string
	ticks             [][2]string // legend ticks: position on 0 … 1, label
}

// heatMaps draws the three opening heat maps of a board: frequency, swap rate and the
// opener's score.
func heatMaps(b *stats.Board) []heatMap {
	most := 0
	for _, c := range b.Cells {
		most = max(most, c.Games)
	}
	kinds := []heatKind{
		{
			id: "freq", title: "Openings with a tile on the cell", legend: "openings",
			scale: ylGnBu,
			value: func(c stats.CellStat) (float64, bool) {
				if c.Games == 0 || most == 0 {
					return 0, false
				}
				return float64(c.Games) / float64(most), true
			},
			text:  func(c stats.CellStat) string { return compact(c.Games) },
			ticks: [][2]string{{"0", "0"}, {"0.5", compact(most / 2)}, {"1", compact(most)}},
		},
		{
			id: "swap", title: "Swap rate after an opening on the cell", legend: "swapped",
			scale: purples,
			value: func(c stats.CellStat) (float64, bool) { return c.Swapped.P, c.Games > 0 },
			text:  func(c stats.CellStat) string { return fmt.Sprintf("%.0f", 100*c.Swapped.P) },
			ticks: [][2]string{{"0", "0%"}, {"0.25", "25%"}, {"0.5", "50%"}, {"0.75", "75%"}, {"1", "100%"}},
		},
		{
			id: "opener", title: "Opener's score after an opening on the cell", legend: "opener's score",
			scale: rdBu,
			value: func(c stats.CellStat) (float64, bool) { return c.Opener.P, c.Games > 0 },
			text:  func(c stats.CellStat) string { return fmt.Sprintf("%.0f", 100*c.Opener.P) },
			ticks: [][2]string{{"0", "0%"}, {"0.25", "25%"}, {"0.5", "50%"}, {"0.75", "75%"}, {"1", "100%"}},
		},
	}
	out := make([]heatMap, len(kinds))
	for i, k := range kinds {
		out[i] = heatMap{Title: k.title, SVG: heatSVG(b, k)}
	}
	return out
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
// coloured by its value and labelled, and a colour legend below. The text is made only of
// numbers, cell names and fixed words.
func heatSVG(b *stats.Board, k heatKind) template.HTML {
	n := b.Size
	side := 2*heatMargin + n*heatCell
	h := side + legendH
	gid := fmt.Sprintf("grad-%d-%s", n, k.id)
	var s strings.Builder
	fmt.Fprintf(&s, `<svg class="heat" viewBox="0 0 %d %d" role="img" aria-label="%s, %d×%d">`, side, h, k.title, n, n)
	fmt.Fprintf(&s, `<defs><linearGradient id="%s" x1="0" x2="1" y1="0" y2="0">`, gid)
	for i := range 11 {
		v := float64(i) / 10
		fmt.Fprintf(&s, `<stop offset="%.1f" stop-color="%s"/>`, v, k.scale.at(v).hex())
	}
	s.WriteString(`</linearGradient></defs>`)
	fmt.Fprintf(&s, `<rect class="empty" x="%d" y="%d" width="%d" height="%d"/>`, heatMargin, heatMargin, n*heatCell, n*heatCell)
	for _, c := range b.Cells {
		x := heatMargin + c.Col*heatCell
		y := heatMargin + (n-1-c.Row)*heatCell
		v, ok := k.value(c)
		if !ok {
			fmt.Fprintf(&s, `<rect class="cell none" x="%d" y="%d" width="%d" height="%d"><title>%s: no openings</title></rect>`, x, y, heatCell, heatCell, c.Cell)
			continue
		}
		col := k.scale.at(v)
		faded := ""
		if c.Games < minCellGames && k.id != "freq" {
			faded = " faded"
		}
		fmt.Fprintf(&s, `<g class="cell%s"><title>%s: %d openings; swapped %s (%s); opener's score %s (%s)</title>`,
			faded, c.Cell, c.Games, pct(c.Swapped), interval(c.Swapped), pct(c.Opener), interval(c.Opener))
		fmt.Fprintf(&s, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, heatCell, heatCell, col.hex())
		tc := "#222"
		if col.dark() && faded == "" {
			tc = "#fff"
		}
		fmt.Fprintf(&s, `<text x="%d" y="%d" fill="%s">%s</text></g>`, x+heatCell/2, y+heatCell/2+4, tc, k.text(c))
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
	fmt.Fprintf(&s, `<g class="legend"><rect x="%d" y="%d" width="%d" height="10" fill="url(#%s)" stroke="#999" stroke-width="0.5"/>`, heatMargin, ly, n*heatCell, gid)
	for _, t := range k.ticks {
		var f float64
		fmt.Sscan(t[0], &f)
		x := float64(heatMargin) + f*float64(n*heatCell)
		anchor := "middle"
		switch f {
		case 0:
			anchor = "start"
		case 1:
			anchor = "end"
		}
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/><text x="%.1f" y="%d" text-anchor="%s">%s</text>`, x, ly+10, x, ly+14, x, ly+25, anchor, t[1])
	}
	fmt.Fprintf(&s, `<text class="legend-title" x="%d" y="%d">%s</text></g>`, side/2, ly+39, k.legend)
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
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
