package report_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/report"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// Write the report of the games in a database: ingest some records, compute their
// statistics, and write the folder.
func ExampleWrite() {
	tmp, err := os.MkdirTemp("", "ponte-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dbPath := filepath.Join(tmp, "ponte.db")

	// Make a database (ponte ingest does this).
	w, err := store.Open(dbPath)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := intake.Run(context.Background(), w, []string{"testdata/league.ponte"}, intake.Options{}); err != nil {
		log.Fatal(err)
	}
	w.Close()

	// Read it, compute the statistics of the 10×10 games, and write their report.
	db, err := store.OpenReader(dbPath)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	f := stats.Filter{Size: 10}
	r, err := stats.Compute(context.Background(), db, f, stats.Options{})
	if err != nil {
		log.Fatal(err)
	}
	out, err := report.Write(context.Background(), db, r, filepath.Join(tmp, "report"), report.Options{
		MaxGames: 10,
		Title:    "Autumn league",
		Filter:   f,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d games, %d game pages, %d charts; open %s\n", out.Games, out.GamePages, out.Charts, filepath.Base(out.Index))
	// Output:
	// 12 games, 10 game pages, 17 charts; open index.html
}
