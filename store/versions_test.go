package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// A database of every schema version the project shipped opens, upgrades in place, and
// answers `ponte stats --json` exactly as before. Each testdata/vN.db.gz is what ponte
// stored in schema version N, `ponte ingest --no-parquet --db vN.db` of the five sample
// files below from this folder, made by the build of the last commit with that version
// (v1 77cbb82^, v2 ad29693^, v3 67484b8^, v4 fcd7e0a, v5 e53447a^, v6 125587d); each
// testdata/vN.stats.json.gz is `ponte stats --json` of that database upgraded by the build
// of 125587d (version 6), which for v6 is what its own build printed. Those of v2 to v6 are
// the same, and the same as of a new ingest of the files; version 1 read one record as
// unreadable that later versions read.
//
//	autumn-league.ponte online-site.jsonl club-2025.ponte.gz boardspace-2026-03.zip
//	selfplay-10x10-greedy-mcts400.ponte.zst
func TestEveryVersionUpgrades(t *testing.T) {
	for v := 1; v < store.SchemaVersion; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			if err := os.WriteFile(path, gunzipped(t, fmt.Sprintf("testdata/v%d.db.gz", v)), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := store.OpenReader(path); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("a database of schema version %d: run ponte ingest", v)) {
				t.Fatalf("OpenReader before the upgrade: %v", err)
			}
			if v < 4 {
				// Without the ingest's replay, the games' components cannot be made: the
				// database is refused as the reader refuses it, and left as it was.
				before, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if d, err := store.Open(path); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("a database of schema version %d: run ponte ingest on it once", v)) {
					if d != nil {
						d.Close()
					}
					t.Fatalf("Open without a replay: %v", err)
				}
				if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
					t.Fatalf("Open without a replay changed the database (%v)", err)
				}
			}
			d, err := store.OpenWith(path, store.OpenOptions{Replay: intake.ReplayStored})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := store.OpenReader(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			rep, err := stats.Compute(context.Background(), r, stats.Filter{}, stats.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rep); err != nil {
				t.Fatal(err)
			}
			want := gunzipped(t, fmt.Sprintf("testdata/v%d.stats.json.gz", v))
			if !bytes.Equal(got.Bytes(), want) {
				g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("ponte stats --json differs at line %d: %q, before %q", i+1, g[i], w[i])
					}
				}
				t.Fatalf("ponte stats --json has %d lines, before %d", len(g), len(w))
			}
		})
	}
}

func gunzipped(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
