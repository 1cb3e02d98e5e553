package bot

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/cputime"
)

// BenchmarkSelfplayPlayouts plays whole self-play games of a bot against itself at the
// same budget, sage and arch side by side, and reports playouts per core-second (CPU
// time of the process, so that a shared machine's load counts less) and games per
// core-second: the measure of the engine's speed.
func BenchmarkSelfplayPlayouts(b *testing.B) {
	for _, size := range []int{8, 10, 12} {
		for _, name := range benchBots {
			b.Run(fmt.Sprintf("%s/%dx%d", name, size, size), func(b *testing.B) {
				x, y := mustNew(b, name, Options{}), mustNew(b, name, Options{})
				rng := rand.New(rand.NewPCG(5, uint64(size)))
				cpu := cputime.Process()
				games := 0
				for b.Loop() {
					if _, err := Play(x, y, size, game.Unlimited, rng); err != nil {
						b.Fatal(err)
					}
					games++
				}
				secs := (cputime.Process() - cpu).Seconds()
				n := x.(interface{ PlayoutsDone() int64 }).PlayoutsDone() + y.(interface{ PlayoutsDone() int64 }).PlayoutsDone()
				b.ReportMetric(float64(n)/secs, "playouts/cpu-s")
				b.ReportMetric(float64(games)/secs, "games/cpu-s")
			})
		}
	}
}

// benchBots are the bots BenchmarkSelfplayPlayouts compares (-selfplay.bots to change).
var benchBots = []string{"sage-25", "arch-25"}

func init() {
	if v := os.Getenv("PONTE_BENCH_BOTS"); v != "" {
		benchBots = strings.Split(v, ",")
	}
}
