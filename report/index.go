package report

import (
	"fmt"
	"html/template"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ponte/ponte/stats"
)

// topOpenings is how many openings the openings table lists per board size.
const topOpenings = 15

// indexData is what index.html shows.
type indexData struct {
	Title      string
	Filter     template.HTML // the selection, its record text isolated
	V          stats.Verification
	Listed     int // illegal games listed in the verification table
	NotLegal   int // illegal and unreadable games
	NPages     int // game pages written
	PagesLimit int
	Selected   int
	HasPage    map[int64]bool // the games of the verification table that have a page
	Answer     answerData     // the cards: the answer first
	Boards     []boardData
	Evals      *swingsView // the engine's reading of the games (evals.go); nil when none
	Atlases    []atlasData
}

// pageLink is one game page in the index's list.
type pageLink struct {
	ID                 int64
	Href               string
	Status             string
	Size               int
	Date, Event        string
	Light, Dark        string
	Result             string
	Rule, ErrorMessage string
}

// linkTo is the line of the index's list of game pages that leads to g's page.
func linkTo(g *game) pageLink {
	status := "legal"
	switch {
	case g.Unreadable:
		status = "unreadable"
	case !g.Legal:
		status = "illegal"
	}
	return pageLink{ID: g.ID, Href: g.pagePath(), Status: status, Size: g.Size, Date: g.Date,
		Event: g.Event, Light: g.Light, Dark: g.Dark, Result: shortResult(g), Rule: g.ErrorRule, ErrorMessage: g.ErrorMessage}
}

// boardData is the section of one board size.
type boardData struct {
	Size                     int
	Key                      string // boardKey: unique in the page
	Population               string // in a heading's words
	PopWords                 string
	Verdict                  string
	Games, Decided, Finished int
	Swap                     chart
	PieRule                  string // the pie rule's numbers, as a sentence
	BestReply                string
	Openings                 []openingRow
	OpeningsTotal            int
	Heat                     []heatMap
	Orbits                   table // the numbers the heat maps show, one row per class of cells
	FoldedExact              bool  // the maps' rates count each game once (see folded.exact)
	Cells                    table
	Scoring                  stats.Scoring
	ScoringCharts            []chart
	TieBreaks, Endings       table
	TurnCharts               []chart
	Strength                 *strengthData // nil when the rating model was not fitted
	StrengthError            string
	Scatter                  *chart // which openings should be swapped
	Secure                   string
	Distance                 []chart
	OverTime                 *chart
	OverTimeNote             string
}

// openingRow is one line of the openings table.
type openingRow struct {
	O     stats.Opening
	Board template.HTML
}

var funcs = template.FuncMap{
	"pct":            pct,
	"chance":         chancePct,
	"shrunk":         shrunk,
	"shrunkTip":      shrunkTip,
	"shrunkInterval": shrunkInterval,
	"interval":       interval,
	"rateTip": func(r stats.Rate) string {
		if r.N == 0 {
			return "no games"
		}
		return fmt.Sprintf("%s of %d games, 95%% interval %s", pct(r), r.N, interval(r))
	},
	"f2":  func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) },
	"f1":  func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	"add": func(a, b int) int { return a + b },
	"who": orUnknown,
	"formatName": func(f string) string {
		switch f {
		case "ponte":
			return ".ponte"
		case "jsonl":
			return "JSON Lines"
		case "boardspace":
			return "boardspace.net SGF"
		case "abstractplay":
			return "Abstract Play JSON"
		}
		return f
	},
	"lower": strings.ToLower,
	"plain": plain,
	"cut":   func(s string) string { return cutText(s, maxText) },
	"isNum": func(t table, i int) bool { return i < len(t.Num) && t.Num[i] },
}

