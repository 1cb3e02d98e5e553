package atlas

import (
	"math"
	"math/rand/v2"
)

// Planted is a class's planted truth in a simulated atlas: Light's expected score P and
// the chance of a draw.
type Planted struct{ P, Draw float64 }

// PlantedAtlas draws the truth of a simulated atlas of n classes from rng: a third within
// ±10 % of ½, the rest lopsided (p in [0.6, 0.98], a quarter of them mirrored below ½),
// every class with draws at 2 %.
func PlantedAtlas(n int, rng *rand.Rand) []Planted {
	out := make([]Planted, n)
	for i := range out {
		var p float64
		if i%3 == 0 {
			p = 0.4 + 0.2*rng.Float64()
		} else {
			p = 0.6 + 0.38*rng.Float64()
			if rng.IntN(4) == 0 {
				p = 1 - p
			}
		}
		out[i] = Planted{P: p, Draw: 0.02}
	}
	return out
}

// SimResult is what a simulated atlas got right and what it spent.
type SimResult struct {
	Classes       int
	Games         int // main rounds and confirmation
	MainGames     int
	Uniform       int // Classes · Max: the games of a uniform allocation with the same final precision
	VerdictErrors int // decided classes whose verdict the planted p contradicts
	Decided       int
	Covered       int            // classes whose interval at the look where they stopped holds the planted p
	AllCovered    int            // classes whose intervals at every look taken hold it: the confidence sequence's claim
	ByLook        map[int][2]int // by the look where a class stopped: its classes and those covered there
	FixedCovered  int            // classes whose fixed-n interval holds it
	PlantedV      float64
	V, VLo, VHi   float64
	VCovered      bool
	// VLow and VHigh say which end of V's interval missed the planted V: VLo above it, VHi
	// below it.
	VLow, VHigh bool
	// NaiveCovered says whether the interval V would have without the confirmation (the
	// best class by the main rounds, its fixed-n interval folded to min(p, 1−p)) holds the
	// planted V: the winner's curse that the confirmation is there for.
	NaiveCovered bool
	// NaiveV is that best class's main min(p̂, 1−p̂): V as the main rounds alone put it.
	NaiveV float64
}

// Simulate runs the atlas c on classes with the planted truth, every game a draw from it
// (seeded by seed), through the same plans and estimates as the real games.
func (c *Config) Simulate(truth []Planted, seed uint64) SimResult {
	classes := make([]Class, len(truth))
	for i := range classes {
		classes[i] = Class{ID: i + 1}
	}
	rng := rand.New(rand.NewPCG(seed, 0x73696d)) // "sim"
	d := NewData()
	for {
		p := c.NextPlan(classes, d)
		if p.Done || p.Stage == Stability {
			break
		}
		units, _ := p.Shard(d, 1, 1)
		for u := range units {
			t := truth[u.Class-1]
			pts := 0
			switch r := rng.Float64(); {
			case r < t.Draw:
				pts = 1
			case r < t.Draw+(1-t.Draw)*(t.P-t.Draw/2)/(1-t.Draw):
				pts = 2
			}
			d.Add(Game{Stage: u.Stage, Class: u.Class, Index: u.Index, Points: pts})
		}
	}
	a := c.Estimate(classes, d)
	r := SimResult{Classes: len(truth), Games: a.Games, MainGames: a.MainGames, Uniform: len(truth) * c.Max,
		V: a.V, VLo: a.VLo, VHi: a.VHi, ByLook: map[int][2]int{}}
	for i, e := range a.Estimates {
		p := truth[i].P
		r.PlantedV = math.Max(r.PlantedV, math.Min(p, 1-p))
		b := r.ByLook[e.Rounds]
		b[0]++
		if e.Lo <= p && p <= e.Hi {
			r.Covered++
			b[1]++
		}
		r.ByLook[e.Rounds] = b
		if c.sequenceCovers(d, e.ID, e.Rounds, p) {
			r.AllCovered++
		}
		if e.FixedLo <= p && p <= e.FixedHi {
			r.FixedCovered++
		}
		if e.Verdict != Open {
			r.Decided++
			if e.Verdict != Judge(p, p, c.Margin) {
				r.VerdictErrors++
			}
		}
	}
	r.VCovered = r.VLo <= r.PlantedV && r.PlantedV <= r.VHi
	r.VLow, r.VHigh = r.VLo > r.PlantedV, r.VHi < r.PlantedV
	best := -1.0
	for _, e := range a.Estimates {
		if v := math.Min(e.P, 1-e.P); v > best {
			lo, hi := openerRange(e.FixedLo, e.FixedHi)
			best, r.NaiveV, r.NaiveCovered = v, v, lo <= r.PlantedV && r.PlantedV <= hi
		}
	}
	return r
}

// sequenceCovers reports whether the intervals of a class at its looks 1 to j all hold p.
func (c *Config) sequenceCovers(d *Data, class, j int, p float64) bool {
	for k := 1; k <= j; k++ {
		t := d.Tally(Main, class, c.Target(k))
		if lo, hi := WilsonZ(t.Sum(), t.Games(), c.Z(k)); p < lo || p > hi {
			return false
		}
	}
	return true
}
