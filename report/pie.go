package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ponte/ponte/stats"
)

// The verdict on the pie rule, first: one card per board size and population, then per
// board the strength-adjusted advantages, the ratings, the openings' shrunk rates and the
// curves by distance and over time.

// boardKey tells a board apart from the others of the page: its size and population
// ("10-bots"), as one size may appear once per population.
func boardKey(b *stats.Board) string {
	return sizeKey(b.Size, b.Population)
}

func sizeKey(size int, pop string) string {
	if pop == "" {
		return strconv.Itoa(size)
	}
	return strconv.Itoa(size) + "-" + pop
}

// popWords says in plain words what games a population holds.
func popWords(pop string) string {
	switch pop {
	case stats.PopulationPeople:
		return "games between people"
	case stats.PopulationBots:
		return "self-played games between bots (every game with a bot player)"
	case stats.PopulationAll:
		return "all games, people's and bots' together"
	}
	return pop
}

// popShort names a population in a heading.
func popShort(pop string) string {
	switch pop {
	case stats.PopulationPeople:
		return "people"
	case stats.PopulationBots:
		return "bots"
	case stats.PopulationAll:
		return "people and bots"
	}
	return pop
}

// cardData is one card of the answer at the top of the page.
type cardData struct {
	Board      string // "10×10"
	Population string
	PopWords   string
	Href       string // the board's section, "" when the page has none
	Verdict    string
	Class      string // opener, responder, balanced or unknown
	N          int
	Games      string
	Sources    string
	Value      string // "52.3%"
	Interval   string // "48.1–56.4%"
	Estimate   string // which estimate, in words
	Why        string
	Few        bool
	Readings   []string
	Disagree   []string
}

// answerData is the top of the page: the cards and what population they cover.
type answerData struct {
	Cards      []cardData
	Population string // the report's population, in words
	Note       string // e.g. there are no people's games, so these are the bots'
	Counts     string // the legal games of each population
}

// answer makes the cards of a report.
func answer(r *stats.Report) answerData {
	a := answerData{Population: popWords(r.Population), Note: r.MainNote()}
	if r.Apart() {
		a.Population = "people's games and bots' games apart; the sections below them cover " + popWords(r.Population)
	}
	people, bots := stats.PopulationGames(r.Populations, stats.PopulationPeople), stats.PopulationGames(r.Populations, stats.PopulationBots)
	a.Counts = fmt.Sprintf("Legal games selected: %s between people, %s with a bot.", thousands(people), thousands(bots))
	if r.Filter.Population == stats.PopulationPeople && bots > 0 {
		a.Counts += " The bots' games are left out here (ponte report --population bots or all shows them)."
	}
	if r.Filter.Population == stats.PopulationBots && people > 0 {
		a.Counts += " People's games are left out here (ponte report --population people or all shows them)."
	}
	sections := map[string]bool{}
	for i := range r.Boards {
		sections[boardKey(&r.Boards[i])] = true
	}
	for _, c := range r.Cards {
		cd := cardData{Board: fmt.Sprintf("%d×%d", c.Size, c.Size), Population: popShort(c.Population), PopWords: popWords(c.Population),
			Verdict: c.Verdict, N: c.N, Games: thousands(c.Games), Few: c.Few, Why: c.Why, Disagree: c.Disagreements}
		if sections[sizeKey(c.Size, c.Population)] {
			cd.Href = "#board-" + sizeKey(c.Size, c.Population)
		}
		switch {
		case c.Verdict == stats.OpenerFavoured:
			cd.Class = "opener"
		case c.Verdict == stats.ResponderFavoured:
			cd.Class = "responder"
		case strings.HasPrefix(c.Verdict, "balanced"):
			cd.Class = "balanced"
		default:
			cd.Class = "unknown"
		}
		if c.N > 0 {
			cd.Value = fmt.Sprintf("%.1f%%", 100*c.Value)
			cd.Interval = fmt.Sprintf("%.1f–%.1f%%", 100*c.Lo, 100*c.Hi)
		}
		switch c.Estimate {
		case stats.EstimateAdjusted:
			cd.Estimate = "strength-adjusted: the opener's expected score between players of equal strength (rating model)"
		case stats.EstimateRaw:
			cd.Estimate = "raw: the opener's score as played, players' strength not taken out"
		default:
			cd.Estimate = c.Estimate
		}
		var src []string
		for _, s := range c.Sources {
			src = append(src, fmt.Sprintf("%s %s", thousands(s.Games), formatLabel(s.Format)))
		}
		cd.Sources = strings.Join(src, ", ")
		for _, rd := range c.Readings[min(1, len(c.Readings)):] {
			if rd.N == 0 {
				continue
			}
			cd.Readings = append(cd.Readings, fmt.Sprintf("%s %.1f%% [%.1f–%.1f%%], %s %s", rd.Name, 100*rd.Value, 100*rd.Lo, 100*rd.Hi,
				thousands(rd.N), plural(rd.N, "game", "games")))
		}
		a.Cards = append(a.Cards, cd)
	}
	return a
}

