package report

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"
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
}

// moveRow is one line of the move list.
type moveRow struct {
	Turn    int
	Colour  string // "light", "dark" or "" when not played
	Move    string
	Note    string
	Played  bool // a legal turn with its features
	Illegal bool // the turn that broke a rule
	T       turnRow
	// The counts after a played turn, "Light–Dark".
	Score, Islands, Sandbanks, Dead, Mobility string
	Created                                   int    // sandbanks the turn made dead
	Think                                     string // the think time, "12.3 s", or ""
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
	if g.Unreadable {
		return d
	}
	pos, err := replayGame(g)
	if err != nil {
		d.ReplayErr = err.Error()
	}
	if pos != nil {
		d.LastTurn = len(pos.moves)
		if pos.bad != nil {
			d.LastTurn++
		}
		d.Board = pos.svg(d.LastTurn)
	}
	byTurn := make(map[int]turnRow, len(g.TurnRows))
	for _, t := range g.TurnRows {
		byTurn[t.Turn] = t
	}
	for i, tok := range strings.Fields(g.Moves) {
		turn := i + 1
		r := moveRow{Turn: turn, Move: tok}
		if t, ok := byTurn[turn]; ok && turn <= g.Turns {
			r.T, r.Played, r.Colour = t, true, t.Colour
			r.Note = turnNote(t)
			r.Score, r.Islands, r.Sandbanks = pair(t.Score), pair(t.Islands), pair(t.Sandbanks)
			r.Dead, r.Mobility, r.Created = pair(t.Dead), pair(t.Mobility), t.DeadCreated[0]+t.DeadCreated[1]
			if t.ThinkMS.Valid {
				d.HasThink = true
				r.Think = strconv.FormatFloat(float64(t.ThinkMS.Int64)/1000, 'f', 1, 64) + " s"
			}
		} else if !g.Legal && turn == g.ErrorTurn {
			r.Illegal = true
			r.Note = g.ErrorRule + ": " + g.ErrorMessage
		} else {
			r.Note = "not replayed"
		}
		d.Rows = append(d.Rows, r)
	}
	d.Cols = 6
	if d.HasThink {
		d.Cols = 7
	}
	return d
}

// gameTitle names a game: "alice – bob, Autumn league 2025.10.04".
func gameTitle(g *game) string {
	light, dark := orUnknown(g.Light), orUnknown(g.Dark)
	s := fmt.Sprintf("Game %d: %s – %s", g.ID, light, dark)
	if g.Event != "" {
		s += ", " + g.Event
	}
	return s
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
func turnNote(t turnRow) string {
	switch t.Kind {
	case "tiles":
		if t.GroupA.Valid && t.GroupB.Valid {
			if t.GroupA.Int64 == t.GroupB.Int64 && t.IslandsFormed <= 1 {
				return fmt.Sprintf("group %d", t.GroupA.Int64)
			}
			return fmt.Sprintf("groups %d, %d", t.GroupA.Int64, t.GroupB.Int64)
		}
	case "bridge":
		s := t.BridgeShape.String
		if t.BridgeEndA.Valid && t.BridgeEndB.Valid {
			s += fmt.Sprintf(" %d–%d", t.BridgeEndA.Int64, t.BridgeEndB.Int64)
		}
		if t.BridgeMerged.Valid && t.BridgeMerged.Bool {
			s += ", joins"
		}
		return s
	}
	return ""
}
