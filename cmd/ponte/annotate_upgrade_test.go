package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// ponte annotate upgrades a database of every earlier schema, as ponte ingest does:
// one of version 2 is upgraded by replaying its games (intake.Open), then read.
func TestAnnotateUpgradesVersion2(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "store", "testdata", "v2.db.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "v2.db")
	out, err := os.Create(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if _, errOut, status := runPonte(t, "", "annotate", "--db", db, "--quiet", "--no-parquet", "--engine", "sage-10", "--games", "1"); status != 0 {
		t.Fatalf("annotate of a schema 2 database: exit %d: %s", status, errOut)
	}
	if _, errOut, status := runPonte(t, "", "stats", "--db", db, "--json"); status != 0 {
		t.Fatalf("stats after annotate's upgrade: exit %d: %s", status, errOut)
	}
}
