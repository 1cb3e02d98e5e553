package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/store"
)

// ponte ingest --parquet-only --parquet DIR writes DIR's three Parquet files and keeps no
// database, says so in its summary and its JSON; the flags it cannot honour are usage
// errors (exit status 2), and so is a folder that is a database's.
func TestIngestParquetOnly(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "shards", "01")
	out, errOut, status := runPonte(t, "", "ingest", "--parquet-only", "--parquet", shard, "--json", sampleLeague)
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	var r struct {
		DB          string `json:"db"`
		ParquetOnly bool   `json:"parquet_only"`
		New         int    `json:"new"`
		Parquet     struct {
			Dir         string
			Games, Tags int64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.DB != "" || !r.ParquetOnly || r.Parquet.Dir != shard || r.Parquet.Games != int64(r.New) || r.New != 17 || r.Parquet.Tags == 0 {
		t.Errorf("summary %+v", r)
	}
	entries, _ := os.ReadDir(shard)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != store.MarkerName+" games.parquet tags.parquet turns.parquet" {
		t.Errorf("the shard's folder holds %s: want the three files and the marker, no database", got)
	}
	if _, err := os.Stat("ponte.db"); err == nil {
		t.Error("a ponte.db was made")
	}

	// The summary says where the games were stored.
	_, errOut, status = runPonte(t, "", "ingest", "--parquet-only", "--parquet", shard, sampleLeague)
	if status != exitOK || !strings.Contains(errOut, "rows stored in a temporary database (--parquet-only)") ||
		!strings.Contains(errOut, "17 games, ") || !strings.Contains(errOut, " tags written to "+shard) {
		t.Errorf("again: exit status %d:\n%s", status, errOut)
	}

	db := filepath.Join(dir, "x.db")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--parquet-only", sampleLeague}, "--parquet-only needs --parquet DIR"},
		{[]string{"--parquet-only", "--no-parquet", "--parquet", shard, sampleLeague}, "--parquet-only and --no-parquet"},
		{[]string{"--parquet-only", "--db", db, "--parquet", shard, sampleLeague}, "--parquet-only keeps no database"},
		{[]string{"--db", db, "--parquet", shard, sampleLeague}, "holds the Parquet files of a ponte ingest --parquet-only"},
	} {
		_, errOut, status := runPonte(t, "", append([]string{"ingest"}, c.args...)...)
		if status != exitUsage || !strings.Contains(errOut, c.says) {
			t.Errorf("ingest %s: exit status %d, want %d saying %q:\n%s", strings.Join(c.args, " "), status, exitUsage, c.says, errOut)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("x.db was left behind")
	}
	// A database's folder is not a shard's.
	dbDir := filepath.Join(dir, "x.parquet")
	if _, errOut, status := runPonte(t, "", "ingest", "--db", db, sampleLeague); status != exitOK {
		t.Fatalf("ingest --db: %d: %s", status, errOut)
	}
	if _, errOut, status := runPonte(t, "", "ingest", "--parquet-only", "--parquet", dbDir, sampleLeague); status != exitUsage ||
		!strings.Contains(errOut, "does not overwrite them") {
		t.Errorf("--parquet-only into a database's folder: exit status %d:\n%s", status, errOut)
	}
}

// An interrupted --parquet-only run writes nothing, leaves no folder it made, says so and
// that running it again starts over; exit status 130.
func TestIngestParquetOnlyInterrupted(t *testing.T) {
	shard := filepath.Join(t.TempDir(), "shard")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errOut, status := runPonteCtx(t, ctx, "ingest", "--parquet-only", "--parquet", shard, sampleLeague)
	if status != exitInterrupted || !strings.Contains(errOut, "interrupted: nothing written to "+shard) || !strings.Contains(errOut, "starts over") {
		t.Errorf("exit status %d, want %d:\n%s", status, exitInterrupted, errOut)
	}
	if _, err := os.Stat(shard); !os.IsNotExist(err) {
		t.Errorf("the folder the run made is there: %v", err)
	}
}
