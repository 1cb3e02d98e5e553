package replay

import (
	"math/rand/v2"
	"testing"
)

// naive is a second, deliberately simple implementation of docs/rules.md used to cross-check
// the engine: whole-board flood fills, every bridge tested against every other, passes
// decided by trying every pair of cells. It shares no code with the engine but the types.
type naive struct {
	n       int
	tile    [MaxSize][MaxSize]int // 0 empty, 1 Light, 2 Dark
	blocked [MaxSize][MaxSize]bool
	bridges [][5]int // x1, y1, x2, y2, colour
	turn    int
	swapped bool
	lightPa bool
	over    bool
}

func (p *naive) toMove() int {
	t := p.turn + 1
	switch {
	case t == 1:
		return 1
	case t == 2:
		return 2
	case p.swapped == (t%2 == 1):
		return 2
	}
	return 1
}

// groups labels the groups of colour c by flood fill and returns the label grid and sizes.
func (p *naive) groups(c int) ([MaxSize][MaxSize]int, []int) {
	var lab [MaxSize][MaxSize]int
	sizes := []int{0}
	for x := 0; x < p.n; x++ {
		for y := 0; y < p.n; y++ {
			if p.tile[x][y] != c || lab[x][y] != 0 {
				continue
			}
			id := len(sizes)
			sizes = append(sizes, 0)
			stack := [][2]int{{x, y}}
			lab[x][y] = id
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				sizes[id]++
				for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					a, b := q[0]+d[0], q[1]+d[1]
					if a >= 0 && b >= 0 && a < p.n && b < p.n && p.tile[a][b] == c && lab[a][b] == 0 {
						lab[a][b] = id
						stack = append(stack, [2]int{a, b})
					}
				}
			}
		}
	}
	return lab, sizes
}

// invariant returns "" or the rule the position of colour c breaks (R3.1, R3.2).
func (p *naive) invariant(c int) Rule {
	lab, sizes := p.groups(c)
	for _, s := range sizes {
		if s > 4 {
			return RuleSize
		}
	}
	for x := 0; x < p.n; x++ {
		for y := 0; y < p.n; y++ {
			if lab[x][y] == 0 || sizes[lab[x][y]] != 4 {
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					a, b := x+dx, y+dy
					if a >= 0 && b >= 0 && a < p.n && b < p.n && p.tile[a][b] == c && lab[a][b] != lab[x][y] {
						return RuleDistance
					}
				}
			}
		}
	}
	return ""
}

func (p *naive) tilesRule(c, x1, y1, x2, y2 int) Rule {
	for _, q := range [2][2]int{{x1, y1}, {x2, y2}} {
		if p.tile[q[0]][q[1]] != 0 || p.blocked[q[0]][q[1]] {
			return RuleTile
		}
	}
	p.tile[x1][y1], p.tile[x2][y2] = c, c
	r := p.invariant(c)
	p.tile[x1][y1], p.tile[x2][y2] = 0, 0
	return r
}

// under returns the cells under a bridge by sampling the segment finely: a cell is under
// it when the open segment passes through the cell's interior.
func under(x1, y1, x2, y2 int) [][2]int {
	var out [][2]int
	seen := map[[2]int]bool{}
	for i := 1; i < 1000; i++ {
		t := float64(i) / 1000
		fx, fy := float64(x1)+t*float64(x2-x1), float64(y1)+t*float64(y2-y1)
		cx, cy := int(fx+0.5+1e-9), int(fy+0.5+1e-9)
		if (cx == x1 && cy == y1) || (cx == x2 && cy == y2) {
			continue
		}
		// strictly inside the cell, away from its border
		if d := fx - float64(cx); d < -0.499 || d > 0.499 {
			continue
		}
		if d := fy - float64(cy); d < -0.499 || d > 0.499 {
			continue
		}
		if !seen[[2]int{cx, cy}] {
			seen[[2]int{cx, cy}] = true
			out = append(out, [2]int{cx, cy})
		}
	}
	return out
}

