package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/store"
)

// names lists the files of dir, hidden ones included, separated by spaces.
func names(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range entries {
		n = append(n, e.Name())
	}
	return strings.Join(n, " ")
}

// fixtureAbs is the stats fixture (14 games), by an absolute path: the tests below change
// directory.
var fixtureAbs, _ = filepath.Abs("../../stats/testdata/fixture.ponte")

// `ponte analyze` run outside the repository fails on "open sample_data" and leaves no
// database; `ponte report`, `stats` and `export` then say there is none and what to run,
// with exit status 2, and write nothing. (Before, analyze left an empty ponte.db, and the
// report of it was an empty report with exit status 0 and no hint.)
func TestNoDatabaseLeftByAFailedRun(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, errOut, status := runPonte(t, "", "analyze")
	if status != exitUsage || !strings.Contains(errOut, "sample_data") {
		t.Errorf("analyze outside the repository: exit status %d: %s", status, errOut)
	}
	if got := names(t, dir); got != "" {
		t.Errorf("analyze that failed left %q", got)
	}
	_, errOut, status = runPonte(t, "", "ingest", "--db", "club.db", "missing.ponte")
	if status != exitUsage || names(t, dir) != "" {
		t.Errorf("ingest of a missing path: exit status %d, left %q: %s", status, names(t, dir), errOut)
	}
	const hint = "no database ponte.db here: run `ponte analyze` or `ponte ingest PATH` first\n"
	for _, args := range [][]string{{"report"}, {"stats"}, {"stats", "--json"}, {"export"}} {
		out, errOut, status := runPonte(t, "", args...)
		if status != exitUsage || out != "" || errOut != "ponte "+args[0]+": "+hint {
			t.Errorf("%v without a database: exit status %d, output %q, standard error %q", args, status, out, errOut)
		}
	}
	_, errOut, _ = runPonte(t, "", "stats", "--db", "club.db")
	if want := "ponte stats: no database club.db here: run `ponte analyze --db club.db` or `ponte ingest --db club.db PATH` first\n"; errOut != want {
		t.Errorf("another --db: %q, want %q", errOut, want)
	}
	if got := names(t, dir); got != "" {
		t.Errorf("the readers left %q", got)
	}
}

// A run that makes a database and finds no game in its paths stores nothing, says so,
// and leaves no database (nor Parquet folder); analyze then writes no report, exit
// status 2. A database that was there before is kept, whatever the run; the readers say
// it holds no games (exit status 2), which filters that select no game do not (exit
// status 0).
func TestNothingStoredNothingLeft(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("empty", 0o777)
	_, errOut, status := runPonte(t, "", "ingest", "empty")
	if status != exitOK || !strings.Contains(errOut, "\nponte ingest: note: nothing was stored, so ponte.db, made by this run, is removed\n") {
		t.Errorf("ingest of no games: exit status %d: %s", status, errOut)
	}
	out, _, _ := runPonte(t, "", "ingest", "--json", "empty")
	if !strings.Contains(out, `"db_removed":true`) {
		t.Errorf("--json: %s", out)
	}
	_, errOut, status = runPonte(t, "", "analyze", "empty")
	if status != exitUsage || !strings.Contains(errOut, "ponte analyze: no game was found in the paths given: no report written\n") {
		t.Errorf("analyze of no games: exit status %d: %s", status, errOut)
	}
	if got := names(t, dir); got != "empty" {
		t.Errorf("left %q", got)
	}

	// A database there before: kept, empty or not.
	d, err := store.Open("kept.db")
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, args := range [][]string{{"ingest", "--db", "kept.db", "empty"}, {"ingest", "--db", "kept.db", "missing"}} {
		runPonte(t, "", args...)
		if _, err := os.Stat("kept.db"); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	const hint = "kept.db holds no games: run `ponte analyze --db kept.db` or `ponte ingest --db kept.db PATH` first\n"
	for _, cmd := range []string{"report", "stats", "export"} {
		out, errOut, status := runPonte(t, "", cmd, "--db", "kept.db")
		if status != exitUsage || out != "" || errOut != "ponte "+cmd+": "+hint {
			t.Errorf("%s of an empty database: exit status %d, output %q, standard error %q", cmd, status, out, errOut)
		}
	}
	_, errOut, status = runPonte(t, "", "analyze", "--db", "kept.db", "empty")
	if status != exitUsage || !strings.Contains(errOut, "ponte analyze: kept.db holds no games: no game was found in the paths given: no report written\n") {
		t.Errorf("analyze of no games into an empty database: exit status %d: %s", status, errOut)
	}
	if _, err := os.Stat("ponte-report"); err == nil {
		t.Error("a report was written")
	}

	// Games stored, none selected: an answer, exit status 0.
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--db", "games.db", fixtureAbs); status != exitOK {
		t.Fatalf("ingest: %d %s", status, errOut)
	}
	for _, args := range [][]string{
		{"stats", "--db", "games.db", "--size", "25"},
		{"report", "--db", "games.db", "--size", "25", "--out", "r25"},
		{"export", "--db", "games.db", "--size", "25"},
	} {
		if _, errOut, status := runPonte(t, "", args...); status != exitOK {
			t.Errorf("%v: exit status %d: %s", args, status, errOut)
		}
	}
}

