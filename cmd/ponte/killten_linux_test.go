//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// Issue 31, "kill -9 at ten random instants": ingest (with its Parquet folder), annotate
// and atlas run, each killed by SIGKILL at ten uniformly random instants of a run. After
// each kill the database holds whole games, no reading or atlas game twice, and the
// Parquet folder one state; a rerun then ends identical to a run never killed, with no
// temporary file left. A run that ends before its kill is checked against the clean run
// and started again from the beginning, so that every kill meets work.
//
// On c9535bc it failed at the first kill during the Parquet write: games.parquet of the
// new state beside turns.parquet of the old (finding 1).
func TestKillTen(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for about a minute")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 31))
	samples, err := filepath.Abs("../../sample_data")
	if err != nil {
		t.Fatal(err)
	}
	// The first state of the ingest's scenario: two archives stored, their Parquet files
	// written, so that a kill during the switch meets an old state and a new one.
	firstFiles := []string{filepath.Join(samples, "autumn-league.ponte"), filepath.Join(samples, "selfplay-10x10-greedy-random.jsonl.zst")}

	t.Run("ingest", func(t *testing.T) {
		setup := func(t *testing.T, db string) {
			mustRun(t, append([]string{"ingest", "--quiet", "--db", db}, firstFiles...)...)
		}
		args := func(db string) []string {
			return []string{"ingest", "--quiet", "--workers", "1", "--db", db, samples}
		}
		killTen(t, rng, setup, args, func(t *testing.T, db string) string {
			checkWholeGames(t, db)
			return digest(t, db) + " " + parquetFolderState(t, db)
		}, func(t *testing.T, db string) {
			checkWholeGames(t, db)
			parquetFolderState(t, db)
		})
	})

	t.Run("annotate", func(t *testing.T) {
		setup := func(t *testing.T, db string) {
			mustRun(t, "ingest", "--quiet", "--db", db, samples)
		}
		args := func(db string) []string {
			return []string{"annotate", "--quiet", "--workers", "1", "--budget", "20", "--population", "people", "--db", db}
		}
		killTen(t, rng, setup, args, func(t *testing.T, db string) string {
			return rowsDigest(t, db, "SELECT * FROM turn_evals ORDER BY game_id, bot, turn") + " " + parquetFolderState(t, db)
		}, func(t *testing.T, db string) {
			wholeReadings(t, db)
			parquetFolderState(t, db)
		})
	})

	t.Run("atlas", func(t *testing.T) {
		args := func(db string) []string {
			return []string{"atlas", "run", "--quiet", "--workers", "1", "--db", db, "--size", "5", "--bot", "sage-10",
				"--first", "4", "--max", "16", "--confirm", "8", "--candidates", "2"}
		}
		killTen(t, rng, func(*testing.T, string) {}, args, func(t *testing.T, db string) string {
			out, errOut, status := runPonte(t, "", "atlas", "show", "--json", "--db", db)
			if status != exitOK {
				t.Fatalf("atlas show: exit status %d: %s", status, errOut)
			}
			return out + rowsDigest(t, db, "SELECT * FROM atlas_games ORDER BY stage, class, idx")
		}, func(t *testing.T, db string) {
			if _, err := os.Stat(db); err != nil {
				return // killed before the file was made
			}
			atlasGamesOnce(t, db)
		})
	})
}

// killTen runs the command args(db) to its end on a database that setup prepared, then
// kills it ten times at uniformly random instants of such a run, each time checking what
// it left with check; it then runs it once more to its end and compares state(db) with
// the clean run's. Each run that ends before its kill is compared too, and the scenario
// starts again on a new database.
func killTen(t *testing.T, rng *rand.Rand, setup func(*testing.T, string), args func(string) []string,
	state func(*testing.T, string) string, check func(*testing.T, string)) {
	dir := t.TempDir()
	// Every run is in the same folder, so that paths stored are the same.
	fresh := func() string {
		sub := filepath.Join(dir, "run")
		if err := os.RemoveAll(sub); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(sub, "p.db")
		setup(t, db)
		return db
	}
	ref := fresh()
	start := time.Now()
	mustRun(t, args(ref)...)
	full := time.Since(start)
	want := state(t, ref)
	noTemporaries(t, filepath.Dir(ref))

	db := fresh()
	var log []string
	for kills, runs := 0, 0; kills < 10 && runs < 40; runs++ {
		cmd := ponteProcess(t, args(db)...)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		delay := time.Duration(rng.Int64N(int64(full)))
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: %v: %s", runs, err, cmd.Stderr.(*bytes.Buffer))
			}
			if got := state(t, db); got != want {
				t.Fatalf("a run that ended after %d kills differs from a clean one:\n%s\nwant\n%s", kills, got, want)
			}
			log = append(log, "ended first")
			db = fresh()
		case <-time.After(delay):
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
			check(t, db)
			log = append(log, fmt.Sprintf("killed at %v", delay.Round(time.Millisecond)))
		}
	}
	t.Logf("a clean run %v: %s", full.Round(time.Millisecond), strings.Join(log, "; "))
	mustRun(t, args(db)...)
	if got := state(t, db); got != want {
		t.Errorf("killed and rerun differs from a clean run:\n%s\nwant\n%s", got, want)
	}
	noTemporaries(t, filepath.Dir(db))
}

