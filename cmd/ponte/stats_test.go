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
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, "../../stats/testdata/fixture.ponte"); status != exitOK {
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

	// Both populations, each and together, with the players' ratings.
	out, _, status = runPonte(t, "", "stats", "--db", db, "--population", "all", "--ratings", "--openings", "3")
	if status != exitOK {
		t.Fatalf("exit status %d", status)
	}
	golden(t, "stats-fixture-all.txt", strings.ReplaceAll(out, db, "ponte.db"))
}

// The text output starts with the verdicts, says which population they cover, and names
// what is left out; --bots moves a player's games to the bots.
func TestStatsPopulations(t *testing.T) {
	db := fixtureDB(t)
	out, _, status := runPonte(t, "", "stats", "--db", db)
	if status != exitOK {
		t.Fatalf("exit status %d", status)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 9 || lines[1] != "Population: people (games without a bot player) (the default)" ||
		lines[2] != "  People's games are the main population; the bots' 10 games have cards of their own, apart; --population bots gives their tables." ||
		lines[4] != "Pie rule: the verdicts, people and bots apart (boards of fewer than 30 games last)" ||
		lines[5] != "  5×5, bots: not enough games to tell" || lines[8] != "  6×6, people: not enough games to tell" {
		t.Errorf("the output does not start with the population and the verdicts:\n%s", strings.Join(lines[:min(8, len(lines))], "\n"))
	}
	out, _, status = runPonte(t, "", "stats", "--db", db, "--bots", "Bob,Ann", "--json")
	if status != exitOK {
		t.Fatalf("exit status %d", status)
	}
	var r struct {
		Population  string
		Populations []struct {
			Population string
			Games      int
		}
		Cards []struct {
			Size       int
			Population string
			Verdict    string
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// Bob and Ann played the two legal 6×6 games: with them bots, no people's game is left.
	if r.Population != "bots" || len(r.Cards) != 2 || r.Cards[0].Population != "bots" {
		t.Errorf("population %q, cards %+v: want bots for both boards", r.Population, r.Cards)
	}
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
	var more struct {
		Population string
		Cards      []struct {
			Size     int
			N        int
			Estimate string
			Verdict  string
		}
		Boards []struct {
			Swap struct {
				Strength struct {
					Games   int
					Ratings []struct {
						Player string
						Games  int
					}
				}
			}
			Openings []struct {
				SwappedShrunk struct{ Lo, Hi float64 } `json:"swapped_shrunk"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &more); err != nil {
		t.Fatal(err)
	}
	if more.Population != "bots" || len(more.Cards) != 1 || more.Cards[0].N != 10 || more.Cards[0].Estimate != "strength-adjusted" ||
		more.Cards[0].Verdict != "not enough games to tell" {
		t.Errorf("cards %+v, want one for the 10 bots' games on 5×5", more.Cards)
	}
	if st := more.Boards[0].Swap.Strength; st.Games != 10 || len(st.Ratings) != 2 || len(more.Boards[0].Openings) == 0 ||
		more.Boards[0].Openings[0].SwappedShrunk.Hi == 0 {
		t.Errorf("strength %+v, openings %+v", st, more.Boards[0].Openings)
	}
}

func TestStatsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats", "--db", filepath.Join(t.TempDir(), "missing.db")}, "missing.db: run `ponte analyze --db "},
		{[]string{"stats", "--from", "last week"}, `--from "last week": want a date`},
		{[]string{"stats", "extra"}, "unknown command"},
		{[]string{"stats", "--openings", "-1"}, "--openings must be from 0 to 1048576, not -1"},
		{[]string{"stats", "--population", "robots"}, `--population "robots": want people, bots or all`},
		{[]string{"stats", "--bots", "a,,b"}, `--bots "a,,b": an empty name`},
	} {
		_, errOut, status := runPonte(t, "", tc.args...)
		if status != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit status %d, standard error %q, want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
}
