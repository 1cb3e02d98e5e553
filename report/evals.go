package report

import (
	"context"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// A game the engine has read (ponte annotate) gets, on its page, the graph of Light's
// chance of winning under the board (a point per position; clicking one shows that
// turn), the marks of the turns in the move list, the engine's best turn drawn on the
// board for the position shown, and each side's accuracy; the index lists the games whose
// chances swung most and the calibration of the chances.

// gameEvals is the engine's reading of a game, as its page shows it.
type gameEvals struct {
	Bot      string
	Rows     []store.TurnEval
	Accuracy []stats.Accuracy
}

// loadEvals reads the engine's rows of g: a reading by play's when one read it (the more
// exact reading: docs/annotate.md), else the first engine's by name.
func loadEvals(ctx context.Context, db *store.Reader, g *game) error {
	rows, err := db.EvalsOf(ctx, g.ID)
	if err != nil || len(rows) == 0 {
		return err
	}
	bot := rows[0].Bot
	for _, r := range rows {
		if annotate.ReadsByPlay(r.Bot) {
			bot = r.Bot
			break
		}
	}
	var mine []store.TurnEval
	var losses []stats.TurnLoss
	for _, r := range rows {
		if r.Bot != bot {
			continue
		}
		mine = append(mine, r)
		mark := ""
		if r.Mark != nil {
			mark = *r.Mark
		}
		losses = append(losses, stats.TurnLoss{Game: g.ID, Player: r.Player, Bot: r.Bot, Loss: r.Loss, Mark: mark})
	}
	g.Evals = &gameEvals{Bot: bot, Rows: mine, Accuracy: stats.Accuracies(losses)}
	return nil
}

// evalsView is what game.html shows of a game's reading.
type evalsView struct {
	Bot      string
	Graph    template.HTML
	Accuracy []stats.Accuracy
	// Thresholds are the marks' losses; Meaning what the marks of this engine meant in
	// the truth set, in measured words ("" for an engine the truth set did not measure).
	Thresholds, Meaning string
	// ByPlay: the engine reads by play (play-N), its chances measured by games, not
	// calibrated.
	ByPlay bool
}

// markSymbol is the mark of a turn as the move list shows it.
func markSymbol(mark string) string {
	switch mark {
	case "inaccuracy":
		return annotate.Inaccuracy.Symbol()
	case "mistake":
		return annotate.Mistake.Symbol()
	case "blunder":
		return annotate.Blunder.Symbol()
	}
	return ""
}

// addEvals puts the engine's reading of d's game on its page: the graph, the marks of the
// move list and the best turns drawn on the board.
func addEvals(d *gamePageData) {
	e := d.G.Evals
	if e == nil || len(e.Rows) == 0 {
		return
	}
	byTurn := make(map[int]store.TurnEval, len(e.Rows))
	for _, r := range e.Rows {
		byTurn[int(r.Turn)] = r
	}
	for i := range d.Rows {
		if r, ok := byTurn[d.Rows[i].Turn]; ok && r.Mark != nil && store.IsMark(*r.Mark) {
			d.Rows[i].Mark, d.Rows[i].MarkSymbol = *r.Mark, markSymbol(*r.Mark)
		}
	}
	d.Evals = &evalsView{Bot: e.Bot, Graph: evalGraph(e.Rows), Accuracy: e.Accuracy, Thresholds: annotate.ThresholdsOf(e.Bot).String(),
		ByPlay: annotate.ReadsByPlay(e.Bot)}
	if m, ok := annotate.MeasuredOf(e.Bot); ok {
		d.Evals.Meaning = m.Sentence()
	}
	if d.Board != "" {
		d.Board = withBestTurns(d.Board, e.Rows, d.G.Size)
	}
}

// The graph's geometry.
const (
	graphW, graphH   = 640, 150
	graphL, graphR   = 40, 10
	graphT, graphB   = 10, 24
	graphPlotW       = graphW - graphL - graphR
	graphPlotH       = graphH - graphT - graphB
	graphPointRadius = 4
)

// evalGraph draws Light's chance position by position: position 0 is the empty board,
// position k the board after turn k. Every point carries data-turn for the page's script.
func evalGraph(rows []store.TurnEval) template.HTML {
	n := len(rows)
	chance := make([]float64, n+1)
	for i, r := range rows {
		chance[i] = r.Before
		chance[i+1] = r.After
	}
	x := func(k int) float64 { return graphL + float64(k)*graphPlotW/math.Max(1, float64(n)) }
	y := func(p float64) float64 { return graphT + (1-p)*graphPlotH }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="evalgraph" class="evalgraph" viewBox="0 0 %d %d" role="img" aria-label="Light's chance of winning after each turn">`, graphW, graphH)
	fmt.Fprintf(&b, `<rect class="dark-half" x="%d" y="%d" width="%d" height="%d"/>`, graphL, graphT, graphPlotW, graphPlotH)
	fmt.Fprintf(&b, `<path class="light-area" d="M%.1f %.1f`, x(0), y(0))
	for k, p := range chance {
		fmt.Fprintf(&b, `L%.1f %.1f`, x(k), y(p))
	}
	fmt.Fprintf(&b, `L%.1f %.1fZ"/>`, x(n), y(0))
	for _, p := range []float64{0, 0.5, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text class="axis" x="%d" y="%.1f">%d%%</text>`,
			graphL, y(p), graphL+graphPlotW, y(p), graphL-4, y(p)+4, int(p*100))
	}
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d">turn</text>`, graphL+graphPlotW, graphH-6)
	fmt.Fprintf(&b, `<line id="evalcursor" class="cursor" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, x(n), graphT, x(n), graphT+graphPlotH)
	for k, p := range chance {
		class := "pt"
		title := fmt.Sprintf("turn %d: Light %.0f%%", k, 100*p)
		if k == 0 {
			title = fmt.Sprintf("the empty board: Light %.0f%%", 100*p)
		}
		if k > 0 {
			// Only a mark of the vocabulary names a class (the readers leave out rows
			// with another); every stored text is escaped all the same.
			r := rows[k-1]
			if r.Mark != nil && store.IsMark(*r.Mark) {
				class += " " + *r.Mark
				title += fmt.Sprintf(", %s (%s %s loses %.0f%%)", *r.Mark, r.Colour, r.Played, 100*r.Loss)
			}
		}
		fmt.Fprintf(&b, `<circle class="%s" data-turn="%d" cx="%.1f" cy="%.1f" r="%d"><title>%s</title></circle>`,
			template.HTMLEscapeString(class), k, x(k), y(p), graphPointRadius, template.HTMLEscapeString(title))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// withBestTurns adds to the board the engine's best turn in each position, each a group
// with data-best: the position (the turn shown) whose best turn it is.
func withBestTurns(board template.HTML, rows []store.TurnEval, size int) template.HTML {
	var b strings.Builder
	for i, r := range rows {
		if r.Best == nil {
			continue
		}
		best := *r.Best
		var cells []int
		sep := ","
		if strings.Contains(best, "-") {
			sep = "-"
		}
		for _, name := range strings.Split(best, sep) {
			if c := parseCellName(name); c >= 0 {
				cells = append(cells, c)
			}
		}
		fmt.Fprintf(&b, `<g class="best hidden" data-best="%d"><title>the engine's best turn: %s</title>`, i, template.HTMLEscapeString(best))
		centre := func(c int) (float64, float64) {
			col, row := c%32, c/32
			return float64(boardMargin + col*cellSize + cellSize/2), float64(boardMargin + (size-1-row)*cellSize + cellSize/2)
		}
		if sep == "-" && len(cells) == 2 {
			x1, y1 := centre(cells[0])
			x2, y2 := centre(cells[1])
			fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/>`, x1, y1, x2, y2)
		}
		for _, c := range cells {
			x, y := centre(c)
			fmt.Fprintf(&b, `<circle cx="%.0f" cy="%.0f" r="%d"/>`, x, y, cellSize/2-6)
		}
		b.WriteString(`</g>`)
	}
	s := string(board)
	i := strings.LastIndex(s, "</svg>")
	if i < 0 {
		return board
	}
	return template.HTML(s[:i] + b.String() + s[i:])
}

// swingsView is the index's list of the games whose chances swung most, and the
// calibration of the chances.
type swingsView struct {
	Swings      []swingRow
	Bins        []annotate.Bin
	Brier       float64
	Positions   int
	Bot         string
	Calibration annotate.Calibration
	Check       *annotate.Check // the calibration's own held-out check, made with it; nil for a reading by play
}

type swingRow struct {
	store.Swing
	Href  string // the game's page; "" when it has none
	Pct   string
	Names string
}

// maxSwings is how many games the index lists by their swings.
const maxSwings = 15

// indexEvals reads what the index shows of the engine's reading of the games the filter
// selects (of every population unless it names one, as the game pages are): nil when no
// game of them is annotated.
func indexEvals(ctx context.Context, db *store.Reader, f stats.Filter) (*swingsView, error) {
	swings, err := db.LargestSwings(ctx, f, maxSwings)
	if err != nil || len(swings) == 0 {
		return nil, err
	}
	cal := annotate.CalibrationOf(swings[0].Bot)
	v := &swingsView{Bot: swings[0].Bot, Calibration: cal}
	if !annotate.ReadsByPlay(v.Bot) {
		c := annotate.CheckOf(v.Bot)
		v.Check = &c
	}
	for _, s := range swings {
		v.Swings = append(v.Swings, swingRow{Swing: s, Pct: strconv.Itoa(int(math.Round(100*s.Swing))) + "%",
			Href: "games/" + strconv.FormatInt(s.Game, 10) + ".html"})
	}
	bots := f
	bots.Population = stats.PopulationBots // the calibration is fitted and checked on self-play games
	pts, err := db.CalibrationPoints(ctx, v.Bot, bots)
	if err != nil {
		return nil, err
	}
	var held []annotate.Point
	for _, p := range pts {
		if annotate.HeldOut(p.GameID) {
			held = append(held, annotate.Point{Raw: p.Raw, Phase: annotate.Phase(int(p.Turn)-1, p.Size), Won: p.Won, Game: p.GameID})
		}
	}
	if len(held) > 0 {
		v.Bins, v.Brier, v.Positions = cal.Reliability(held), cal.Brier(held), len(held)
	}
	return v, nil
}

// linkSwings keeps the links of the swings' games that have a page in the report.
func (w *writer) linkSwings(v *swingsView) {
	if v == nil {
		return
	}
	for i := range v.Swings {
		if _, err := os.Stat(filepath.Join(w.dir, filepath.FromSlash(v.Swings[i].Href))); err != nil {
			v.Swings[i].Href = ""
		}
	}
}

// chancePct writes a chance or a loss as a percentage: "62.3%".
func chancePct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }
