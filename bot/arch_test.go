package bot

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// TestArchPlaysLegalGames plays the arch bot against sage, greedy and itself on several
// sizes and both supplies, on one and two threads, and replays every game again.
func TestArchPlaysLegalGames(t *testing.T) {
	games := 0
	for _, size := range []int{5, 7, 10, 12} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, pair := range [][2]string{{"arch-30", "sage-30"}, {"greedy", "arch-20-t2"}, {"arch-20", "arch-20"}} {
				g, err := Play(mustNew(t, pair[0], Options{}), mustNew(t, pair[1], Options{}), size, supply, seeded(games))
				if err != nil {
					t.Fatal(err)
				}
				replayMoves(t, g)
				games++
			}
		}
	}
}

// TestArchDeterministic: a seed and a name make one game, on one thread or several.
func TestArchDeterministic(t *testing.T) {
	for _, name := range []string{"arch-40", "arch-40-t2", "arch-40-t3"} {
		var first []replay.Move
		for range 2 {
			g, err := Play(mustNew(t, name, Options{}), mustNew(t, name, Options{}), 8, game.Unlimited, seeded(7))
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = g.Moves
				continue
			}
			if len(first) != len(g.Moves) {
				t.Fatalf("%s: %d then %d turns for one seed", name, len(first), len(g.Moves))
			}
			for i := range first {
				if first[i] != g.Moves[i] {
					t.Fatalf("%s: turn %d is %s then %s for one seed", name, i+1, first[i], g.Moves[i])
				}
			}
		}
	}
}

func TestArchNames(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		o          Options
		bad        bool
	}{
		{name: "arch", want: "arch-500"},
		{name: "arch", o: Options{Playouts: 50, Threads: 2}, want: "arch-50-t2"},
		{name: "arch-400", want: "arch-400"},
		{name: "arch-400", o: Options{Threads: 2}, want: "arch-400-t2"},
		{name: "arch-400-t2", want: "arch-400-t2"},
		{name: "arch-400-t1", want: "arch-400"},
		{name: "arch-100ms", want: "arch-100ms"},
		{name: "arch-100ms-t4", o: Options{Threads: 2}, want: "arch-100ms-t4"},
		{name: "arch-400-s2", want: "arch-400-s2"},
		{name: "arch-400-s1", want: "arch-400-s1"},
		{name: "arch-100ms-s2", want: "arch-100ms-s2"},
		{name: "arch", o: Options{Playouts: 50, Threads: 3, Shared: true}, want: "arch-50-s3"},
		{name: "arch-100ms-s4", o: Options{Threads: 2}, want: "arch-100ms-s4"},
		{name: "arch-400-s0", bad: true},
		{name: "arch-400-s", bad: true},
		{name: "arch-400-s300", bad: true},
		{name: "arch-400-s2-t2", bad: true},
		{name: "arch-400-t2-s2", bad: true},
		{name: "arch-400-s02", bad: true},
		{name: "arch-0", bad: true},
		{name: "arch-0400", bad: true},
		{name: "arch-400-t0", bad: true},
		{name: "arch-400-t", bad: true},
		{name: "arch-400-t300", bad: true},
		{name: "arch-400-tx", bad: true},
		{name: "arch-ms", bad: true},
		{name: "arch-9999999", bad: true},
		{name: "arch--t2", bad: true},
	} {
		b, err := New(tc.name, tc.o)
		if tc.bad {
			if err == nil {
				t.Errorf("New(%q) = %s, want an error", tc.name, b.Name())
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q): %v", tc.name, err)
			continue
		}
		if b.Name() != tc.want {
			t.Errorf("New(%q, %+v).Name() = %q, want %q", tc.name, tc.o, b.Name(), tc.want)
		}
	}
}

