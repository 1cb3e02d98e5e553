package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/atlas"
)

var atlasFlags = []string{"--size", "5", "--bot", "sage-4", "--first", "4", "--max", "8", "--confirm", "4", "--candidates", "2", "-q"}

// copyFile copies an atlas database, as a scheduler hands the merged one to every shard.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
}

// An atlas played as one shard and as two shards merged round by round is the same atlas,
// byte for byte (show --json and atlas.parquet); merging again adds nothing; its games are
// legal under ponte verify.
func TestAtlasShardsAgree(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.db")
	if _, errOut, status := runPonte(t, "", append([]string{"atlas", "run", "--db", one, "--workers", "2"}, atlasFlags...)...); status != exitOK {
		t.Fatalf("run: exit %d: %s", status, errOut)
	}
	merged := filepath.Join(dir, "merged.db")
	for round := 0; ; round++ {
		if round > 10 {
			t.Fatal("the shards did not finish in 10 rounds")
		}
		var shards []string
		for _, s := range []string{"1", "2"} {
			path := filepath.Join(dir, "shard-"+s+".db")
			os.Remove(path)
			if round > 0 {
				copyFile(t, merged, path)
			}
			_, errOut, status := runPonte(t, "", append([]string{"atlas", "run", "--db", path, "--shard", s + "/2", "--workers", "1"}, atlasFlags...)...)
			if status != exitOK {
				t.Fatalf("round %d shard %s: exit %d: %s", round, s, status, errOut)
			}
			shards = append(shards, path)
		}
		if _, errOut, status := runPonte(t, "", append([]string{"atlas", "merge", "--db", merged}, shards...)...); status != exitOK {
			t.Fatalf("merge: exit %d: %s", status, errOut)
		}
		out, _, _ := runPonte(t, "", "atlas", "plan", "--db", merged)
		var p struct{ Done bool }
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("plan: %v: %s", err, out)
		}
		if p.Done {
			break
		}
	}
	_, errOut, _ := runPonte(t, "", "atlas", "merge", "--db", merged, filepath.Join(dir, "shard-1.db"))
	if !strings.Contains(errOut, "0 games added") {
		t.Errorf("merging a shard again: %s", errOut)
	}
	var shows [2]string
	for i, db := range []string{one, merged} {
		out, errOut, status := runPonte(t, "", "atlas", "show", "--db", db, "--json", "--parquet", filepath.Join(dir, "pq", strconvI(i)))
		if status != exitOK {
			t.Fatalf("show: exit %d: %s", status, errOut)
		}
		shows[i] = out
	}
	if shows[0] != shows[1] {
		t.Errorf("1 shard and 2 shards differ:\n%s\n%s", shows[0], shows[1])
	}
	for _, name := range []string{"atlas.parquet", "atlas_games.parquet"} {
		a, _ := os.ReadFile(filepath.Join(dir, "pq", "0", name))
		b, _ := os.ReadFile(filepath.Join(dir, "pq", "1", name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: 1 shard and 2 shards differ (%d and %d bytes)", name, len(a), len(b))
		}
	}
	var res atlas.Result
	if err := json.Unmarshal([]byte(shows[0]), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Done || res.Classes != 49 || res.V == nil || len(res.Estimates) != 49 || res.Games < 49*4 {
		t.Errorf("atlas: done %v, %d classes, V %v, %d games", res.Done, res.Classes, res.V, res.Games)
	}
	archive := filepath.Join(dir, "atlas.ponte.gz")
	if _, errOut, status := runPonte(t, "", "atlas", "export", "--db", one, archive); status != exitOK {
		t.Fatalf("export: exit %d: %s", status, errOut)
	}
	vout, verr, vstatus := runPonte(t, "", "verify", archive)
	want := strconvI(res.Games) + " games: " + strconvI(res.Games) + " legal"
	if vstatus != exitOK || !strings.Contains(vout+verr, want) {
		t.Errorf("verify: exit %d, want %q: %s %s", vstatus, want, vout, verr)
	}
}

// A database keeps its atlas's games: another bot or board on it is a usage error; a
// malformed --shard too.
func TestAtlasUsageErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if _, errOut, status := runPonte(t, "", append([]string{"atlas", "run", "--db", db}, atlasFlags...)...); status != exitOK {
		t.Fatalf("run: exit %d: %s", status, errOut)
	}
	for _, args := range [][]string{
		{"atlas", "run", "--db", db, "--bot", "sage-5"},
		{"atlas", "run", "--db", db, "--size", "6"},
		{"atlas", "run", "--db", db, "--shard", "3/2"},
		{"atlas", "run", "--db", filepath.Join(dir, "b.db"), "--bot", "nobody"},
		{"atlas", "show", "--db", filepath.Join(dir, "none.db")},
	} {
		if _, _, status := runPonte(t, "", args...); status != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, status, exitUsage)
		}
	}
	// The rules of the rounds may change on a rerun: a larger --max extends the atlas.
	out, errOut, status := runPonte(t, "", "atlas", "run", "--db", db, "--max", "16", "--json", "--workers", "2")
	if status != exitOK || !strings.Contains(out, `"done":true`) {
		t.Errorf("--max 16: exit %d: %s %s", status, out, errOut)
	}
	// Running it again plays nothing: the atlas is done.
	out, errOut, status = runPonte(t, "", "atlas", "run", "--db", db, "--json")
	if status != exitOK || !strings.Contains(out, `"done":true`) {
		t.Errorf("again: exit %d: %s %s", status, out, errOut)
	}
}

func strconvI(i int) string { return strconv.Itoa(i) }

// FuzzParseShard: --shard is read without a panic, and what it accepts is a shard.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "3/8", "0/2", "2/1", "/", "1/", "-1/-2", "9999999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		if err == nil && (n < 1 || i < 1 || i > n) {
			t.Errorf("%q: shard %d of %d accepted", s, i, n)
		}
	})
}

// TestAtlasJSONUndefinedRank: a stability panel whose p̂ are all equal (or not yet two
// classes) has no rank correlation; --json writes null, not an error.
func TestAtlasJSONUndefinedRank(t *testing.T) {
	a := &atlas.Atlas{Config: atlas.DefaultConfig(), V: math.NaN(), VLo: math.NaN(), VHi: math.NaN(),
		Stable: &atlas.Stableness{Bot: "sage-100", Spearman: math.NaN()}}
	var out bytes.Buffer
	if err := a.Print(&out, true); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Stability struct {
			Spearman *float64 `json:"spearman"`
		} `json:"stability"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Stability.Spearman != nil {
		t.Errorf("spearman %v, want null", *got.Stability.Spearman)
	}
	if s := atlas.RankText(math.NaN()); s != "undefined" {
		t.Errorf("RankText(NaN) = %q", s)
	}
}