// touch decides whether two closed segments share a point, with exact rational arithmetic
// on the parametric form.
func touch(a, b, c, d [2]int) bool {
	rx, ry := b[0]-a[0], b[1]-a[1]
	sx, sy := d[0]-c[0], d[1]-c[1]
	den := rx*sy - ry*sx
	qx, qy := c[0]-a[0], c[1]-a[1]
	if den == 0 {
		if qx*ry-qy*rx != 0 {
			return false // parallel, not on one line
		}
		// collinear: overlap of projections onto r
		rr := rx*rx + ry*ry
		t0 := qx*rx + qy*ry
		t1 := t0 + sx*rx + sy*ry
		lo, hi := min(t0, t1), max(t0, t1)
		return hi >= 0 && lo <= rr
	}
	tn := qx*sy - qy*sx
	un := qx*ry - qy*rx
	if den < 0 {
		den, tn, un = -den, -tn, -un
	}
	return tn >= 0 && tn <= den && un >= 0 && un <= den
}

func (p *naive) bridgeRule(c, x1, y1, x2, y2 int) Rule {
	if p.tile[x1][y1] != c || p.tile[x2][y2] != c {
		return RuleBridge
	}
	for _, w := range under(x1, y1, x2, y2) {
		if p.tile[w[0]][w[1]] != 0 {
			return RuleWater
		}
	}
	for _, br := range p.bridges {
		for _, e := range [2][2]int{{br[0], br[1]}, {br[2], br[3]}} {
			if e == [2]int{x1, y1} || e == [2]int{x2, y2} {
				return RuleOneEnd
			}
		}
	}
	for _, br := range p.bridges {
		if touch([2]int{x1, y1}, [2]int{x2, y2}, [2]int{br[0], br[1]}, [2]int{br[2], br[3]}) {
			return RuleCrossing
		}
	}
	return ""
}

func (p *naive) canPlaceTwo(c int) bool {
	var cells [][2]int
	for x := 0; x < p.n; x++ {
		for y := 0; y < p.n; y++ {
			if p.tile[x][y] == 0 && !p.blocked[x][y] {
				cells = append(cells, [2]int{x, y})
			}
		}
	}
	for i := range cells {
		for j := i + 1; j < len(cells); j++ {
			if p.tilesRule(c, cells[i][0], cells[i][1], cells[j][0], cells[j][1]) == "" {
				return true
			}
		}
	}
	return false
}

// rule returns the rule m breaks in the current position, "" when legal.
func (p *naive) rule(m Move) Rule {
	if p.over {
		return RuleOver
	}
	if m.Kind == Swap && p.turn+1 != 2 {
		return RuleSwap
	}
	c := p.toMove()
	switch m.Kind {
	case Tiles:
		return p.tilesRule(c, m.A.Col(), m.A.Row(), m.B.Col(), m.B.Row())
	case Bridge:
		return p.bridgeRule(c, m.A.Col(), m.A.Row(), m.B.Col(), m.B.Row())
	case Pass:
		if p.canPlaceTwo(c) {
			return RulePass
		}
	}
	return ""
}

func (p *naive) play(m Move) {
	c := p.toMove()
	switch m.Kind {
	case Swap:
		p.swapped = true
	case Tiles:
		p.tile[m.A.Col()][m.A.Row()], p.tile[m.B.Col()][m.B.Row()] = c, c
	case Bridge:
		for _, w := range under(m.A.Col(), m.A.Row(), m.B.Col(), m.B.Row()) {
			p.blocked[w[0]][w[1]] = true
		}
		p.bridges = append(p.bridges, [5]int{m.A.Col(), m.A.Row(), m.B.Col(), m.B.Row(), c})
	}
	p.turn++
	switch {
	case p.lightPa:
		p.over = true
	case m.Kind == Pass && c == 2:
		p.over = true
	case m.Kind == Pass:
		p.lightPa = true
	}
}