// TestTurnBetween finds every kind of reply between two positions a turn apart.
func TestTurnBetween(t *testing.T) {
	for _, tc := range []struct {
		moves []string
		want  string
	}{
		{[]string{"c3,d3", "swap"}, "swap"},
		{[]string{"c3,d3", "f6,f7"}, "f6,f7"},
		{[]string{"c3,d3", "f6,f7", "c5,c6", "f4,g4", "c3-c5"}, "c3-c5"},
	} {
		g, _ := replay.NewGame(8, game.Unlimited)
		for _, m := range tc.moves[:len(tc.moves)-1] {
			if err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
		before := g.Clone()
		if err := g.PlayText(tc.moves[len(tc.moves)-1]); err != nil {
			t.Fatal(err)
		}
		m, ok := turnBetween(before, g)
		if !ok || m.String() != tc.want {
			t.Errorf("%v: turnBetween = %s, %v; want %s", tc.moves, m, ok, tc.want)
		}
		if !samePosition(g, g.Clone()) || samePosition(before, g) {
			t.Errorf("%v: samePosition is wrong", tc.moves)
		}
	}
}

// TestArchKeepsTree: after the bot's turn and a reply the tree held, the next search
// starts from the kept subtree (its root already visited); after a reply it never
// considered, or in another game, it starts afresh.
func TestArchKeepsTree(t *testing.T) {
	a := NewArch(Options{Playouts: 2000})
	g, _ := replay.NewGame(8, game.Unlimited)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []string{"c3,d3", "f6,f7"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	m := a.Turn(g, rng)
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	// The reply the tree visited most after m.
	tr := a.trees[0]
	x := tr.cands[tr.rootCand(m)].child
	best, bestN := replay.Move{}, 0.0
	for k := tr.nodes[x].candStart; k < tr.nodes[x].candStart+tr.nodes[x].sorted; k++ { // the turns placed
		if c := tr.cands[k]; c.n > bestN && c.child >= 0 && tr.nodes[c.child].expanded {
			best, bestN = c.move, c.n
		}
	}
	if bestN == 0 {
		t.Fatal("no reply was searched after the bot's turn")
	}
	if err := g.Play(best); err != nil {
		t.Fatal(err)
	}
	reply, ok := a.reply(g)
	if !ok || !reply.Same(best) {
		t.Fatalf("reply = %s, %v; want %s", reply, ok, best)
	}
	if !tr.keep(a.played, reply) {
		t.Fatal("the tree did not keep the reply's subtree")
	}
	if tr.nodes[0].visits < 1 {
		t.Fatalf("kept root has %v visits", tr.nodes[0].visits)
	}
	// A game that does not follow: no reply.
	other, _ := replay.NewGame(8, game.Unlimited)
	for _, m := range []string{"a1,a2", "h8,h7", "a4,a5"} {
		if err := other.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := a.reply(other); ok {
		t.Fatal("a reply was found in another game")
	}
}

// TestArchAnalyse: the analysis of a position weighs the turn played and sums the threads.
func TestArchAnalyse(t *testing.T) {
	g, _ := replay.NewGame(8, game.Unlimited)
	for _, m := range []string{"c3,d3", "f6,f7", "c5,c6"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	played := replay.TilesMove(game.CellAt(0, 0), game.CellAt(7, 7))
	for _, th := range []int{1, 2} {
		a := NewArch(Options{Playouts: 400, Threads: th})
		r := a.Analyse(g, &played, rand.New(rand.NewPCG(3, 4)))
		if r.Light <= 0 || r.Light >= 1 || r.Best == (replay.Move{}) || r.PlayedN < 100 || r.Playouts < 400 {
			t.Fatalf("threads %d: %+v", th, r)
		}
		if !g.IsLegal(r.Best) {
			t.Fatalf("threads %d: best turn %s is illegal", th, r.Best)
		}
	}
}

// TestSortByPrior checks arch's merge sort of a node's turns against the stable sort it
// replaces (session 8, issue 29: the same order, so the same games): random priors with
// many ties, and the infinite prior of the swap.
func TestSortByPrior(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 29))
	var tree archTree
	for n := range 90 {
		for range 20 {
			cands := make([]archCand, n)
			for i := range cands {
				cands[i] = archCand{move: replay.TilesMove(game.CellAt(i%26, i/26), game.CellAt(0, 25)), prior: float64(rng.IntN(6)) / 2}
				if rng.IntN(30) == 0 {
					cands[i].prior = math.Inf(1)
				}
			}
			want := slices.Clone(cands)
			slices.SortStableFunc(want, func(x, y archCand) int { return cmp.Compare(y.prior, x.prior) })
			tree.sortByPrior(cands)
			if !slices.Equal(cands, want) {
				t.Fatalf("%d turns: sortByPrior %v, want %v", n, cands, want)
			}
		}
	}
}
