package atlas

import (
	"cmp"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
)

// Data holds the games played so far, by stage and class: each game's points in halves
// by its index, -1 where a game is missing (a shard not merged yet).
type Data struct {
	points map[dataKey][]int8
}

type dataKey struct {
	stage Stage
	class int
}

// NewData returns an empty Data.
func NewData() *Data { return &Data{points: map[dataKey][]int8{}} }

// Add counts a game; a game already counted (same stage, class and index) is counted once.
func (d *Data) Add(g Game) {
	k := dataKey{g.Stage, g.Class}
	p := d.points[k]
	if g.Index < 0 || g.Index >= MaxCount || g.Points < 0 || g.Points > 2 {
		return // not an atlas's game: Config.CheckGame names it
	}
	if len(p) <= g.Index {
		p = append(p, slices.Repeat([]int8{-1}, g.Index+1-len(p))...)
	}
	p[g.Index] = int8(g.Points)
	d.points[k] = p
}

// Has says whether a game is counted.
func (d *Data) Has(s Stage, class, index int) bool {
	p := d.points[dataKey{s, class}]
	return index < len(p) && p[index] >= 0
}

// prefix is how many games from index 0 on are all counted.
func (d *Data) prefix(s Stage, class int) int {
	p := d.points[dataKey{s, class}]
	for i, v := range p {
		if v < 0 {
			return i
		}
	}
	return len(p)
}

// Tally is the wins, draws and losses of Light in the first n games of a class.
func (d *Data) Tally(s Stage, class, n int) (t Tally) {
	p := d.points[dataKey{s, class}]
	for _, v := range p[:min(n, len(p))] {
		switch v {
		case 2:
			t.Wins++
		case 1:
			t.Draws++
		case 0:
			t.Losses++
		}
	}
	return t
}

// Tally counts games from Light's side.
type Tally struct{ Wins, Draws, Losses int }

// Games is the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Sum is Light's points (a draw ½).
func (t Tally) Sum() float64 { return float64(t.Wins) + float64(t.Draws)/2 }

// Mean is Light's mean score, ½ without games.
func (t Tally) Mean() float64 {
	if t.Games() == 0 {
		return 0.5
	}
	return t.Sum() / float64(t.Games())
}

// Plan is what to play next: the games of one round of one stage. It depends only on the
// games counted, so every shard computes the same plan from the same merged data.
type Plan struct {
	Stage Stage  `json:"stage"`
	Round int    `json:"round"` // the look its games complete, from 1
	Tasks []Task `json:"tasks"` // by class
	Done  bool   `json:"done"`  // nothing left to play
}

// Task is a class's games to play: the indices From to To−1 (those counted are skipped).
type Task struct {
	Class int `json:"class"`
	From  int `json:"from"`
	To    int `json:"to"`
}

// Games is the number of games the plan asks for.
func (p *Plan) Games() int {
	n := 0
	for _, t := range p.Tasks {
		n += t.To - t.From
	}
	return n
}

// Unit is one game to play.
type Unit struct {
	Stage        Stage
	Class, Index int
}

// Shard is the units of the plan that shard i of n (i from 1) plays and that d does not
// hold yet, and their number: game index of class goes to shard (class + index) mod n + 1.
// The units are made one at a time as the sequence is read (a plan may ask for millions),
// from what d holds when Shard is called: d may change while they are read.
func (p *Plan) Shard(d *Data, i, n int) (iter.Seq[Unit], int) {
	held := make([][]int8, len(p.Tasks)) // the points d holds in each task's range: no more than d
	count := 0
	for t, task := range p.Tasks {
		pts := d.points[dataKey{p.Stage, task.Class}]
		if task.From < len(pts) {
			held[t] = slices.Clone(pts[task.From:min(task.To, len(pts))])
		}
		count += inShard(task.Class, task.From, task.To, i, n)
		for j, v := range held[t] {
			if v >= 0 && (task.Class+task.From+j)%n == i-1 {
				count--
			}
		}
	}
	seq := func(yield func(Unit) bool) {
		for t, task := range p.Tasks {
			off := mod(i-1-task.Class-task.From, n) // the task's first index in the shard, less From
			if off >= task.To-task.From {
				continue
			}
			for k := task.From + off; k < task.To; k += n {
				if j := k - task.From; j >= len(held[t]) || held[t][j] < 0 {
					if !yield(Unit{p.Stage, task.Class, k}) {
						return
					}
				}
				if task.To-k <= n { // the last (and k + n could pass the int's range)
					break
				}
			}
		}
	}
	return seq, count
}

// inShard is how many indices k from from to to−1 have (class + k) mod n = i − 1.
func inShard(class, from, to, i, n int) int {
	off := mod(i-1-class-from, n)
	if off >= to-from {
		return 0
	}
	return (to-1-from-off)/n + 1
}

// mod is a mod n in [0, n), for any n ≥ 1 (no a%n + n, which passes the int's range).
func mod(a, n int) int {
	r := a % n
	if r < 0 {
		r += n // in (0, n): no overflow
	}
	return r
}

// look is a main-stage class's state: the look at which it stopped, or the last complete
// one (0 before the first), and whether it needs another. The looks are taken in order
// and the first decided one stops the class, whatever games were played after it.
func (c *Config) look(d *Data, class int) (j int, more bool) {
	n := d.prefix(Main, class)
	for j = 1; j <= c.Looks(); j++ {
		if n < c.Target(j) {
			return j - 1, true
		}
		t := d.Tally(Main, class, c.Target(j))
		lo, hi := WilsonZ(t.Sum(), t.Games(), c.Z(j))
		if Judge(lo, hi, c.Margin) != Open {
			return j, false
		}
	}
	return c.Looks(), false
}

