package pos

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
	"gonum.org/v1/gonum/stat/distuv"
)

// policyPosition plays the reference policy from a seed until want holds before a turn,
// and returns that game.
func policyPosition(t *testing.T, size int, supply game.Supply, seed uint64, want func(*replay.Game) bool) *replay.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	for game := 0; game < 200; game++ {
		g, _ := replay.NewGame(size, supply)
		for !g.Over() {
			if want(g) {
				return g
			}
			if err := g.Play(refPolicy(g, rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no position found")
	return nil
}

// sandbankOf3 reports whether the colour to move has a sandbank of 3 tiles, and so an
// island to complete.
func sandbankOf3(g *replay.Game) bool {
	c := g.ToMove()
	return g.Turn() > 8 && g.Census(c).Sandbanks[3] > 0
}

// bridgeChances reports whether the colour to move has bridges worth 1.5 (tried one
// time in four) but none worth 10 (always built).
func bridgeChances(g *replay.Game) bool {
	var ten, some int
	for _, m := range g.LegalBridges(g.ToMove()) {
		switch v := refBridgeValue(g, m); {
		case v >= 10:
			ten++
		case v == 1.5:
			some++
		}
	}
	return ten == 0 && some >= 2
}

// crowded reports whether the game is past turn 30 with few legal cells left for the
// colour to move.
func crowded(g *replay.Game) bool {
	n := len(g.LegalTileCells(g.ToMove()))
	return g.Turn() > 30 && n >= 4 && n <= 20
}

// TestPolicyDistribution compares the turns PlayoutTurn draws with those of the reference
// (sage's policy on replay) in positions of several kinds, by a chi-square test of
// homogeneity on the counts of each turn (turns drawn fewer than 10 times in all pooled).
func TestPolicyDistribution(t *testing.T) {
	cases := []struct {
		name string
		g    *replay.Game
	}{
		{"opening 10×10", policyPosition(t, 10, game.Unlimited, 1, func(g *replay.Game) bool { return g.Turn() == 3 })},
		{"middle game, sandbank of 3, 10×10", policyPosition(t, 10, game.Unlimited, 2, sandbankOf3)},
		{"middle game, sandbank of 3, 8×8 40/15", policyPosition(t, 8, game.Supply40x15, 3, sandbankOf3)},
		{"bridge chances 10×10", policyPosition(t, 10, game.Unlimited, 4, bridgeChances)},
		{"late game 12×12", policyPosition(t, 12, game.Unlimited, 5, crowded)},
		{"late game 8×8 40/15", policyPosition(t, 8, game.Supply40x15, 6, crowded)},
	}
	const draws = 20000
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := FromGame(tc.g)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			ours, ref := map[replay.Move]int{}, map[replay.Move]int{}
			for range draws {
				ours[p.PlayoutTurn(rng)]++
				ref[refPolicy(tc.g, rng)]++
			}
			stat, df := chiSquare(ours, ref)
			pv := 1 - distuv.ChiSquared{K: float64(df)}.CDF(stat)
			t.Logf("turn %d, %d kinds of turn: χ² = %.1f, df %d, p = %.3g", tc.g.Turn(), len(ref), stat, df, pv)
			if pv < 1e-3 {
				t.Errorf("the policy's turns differ from the reference's: χ² = %.1f, df %d, p = %.3g", stat, df, pv)
			}
		})
	}
}

// chiSquare returns the statistic and degrees of freedom of the chi-square test of
// homogeneity of two samples of equal size, pooling the turns drawn fewer than 10 times
// in both together into one category.
func chiSquare(a, b map[replay.Move]int) (float64, int) {
	keys := map[replay.Move]bool{}
	for m := range a {
		keys[m] = true
	}
	for m := range b {
		keys[m] = true
	}
	type cell struct{ a, b int }
	var cells []cell
	var rare cell
	for m := range keys {
		if a[m]+b[m] < 10 {
			rare.a += a[m]
			rare.b += b[m]
			continue
		}
		cells = append(cells, cell{a[m], b[m]})
	}
	if rare.a+rare.b > 0 {
		cells = append(cells, rare)
	}
	slices.SortFunc(cells, func(x, y cell) int { return (x.a + x.b) - (y.a + y.b) })
	var na, nb float64
	for _, c := range cells {
		na += float64(c.a)
		nb += float64(c.b)
	}
	stat := 0.0
	for _, c := range cells {
		tot := float64(c.a + c.b)
		ea, eb := tot*na/(na+nb), tot*nb/(na+nb)
		stat += (float64(c.a)-ea)*(float64(c.a)-ea)/ea + (float64(c.b)-eb)*(float64(c.b)-eb)/eb
	}
	return stat, max(len(cells)-1, 1)
}