// score computes R6 by building the group graph and walking its components.
func (p *naive) score(c int) (score, islands int) {
	lab, sizes := p.groups(c)
	adj := make([][]int, len(sizes))
	for _, br := range p.bridges {
		if br[4] != c {
			continue
		}
		a, b := lab[br[0]][br[1]], lab[br[2]][br[3]]
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	seen := make([]bool, len(sizes))
	for g := 1; g < len(sizes); g++ {
		if seen[g] {
			continue
		}
		k := 0
		stack := []int{g}
		seen[g] = true
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if sizes[h] == 4 {
				k++
			}
			for _, n := range adj[h] {
				if !seen[n] {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		score += k * (k + 1) / 2
		islands += k
	}
	return score, islands
}

// candidates proposes turns, legal and illegal, biased towards the interesting ones: tiles
// near tiles of the mover's colour and bridges from the mover's tiles.
func candidates(rng *rand.Rand, p *naive, n int) []Move {
	var out []Move
	cell := func() Cell { return CellAt(rng.IntN(p.n), rng.IntN(p.n)) }
	near := func(c Cell) Cell {
		x, y := c.Col()+rng.IntN(5)-2, c.Row()+rng.IntN(5)-2
		if x < 0 || y < 0 || x >= p.n || y >= p.n {
			return cell()
		}
		return CellAt(x, y)
	}
	var own []Cell
	for x := 0; x < p.n; x++ {
		for y := 0; y < p.n; y++ {
			if p.tile[x][y] == p.toMove() {
				own = append(own, CellAt(x, y))
			}
		}
	}
	for i := 0; i < n; i++ {
		var m Move
		switch k := rng.IntN(10); {
		case k < 5:
			a := cell()
			if len(own) > 0 && rng.IntN(2) == 0 {
				a = near(own[rng.IntN(len(own))])
			}
			b := near(a)
			m = TilesMove(a, b)
		case k < 9 && len(own) > 0:
			a := own[rng.IntN(len(own))]
			j := jumps[rng.IntN(len(jumps))]
			b := Cell(int(a) + j)
			if rng.IntN(4) == 0 && len(own) > 1 {
				b = own[rng.IntN(len(own))]
			}
			m = BridgeMove(a, b)
		case k == 9:
			m = PassMove
		default:
			m = SwapMove
		}
		if m.Kind == Tiles || m.Kind == Bridge {
			if !m.A.On(p.n) || !m.B.On(p.n) || m.A == m.B || (m.Kind == Bridge && ShapeOf(m.A, m.B) == NoShape) {
				continue // notation errors are tested elsewhere
			}
		}
		out = append(out, m)
	}
	return out
}

// TestAgainstNaiveEngine plays thousands of random games, checks every candidate turn's
// verdict (legal, or the rule it breaks) against the naive implementation, and compares
// the scores after every turn.
func TestAgainstNaiveEngine(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	seen := map[Rule]int{}
	over, bridges := 0, 0
	for gi := 0; gi < games; gi++ {
		n := MinSize + rng.IntN(6) // 5 … 10
		g, _ := NewGame(n, Unlimited)
		p := &naive{n: n}
		for turn := 0; turn < 400 && !p.over; turn++ {
			var legal []Move
			for _, m := range candidates(rng, p, 30) {
				want := p.rule(m)
				err := g.Legal(m)
				var got Rule
				if err != nil {
					got = err.(*RuleError).Rule
				}
				if got != want {
					t.Fatalf("game %d turn %d (size %d) %s: engine says %q (%v), naive says %q", gi, p.turn+1, n, m, got, err, want)
				}
				checked++
				seen[want]++
				if want == "" {
					legal = append(legal, m)
				}
			}
			var m Move
			switch {
			case len(legal) > 0:
				m = legal[rng.IntN(len(legal))]
			default:
				m = PassMove
				if p.rule(m) != "" {
					// no legal candidate found: look for any legal tile pair
					cells := g.LegalTileCells(g.ToMove())
					found := false
					for i := 0; i < len(cells) && !found; i++ {
						for j := i + 1; j < len(cells) && !found; j++ {
							if p.rule(TilesMove(cells[i], cells[j])) == "" {
								m, found = TilesMove(cells[i], cells[j]), true
							}
						}
					}
					if !found {
						t.Fatalf("game %d: naive says no pass, yet no legal pair", gi)
					}
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d: %s: %v", gi, m, err)
			}
			p.play(m)
			for c, col := range [2]Colour{Light, Dark} {
				s, k := p.score(c + 1)
				if g.Score()[col] != s || g.Islands()[col] != k {
					t.Fatalf("game %d turn %d: %s score %d islands %d, naive %d %d", gi, p.turn, col, g.Score()[col], g.Islands()[col], s, k)
				}
			}
			if g.Over() != p.over {
				t.Fatalf("game %d turn %d: over %v, naive %v", gi, p.turn, g.Over(), p.over)
			}
		}
		if g.Over() {
			over++
		}
		bridges += g.Bridges()[0] + g.Bridges()[1]
	}
	t.Logf("%d games (%d over, %d bridges), %d candidate turns agree: %v", games, over, bridges, checked, seen)
	for _, r := range []Rule{"", RuleSwap, RuleTile, RuleSize, RuleDistance, RuleBridge, RuleWater, RuleOneEnd, RuleCrossing, RulePass} {
		if seen[r] == 0 {
			t.Errorf("no candidate turn exercised %q", r)
		}
	}
}
