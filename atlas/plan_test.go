package atlas

import "testing"

// The stages follow one another, each played to its plan, and the finished atlas has V and
// the stability check's panel; a game counted twice is counted once.
func TestStagesToTheEnd(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.Bot, c.StabilityBot, c.First, c.Max, c.ConfirmGames, c.PanelSize, c.PanelGames = 5, "a-1", "a-4", 4, 8, 6, 10, 3
	classes, err := Classes(5)
	if err != nil {
		t.Fatal(err)
	}
	d := NewData()
	var stages []Stage
	for range 20 {
		p := c.NextPlan(classes, d)
		if p.Done {
			break
		}
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
		}
		units, _ := p.Shard(d, 1, 1)
		for u := range units {
			g := Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: 2 * ((u.Class + u.Index) % 2)}
			d.Add(g)
			d.Add(g)
		}
	}
	if len(stages) != 3 || stages[0] != Main || stages[1] != Confirm || stages[2] != Stability {
		t.Fatalf("stages played: %v", stages)
	}
	a := c.Estimate(classes, d)
	if !a.Done || a.V != a.V || a.Stable == nil || len(a.Stable.Panel) != 10 || len(a.Confirmed) != 3 {
		t.Fatalf("done %v, V %v, stable %+v, %d confirmed", a.Done, a.V, a.Stable, len(a.Confirmed))
	}
	if a.Games != a.MainGames+3*6+10*3 {
		t.Errorf("%d games, %d in the main rounds", a.Games, a.MainGames)
	}
}