// index renders index.html and returns the number of charts it holds. The list of the
// game pages is copied from the file pageList, which gamePages wrote as it wrote them.
func (w *writer) index(r *stats.Report, opts Options, pages int, hasPage map[int64]bool, pageList string, evals *swingsView) (int, error) {
	d := &indexData{
		Title:      opts.Title,
		Filter:     filterHTML(opts.Filter),
		V:          r.Verification,
		Listed:     len(r.Verification.IllegalGames),
		NotLegal:   r.Verification.Illegal + r.Verification.Unreadable,
		NPages:     pages,
		PagesLimit: opts.MaxGames,
		Selected:   r.Verification.Games,
		HasPage:    hasPage,
		Answer:     answer(r),
		Evals:      evals,
	}
	charts := 0
	for i := range r.Boards {
		bd, err := boardSection(&r.Boards[i])
		if err != nil {
			return 0, fmt.Errorf("writing the report: board %d: %w", r.Boards[i].Size, err)
		}
		charts += 1 + len(bd.Heat) + len(bd.ScoringCharts) + len(bd.TurnCharts) + len(bd.Distance)
		if bd.Scatter != nil {
			charts++
		}
		if bd.OverTime != nil {
			charts++
		}
		d.Boards = append(d.Boards, bd)
	}
	for _, a := range opts.Atlases {
		ad, err := atlasSection(a, r)
		if err != nil {
			return 0, fmt.Errorf("writing the report: the atlas of %d×%d: %w", a.Config.Size, a.Config.Size, err)
		}
		charts += 1 + len(ad.Maps)
		d.Atlases = append(d.Atlases, ad)
	}
	err := w.create("index.html", func(out io.Writer) error {
		if err := templates.ExecuteTemplate(out, "index-head", d); err != nil {
			return err
		}
		list, err := os.Open(pageList)
		if err != nil {
			return err
		}
		defer list.Close()
		if _, err := io.Copy(out, list); err != nil {
			return err
		}
		return templates.ExecuteTemplate(out, "index-tail", d)
	})
	if err != nil {
		return 0, fmt.Errorf("writing the report: index: %w", err)
	}
	return charts, nil
}

// filterHTML says what the filter selects, as Filter.String does, with every value given
// isolated in a <bdi>: a player named with a right-to-left override cannot reorder the
// rest of the line.
func filterHTML(f stats.Filter) template.HTML {
	var parts []string
	if f.Size != 0 {
		parts = append(parts, fmt.Sprintf("size %d", f.Size))
	}
	for _, p := range []struct{ name, v string }{{"site", f.Site}, {"event", f.Event}, {"player", f.Player}, {"source", f.Source}, {"from", f.From}, {"to", f.To}} {
		if p.v != "" {
			parts = append(parts, p.name+" <bdi>"+template.HTMLEscapeString(cutText(p.v, maxText))+"</bdi>")
		}
	}
	if len(parts) == 0 {
		return "all games"
	}
	return template.HTML(strings.Join(parts, ", "))
}

// shortResult is the result column of the list of game pages.
func shortResult(g *game) string {
	switch {
	case g.Unreadable:
		return ""
	case g.Over:
		return fmt.Sprintf("%s %d–%d", g.Result, g.Score[0], g.Score[1])
	case g.Termination != "" && g.Termination != "normal":
		return g.ClaimedResult + " " + g.Termination
	}
	return "not over"
}

