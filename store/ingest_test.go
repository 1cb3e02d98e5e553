package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	autumn = "../sample_data/autumn-league.ponte"
	online = "../sample_data/online-site.jsonl"
	club   = "../sample_data/club-2025.ponte.gz"
)

func ingestInto(t *testing.T, d *DB, opts Options, paths ...string) *Summary {
	t.Helper()
	sum, err := d.Ingest(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// dump returns the rows of a query, one line each, values separated by " | ", NULL for
// NULL.
func dump(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			switch v := v.(type) {
			case nil:
				b.WriteString("NULL")
			case []byte:
				b.Write(v)
			default:
				fmt.Fprint(&b, v)
			}
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func count(t *testing.T, db *sql.DB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("differs from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// The hand-made records, legal, illegal and unreadable, stored exactly: the games, the
// turns of one game of each kind, the tags, the sources. A golden file.
func TestIngestHandMade(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{Workers: 3}, autumn, online)
	if sum.Games != 27 || sum.New != 27 || sum.Legal != 9 || sum.Illegal != 16 || sum.Unreadable != 2 || len(sum.Errors) != 0 {
		t.Errorf("summary %+v", sum)
	}
	var b strings.Builder
	b.WriteString("-- games\n")
	b.WriteString(dump(t, d.db, `SELECT id, game_id, source_id, replace(source, '../sample_data/', ''), file_index, line, format,
		event, site, date, round, record_id, light, dark, opener, swapped, size, supply, claimed_result, termination,
		claimed_score_light, claimed_score_dark, legal, unreadable, error_rule, error_turn, error_line, error_col, error_message,
		tag_errors, turns, over, result, winner, tiebreak, score_light, score_dark, islands_light, islands_dark, bridges_light, bridges_dark,
		margin, opening_a, opening_b, length(moves), substr(moves, 1, 24), length(raw), duplicates FROM games ORDER BY id`))
	b.WriteString("-- turns of games 1 (legal), 2 (swap) and 5 (illegal at turn 42): first 8 and last 3 of each\n")
	b.WriteString(dump(t, d.db, `SELECT * FROM turns WHERE game IN (1, 2, 5) AND (turn <= 8 OR turn > (SELECT turns FROM games WHERE id = game) - 3) ORDER BY game, turn`))
	b.WriteString("-- bridges of game 1\n")
	b.WriteString(dump(t, d.db, `SELECT * FROM turns WHERE game = 1 AND kind = 'bridge' ORDER BY turn`))
	b.WriteString("-- tags of games 1, 16 (unreadable) and 17 (JSON Lines)\n")
	b.WriteString(dump(t, d.db, `SELECT * FROM tags WHERE game IN (1, 16, 17) ORDER BY game, seq`))
	b.WriteString("-- raw text of game 16 (unreadable) and game 11 (R8)\n")
	b.WriteString(dump(t, d.db, `SELECT raw FROM games WHERE id IN (11, 16) ORDER BY id`))
	b.WriteString("-- sources\n")
	b.WriteString(dump(t, d.db, `SELECT id, replace(path, '../sample_data/', ''), size, sha256, status, records, new, duplicates, legal, illegal, unreadable, error,
		finished IS NOT NULL FROM sources ORDER BY id`))
	golden(t, "hand-made.txt", b.String())

	// Every game has its turns; the verdicts agree with ponte verify's (the counts above).
	if n := count(t, d.db, `SELECT count(*) FROM games g WHERE turns != (SELECT count(*) FROM turns WHERE game = g.id)`); n != 0 {
		t.Errorf("%d games whose turns rows are not games.turns", n)
	}
	if n := count(t, d.db, `SELECT count(*) FROM games WHERE legal = (raw IS NOT NULL) OR legal = (error_rule IS NOT NULL)`); n != 0 {
		t.Errorf("%d games with raw text or an error rule that disagree with legal", n)
	}
}

// Records that cannot be read are stored with their verdict and their text as read;
// illegal records with their text written back.
func TestIngestUnreadable(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	path := filepath.Join(t.TempDir(), "bad.ponte")
	text := "[Event \"one\"]\n\n1. a1,b1 2. c3,c4 *\n\n[Event \"two\"]\n[Size \"ten\"]\n\n1. a1,b1 *\n\n" +
		"[Event \"three\"]\n\n1. a1,b1 2. } c3,c4 *\n\n[Event \"four\"]\n\n1. a1,b1 2. a1,c4 *\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := ingestInto(t, d, Options{}, path)
	if sum.Games != 4 || sum.Unreadable != 2 || sum.Illegal != 1 || sum.Legal != 1 {
		t.Fatalf("summary %+v", sum)
	}
	got := dump(t, d.db, `SELECT file_index, legal, unreadable, error_rule, error_line, error_col, turns, raw FROM games ORDER BY id`)
	want := "1 | 1 | 0 | NULL | NULL | NULL | 2 | NULL\n" +
		"2 | 0 | 1 | format | 6 | 7 | 0 | [Event \"two\"]\n[Size \"ten\"]\n\n1. a1,b1 *\n\n" +
		"3 | 0 | 1 | R9 | 12 | 13 | 0 | [Event \"three\"]\n\n1. a1,b1 2. } c3,c4 *\n\n" +
		"4 | 0 | 0 | R3 | 16 | 13 | 1 | [Event \"four\"]\n\n1. a1,b1 2. a1,c4 *\n\n\n"
	if got != want {
		t.Errorf("stored\n%q\nwant\n%q", got, want)
	}
}

// The same game from two files, or twice in one file, is stored once; games keeps the
// first source and counts the others. A file given twice, or whose content was ingested
// before, is skipped.
func TestIngestDuplicates(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.ponte")
	b := filepath.Join(dir, "b.jsonl")
	write(t, a, "[Event \"a1\"]\n\n1. a1,b1 2. c3,c4 *\n\n[Event \"a2\"]\n\n1. e5,e6 *\n\n[Event \"a3\"]\n\n1. a1,b1 2. c3,c4 *\n")
	write(t, b, `{"event": "b1", "moves": ["j1,j2"]}`+"\n"+`{"event": "b2", "moves": ["b1,a1", "c4,c3"]}`+"\n")
	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, a, b, a)
	if sum.Files != 3 || sum.Skipped != 1 || sum.Games != 5 || sum.New != 3 || sum.Duplicates != 2 {
		t.Errorf("summary %+v", sum)
	}
	got := dump(t, d.db, `SELECT id, event, source_id, file_index, duplicates FROM games ORDER BY id`)
	want := "1 | a1 | 1 | 1 | 2\n2 | a2 | 1 | 2 | 0\n3 | b1 | 2 | 1 | 0\n"
	if got != want {
		t.Errorf("games\n%swant\n%s", got, want)
	}
	got = dump(t, d.db, `SELECT id, records, new, duplicates, status FROM sources ORDER BY id`)
	want = "1 | 3 | 2 | 1 | complete\n2 | 2 | 1 | 1 | complete\n"
	if got != want {
		t.Errorf("sources\n%swant\n%s", got, want)
	}
	if n := count(t, d.db, "SELECT count(*) FROM turns"); n != 4 {
		t.Errorf("%d turns rows, want 4", n)
	}

	// Again, and a copy of a under another name: nothing is added.
	c := filepath.Join(dir, "c.ponte")
	copyFile(t, a, c)
	before := snapshot(t, d.db)
	sum = ingestInto(t, d, Options{}, a, b, c)
	if sum.Skipped != 3 || sum.Games != 0 || sum.Rows != 0 {
		t.Errorf("rerun summary %+v", sum)
	}
	if after := snapshot(t, d.db); after != before {
		t.Errorf("a rerun changed the database")
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

// snapshot is a digest of everything stored but the times of the sources rows.
func snapshot(t *testing.T, db *sql.DB) string {
	t.Helper()
	h := sha256.New()
	for _, q := range []string{
		"SELECT * FROM games ORDER BY id",
		"SELECT * FROM turns ORDER BY game, turn",
		"SELECT * FROM tags ORDER BY game, seq",
		"SELECT id, path, size, sha256, status, records, new, duplicates, legal, illegal, unreadable, error FROM sources ORDER BY id",
	} {
		h.Write([]byte(dump(t, db, q)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Ingesting all the sample data gives the counts of ponte verify; again adds nothing.
func TestIngestSampleDataRerun(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, "../sample_data")
	if sum.Files != 28 || sum.Games != 3305 || sum.Legal != 3286 || sum.Illegal != 17 || sum.Unreadable != 2 ||
		sum.New+sum.Duplicates != sum.Games || sum.Duplicates != 1 {
		t.Errorf("summary %+v", sum)
	}
	checkWhole(t, d.db)
	before := snapshot(t, d.db)
	sum = ingestInto(t, d, Options{}, "../sample_data")
	if sum.Skipped != 28 || sum.Games != 0 || sum.Rows != 0 {
		t.Errorf("rerun summary %+v", sum)
	}
	if snapshot(t, d.db) != before {
		t.Errorf("the rerun changed the database")
	}
}

// checkWhole checks that the database holds whole games: the turns rows of each game
// are numbered 1 … games.turns, and the counts of the sources add up.
func checkWhole(t *testing.T, db *sql.DB) {
	t.Helper()
	if got := dump(t, db, "PRAGMA integrity_check"); got != "ok\n" {
		t.Errorf("integrity_check: %s", got)
	}
	if n := count(t, db, `SELECT count(*) FROM games g WHERE turns != (SELECT count(*) FROM turns WHERE game = g.id)
		OR turns != coalesce((SELECT max(turn) FROM turns WHERE game = g.id), 0)`); n != 0 {
		t.Errorf("%d games without all their turns", n)
	}
	if n := count(t, db, `SELECT count(*) FROM turns WHERE game NOT IN (SELECT id FROM games)`); n != 0 {
		t.Errorf("%d turns of no game", n)
	}
	if n := count(t, db, `SELECT (SELECT sum(new) FROM sources) - (SELECT count(*) FROM games)`); n != 0 {
		t.Errorf("sources count %d more new games than games holds", n)
	}
	if n := count(t, db, `SELECT (SELECT sum(duplicates) FROM sources) - (SELECT sum(duplicates) FROM games)`); n != 0 {
		t.Errorf("sources count %d more duplicates than games", n)
	}
}

// An ingest stopped in the middle (its context cancelled) stores whole games; the same
// ingest again finishes the job, and the database is the one a single ingest makes.
func TestIngestInterruptedAndResumed(t *testing.T) {
	paths := []string{autumn, "../sample_data/selfplay-10x10-greedy-random.jsonl.zst", club, autumn, online,
		"../sample_data/selfplay-12x12-greedy.ponte.zst"}
	clean := openTemp(t)
	ingestInto(t, clean, Options{}, paths...)
	want := snapshot(t, clean.db)
	clean.Close()

	for _, stopAt := range []int{1, 90, 140, 400} {
		t.Run(fmt.Sprint("stop at ", stopAt), func(t *testing.T) {
			d := openTemp(t)
			defer d.Close()
			ctx, cancel := context.WithCancel(context.Background())
			// Transactions of 50 games: several per file.
			sum, err := d.Ingest(ctx, paths, Options{CommitGames: 50, Progress: func(p Progress) {
				if p.Games >= stopAt {
					cancel()
				}
			}})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if !sum.Interrupted || sum.Games >= 543 {
				t.Fatalf("not interrupted: %+v", sum)
			}
			checkWhole(t, d.db)
			sum = ingestInto(t, d, Options{}, paths...)
			if sum.Interrupted || sum.Resumed != 1 {
				t.Errorf("resumed run: %+v", sum)
			}
			checkWhole(t, d.db)
			if got := snapshot(t, d.db); got != want {
				t.Errorf("interrupted and resumed ingest differs from a clean one")
			}
		})
	}
}

// Standard input is always read (it has no name to remember it by); its games already
// stored count as duplicates, and its sources row gets the hash of what was read.
func TestIngestStdin(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	text, err := os.ReadFile(autumn)
	if err != nil {
		t.Fatal(err)
	}
	sum := ingestInto(t, d, Options{Stdin: bytes.NewReader(text)}, "-")
	if sum.Games != 17 || sum.New != 17 {
		t.Fatalf("summary %+v", sum)
	}
	sum = ingestInto(t, d, Options{Stdin: bytes.NewReader(text)}, "-")
	if sum.Games != 17 || sum.New != 0 || sum.Duplicates != 17 {
		t.Errorf("second summary %+v", sum)
	}
	hash := sha256.Sum256(text)
	got := dump(t, d.db, "SELECT path, size, sha256, status, records FROM sources ORDER BY id")
	row := fmt.Sprintf("- | %d | %x | complete | 17\n", len(text), hash)
	if got != row+row {
		t.Errorf("sources\n%swant twice\n%s", got, row)
	}
	// A file with that content was ingested (from standard input): skipped.
	sum = ingestInto(t, d, Options{}, autumn)
	if sum.Skipped != 1 || sum.Games != 0 {
		t.Errorf("file after stdin: %+v", sum)
	}
}

// A file that cannot be read to its end is stored as far as it can be read, reported,
// and marked failed; the other files are ingested. A path that does not exist stops the
// ingest before anything is stored.
func TestIngestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := "[Event \"g\"]\n\n1. a1,b1 *\n\n[Event \"h\"]\n\n1. c1,d1 *\n"
	var z bytes.Buffer
	zw, _ := zstd.NewWriter(&z)
	zw.Write([]byte(good + strings.Repeat("\n[Event \"more\"]\n\n1. a1,b1 2. c3,c4 3. e5,e6 *\n", 20000)))
	zw.Close()
	corrupt := z.Bytes()[:z.Len()*2/3]
	write(t, filepath.Join(dir, "a-corrupt.ponte.zst"), string(corrupt))
	write(t, filepath.Join(dir, "b-notes.txt"), "these are not games\n")
	write(t, filepath.Join(dir, "c-good.ponte"), good)

	d := openTemp(t)
	defer d.Close()
	sum := ingestInto(t, d, Options{}, dir)
	if len(sum.Errors) != 2 || sum.Files != 3 {
		t.Fatalf("summary %+v", sum)
	}
	for i, want := range []string{"a-corrupt.ponte.zst", "b-notes.txt: unknown record format"} {
		if !strings.Contains(sum.Errors[i], want) {
			t.Errorf("error %q does not name %q", sum.Errors[i], want)
		}
	}
	got := dump(t, d.db, "SELECT replace(path, ?, ''), status, error IS NOT NULL, records > 0 FROM sources ORDER BY id", dir+"/")
	want := "a-corrupt.ponte.zst | failed | 1 | 1\nb-notes.txt | failed | 1 | 0\nc-good.ponte | complete | 0 | 1\n"
	if got != want {
		t.Errorf("sources\n%swant\n%s", got, want)
	}
	// Again: the failed files are tried again (and fail again), nothing is added.
	before := snapshot(t, d.db)
	sum = ingestInto(t, d, Options{}, dir)
	if len(sum.Errors) != 2 || sum.Skipped != 1 || sum.Resumed != 2 || sum.New != 0 {
		t.Errorf("second summary %+v", sum)
	}
	if snapshot(t, d.db) != before {
		t.Errorf("the second ingest changed the database")
	}

	if _, err := d.Ingest(context.Background(), []string{dir, filepath.Join(dir, "missing")}, Options{}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing path: %v", err)
	}
}

// A second writer of the same database is refused at once with ErrBusy, whatever opens
// it; readers are not.
func TestOpenBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "database is busy") {
		t.Fatalf("second Open: %v, want ErrBusy", err)
	}
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, r, "SELECT count(*) FROM games"); n != 0 {
		t.Errorf("%d games", n)
	}
	r.Close()
	d.Close()
	d, err = Open(path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	d.Close()
}

// Another program holding SQLite's write lock longer than the busy timeout makes the
// ingest fail with ErrBusy, having stored nothing.
func TestIngestBusySQLite(t *testing.T) {
	defer func(ms int) { busyTimeout = ms }(busyTimeout)
	busyTimeout = 100
	path := filepath.Join(t.TempDir(), "p.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	other, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO sources (path, size, started, status, records, new, duplicates, legal, illegal, unreadable) VALUES ('x', 0, '', 'partial', 0, 0, 0, 0, 0, 0)"); err != nil {
		t.Fatal(err)
	}
	_, err = d.Ingest(context.Background(), []string{autumn}, Options{})
	if err == nil || !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), path+": database is busy") {
		t.Errorf("ingest while another program writes: %v, want ErrBusy naming the database", err)
	}
	tx.Rollback()
	ingestInto(t, d, Options{}, autumn)
}
