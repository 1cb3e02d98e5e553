package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// timings masks the times and rates of a summary, which change from run to run.
var timings = regexp.MustCompile(`[0-9][0-9.,]* s \([0-9.,]+ games/s, [0-9,]+ rows/s\)|[0-9][0-9.,]* s$`)

func maskTimes(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, timings.ReplaceAllStringFunc(l, func(m string) string {
			if strings.Contains(m, "games/s") {
				return "T s (G games/s, R rows/s)"
			}
			return "T s"
		}))
	}
	return strings.Join(lines, "\n")
}

// openDB opens a database that ponte ingest wrote, for reading.
func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryInt(t *testing.T, db *sql.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// The README's command: the sample data fills the database and the Parquet files, with
// the same verdicts as ponte verify; running it again adds nothing.
func TestIngestSampleData(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ponte.db")
	pq := filepath.Join(dir, "parquet")
	out, errOut, status := runPonte(t, "", "ingest", "--db", db, "--parquet", pq, "../../sample_data")
	if status != exitOK {
		t.Errorf("exit status %d, want %d (sample_data's illegal games are findings, not a failure)", status, exitOK)
	}
	if out != "" {
		t.Errorf("standard output %q, want nothing", out)
	}
	again, errAgain, status := runPonte(t, "", "ingest", "--db", db, "--parquet", pq, "../../sample_data")
	if status != exitOK || again != "" {
		t.Errorf("second run: exit status %d, output %q", status, again)
	}
	got := strings.ReplaceAll(maskTimes(errOut+"-- again --\n"+errAgain), dir, "DIR")
	golden(t, "ingest-sample_data.txt", got)

	d := openDB(t, db)
	if n := queryInt(t, d, "SELECT count(*) FROM games"); n != 3304 {
		t.Errorf("%d games stored, want 3304 (3305 records, one duplicate)", n)
	}
	for _, name := range []string{"games.parquet", "turns.parquet"} {
		if info, err := os.Stat(filepath.Join(pq, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// --json prints the summary as one JSON object on standard output.
func TestIngestJSON(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "pq")
	out, errOut, status := runPonte(t, "", "ingest", "--json", "--db", filepath.Join(dir, "p.db"), "--parquet", pq, "../../sample_data/autumn-league.ponte")
	if status != exitOK || errOut != "" {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
	var r struct {
		DB                                            string
		Files, Games, New, Legal, Illegal, Unreadable int
		Duplicates                                    *int
		TurnRows                                      int64 `json:"turn_rows"`
		Parquet                                       struct {
			Dir          string
			Games, Turns int64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Files != 1 || r.Games != 17 || r.New != 17 || r.Duplicates == nil || *r.Duplicates != 0 || r.Legal != 5 || r.Illegal != 11 ||
		r.Unreadable != 1 || r.TurnRows == 0 || r.Parquet.Dir != pq || r.Parquet.Games != 17 || r.Parquet.Turns != r.TurnRows {
		t.Errorf("summary %s", out)
	}
}

func TestIngestUsage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest"}, "requires at least 1 arg"},
		{[]string{"ingest", "--db", db, "--workers", "0", "../../sample_data"}, "--workers must be from 1 to 256"},
		{[]string{"ingest", "--db", db, "../../sample_data/no-such-file"}, "no-such-file"},
		{[]string{"ingest", "--db", dir, "../../sample_data/autumn-league.ponte"}, dir},
		{[]string{"ingest", "--db", "../../sample_data/autumn-league.ponte", "../../sample_data/autumn-league.ponte"}, "not a database"},
	} {
		out, errOut, status := runPonte(t, "", c.args...)
		if status != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit status %d, output %q, standard error %q (want %q)", c.args, status, out, errOut, c.want)
		}
	}
	// A file that cannot be read: the others are stored, the exit status says 2.
	bad := filepath.Join(dir, "notes.txt")
	os.WriteFile(bad, []byte("not games\n"), 0o644)
	_, errOut, status := runPonte(t, "", "ingest", "--db", db, bad, "../../sample_data/club-2025.ponte.gz")
	if status != exitUsage || !strings.Contains(errOut, "notes.txt: unknown record format") || !strings.Contains(errOut, "17 games: 17 new") {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
}

// Standard input is read with "-".
func TestIngestStdin(t *testing.T) {
	text, err := os.ReadFile("../../sample_data/online-site.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "p.db")
	_, errOut, status := runPonte(t, string(text), "ingest", "--db", db, "-")
	if status != exitOK || !strings.HasPrefix(errOut, "10 games: 10 new, 0 duplicates; 4 legal, 5 illegal, 1 unreadable\n") {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
	if n := queryInt(t, openDB(t, db), "SELECT count(*) FROM sources WHERE path = '-' AND status = 'complete' AND sha256 IS NOT NULL"); n != 1 {
		t.Errorf("%d complete sources rows for standard input", n)
	}
}

// Without a terminal there is no progress bar: standard error holds the summary alone. The
// Parquet files go, by default, to a folder beside the database named after it.
func TestIngestNoProgressBarOnPipe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	_, errOut, _ := runPonte(t, "", "ingest", "--db", db, "../../sample_data/autumn-league.ponte")
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "17 games: ") || !strings.HasPrefix(lines[2], "parquet: ") || strings.Contains(errOut, "\r") || strings.Contains(errOut, "\x1b") {
		t.Errorf("standard error %q, want the summary's three lines (games, files, parquet)", errOut)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db), "p.parquet", "turns.parquet")); err != nil {
		t.Errorf("no Parquet beside the database: %v", err)
	}
	_, errOut, _ = runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, "../../sample_data/autumn-league.ponte")
	if errOut != "" {
		t.Errorf("--quiet: standard error %q", errOut)
	}
}

// `ponte ingest .` in the directory of the database does not read the database, its -wal
// and -shm files or the Parquet files beside it: each is a note, the exit status is that
// of the games. (Before, it read them as inputs: "unknown record format", exit status 2.)
func TestIngestDotSkipsOwnOutputs(t *testing.T) {
	t.Chdir(t.TempDir())
	text, err := os.ReadFile(sampleLeague)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("league.ponte", text, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runPonte(t, "", "ingest", ".")
	for _, want := range []string{
		"ponte ingest: note: ponte.db: the database being written, not read\n",
		"17 games: 17 new",
		"\n1 file; ",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("first run: standard error lacks %q:\n%s", want, errOut)
		}
	}
	if status != exitOK {
		t.Errorf("first run: exit status %d, want %d: %s", status, exitOK, errOut)
	}
	_, errOut, status = runPonte(t, "", "ingest", ".")
	for _, want := range []string{
		"ponte ingest: note: ponte.parquet/games.parquet: the Parquet output of the database being written, not read\n",
		"ponte ingest: note: ponte.parquet/turns.parquet: the Parquet output of the database being written, not read\n",
		"ponte ingest: note: ponte.db: the database being written, not read\n",
		"1 file (1 already ingested, skipped)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("second run: standard error lacks %q:\n%s", want, errOut)
		}
	}
	if status != exitOK || strings.Contains(errOut, "unknown record format") {
		t.Errorf("second run: exit status %d: %s", status, errOut)
	}
}

// sampleLeague is the autumn league, from this package's directory.
var sampleLeague, _ = filepath.Abs("../../sample_data/autumn-league.ponte")

// The temporary Parquet files of a killed run are removed by the next run, with a note;
// nothing else in the directory is touched.
func TestIngestRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	pq := filepath.Join(dir, "p.parquet")
	os.Mkdir(pq, 0o777)
	old := time.Now().Add(-time.Minute)
	names := map[string]bool{ // removed?
		".games.parquet.0a1b2c3d.tmp":  true,
		".turns.parquet.99999999.tmp":  true,
		".turns.parquet.99999999.tmp~": false,
		".games.parquet.tmp":           false,
	}
	for name := range names {
		p := filepath.Join(pq, name)
		if err := os.WriteFile(p, []byte("PAR1 half written"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	_, errOut, status := runPonte(t, "", "ingest", "--db", db, "../../sample_data/autumn-league.ponte")
	if status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	for name, removed := range names {
		_, err := os.Stat(filepath.Join(pq, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
		note := "ponte ingest: note: " + filepath.Join(pq, name) + ": removed, a temporary file left by a run that was stopped\n"
		if strings.Contains(errOut, note) != removed {
			t.Errorf("standard error %q: note of %s %v, want %v", errOut, name, !removed, removed)
		}
	}
	for _, name := range []string{"games.parquet", "turns.parquet"} {
		if _, err := os.Stat(filepath.Join(pq, name)); err != nil {
			t.Error(err)
		}
	}
}

// A database that fails SQLite's quick_check is refused with exit status 2 and a message
// saying how to recover; nothing is read into it. (Before, ingest appended to it.)
func TestIngestCorruptDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	if _, errOut, status := runPonte(t, "", "ingest", "--quiet", "--no-parquet", "--db", db, "../../sample_data/selfplay-12x12-greedy.ponte.zst"); status != exitOK {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	mid := len(b) / 4096 / 2 * 4096
	for i := mid; i < mid+3*4096 && i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runPonte(t, "", "ingest", "--db", db, "../../sample_data/autumn-league.ponte")
	if status != exitUsage || out != "" || !strings.HasPrefix(errOut, "ponte ingest: database is damaged: "+db+" fails SQLite's quick_check: ") ||
		!strings.Contains(errOut, "sqlite3 "+db+" .recover") || strings.Contains(errOut, "17 games") {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(after, b) {
		t.Errorf("the damaged database was changed")
	}
}