// formatLabel names a format as the verification table does.
func formatLabel(f string) string {
	return funcs["formatName"].(func(string) string)(f)
}

// strengthData is a board's strength-adjusted balance and its ratings.
type strengthData struct {
	Fitted  string // what the fit rests on
	Table   table  // kept, swapped, overall
	Ratings table
	More    int    // ratings not listed
	Groups  string // what a marked player's rating means, when the players fall into groups
}

// maxRatings is how many players the ratings table lists.
const maxRatings = 30

func strengthSection(st *stats.Strength) *strengthData {
	if st == nil {
		return nil
	}
	d := &strengthData{Fitted: fmt.Sprintf("Fitted to %s decided %s between %s %s", thousands(st.Games), plural(st.Games, "game", "games"),
		thousands(st.Players), plural(st.Players, "player", "players"))}
	if st.Unnamed > 0 {
		d.Fitted += fmt.Sprintf("; %s left out (a player without a name)", thousands(st.Unnamed))
	}
	if st.SelfGames > 0 {
		d.Fitted += fmt.Sprintf("; %s of a player against itself", thousands(st.SelfGames))
	}
	d.Fitted += "."
	d.Table = table{Head: []string{"opener's advantage", "games", "Elo", "95% interval", "expected score vs an equal player", "95% interval"},
		Num: []bool{false, true, true, true, true, true}}
	for _, a := range []struct {
		name string
		a    stats.Advantage
	}{{"without a swap (kept)", st.Kept}, {"after a swap", st.Swapped}} {
		if a.a.Games == 0 {
			d.Table.Rows = append(d.Table.Rows, []string{a.name, "0", "–", "–", "–", "–"})
			continue
		}
		d.Table.Rows = append(d.Table.Rows, []string{a.name, thousands(a.a.Games), fmt.Sprintf("%+.0f", a.a.Elo),
			fmt.Sprintf("%+.0f to %+.0f", a.a.EloLo, a.a.EloHi), fmt.Sprintf("%.1f%%", 100*a.a.Score),
			fmt.Sprintf("%.1f–%.1f%%", 100*a.a.ScoreLo, 100*a.a.ScoreHi)})
	}
	o := st.Overall
	d.Table.Rows = append(d.Table.Rows, []string{fmt.Sprintf("overall (swapped in %s of the games)", pct(st.SwapRate)), thousands(o.N), "", "",
		fmt.Sprintf("%.1f%%", 100*o.Value), fmt.Sprintf("%.1f–%.1f%%", 100*o.Lo, 100*o.Hi)})
	d.Ratings = table{Head: []string{"#", "player", "games", "rating (Elo)", "95% interval"}, Num: []bool{true, false, true, true, true}}
	for i, p := range st.Ratings[:min(maxRatings, len(st.Ratings))] {
		name := cutText(orUnknown(p.Player), maxText)
		if p.Group > 0 {
			name += " †" + strconv.Itoa(p.Group)
		}
		rating, interval := fmt.Sprintf("%+.0f", p.Rating), fmt.Sprintf("%+.0f to %+.0f", p.Lo, p.Hi)
		if p.Alone {
			rating, interval = "–", "met no one else"
		}
		d.Ratings.Rows = append(d.Ratings.Rows, []string{strconv.Itoa(i + 1), name, thousands(p.Games), rating, interval})
	}
	d.More = len(st.Ratings) - len(d.Ratings.Rows)
	if st.Groups > 1 {
		d.Groups = "† never met the unmarked players, nor anyone who did: rated only within its own group (†1, †2 …), whose mean is 0."
	}
	return d
}

