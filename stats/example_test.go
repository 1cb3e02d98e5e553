package stats_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// Compute reads a database made by ingesting records; here the fixture of the tests.
func ExampleCompute() {
	dir, _ := os.MkdirTemp("", "stats-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "ponte.db")
	w, _ := store.Open(path)
	intake.Run(context.Background(), w, []string{"testdata/fixture.ponte"}, intake.Options{})
	w.Close()

	db, err := store.OpenReader(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	r, err := stats.Compute(context.Background(), db, stats.Filter{Size: 5}, stats.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := r.Boards[0]
	fmt.Println("population:", r.Population) // the 5×5 games are all self-play
	fmt.Println("swapped:", b.Swap.Swapped)
	fmt.Println("opener's score:", b.Swap.Opener)
	fmt.Println("most played opening:", b.Openings[0].A, b.Openings[0].B)
	c := r.Cards[0]
	fmt.Printf("verdict: %s (%s, %.1f%% [%.1f–%.1f] of %d games)\n", c.Verdict, c.Estimate, 100*c.Value, 100*c.Lo, 100*c.Hi, c.N)
	// Output:
	// population: bots
	// swapped: 30.0% [10.8–60.3] of 10
	// opener's score: 20.0% [5.7–51.0] of 10
	// most played opening: b1 b3
	// verdict: not enough games to tell (strength-adjusted, 30.3% [1.8–91.1] of 10 games)
}