// NextPlan is the next round to play for the classes, given the games counted: the
// unfinished main round with the fewest looks; when the main rounds are over, the
// confirmation of V's candidates; then, when the config asks for it, the stability
// check, and its panel at the main bot (StabilityBoth); then Done.
func (c *Config) NextPlan(classes []Class, d *Data) *Plan {
	round := 0
	var tasks []Task
	for _, cl := range classes {
		j, more := c.look(d, cl.ID)
		if !more {
			continue
		}
		if round == 0 || j+1 < round {
			round, tasks = j+1, tasks[:0]
		}
		if j+1 == round {
			tasks = append(tasks, Task{cl.ID, c.Target(j), c.Target(j + 1)})
		}
	}
	if round > 0 {
		for i := range tasks {
			tasks[i].From = d.prefix(Main, tasks[i].Class)
		}
		return &Plan{Stage: Main, Round: round, Tasks: tasks}
	}
	if j, more := c.confirmLook(classes, d); more {
		n := c.ConfirmLooks()[j]
		p := &Plan{Stage: Confirm, Round: j + 1}
		for _, id := range c.candidates(classes, d) {
			if k := d.prefix(Confirm, id); k < n {
				p.Tasks = append(p.Tasks, Task{id, k, n})
			}
		}
		return p
	}
	if c.StabilityBot != "" {
		panel := c.panel(classes, d)
		if p := stagePlan(d, Stability, panel, c.PanelGames); p != nil {
			return p
		}
		if p := stagePlan(d, Base, panel, c.PanelGames); p != nil && c.StabilityBoth {
			return p
		}
	}
	return &Plan{Done: true}
}

// confirmLook is the confirmation's state once the main rounds are over: the look at which
// it stopped, or its last complete one (0 before the first), and whether it needs
// another. A look is complete when every candidate has its games; the confirmation stops
// at the first complete look whose V interval is at most VWidth wide, or at its last.
func (c *Config) confirmLook(classes []Class, d *Data) (j int, more bool) {
	looks := c.ConfirmLooks()
	ids := c.candidates(classes, d)
	vHi := math.NaN()
	for j = 1; j <= len(looks); j++ {
		for _, id := range ids {
			if d.prefix(Confirm, id) < looks[j-1] {
				return j - 1, true
			}
		}
		if j == len(looks) {
			break
		}
		if math.IsNaN(vHi) {
			vHi = c.mainVHi(classes, d)
		}
		if _, _, lo, hi, _ := c.confirmation(nil, ids, d, j, vHi); hi-lo <= c.VWidth {
			return j, false
		}
	}
	return len(looks), false
}

func stagePlan(d *Data, s Stage, ids []int, games int) *Plan {
	var tasks []Task
	for _, id := range ids {
		if n := d.prefix(s, id); n < games {
			tasks = append(tasks, Task{id, n, games})
		}
	}
	if tasks == nil {
		return nil
	}
	return &Plan{Stage: s, Round: 1, Tasks: tasks}
}

// estimate is a class's main-stage estimate of p at its current look.
type estimate struct {
	id int
	p  float64
}

// mainEstimates are the main-stage estimates of the classes, in their order.
func (c *Config) mainEstimates(classes []Class, d *Data) []estimate {
	all := make([]estimate, 0, len(classes))
	for _, cl := range classes {
		j, _ := c.look(d, cl.ID)
		all = append(all, estimate{cl.ID, d.Tally(Main, cl.ID, c.Target(j)).Mean()})
	}
	return all
}

// candidates are the classes of the best main-stage estimates of the opener's value
// min(p, 1−p), best first (ties by class).
func (c *Config) candidates(classes []Class, d *Data) []int {
	all := c.mainEstimates(classes, d)
	value := func(e estimate) float64 { return min(e.p, 1-e.p) }
	slices.SortStableFunc(all, func(a, b estimate) int { return cmp.Compare(value(b), value(a)) })
	var ids []int
	for _, a := range all[:min(c.Candidates, len(all))] {
		ids = append(ids, a.id)
	}
	slices.Sort(ids)
	return ids
}

// panel is the stability check's classes: half of PanelSize the nearest ½ by the main
// estimates, the rest drawn at random (from the seed) from the others.
func (c *Config) panel(classes []Class, d *Data) []int {
	all := c.mainEstimates(classes, d)
	dist := func(e estimate) float64 { return abs64(e.p - 0.5) }
	slices.SortStableFunc(all, func(a, b estimate) int { return cmp.Compare(dist(a), dist(b)) })
	near := min(c.PanelSize/2, len(all))
	var ids []int
	for _, a := range all[:near] {
		ids = append(ids, a.id)
	}
	rest := all[near:]
	slices.SortFunc(rest, func(a, b estimate) int { return cmp.Compare(a.id, b.id) })
	rng := rand.New(rand.NewPCG(c.Seed, 0x70616e656c)) // "panel"
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for _, a := range rest[:min(c.PanelSize-near, len(rest))] {
		ids = append(ids, a.id)
	}
	slices.Sort(ids)
	return ids
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