// boardSection draws the charts and tables of one board size.
func boardSection(b *stats.Board) (boardData, error) {
	key := boardKey(b)
	d := boardData{Size: b.Size, Key: key, Population: popShort(b.Population), PopWords: popWords(b.Population), Verdict: b.Swap.Verdict,
		Games: b.Games, Decided: b.Decided, Finished: b.Finished,
		PieRule: pieRule(b.Size, b.Swap), Scoring: b.Scoring, OpeningsTotal: len(b.Openings),
		Strength: strengthSection(b.Swap.Strength), StrengthError: b.Swap.StrengthError, Secure: secureText(b.Secure)}
	var err error
	if d.Swap, err = swapChart(b.Size, b.Swap); err != nil {
		return d, err
	}
	d.Swap.ID = "swap-" + key
	if len(b.Openings) > 0 {
		sc, err := openingScatter(key, b)
		if err != nil {
			return d, err
		}
		d.Scatter = &sc
	}
	if d.Distance, d.OverTime, d.OverTimeNote, err = curves(key, b); err != nil {
		return d, err
	}
	if e := b.Swap.BestReply; e.Openings > 0 {
		d.BestReply = fmt.Sprintf("%.1f%% [%.1f–%.1f%%] over %d %s (%d games)", 100*e.Value, 100*e.Lo, 100*e.Hi,
			e.Openings, plural(e.Openings, "opening", "openings"), e.Games)
	} else {
		d.BestReply = fmt.Sprintf("no estimate: no opening was seen at least %d times both swapped and not", stats.MinBranch)
	}
	for _, o := range b.Openings[:min(topOpenings, len(b.Openings))] {
		d.Openings = append(d.Openings, openingRow{O: o, Board: miniBoard(b.Size, o.A, o.B)})
	}
	if len(b.Cells) > 0 {
		f := fold(b)
		d.Heat = heatMaps(b, f)
		d.Orbits, d.FoldedExact = orbitTable(f), f.exact
		d.Cells = cellTable(b)
	}

	sc := b.Scoring
	size := key
	if len(sc.ScoreLight) > 0 || len(sc.ScoreDark) > 0 {
		c, err := sideChart("score-"+size, "Final score", "score", sc.ScoreLight, sc.ScoreDark)
		if err != nil {
			return d, err
		}
		d.ScoringCharts = append(d.ScoringCharts, c)
	}
	for _, h := range []struct {
		id, title, x, y string
		bins            []stats.Bin
	}{
		{"margin", "Margin of victory", "|Light − Dark|", "games", sc.Margin},
		{"length", "Length of the game", "turns", "games", sc.Length},
		{"islands", "Islands per player at the end", "islands", "players (2 a game)", sc.Islands},
		{"bridges", "Bridges per player at the end", "bridges", "players (2 a game)", sc.Bridges},
		{"components", "Components by their islands", "islands in the component", "components", sc.Components},
	} {
		if len(h.bins) == 0 {
			continue
		}
		c, err := binsChart(h.id+"-"+size, h.title, h.x, h.y, h.bins, blue, blue)
		if err != nil {
			return d, err
		}
		d.ScoringCharts = append(d.ScoringCharts, c)
	}
	d.TieBreaks = countTable("decided by", sc.TieBreaks)
	d.Endings = countTable("ending", sc.Endings)

	if len(b.ByTurn) > 0 {
		for _, t := range []struct {
			id, title, y string
			lines        []series
			dec          int
			note         string
		}{
			{"islands-formed", "Islands formed", "islands per turn", byPlayer(func(t stats.TurnStat) float64 { return t.IslandsFormed }), 3,
				byPlayerNote + " An island is four tiles and a turn places two, so a player's line can alternate from one of their turns to the next."},
			{"bridges-built", "Bridges built", "share of turns", byPlayer(func(t stats.TurnStat) float64 { return t.Bridges }), 3, byPlayerNote},
			{"burned", "Burned land (dead sandbanks created)", "sandbanks per turn", []series{{name: "dead sandbanks created", style: plainLine, value: func(t stats.TurnStat) float64 { return t.DeadCreated }}}, 3, ""},
			{"mobility", "Mobility", "cells that take one tile", []series{
				{name: "Light", style: lightSeries, value: func(t stats.TurnStat) float64 { return t.Mobility[0] }},
				{name: "Dark", style: darkSeries, value: func(t stats.TurnStat) float64 { return t.Mobility[1] }},
			}, 1, "Light: solid gold line; Dark: dashed dark red line."},
		} {
			c, err := turnChart(t.id+"-"+size, t.title, t.y, b.ByTurn, t.lines, t.dec)
			if err != nil {
				return d, err
			}
			if t.note != "" {
				c.Caption = t.note + " " + c.Caption
			}
			d.TurnCharts = append(d.TurnCharts, c)
		}
	}
	return d, nil
}

