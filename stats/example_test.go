package stats_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// Compute reads a database made by ingesting records; here the fixture of the tests.
func ExampleCompute() {
	dir, _ := os.MkdirTemp("", "stats-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "ponte.db")
	w, _ := store.Open(path)
	w.Ingest(context.Background(), []string{"testdata/fixture.ponte"}, store.Options{})
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
	fmt.Println("swapped:", b.Swap.Swapped)
	fmt.Println("opener's score:", b.Swap.Opener)
	fmt.Println("most played opening:", b.Openings[0].A, b.Openings[0].B)
	// Output:
	// swapped: 30.0% [10.8–60.3] of 10
	// opener's score: 20.0% [5.7–51.0] of 10
	// most played opening: b1 b3
}
