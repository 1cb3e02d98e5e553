package parquet

import (
	"time"

	"github.com/ponte/ponte/game"
)

// The opener's scores, shared by every row that has one (the writer only reads them).
var scoreWin, scoreDraw, scoreLoss = 1.0, 0.5, 0.0

// The known results, shared likewise.
var resultLight, resultDark, resultDraw = game.LightWins.String(), game.DarkWins.String(), game.Draw.String()

// Deriver computes the derived columns of games.parquet, remembering the openings it has
// folded (a board has at most a few thousand classes) so that a row costs no allocation.
type Deriver struct {
	openings map[openingKey]*string
}

type openingKey struct {
	size int32
	a, b string
}

// Derive fills the derived fields of g, whose table columns are set, given whether it has
// a bot player.
func (dv *Deriver) Derive(g *GameRow, bot bool) {
	g.Population = game.PopulationPeople
	if bot {
		g.Population = game.PopulationBots
	}
	g.Opening = dv.opening(g)
	g.FinalResult = finalResult(g)
	g.Decided = g.FinalResult != nil
	g.OpenerScore = nil
	if g.Decided {
		// The opener ends as Light unless the second player swapped.
		openerWon := *g.FinalResult == resultLight && !g.Swapped || *g.FinalResult == resultDark && g.Swapped
		switch {
		case *g.FinalResult == resultDraw:
			g.OpenerScore = &scoreDraw
		case openerWon:
			g.OpenerScore = &scoreWin
		default:
			g.OpenerScore = &scoreLoss
		}
	}
}

// opening is the folded opening of g, as ponte stats folds it (game.FoldPair of the two
// distinct cells of the board game.ParseCell reads), or nil.
func (dv *Deriver) opening(g *GameRow) *string {
	if g.OpeningA == nil || g.OpeningB == nil {
		return nil
	}
	k := openingKey{g.Size, *g.OpeningA, *g.OpeningB}
	if s, ok := dv.openings[k]; ok {
		return s
	}
	var s *string
	a, okA := game.ParseCell(k.a)
	b, okB := game.ParseCell(k.b)
	if n := int(k.size); okA && okB && a != b && a.On(n) && b.On(n) {
		a, b := game.FoldPair(a, b, n)
		name := a.String() + " " + b.String()
		s = &name
	}
	if dv.openings == nil {
		dv.openings = map[openingKey]*string{}
	}
	if len(dv.openings) < 1<<16 { // an edited database could name endless cells
		dv.openings[k] = s
	}
	return s
}

// finalResult is the result ponte stats knows for g (game.Final, for legal games only);
// nil when unknown or not legal.
func finalResult(g *GameRow) *string {
	if !g.Legal {
		return nil
	}
	var computed, term string
	if g.Result != nil {
		computed = *g.Result
	}
	if g.Termination != nil {
		term = *g.Termination
	}
	r, _ := game.ParseResult(computed)
	t, _ := game.ParseTermination(term)
	c, _ := game.ParseResult(g.ClaimedResult)
	switch game.Final(g.Over, r, t, c) {
	case game.LightWins:
		return &resultLight
	case game.DarkWins:
		return &resultDark
	case game.Draw:
		return &resultDraw
	}
	return nil
}

// ParseDate reads a Date tag "YYYY.MM.DD" (as stored; "YYYY-MM-DD" too) as days since
// 1970-01-01 (a Parquet DATE); false when it is not a whole date of the calendar ("2025.03.??",
// "2025.02.30", anything else).
func ParseDate(s string) (int32, bool) {
	if len(s) != 10 || s[4] != s[7] || s[4] != '.' && s[4] != '-' {
		return 0, false
	}
	var n [3]int
	for i, part := range [3]string{s[:4], s[5:7], s[8:]} {
		for _, c := range []byte(part) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n[i] = 10*n[i] + int(c-'0')
		}
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], 0, 0, 0, 0, time.UTC)
	if n[1] < 1 || n[1] > 12 || t.Day() != n[2] {
		return 0, false // time.Date normalises 02.30 to 03.02
	}
	return int32(t.Unix() / 86400), true // midnight UTC: a whole number of days
}
