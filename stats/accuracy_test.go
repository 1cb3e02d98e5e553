package stats

import (
	"math"
	"testing"
)

func TestAccuracies(t *testing.T) {
	rows := []TurnLoss{
		{Game: 1, Player: "Anna", Bot: "sage-100", Loss: 0.1, Mark: "inaccuracy"},
		{Game: 1, Player: "Anna", Bot: "sage-100", Loss: 0},
		{Game: 2, Player: "Anna", Bot: "sage-100", Loss: 0.3, Mark: "blunder"},
		{Game: 2, Player: "Anna", Bot: "sage-100", Loss: 0.2, Mark: "mistake"},
		{Game: 1, Player: "Bruno", Bot: "sage-100", Loss: 0.05},
	}
	got := Accuracies(rows)
	if len(got) != 2 || got[0].Player != "Anna" || got[1].Player != "Bruno" {
		t.Fatalf("%+v", got)
	}
	a := got[0]
	if a.Turns != 4 || a.Games != 2 || math.Abs(a.MeanLoss-0.15) > 1e-12 || a.Inaccuracies != 1 || a.Mistakes != 1 || a.Blunders != 1 {
		t.Errorf("Anna: %+v", a)
	}
	// Games' sums 0.1 and 0.5 over 2 turns each: residuals 0.1-0.3 and 0.5-0.3, ss 0.08,
	// se = sqrt(2·0.08)/4 = 0.1.
	if math.Abs(a.Hi-a.MeanLoss-0.196) > 1e-9 || a.Lo != 0 {
		t.Errorf("Anna's interval [%v, %v] around %v", a.Lo, a.Hi, a.MeanLoss)
	}
	// Bruno has one turn: no interval to speak of.
	if b := got[1]; b.Turns != 1 || b.Lo != b.MeanLoss || b.Hi != b.MeanLoss {
		t.Errorf("Bruno: %+v", b)
	}
	if Accuracies(nil) == nil || len(Accuracies(nil)) != 0 {
		t.Error("no rows: want an empty list")
	}
}

// One game: the interval is the turns'.
func TestAccuraciesOneGame(t *testing.T) {
	got := Accuracies([]TurnLoss{{Game: 1, Player: "A", Loss: 0}, {Game: 1, Player: "A", Loss: 0.2}})
	// mean 0.1, sd 0.1414, se 0.1
	if a := got[0]; math.Abs(a.Hi-0.296) > 1e-9 || a.Lo != 0 {
		t.Errorf("%+v", a)
	}
}