// mustRun runs ponte in a process of its own and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) {
	t.Helper()
	cmd := ponteProcess(t, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ponte %s: %v: %s", strings.Join(args, " "), err, cmd.Stderr.(*bytes.Buffer))
	}
}

// noTemporaries fails when dir or the Parquet folder in it holds anything but the
// database, its folder and their files.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	var extra []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		switch {
		case err != nil:
			extra = append(extra, rel+": "+err.Error())
		case rel == ".", rel == "p.db", rel == "p.parquet", rel == "p.parquet/.ponte-database.json":
		case filepath.Dir(rel) == "p.parquet" && !strings.HasPrefix(d.Name(), ".") && strings.HasSuffix(d.Name(), ".parquet"):
		default:
			extra = append(extra, rel)
		}
		return nil
	})
	if len(extra) > 0 {
		t.Errorf("left in %s: %s", dir, strings.Join(extra, ", "))
	}
}

// parquetColumns reads the named columns of the Parquet file at path, as text, row by
// row; nil when there is no file.
func parquetColumns(t *testing.T, path string, names ...string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	idx := make([]int, len(names))
	for i, name := range names {
		leaf, ok := pf.Schema().Lookup(name)
		if !ok {
			t.Fatalf("%s: no column %s", path, name)
		}
		idx[i] = leaf.ColumnIndex
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	var out [][]string
	buf := make([]parquet.Row, 256)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			vals := make([]string, len(names))
			for _, v := range row {
				for i, c := range idx {
					if v.Column() == c {
						vals[i] = v.String()
					}
				}
			}
			out = append(out, vals)
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

// parquetFolderState checks that the Parquet folder of the database db holds one state:
// every turn belongs to a game of games.parquet and adds up to its turns, every tag and
// reading belongs to one of its games. It returns a digest of the folder's files.
func parquetFolderState(t *testing.T, db string) string {
	t.Helper()
	dir := strings.TrimSuffix(db, ".db") + ".parquet"
	games := parquetColumns(t, filepath.Join(dir, "games.parquet"), "id", "game_id", "turns")
	turns := parquetColumns(t, filepath.Join(dir, "turns.parquet"), "game")
	tags := parquetColumns(t, filepath.Join(dir, "tags.parquet"), "game_id")
	evals := parquetColumns(t, filepath.Join(dir, "turn_evals.parquet"), "game_id")
	want := map[string]int{}
	ids := map[string]bool{}
	for _, g := range games {
		var n int
		fmt.Sscan(g[2], &n)
		want[g[0]] = n
		ids[g[1]] = true
	}
	got := map[string]int{}
	for _, r := range turns {
		got[r[0]]++
	}
	for id, n := range got {
		if want[id] != n {
			t.Fatalf("%s: turns.parquet has %d turns of game %s, games.parquet %d: two states", dir, n, id, want[id])
		}
	}
	for id, n := range want {
		if got[id] != n {
			t.Fatalf("%s: games.parquet says game %s has %d turns, turns.parquet %d: two states", dir, id, n, got[id])
		}
	}
	for _, rows := range [][][]string{tags, evals} {
		for _, r := range rows {
			if !ids[r[0]] {
				t.Fatalf("%s: a tag or reading of game %s, which games.parquet lacks: two states", dir, r[0])
			}
		}
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".parquet") {
			names = append(names, e.Name()+":"+parquetRows(t, filepath.Join(dir, e.Name()))[:8])
		}
	}
	return strings.Join(names, " ")
}

// parquetRows is a digest of every value of the Parquet file at path, row by row (not of
// its bytes, which hold the time it was written).
func parquetRows(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	h := sha256.New()
	buf := make([]parquet.Row, 256)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			for _, v := range row {
				fmt.Fprintf(h, "%d:%s\t", v.Column(), v.String())
			}
			fmt.Fprintln(h)
		}
		if err == io.EOF {
			return hex.EncodeToString(h.Sum(nil))
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

// wholeReadings checks that every game with readings has them for each of its turns once.
func wholeReadings(t *testing.T, db string) {
	t.Helper()
	d := openRW(t, db)
	defer d.Close()
	var tables int64
	d.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'turn_evals'").Scan(&tables)
	if tables == 0 {
		return
	}
	for q, want := range map[string]int64{
		`SELECT count(*) FROM (SELECT e.game_id, e.bot FROM turn_evals e GROUP BY e.game_id, e.bot
		   HAVING count(*) != (SELECT turns FROM games g WHERE g.game_id = e.game_id))`: 0,
	} {
		if got := queryInt(t, d, q); got != want {
			t.Fatalf("%s: %d, want %d", q, got, want)
		}
	}
}

// atlasGamesOnce checks that a killed atlas run left a file that opens, with no game
// stored twice.
func atlasGamesOnce(t *testing.T, db string) {
	t.Helper()
	d := openRW(t, db)
	defer d.Close()
	var ok string
	if err := d.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	var tables int64
	d.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'atlas_games'").Scan(&tables)
	if tables == 0 {
		return
	}
	if n := queryInt(t, d, `SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT stage, class, idx FROM atlas_games)) FROM atlas_games`); n != 0 {
		t.Fatalf("%d atlas games stored twice", n)
	}
}