// shrunk writes a shrunk rate with its interval.
func shrunk(s stats.Shrunk) string {
	return fmt.Sprintf("%.1f%%", 100*s.Rate)
}

func shrunkTip(s stats.Shrunk) string {
	return fmt.Sprintf("shrunk %.1f%%, 95%% interval %.1f–%.1f%%; raw %.1f%% of %d games", 100*s.Rate, 100*s.Lo, 100*s.Hi, 100*s.Raw, s.N)
}

func shrunkInterval(s stats.Shrunk) string {
	return fmt.Sprintf("%.1f–%.1f%%", 100*s.Lo, 100*s.Hi)
}

// secureText says what the opener can secure.
func secureText(s *stats.Secure) string {
	if s == nil {
		return "No estimate: no opening was seen both swapped and not."
	}
	branch := "without a swap"
	if s.Branch == "swapped" {
		branch = "after a swap"
	}
	return fmt.Sprintf("%.1f%% [95%%: %.1f–%.1f%%], opening %s %s: its worse branch is %s (%d %s). Best of %d %s seen in both branches.",
		100*s.Score.Rate, 100*s.Score.Lo, 100*s.Score.Hi, s.A, s.B, branch, s.Score.N, plural(s.Score.N, "game", "games"),
		s.Openings, plural(s.Openings, "opening", "openings"))
}

// maxScatter is the most openings the scatter chart draws: the most played.
const maxScatter = 300

