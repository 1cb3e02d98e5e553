package report

import (
	"math"
	"strings"
	"testing"

	"github.com/ponte/ponte/atlas"
	"github.com/ponte/ponte/stats"
)

// The atlas's section: three swap maps of the board's cells, the sorted chart, a row per
// class, and the database's games of an opening beside its class, their population named.
func TestAtlasSection(t *testing.T) {
	c := atlas.DefaultConfig()
	c.Size, c.Bot, c.First, c.Max, c.ConfirmGames = 5, "sage-4", 4, 4, 4
	classes, err := atlas.Classes(5)
	if err != nil {
		t.Fatal(err)
	}
	d := atlas.NewData()
	for _, cl := range classes {
		for k := range 4 {
			pts := 0
			if k < cl.ID%5 {
				pts = 2
			}
			d.Add(atlas.Game{Stage: atlas.Main, Class: cl.ID, Index: k, Points: pts})
		}
	}
	a := c.Estimate(classes, d)
	first := a.Estimates[0]
	r := &stats.Report{Boards: []stats.Board{{Size: 5, Population: stats.PopulationPeople,
		Openings: []stats.Opening{{A: first.A.String(), B: first.B.String(), Games: 3, Swapped: stats.NewRate(2, 3), Opener: stats.NewRate(1, 3)}}}}}
	s, err := atlasSection(a, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Maps) != 3 {
		t.Fatalf("%d maps", len(s.Maps))
	}
	for _, m := range s.Maps {
		if got := strings.Count(string(m.SVG), "<rect"); got != 25 {
			t.Errorf("%s: %d cells drawn, want 25", m.Title, got)
		}
	}
	if len(s.Classes.Rows) != len(classes) || !strings.Contains(string(s.Forest.SVG), "<svg") {
		t.Errorf("%d rows for %d classes; chart %d bytes", len(s.Classes.Rows), len(classes), len(s.Forest.SVG))
	}
	found := false
	for _, row := range s.Classes.Rows {
		if row[0] == "1" {
			found = row[9] == "3" && row[10] == pct(stats.NewRate(2, 3))
		}
	}
	if !found || !strings.Contains(s.Practice, "games between people") {
		t.Errorf("the database's games of class 1 not beside it, or their population not named: %q", s.Practice)
	}
	if !strings.Contains(s.V, "not yet") {
		t.Errorf("V before the confirmation: %q", s.V)
	}
	if s.Answer != a.Answer() || !strings.HasPrefix(s.Answer, "Under the pie rule the opener secures: not yet known") {
		t.Errorf("the section's answer: %q", s.Answer)
	}
}

// A cell with no opening is drawn grey with a dash, not as a value.
func TestCellSVGEmpty(t *testing.T) {
	v := []float64{0.25, math.NaN(), 0.5, 1}
	svg := string(cellSVG(2, v))
	if !strings.Contains(svg, "#dddddd") || !strings.Contains(svg, ">–<") || !strings.Contains(svg, ">25<") {
		t.Errorf("%s", svg)
	}
}

// An atlas whose panel was played at both strengths has the sentence under the answer
// and the intervals in its stability line; one at one strength neither.
func TestAtlasSectionStabilityBoth(t *testing.T) {
	for _, both := range []bool{false, true} {
		c := atlas.DefaultConfig()
		c.Size, c.Bot, c.StabilityBot, c.First, c.Max, c.ConfirmGames, c.PanelSize, c.PanelGames = 5, "sage-4", "sage-8", 4, 4, 4, 6, 8
		c.StabilityBoth = both
		classes, err := atlas.Classes(5)
		if err != nil {
			t.Fatal(err)
		}
		d := atlas.NewData()
		for range 10 {
			p := c.NextPlan(classes, d)
			if p.Done {
				break
			}
			units, _ := p.Shard(d, 1, 1)
			for u := range units {
				pts := 0
				if (u.Index+u.Class)%(2+u.Class%3) == 0 {
					pts = 2
				}
				d.Add(atlas.Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: pts})
			}
		}
		s, err := atlasSection(c.Estimate(classes, d), &stats.Report{})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Moves != "" && strings.Contains(s.Stable, "bootstrap intervals"); got != both {
			t.Errorf("both %v: sentence %q, stability %q", both, s.Moves, s.Stable)
		}
	}
}
