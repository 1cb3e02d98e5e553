package bot

import (
	"testing"

	"github.com/ponte/ponte/game"
)

// TestLoreNames: lore takes arch's budgets and threads under its own name.
func TestLoreNames(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		o          Options
		bad        bool
	}{
		{name: "lore-400", want: "lore-400"},
		{name: "lore-400", o: Options{Threads: 2}, want: "lore-400-t2"},
		{name: "lore-20ms", want: "lore-20ms"},
		{name: "lore-100ms-t4", want: "lore-100ms-t4"},
		{name: "lore-100ms-s2", want: "lore-100ms-s2"},
		{name: "lore-400-t1", want: "lore-400"},
		{name: "lore-0", bad: true},
		{name: "lore-", bad: true},
		{name: "lore-ms", bad: true},
		{name: "lore-400-t0", bad: true},
		{name: "lore", bad: true},
	} {
		b, err := New(tc.name, tc.o)
		if perr := ParseName(tc.name); (perr == nil) != (err == nil) {
			t.Errorf("%q: ParseName says %v, New %v", tc.name, perr, err)
		}
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

// TestLoreSharedPlaysLegalGames plays lore on two threads sharing one tree (which lists
// its turns with the learned priors too) against arch on one shared tree.
func TestLoreSharedPlaysLegalGames(t *testing.T) {
	for i, size := range []int{5, 8} {
		g, err := Play(mustNew(t, "lore-60-s2", Options{}), mustNew(t, "arch-60-s2", Options{}), size, game.Unlimited, seeded(100+i))
		if err != nil {
			t.Fatal(err)
		}
		replayMoves(t, g)
	}
}

// TestLorePlaysLegalGames plays lore against arch on several sizes and both supplies, on
// one and two threads, replays every game, and plays one seed twice: the same game.
func TestLorePlaysLegalGames(t *testing.T) {
	games := 0
	for _, size := range []int{5, 8, 12} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, pair := range [][2]string{{"lore-30", "arch-30"}, {"arch-20", "lore-20-t2"}} {
				g, err := Play(mustNew(t, pair[0], Options{}), mustNew(t, pair[1], Options{}), size, supply, seeded(games))
				if err != nil {
					t.Fatal(err)
				}
				replayMoves(t, g)
				again, err := Play(mustNew(t, pair[0], Options{}), mustNew(t, pair[1], Options{}), size, supply, seeded(games))
				if err != nil {
					t.Fatal(err)
				}
				if len(again.Moves) != len(g.Moves) {
					t.Fatalf("%v on %d: %d then %d turns for one seed", pair, size, len(g.Moves), len(again.Moves))
				}
				for i := range g.Moves {
					if g.Moves[i] != again.Moves[i] {
						t.Fatalf("%v on %d: turn %d is %s then %s for one seed", pair, size, i+1, g.Moves[i], again.Moves[i])
					}
				}
				games++
			}
		}
	}
}