// Read-only commands leave no -wal or -shm file beside the database, nor does a writer
// once it is done. (Before, ponte.db-wal and ponte.db-shm stayed after stats, report and
// export, and after analyze.)
func TestReadersLeaveNoWAL(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", fixtureAbs); status != exitOK {
		t.Fatalf("ingest: %d %s", status, errOut)
	}
	const want = "ponte.db ponte.parquet"
	if got := names(t, dir); got != want {
		t.Errorf("after ingest: %q, want %q", got, want)
	}
	for _, args := range [][]string{
		{"stats"}, {"stats", "--json"}, {"report", "--out", "r"}, {"export", "--out", "x.ponte"},
		{"analyze", "--quiet", "--out", "r", fixtureAbs},
	} {
		if _, errOut, status := runPonte(t, "", args...); status != exitOK {
			t.Errorf("%v: exit status %d: %s", args, status, errOut)
		}
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat("ponte.db" + suffix); err == nil {
				t.Errorf("%v left ponte.db%s", args, suffix)
			}
		}
	}
}

// Each database has its own Parquet folder, beside it and named after it, with a marker
// naming it; a folder written from another database, or holding other files, is refused
// (exit status 2) before anything is stored, and left as it was. (Before, every database
// of a directory wrote ./parquet: ingesting a.db after big.db overwrote big.db's files.)
func TestParquetFolderOfItsDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	type summary struct {
		Games   int
		Parquet struct {
			Dir      string
			Games    int64
			UpToDate bool `json:"up_to_date"`
		}
	}
	ingest := func(args ...string) (summary, string, int) {
		t.Helper()
		out, errOut, status := runPonte(t, "", append([]string{"ingest", "--json"}, args...)...)
		var s summary
		if status == exitOK {
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("%v: %v: %s", args, err, out)
			}
		}
		return s, errOut, status
	}
	if s, errOut, status := ingest("--db", "big.db", sampleLeague); status != exitOK || s.Parquet.Dir != "big.parquet" || s.Parquet.Games != 17 {
		t.Fatalf("big.db: exit status %d, %+v: %s", status, s, errOut)
	}
	if s, errOut, status := ingest("--db", "a.db", fixtureAbs); status != exitOK || s.Parquet.Dir != "a.parquet" || s.Parquet.Games != 14 {
		t.Fatalf("a.db: exit status %d, %+v: %s", status, s, errOut)
	}
	if got := names(t, dir); got != "a.db a.parquet big.db big.parquet" {
		t.Errorf("files %q", got)
	}
	if got := names(t, "big.parquet"); got != store.MarkerName+" games.parquet tags.parquet turns.parquet" {
		t.Errorf("big.parquet holds %q", got)
	}
	var m struct {
		Database   string
		DatabaseID string `json:"database_id"`
	}
	b, _ := os.ReadFile(filepath.Join("big.parquet", store.MarkerName))
	if err := json.Unmarshal(b, &m); err != nil || m.Database != filepath.Join(dir, "big.db") || len(m.DatabaseID) != 32 {
		t.Errorf("marker %s: %v", b, err)
	}
	snapshot := func() string {
		var b strings.Builder
		for _, name := range []string{store.MarkerName, "games.parquet", "turns.parquet"} {
			data, _ := os.ReadFile(filepath.Join("big.parquet", name))
			b.Write(data)
		}
		return b.String()
	}
	before := snapshot()
	_, errOut, status := ingest("--db", "a.db", "--parquet", "big.parquet", sampleLeague)
	if status != exitUsage || !strings.Contains(errOut, "big.parquet holds the Parquet files of another database, "+filepath.Join(dir, "big.db")) ||
		!strings.Contains(errOut, "with --parquet DIR, or remove big.parquet first") {
		t.Errorf("a.db into big.db's folder: exit status %d: %s", status, errOut)
	}
	if snapshot() != before {
		t.Error("big.db's Parquet files were changed")
	}
	if s, errOut, status := ingest("--db", "a.db", fixtureAbs); status != exitOK || s.Games != 0 || !s.Parquet.UpToDate {
		t.Errorf("a.db after the refusal: exit status %d, %+v (league stored?): %s", status, s, errOut)
	}
	os.Mkdir("notes", 0o777)
	os.WriteFile(filepath.Join("notes", "x.txt"), []byte("mine"), 0o644)
	_, errOut, status = ingest("--db", "a.db", "--parquet", "notes", fixtureAbs)
	if status != exitUsage || !strings.Contains(errOut, "notes holds files that ponte did not write (x.txt)") {
		t.Errorf("a folder of other files: exit status %d: %s", status, errOut)
	}
	if got := names(t, "notes"); got != "x.txt" {
		t.Errorf("notes holds %q", got)
	}
	// analyze refuses the same way.
	_, errOut, status = runPonte(t, "", "analyze", "--quiet", "--db", "a.db", "--parquet", "big.parquet", "--out", "r", fixtureAbs)
	if status != exitUsage || !strings.Contains(errOut, "ponte analyze: not this database's Parquet folder: big.parquet holds the Parquet files of another database") {
		t.Errorf("analyze into another database's folder: exit status %d: %s", status, errOut)
	}
}
