package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The other sites' records, exported as .ponte and as JSON Lines, verify to the same
// verdicts as the originals; so do the games exported back from a database.
func TestExportRoundTrip(t *testing.T) {
	const samples = "../../ingest/testdata/samples"
	dir := t.TempDir()
	want, _, status := runPonte(t, "", "verify", "--json", samples+"/boardspace", samples+"/abstractplay")
	if status != exitFindings { // ap-005.json claims a false result
		t.Fatalf("verify: exit status %d", status)
	}
	// Source, index, line, format and where an error stands differ in a new file.
	position := regexp.MustCompile(`"line":[0-9]+,"col":[0-9]+`)
	strip := func(verdicts string) string {
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(verdicts), "\n") {
			b.WriteString(position.ReplaceAllString(line[strings.Index(line, `"game_id"`):], ""))
			b.WriteByte('\n')
		}
		return b.String()
	}
	for _, name := range []string{"all.ponte", "all.jsonl.zst"} {
		out := filepath.Join(dir, name)
		_, errOut, status := runPonte(t, "", "export", "--out", out, samples+"/boardspace", samples+"/abstractplay")
		if status != exitOK || !strings.Contains(errOut, "14 games written to "+out) {
			t.Fatalf("export %s: exit status %d: %s", name, status, errOut)
		}
		got, _, _ := runPonte(t, "", "verify", "--json", out)
		if strip(got) != strip(want) {
			t.Errorf("%s verifies to\n%s\nwant\n%s", name, strip(got), strip(want))
		}
	}

	db := filepath.Join(dir, "ponte.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, samples+"/boardspace", samples+"/abstractplay"); status != exitOK {
		t.Fatalf("ingest: %d %s", status, errOut)
	}
	out := filepath.Join(dir, "stored.jsonl")
	_, errOut, status := runPonte(t, "", "export", "--db", db, "--out", out)
	if status != exitOK {
		t.Fatalf("export --db: exit status %d: %s", status, errOut)
	}
	got, _, _ := runPonte(t, "", "verify", "--json", out)
	if strip(got) != strip(want) {
		t.Errorf("the stored games verify to\n%s\nwant\n%s", strip(got), strip(want))
	}
	// A filter selects: the 8 Abstract Play games are the only ones with that site.
	text, errOut, status := runPonte(t, "", "export", "--db", db, "--site", "Abstract Play", "--format", "ponte")
	if status != exitOK || strings.Count(text, "[Site \"Abstract Play\"]") != 8 || strings.Contains(text, "boardspace") {
		t.Errorf("export --site: exit status %d, %s", status, errOut)
	}
}

// Unreadable records are named and not written; the others are.
func TestExportUnreadable(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.ponte")
	_, errOut, status := runPonte(t, "", "export", "--out", out, "../../sample_data/autumn-league.ponte")
	if status != exitOK || !strings.Contains(errOut, "not written, cannot be read: ../../sample_data/autumn-league.ponte:286:") ||
		!strings.Contains(errOut, "16 games written") {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
	if data, err := os.ReadFile(out); err != nil || strings.Count(string(data), "[Event ") != 16 {
		t.Errorf("%v: %d games in the file", err, strings.Count(string(data), "[Event "))
	}
}

func TestExportUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--format", "boardspace", "x"}, `--format "boardspace": must be "ponte" or "jsonl"`},
		{[]string{"export", "--db", "x.db", "y.ponte"}, "give them without paths (to filter the games of files, store them first: ponte ingest PATH..."},
		{[]string{"export", "--db", filepath.Join(t.TempDir(), "none.db")}, "none.db: run `ponte analyze --db "},
	} {
		_, errOut, status := runPonte(t, "", tc.args...)
		if status != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit status %d, standard error %q, want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
}

// A game the paths hold twice is written once (as ingest stores it), unless
// --keep-duplicates; --only selects the legal or the illegal games, from files as from the
// database, and the summary counts what was left out.
func TestExportDuplicatesAndOnly(t *testing.T) {
	const league = "../../sample_data/autumn-league.ponte" // 17 records: 5 legal, 11 illegal, 1 unreadable
	dir := t.TempDir()
	db := filepath.Join(dir, "ponte.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, league); status != exitOK {
		t.Fatalf("ingest: exit status %d: %s", status, errOut)
	}
	for _, c := range []struct {
		args  []string
		games int
		says  string
	}{
		{[]string{league, league}, 16, "16 games written to standard output (ponte); 2 not written; 16 copies of a game written before left out (--keep-duplicates writes them)\n"},
		{[]string{"--keep-duplicates", league, league}, 32, "32 games written to standard output (ponte); 2 not written\n"},
		{[]string{"--only", "legal", league}, 5, "5 games written to standard output (ponte); 1 not written; 11 games left out (--only legal)\n"},
		{[]string{"--only", "illegal", league}, 11, "11 games written to standard output (ponte); 1 not written; 5 games left out (--only illegal)\n"},
		{[]string{"--only", "legal", "--db", db}, 5, "5 games written to standard output (ponte)\n"},
		{[]string{"--only", "illegal", "--db", db}, 11, "11 games written to standard output (ponte)\n"},
	} {
		out, errOut, status := runPonte(t, "", append([]string{"export"}, c.args...)...)
		if n := strings.Count(out, "[Event "); status != exitOK || n != c.games || !strings.HasSuffix(errOut, c.says) {
			t.Errorf("export %q: exit status %d, %d games, standard error %q; want %d games and %q", c.args, status, n, errOut, c.games, c.says)
		}
	}
	for _, args := range [][]string{{"--only", "drawn", league}, {"--size", "10", league}, {"--db", db, league}} {
		if _, errOut, status := runPonte(t, "", append([]string{"export"}, args...)...); status != exitUsage {
			t.Errorf("export %q: exit status %d, %q", args, status, errOut)
		}
	}
}
