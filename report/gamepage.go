package report

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/store"
)

// gamePageData is what game.html shows.
type gamePageData struct {
	G         *game
	Title     string
	Status    string // "legal", "illegal" or "unreadable"
	Result    string // what the replay says, in words
	Board     template.HTML
	LastTurn  int // the highest data-turn on the board
	Rows      []moveRow
	ReplayErr string // why the board could not be drawn
	HasThink  bool   // some turn has a think time: the move list shows them
	Cols      int    // the move list's columns after "#", "side" and "move"
	Script    template.JS
	Evals     *evalsView // the engine's reading of the game, nil when none (evals.go)
	// What the page leaves out of a record too long to show whole, said under the move
	// list, the raw text and the tags; "" when nothing is left out.
	MovesNote, RawNote, TagsNote string
}

// moveRow is one line of the move list.
type moveRow struct {
	Turn   int
	Colour string // "light", "dark" or "" when not played
	Move   string
	// DataMove is what the step-through shows of the turn, "light d4,e5" or "illegal
	// a1,a2", each piece of record text isolated (plain).
	DataMove string
	Note     string
	Played   bool // a legal turn with its features
	Illegal  bool // the turn that broke a rule
	T        store.Turn
	// The counts after a played turn, "Light–Dark".
	Score, Islands, Sandbanks, Dead, Mobility string
	Created                                   int    // sandbanks the turn made dead
	Think                                     string // the think time, "12.3 s", or ""
	Mark, MarkSymbol                          string // the engine's mark of the turn (evals.go)
}

func pair(v [2]int) string { return strconv.Itoa(v[0]) + "–" + strconv.Itoa(v[1]) }

func gamePage(g *game, script template.JS) *gamePageData {
	d := &gamePageData{G: g, Script: script, Title: gameTitle(g)}
	switch {
	case g.Unreadable:
		d.Status = "unreadable"
	case g.Legal:
		d.Status = "legal"
	default:
		d.Status = "illegal"
	}
	d.Result = resultText(g)
	if g.RawLen > len(g.Raw) {
		d.RawNote = fmt.Sprintf("The text is cut here: these are the first %s of its %s bytes.", thousands(len(g.Raw)), thousands(g.RawLen))
	}
	if g.TagsTotal > len(g.Tags) {
		d.TagsNote = fmt.Sprintf("The first %d of the record's %s tags.", len(g.Tags), thousands(g.TagsTotal))
	}
	if g.Unreadable {
		return d
	}
	pos, err := replayGame(g)
	if err != nil {
		d.ReplayErr = cutText(err.Error(), maxText)
	}
	if pos != nil {
		d.LastTurn = len(pos.moves)
		if pos.bad != nil {
			d.LastTurn++
		}
		d.Board = pos.svg(d.LastTurn)
	}
	byTurn := make(map[int]store.Turn, len(g.TurnRows))
	for _, t := range g.TurnRows {
		byTurn[t.Turn] = t
	}
	turn, more := 0, false
	for tok := range strings.FieldsSeq(g.Moves) {
		if turn == maxMoveRows {
			more = true
			break
		}
		turn++
		r := moveRow{Turn: turn, Move: cutText(tok, maxToken)}
		if t, ok := byTurn[turn]; ok && turn <= g.Turns {
			r.T, r.Played, r.Colour = t, true, t.Colour
			r.DataMove = plain(t.Colour) + " " + plain(r.Move)
			r.Note = turnNote(t)
			r.Score, r.Islands, r.Sandbanks = pair(t.Score), pair(t.Islands), pair(t.Sandbanks)
			r.Dead, r.Mobility, r.Created = pair(t.Dead), pair(t.Mobility), t.DeadCreated[0]+t.DeadCreated[1]
			if t.ThinkMS > 0 {
				d.HasThink = true
				r.Think = strconv.FormatFloat(float64(t.ThinkMS)/1000, 'f', 1, 64) + " s"
			}
		} else if !g.Legal && turn == g.ErrorTurn {
			r.Illegal = true
			r.DataMove = "illegal " + plain(r.Move)
			r.Note = g.ErrorRule + ": " + g.ErrorMessage
		} else {
			r.Note = "not replayed"
		}
		d.Rows = append(d.Rows, r)
	}
	if more || g.MovesLen > len(g.Moves) {
		d.MovesNote = fmt.Sprintf("The list stops at move %s: the record has more moves (%s characters of moves in all).",
			thousands(turn), thousands(g.MovesLen))
	}
	d.Cols = 6
	if d.HasThink {
		d.Cols = 7
	}
	addEvals(d)
	return d
}

// gameTitle names a game, for the page's <title>: "Game 3: alice – bob, Autumn league".
// Each name is isolated (plain): no name can reorder the others.
func gameTitle(g *game) string {
	s := fmt.Sprintf("Game %d: %s – %s", g.ID, plain(orUnknown(g.Light)), plain(orUnknown(g.Dark)))
	if g.Event != "" {
		s += ", " + plain(g.Event)
	}
	return s
}

// thousands writes n with comma separators (numtext.Thousands).
func thousands(n int) string {
	return numtext.Thousands(int64(n))
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// resultText says how the game ended according to the replay.
func resultText(g *game) string {
	switch {
	case g.Unreadable:
		return "not readable"
	case g.Over:
		who := "draw"
		switch g.Winner {
		case "light":
			who = "Light won"
		case "dark":
			who = "Dark won"
		}
		by := g.TieBreak
		if by == "draw" || by == "" {
			return fmt.Sprintf("%s (%s)", g.Result, who)
		}
		return fmt.Sprintf("%s (%s, decided by %s)", g.Result, who, by)
	case g.Termination != "" && g.Termination != "normal":
		return fmt.Sprintf("not over: %s (the record claims %s)", g.Termination, g.ClaimedResult)
	}
	return "not over after the last legal turn"
}

// turnNote describes what a tiles or bridge turn made.
func turnNote(t store.Turn) string {
	switch t.Kind {
	case "tiles":
		if t.GroupA > 0 && t.GroupB > 0 {
			if t.GroupA == t.GroupB && t.IslandsFormed <= 1 {
				return fmt.Sprintf("group %d", t.GroupA)
			}
			return fmt.Sprintf("groups %d, %d", t.GroupA, t.GroupB)
		}
	case "bridge":
		s := t.BridgeShape
		if t.BridgeEndA > 0 && t.BridgeEndB > 0 {
			s += fmt.Sprintf(" %d–%d", t.BridgeEndA, t.BridgeEndB)
		}
		if t.BridgeMerged {
			s += ", joins"
		}
		return s
	}
	return ""
}