// openingScatter draws each opening as a point: the opener's shrunk score when kept
// against it when swapped, the point's area by its games.
func openingScatter(key string, b *stats.Board) (chart, error) {
	p := newPlot("Which openings should be swapped", "opener's score when not swapped (shrunk)", "opener's score when swapped (shrunk)")
	os := b.Openings[:min(maxScatter, len(b.Openings))]
	most := 1
	var xys plotter.XYs
	var games []int
	for _, o := range os {
		if o.Games == 0 {
			continue
		}
		xys = append(xys, plotter.XY{X: o.OpenerKeptShrunk.Rate, Y: o.OpenerSwappedShrunk.Rate})
		games = append(games, o.Games)
		most = max(most, o.Games)
	}
	for _, l := range []plotter.XYs{{{X: 0.5, Y: 0}, {X: 0.5, Y: 1}}, {{X: 0, Y: 0.5}, {X: 1, Y: 0.5}}} {
		// Clipped to the axes below.
		half, err := plotter.NewLine(l)
		if err != nil {
			return chart{}, err
		}
		half.LineStyle.Color = grey
		half.LineStyle.Dashes = []vg.Length{3, 3}
		p.Add(half)
	}
	if len(xys) > 0 {
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return chart{}, err
		}
		sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			r := 2 + 8*math.Sqrt(float64(games[i])/float64(most))
			return draw.GlyphStyle{Color: color.RGBA{0x2a, 0x6f, 0x97, 0xb0}, Radius: vg.Length(r), Shape: draw.CircleGlyph{}}
		}
		p.Add(sc)
	}
	// The axes span the points and ½, padded: shrunk rates crowd near the average.
	lo, hi := 0.5, 0.5
	for _, xy := range xys {
		lo, hi = math.Min(lo, math.Min(xy.X, xy.Y)), math.Max(hi, math.Max(xy.X, xy.Y))
	}
	lo, hi = math.Max(0, math.Floor((lo-0.05)*10)/10), math.Min(1, math.Ceil((hi+0.05)*10)/10)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
	p.X.Tick.Marker = plot.TickerFunc(pctTicks)
	p.Y.Tick.Marker = plot.TickerFunc(pctTicks)
	svg, err := render(p, chartW, chartW*0.8, p.Title.Text)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{"opening", "games", "kept: opener's score", "95% interval", "swapped: opener's score", "95% interval"},
		Num: []bool{false, true, true, true, true, true}}
	for _, o := range os {
		t.Rows = append(t.Rows, []string{o.A + " " + o.B, strconv.Itoa(o.Games), shrunk(o.OpenerKeptShrunk), shrunkInterval(o.OpenerKeptShrunk),
			shrunk(o.OpenerSwappedShrunk), shrunkInterval(o.OpenerSwappedShrunk)})
	}
	caption := "Each opening a point, its area by its games; rates shrunk towards the board's average. Right of the vertical ½ line the opener does well when not swapped: the second player should swap. Below the horizontal ½ line the swap pays off for the second player. Upper right: the opener wins either way (too strong); lower left: the opener loses either way."
	if len(os) < len(b.Openings) {
		caption += fmt.Sprintf(" The %d most played of %d openings.", len(os), len(b.Openings))
	}
	return chart{ID: "scatter-" + key, Title: "Which openings should be swapped", SVG: svg, Table: t, Caption: caption}, nil
}

// ratePoint is one x of a rate curve.
type ratePoint struct {
	Label   string
	X       float64
	Games   int
	Swapped stats.Rate
	Opener  stats.Rate
}

// rateCurve draws the swap rate and the opener's score against x, with 95% Wilson
// whiskers; nominal labels the x axis by the points' labels.
func rateCurve(id, title, xlabel string, pts []ratePoint, nominal bool) (chart, error) {
	p := newPlot(title, xlabel, "share of games")
	for _, s := range []struct {
		name  string
		style draw.LineStyle
		rate  func(ratePoint) stats.Rate
		dx    float64
	}{
		{"second player swapped", draw.LineStyle{Color: teal, Width: 1.8, Dashes: []vg.Length{5, 3}}, func(p ratePoint) stats.Rate { return p.Swapped }, -0.06},
		{"opener's score", openerSeries, func(p ratePoint) stats.Rate { return p.Opener }, 0.06},
	} {
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, pt := range pts {
			r := s.rate(pt)
			if r.N == 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: pt.X + s.dx, Y: r.P})
			errs = append(errs, struct{ Low, High float64 }{r.P - r.Lo, r.Hi - r.P})
		}
		if len(xys) == 0 {
			continue
		}
		l, pp, err := plotter.NewLinePoints(xys)
		if err != nil {
			return chart{}, err
		}
		l.LineStyle = s.style
		pp.GlyphStyle = draw.GlyphStyle{Color: s.style.Color, Radius: 2.5, Shape: draw.CircleGlyph{}}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{xys, errs})
		if err != nil {
			return chart{}, err
		}
		eb.LineStyle.Color = s.style.Color
		eb.LineStyle.Width = 1
		eb.CapWidth = 4
		p.Add(l, pp, eb)
		p.Legend.Add(s.name, l, pp)
	}
	half, err := plotter.NewLine(plotter.XYs{{X: pts[0].X - 0.5, Y: 0.5}, {X: pts[len(pts)-1].X + 0.5, Y: 0.5}})
	if err != nil {
		return chart{}, err
	}
	half.LineStyle.Color = grey
	half.LineStyle.Dashes = []vg.Length{2, 3}
	p.Add(half)
	p.Legend.Top = true
	p.Y.Min, p.Y.Max = 0, 1.25
	p.Y.Tick.Marker = plot.TickerFunc(pctTicks)
	p.X.Min, p.X.Max = pts[0].X-0.5, pts[len(pts)-1].X+0.5
	if nominal {
		labels := make([]string, len(pts))
		for i, pt := range pts {
			labels[i] = pt.Label
		}
		p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
			step := max0(len(pts)/8) + 1
			var ts []plot.Tick
			for i, pt := range pts {
				l := ""
				if i%step == 0 {
					l = labels[i]
				}
				ts = append(ts, plot.Tick{Value: pt.X, Label: l})
			}
			return ts
		})
	} else {
		p.X.Tick.Marker = plot.TickerFunc(intTicks)
	}
	svg, err := render(p, chartW, chartH, title)
	if err != nil {
		return chart{}, err
	}
	t := table{Head: []string{xlabel, "games", "swapped", "95% interval", "opener's score", "95% interval"}, Num: []bool{!nominal, true, true, true, true, true}}
	for _, pt := range pts {
		t.Rows = append(t.Rows, []string{pt.Label, strconv.Itoa(pt.Games), pct(pt.Swapped), interval(pt.Swapped), pct(pt.Opener), interval(pt.Opener)})
	}
	return chart{ID: id, Title: title, SVG: svg, Table: t,
		Caption: "Points: the share of decided games that reached turn 2; whiskers: 95% Wilson intervals; dotted line: ½. Swap rate: teal, dashed; opener's score (win 1, draw ½): dark blue, solid."}, nil
}

// distanceCurve draws a board's rates by one distance of its openings.
func distanceCurve(id, title, xlabel string, bins []stats.DistanceBin) (chart, error) {
	pts := make([]ratePoint, len(bins))
	for i, b := range bins {
		pts[i] = ratePoint{Label: strconv.Itoa(b.Distance), X: float64(b.Distance), Games: b.Games, Swapped: b.Swapped, Opener: b.Opener}
	}
	return rateCurve(id, title, xlabel, pts, false)
}

// curves draws a board's rates by distance and over time.
func curves(key string, b *stats.Board) (dist []chart, time *chart, timeNote string, err error) {
	if len(b.ByEdge) > 0 {
		c, err := distanceCurve("edge-"+key, "By the opening's distance from the edge", "cells from the edge (nearer tile)", b.ByEdge)
		if err != nil {
			return nil, nil, "", err
		}
		dist = append(dist, c)
	}
	if len(b.ByApart) > 0 {
		c, err := distanceCurve("apart-"+key, "By the distance between the opening's tiles", "distance between the two tiles (Chebyshev)", b.ByApart)
		if err != nil {
			return nil, nil, "", err
		}
		dist = append(dist, c)
	}
	ot := b.OverTime
	if ot == nil {
		return dist, nil, "No game has a date with its month.", nil
	}
	if len(ot.Periods) < 2 {
		return dist, nil, fmt.Sprintf("All %s dated games fall in one %s.", thousands(ot.Dated), ot.By), nil
	}
	pts := make([]ratePoint, len(ot.Periods))
	for i, p := range ot.Periods {
		pts[i] = ratePoint{Label: p.Period, X: float64(i), Games: p.Games, Swapped: p.Swapped, Opener: p.Opener}
	}
	c, err := rateCurve("time-"+key, "Over time, by "+ot.By, ot.By, pts, true)
	if err != nil {
		return nil, nil, "", err
	}
	note := fmt.Sprintf("%s dated games", thousands(ot.Dated))
	if ot.Undated > 0 {
		note += fmt.Sprintf("; %s without a year and month are left out", thousands(ot.Undated))
	}
	return dist, &c, note + ".", nil
}