// byPlayerNote is the caption of the charts byPlayer splits.
const byPlayerNote = "One line for each player: the opener plays the odd turns and the second player the even ones, whatever colours they end with."

// byPlayer splits a by-turn mean into two lines, one for each player's turns: the opener
// plays the odd turns and the second player the even ones, whatever colours they end
// with (a swap at turn 2 gives the opener Dark from turn 3 on). Drawn as one line, what a
// turn does alternates between the two and the line zig-zags.
func byPlayer(value func(stats.TurnStat) float64) []series {
	return []series{
		{name: "opener (turns 1, 3, 5, …)", style: openerSeries, value: value, on: func(turn int) bool { return turn%2 == 1 }},
		{name: "second player (turns 2, 4, 6, …)", style: secondSeries, value: value, on: func(turn int) bool { return turn%2 == 0 }},
	}
}

// pieRule says the numbers of the pie rule as a sentence, with the games they rest on and
// their 95% intervals, and no verdict.
func pieRule(size int, s stats.Swap) string {
	if s.Games == 0 || s.Swapped.N == 0 {
		return fmt.Sprintf("On %d×%d no decided game reached turn 2, so there is nothing to say about the pie rule yet.", size, size)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "On %d×%d the second player swapped in %s of %s decided %s (95%% interval %s).",
		size, size, pct(s.Swapped), thousands(s.Swapped.N), plural(s.Swapped.N, "game", "games"), interval(s.Swapped))
	fmt.Fprintf(&b, " The opener, who played turn 1, scored %s (%s; a win counts 1, a draw ½)", pct(s.Opener), interval(s.Opener))
	branch := func(r stats.Rate, with string) string {
		if r.N == 0 {
			return "no game " + with
		}
		return fmt.Sprintf("%s (%s) in the %s %s %s", pct(r), interval(r), thousands(r.N), plural(r.N, "game", "games"), with)
	}
	fmt.Fprintf(&b, ": %s, %s.", branch(s.OpenerSwapped, "with a swap"), branch(s.OpenerKept, "without"))
	return b.String()
}

// countTable lists outcomes with their rates.
func countTable(name string, cs []stats.Count) table {
	t := table{Head: []string{name, "games", "share", "95% interval"}, Num: []bool{false, true, true, true}}
	for _, c := range cs {
		t.Rows = append(t.Rows, []string{c.Name, hits(c.Rate.Hits), pct(c.Rate), interval(c.Rate)})
	}
	return t
}

// miniBoard draws an opening's two cells on a small board, as Light's tiles: the opening
// is turn 1, always Light's.
func miniBoard(size int, a, b string) template.HTML {
	const cell = 6
	side := size * cell
	var s strings.Builder
	fmt.Fprintf(&s, `<svg class="mini" viewBox="0 0 %d %d" role="img" aria-label="opening %s %s">`, side, side, template.HTMLEscapeString(a), template.HTMLEscapeString(b))
	fmt.Fprintf(&s, `<rect width="%d" height="%d" class="lagoon"/>`, side, side)
	for _, name := range []string{a, b} {
		c := parseCellName(name)
		if c < 0 {
			continue
		}
		col, row := c%32, c/32
		fmt.Fprintf(&s, `<rect class="pick light" x="%d" y="%d" width="%d" height="%d"/>`, col*cell, (size-1-row)*cell, cell, cell)
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}

// parseCellName reads "d4" as col + 32*row (0-based), -1 when it is not a cell.
func parseCellName(name string) int {
	if len(name) < 2 || name[0] < 'a' || name[0] > 'z' {
		return -1
	}
	row, err := strconv.Atoi(name[1:])
	if err != nil || row < 1 || row > 26 {
		return -1
	}
	return int(name[0]-'a') + 32*(row-1)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
