package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureDB ingests the statistics' fixture (stats/testdata) into a new database.
func fixtureDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "ponte.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, "../../stats/testdata/fixture.ponte"); status != exitIllegal {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}
	return db
}

func TestStatsGolden(t *testing.T) {
	db := fixtureDB(t)
	out, errOut, status := runPonte(t, "", "stats", "--db", db)
	if status != exitOK || errOut != "" {
		t.Fatalf("exit status %d, standard error %q", status, errOut)
	}
	golden(t, "stats-fixture.txt", strings.ReplaceAll(out, db, "ponte.db"))

	out, _, status = runPonte(t, "", "stats", "--db", db, "--size", "6", "--event", "Club night")
	if status != exitOK {
		t.Fatalf("exit status %d", status)
	}
	golden(t, "stats-fixture-filtered.txt", strings.ReplaceAll(out, db, "ponte.db"))
}

func TestStatsJSON(t *testing.T) {
	db := fixtureDB(t)
	out, _, status := runPonte(t, "", "stats", "--db", db, "--json", "--player", "random")
	if status != exitOK {
		t.Fatalf("exit status %d", status)
	}
	var r struct {
		Filter       struct{ Player string }
		Verification struct{ Games, Legal int }
		Boards       []struct {
			Size int
			Swap struct{ Swapped struct{ Hits, N float64 } }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if r.Filter.Player != "random" || r.Verification.Games != 10 || len(r.Boards) != 1 || r.Boards[0].Swap.Swapped.Hits != 3 {
		t.Errorf("JSON %+v, want the 10 games of the random bot, 3 swapped", r)
	}
}

func TestStatsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats", "--db", filepath.Join(t.TempDir(), "missing.db")}, "make one with ponte ingest"},
		{[]string{"stats", "--from", "last week"}, `--from "last week": want a date`},
		{[]string{"stats", "extra"}, "unknown command"},
	} {
		_, errOut, status := runPonte(t, "", tc.args...)
		if status != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit status %d, standard error %q, want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
}
