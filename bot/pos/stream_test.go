package pos

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestPlayoutStream plays seeded playouts with PlayoutTurn on several boards, both
// supplies, from the empty board and from turn 12, and compares a digest of every turn
// drawn with testdata/playouts.golden: the same seed must draw the same turns, so that
// arch-N keeps its games when the position gets faster (-update rewrites the file, for a
// change of the policy's draws that is meant).
func TestPlayoutStream(t *testing.T) {
	var lines []string
	for _, size := range []int{6, 8, 10, 12, 20} {
		for _, supply := range []game.Supply{game.Unlimited, game.Supply40x15} {
			for _, from := range []int{0, 12} {
				g, err := replay.NewGame(size, supply)
				if err != nil {
					t.Fatal(err)
				}
				start := rand.New(rand.NewPCG(20, uint64(size)))
				for g.Turn() < from && !g.Over() {
					if err := g.Play(refPolicy(g, start)); err != nil {
						t.Fatal(err)
					}
				}
				root, err := FromGame(g)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(size), uint64(supply)*100+uint64(from)))
				h := sha256.New()
				turns := 0
				var sim Position
				for range 60 {
					sim.CopyFrom(&root)
					for !sim.Over() {
						m := sim.PlayoutTurn(rng)
						fmt.Fprintln(h, m)
						sim.Play(m)
						turns++
					}
					fmt.Fprintln(h, sim.Score())
				}
				lines = append(lines, fmt.Sprintf("%d×%d %v from turn %d: %d turns %s", size, size, supply, from, turns, hex.EncodeToString(h.Sum(nil))[:16]))
			}
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "playouts.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the playouts drew other turns than %s:\ngot\n%swant\n%s", path, got, want)
	}
}

// TestBelow checks below against the computation it spares: whenever it tells that the
// next noise stays at or below least, val plus u·x^(1/r), computed as drawTop computes
// it, does; and it tells in most draws far from the edge.
func TestBelow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	told, far := 0, 0
	for range 2_000_000 {
		val := classValue[rng.IntN(5)]
		u := rng.Float64()
		if rng.IntN(4) == 0 {
			u = 1
		}
		least := val + rng.Float64()*1.2
		if rng.IntN(8) == 0 {
			least = val + u*(1+(rng.Float64()-0.5)*1e-5) // at the edge
		}
		x := rng.Float64()
		if rng.IntN(16) == 0 {
			x = 0
		}
		r := 1 + rng.IntN(700)
		next := u * math.Exp(math.Log(x)/float64(r))
		exact := val+next <= least
		if below(val, u, least, x, r) {
			told++
			if !exact {
				t.Fatalf("below(%v, %v, %v, %v, %d) is true, but val+u·x^(1/r) = %v > %v", val, u, least, x, r, val+next, least)
			}
		}
		if exact && val+next < least-1e-3 {
			far++
		}
	}
	if told < far*9/10 {
		t.Errorf("below told %d of %d draws far below least", told, far)
	}
}
