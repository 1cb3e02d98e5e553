package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's first command on the shipped sample data: the database, the Parquet files
// and the report are written, the illegal games are findings (exit status 0), and a second
// run stores nothing new and writes the report again.
func TestAnalyzeSampleData(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ponte.db")
	out := filepath.Join(dir, "report")
	stdout, stderr, status := runPonte(t, "", "analyze", "--db", db, "--out", out, "../../sample_data")
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, stderr)
	}
	if !strings.Contains(stderr, "3305 games: 3304 new, 1 duplicate; 3286 legal, 17 illegal, 2 unreadable") {
		t.Errorf("standard error lacks the ingest summary:\n%s", stderr)
	}
	index := filepath.Join(out, "index.html")
	for _, want := range []string{
		"report: " + index + "\n3304 games, ",
		"500 game pages; ",
		// The verdicts end the output: people's games and bots' apart; the bots' the main
		// population (no board has 30 people's games), and the output says so.
		"\n\nPopulation: bots (games with a bot player) (the default)\n" +
			"  The bots' games are the main population here: no board has 30 people's games (there are 35 in all). " +
			"People's games have cards of their own, last; --population people gives their tables.\n\n" +
			"Pie rule: the verdicts, people and bots apart (boards of fewer than 30 games last)\n" +
			"  10×10, bots: not enough games to tell\n" +
			"    48.9% [46.6–51.2] of 2170 games: the opener's expected score against an equal player, strength-adjusted\n",
		"  12×12, bots: not enough games to tell\n",
		"  10×10, people: not enough games to tell\n" +
			"    67.8% [35.9–88.8] of 23 games: the opener's expected score against an equal player, strength-adjusted\n",
		"  12×12, people: not enough games to tell\n",
		// Abstract Play's 8×8 board, last: one game, too few for the rating model.
		"  8×8, people: not enough games to tell\n    0.0% [0.0–79.3] of 1 game: the opener's raw score " +
			"(no strength-adjusted estimate: too few games for the rating model: 1, it needs 10)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("standard output lacks %q:\n%s", want, stdout)
		}
	}
	for _, name := range []string{index, filepath.Join(out, "games", "5.html"), filepath.Join(dir, "ponte.parquet", "turns.parquet")} {
		if info, err := os.Stat(name); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}

	stdout, stderr, status = runPonte(t, "", "analyze", "--db", db, "--out", out, "../../sample_data")
	if status != exitOK || !strings.Contains(stderr, "0 games: 0 new") || !strings.Contains(stdout, "3304 games") {
		t.Errorf("second run: exit status %d\n%s\n%s", status, stderr, stdout)
	}
}

func TestAnalyzeJSON(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, status := runPonte(t, "", "analyze", "--json", "--no-parquet", "--pages", "3",
		"--db", filepath.Join(dir, "ponte.db"), "--out", filepath.Join(dir, "r"), "../../stats/testdata/fixture.ponte")
	if status != exitOK || stderr != "" {
		t.Fatalf("exit status %d, standard error %q", status, stderr)
	}
	var r struct {
		Ingest struct{ Games, Legal int }
		Report struct {
			GamePages int `json:"game_pages"`
			Games     int
			Index     string
		}
		Population  string
		Populations []struct {
			Population string
			Games      int
		}
		Cards []struct {
			Size       int
			Population string
			N          int
			Verdict    string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if r.Ingest.Games != 14 || r.Ingest.Legal != 12 || r.Report.GamePages != 3 || r.Report.Games != 14 {
		t.Errorf("JSON %+v: want 14 games ingested, 12 legal, 3 pages", r)
	}
	// The verdicts the text output ends with: the people's 6×6 board and the bots' 5×5
	// board, apart (the bots' ten games first: neither has 30).
	if r.Population != "people" || len(r.Cards) != 2 || r.Cards[0].Size != 5 || r.Cards[0].Population != "bots" ||
		r.Cards[1].Size != 6 || r.Cards[1].Population != "people" || r.Cards[1].N != 1 ||
		r.Cards[1].Verdict != "not enough games to tell" || len(r.Populations) != 2 || r.Populations[1].Games != 10 {
		t.Errorf("JSON population %q, cards %+v, populations %+v", r.Population, r.Cards, r.Populations)
	}
}

// ponte report reads a database without writing to it, and says where the report is.
func TestReport(t *testing.T) {
	db := fixtureDB(t)
	out := filepath.Join(t.TempDir(), "club")
	stdout, stderr, status := runPonte(t, "", "report", "--db", db, "--out", out, "--event", "Club night", "--title", "Club <nights>")
	if status != exitOK || stderr != "" {
		t.Fatalf("exit status %d, standard error %q", status, stderr)
	}
	if !regexp.MustCompile(`^report: .*/club/index.html\n4 games, \d+ charts, 4 game pages; [0-9.]+ s\n$`).MatchString(stdout) {
		t.Errorf("standard output %q", stdout)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Club &lt;nights&gt;") {
		t.Error("the title is not in the page, escaped")
	}
}

func TestReportUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "--db", filepath.Join(dir, "none.db")}, "none.db: run `ponte analyze --db "},
		{[]string{"report", "--pages", "-1"}, "--pages must be from 0 to 1048576, not -1"},
		{[]string{"report", "--size", "3"}, "board sizes are 5 to 26"},
		{[]string{"analyze", "--db", filepath.Join(dir, "a.db"), "--out", filepath.Join(dir, "r"), filepath.Join(dir, "missing")}, "missing"},
	} {
		_, errOut, status := runPonte(t, "", tc.args...)
		if status != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit status %d, standard error %q, want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
}
