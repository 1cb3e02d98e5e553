//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ponteProcess starts the ponte command in a process of its own (the test binary, see
// TestMain), with transactions of 100 games.
func ponteProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PONTE_TEST_MAIN=1", "PONTE_TEST_COMMIT_GAMES=100")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// openRW opens a database as another program would after a crash: read-write, so that
// SQLite can recover the write-ahead log a killed writer left.
func openRW(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// checkWholeGames checks a database that a killed ingest left: it opens, it is sound,
// and it holds whole games only, each with all its turns, with sources that count them.
func checkWholeGames(t *testing.T, path string) (games int64) {
	t.Helper()
	db := openRW(t, path)
	defer db.Close()
	var tables int64
	db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").Scan(&tables)
	if tables == 0 {
		return 0 // killed before the schema was committed
	}
	var ok string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	for q, want := range map[string]int64{
		`SELECT count(*) FROM games g WHERE turns != (SELECT count(*) FROM turns WHERE game = g.id)`: 0,
		`SELECT count(*) FROM turns WHERE game NOT IN (SELECT id FROM games)`:                        0,
		`SELECT count(*) FROM tags WHERE game NOT IN (SELECT id FROM games)`:                         0,
		`SELECT coalesce(sum(new), 0) - (SELECT count(*) FROM games) FROM sources`:                   0,
	} {
		if got := queryInt(t, db, q); got != want {
			t.Fatalf("%s: %d, want %d", q, got, want)
		}
	}
	return queryInt(t, db, "SELECT count(*) FROM games")
}

// digest is a digest of everything a database holds but the times in sources.
func digest(t *testing.T, path string) string {
	t.Helper()
	return rowsDigest(t, path,
		"SELECT * FROM games ORDER BY id",
		"SELECT * FROM turns ORDER BY game, turn",
		"SELECT * FROM tags ORDER BY game, seq",
		"SELECT id, path, size, sha256, status, records, new, duplicates, legal, illegal, unreadable, error FROM sources ORDER BY id")
}

// rowsDigest is a digest of every row the queries give, in their order, on the database
// at path.
func rowsDigest(t *testing.T, path string, queries ...string) string {
	t.Helper()
	db := openRW(t, path)
	defer db.Close()
	h := sha256.New()
	for _, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			rows.Scan(ptrs...)
			fmt.Fprintln(h, vals...)
		}
		rows.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Killing an ingest (SIGKILL) at random moments leaves a database that opens, with whole
// games only; running the ingest again finishes the job, and the database is the one a
// single uninterrupted ingest makes.
func TestIngestKillAndRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for a few seconds")
	}
	dir := t.TempDir()
	args := func(db string) []string {
		return []string{"ingest", "--quiet", "--workers", "1", "--db", db, "../../sample_data"}
	}
	// The reference: an ingest that runs to its end, timed.
	ref := filepath.Join(dir, "ref.db")
	start := time.Now()
	if err := ponteProcess(t, args(ref)...).Wait(); err != nil {
		t.Fatalf("clean ingest: %v", err)
	}
	full := time.Since(start)
	want := digest(t, ref)

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 7))
	var log []string
	db := filepath.Join(dir, "killed-0.db")
	for kills, runs := 0, 0; kills < 4 && runs < 12; runs++ {
		cmd := ponteProcess(t, args(db)...)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		delay := time.Duration(rng.Int64N(int64(full) * 7 / 10))
		select {
		case <-done: // finished before the kill came: it must be whole; start again
			if got := digest(t, db); got != want {
				t.Fatalf("an ingest finished after kills differs from a clean one (seed %d)", seed)
			}
			log = append(log, "finished")
			db = filepath.Join(dir, fmt.Sprintf("killed-%d.db", runs+1))
		case <-time.After(delay):
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
			log = append(log, fmt.Sprintf("killed after %v: %d games", delay.Round(time.Millisecond), checkWholeGames(t, db)))
		}
	}
	t.Logf("seed %d, a whole ingest %v: %s", seed, full.Round(time.Millisecond), strings.Join(log, "; "))
	_, errOut, status := runPonte(t, "", "ingest", "--db", db, "../../sample_data")
	if status != exitOK {
		t.Fatalf("rerun: exit status %d: %s", status, errOut)
	}
	if n := checkWholeGames(t, db); n != 3304 {
		t.Errorf("%d games after the rerun, want 3304", n)
	}
	if got := digest(t, db); got != want {
		t.Errorf("killed and rerun ingest differs from a clean one (seed %d)", seed)
	}
	// And once more: nothing to add.
	_, errOut, status = runPonte(t, "", "ingest", "--db", db, "../../sample_data")
	if status != exitOK || !strings.Contains(errOut, "(28 already ingested, skipped)") {
		t.Errorf("third run: exit status %d: %s", status, errOut)
	}
}

// holdsFlock reports whether process pid holds a flock on the file at path (/proc/locks).
func holdsFlock(t *testing.T, pid int, path string) bool {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return false
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Skip("no /proc/locks:", err)
	}
	for _, line := range strings.Split(string(locks), "\n") {
		f := strings.Fields(line)
		// "1: FLOCK  ADVISORY  WRITE 1234 fd:00:5678 0 EOF"
		if len(f) >= 6 && f[1] == "FLOCK" && f[4] == fmt.Sprint(pid) && strings.HasSuffix(f[5], fmt.Sprintf(":%d", st.Ino)) {
			return true
		}
	}
	return false
}

// Two ingests into one database at once: the second says at once that the database is
// busy (exit status 2) and writes nothing; the first finishes as if alone.
func TestIngestConcurrent(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	// The first ingest reads a FIFO before the samples: once it opens the FIFO, it holds
	// the lock, and it waits there until the FIFO is closed.
	fifo := filepath.Join(dir, "empty.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	first := ponteProcess(t, "ingest", "--quiet", "--workers", "1", "--db", db, fifo, "../../sample_data")
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the ingest opens it
	if err != nil {
		first.Process.Kill()
		t.Fatal(err)
	}
	if !holdsFlock(t, first.Process.Pid, db) {
		t.Error("the first ingest reads its inputs without the lock")
	}
	out, errOut, status := runPonte(t, "", "ingest", "--db", db, "../../sample_data/autumn-league.ponte")
	if status != exitUsage || out != "" || !strings.Contains(errOut, "database is busy") || !strings.Contains(errOut, fmt.Sprintf("ponte ingest (pid %d) is writing to it", first.Process.Pid)) {
		t.Errorf("second ingest: exit status %d, standard error %q", status, errOut)
	}
	w.Close()
	if err := first.Wait(); err != nil {
		t.Errorf("first ingest: %v, %s", err, first.Stderr.(*bytes.Buffer))
	}
	if n := checkWholeGames(t, db); n != 3304 {
		t.Errorf("%d games, want 3304", n)
	}
	_, errOut, status = runPonte(t, "", "ingest", "--db", db, "../../sample_data/autumn-league.ponte")
	if status != exitOK || !strings.Contains(errOut, "1 already ingested") {
		t.Errorf("after the first: exit status %d: %s", status, errOut)
	}
}

// On a terminal, standard error shows a progress bar (files done/total, games, games/s)
// before the summary; --quiet shows neither.
func TestIngestProgressBar(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprint("quiet=", quiet), func(t *testing.T) {
			args := []string{"ingest", "--db", filepath.Join(t.TempDir(), "p.db"),
				"../../sample_data/autumn-league.ponte", "../../sample_data/selfplay-10x10-greedy-random.jsonl.zst"}
			if quiet {
				args = append(args, "--quiet")
			}
			status, out, got := runOnTerminal(t, args...)
			if status != exitOK || out != "" {
				t.Fatalf("exit status %d, output %q, terminal %q", status, out, got)
			}
			if quiet {
				if got != "" {
					t.Errorf("terminal %q, want nothing", got)
				}
				return
			}
			for _, want := range []string{"ingest ", "2/2 files", "117 games", "games/s", "117 games: 117 new, 0 duplicates; 105 legal, 11 illegal, 1 unreadable"} {
				if !strings.Contains(got, want) {
					t.Errorf("terminal %q does not show %q", got, want)
				}
			}
		})
	}
}

// Inputs that can be read only once, through the real command: a named FIFO (ingest and
// analyze), a process substitution's /dev/fd/N, and /dev/stdin of a child process fed by
// a pipe. Their games are stored, and the same content as a file is then "already
// ingested" with every game there. (Before, each was read twice, to hash and to parse:
// "0 games", exit status 0, and the file was then skipped: its games never stored.)
func TestIngestPipes(t *testing.T) {
	const file = "../../sample_data/autumn-league.ponte"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fifo := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "games.fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip("no FIFO:", err)
		}
		go func() {
			if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				w.Write(text)
				w.Close()
			}
		}()
		return p
	}
	devFD := func(t *testing.T) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		go func() {
			w.Write(text)
			w.Close()
		}()
		return fmt.Sprintf("/dev/fd/%d", r.Fd())
	}
	stdin := func(*testing.T) string { return "/dev/stdin" }
	for _, c := range []struct {
		name    string
		input   func(t *testing.T) string
		analyze bool // ponte analyze, not ingest
		child   bool // in a child process whose standard input is a pipe
	}{
		{"ingest FIFO", fifo, false, false},
		{"analyze FIFO", fifo, true, false},
		{"ingest /dev/fd/N", devFD, false, false},
		{"child ingest /dev/stdin", stdin, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "p.db")
			args := []string{"ingest", "--db", db, c.input(t)}
			if c.analyze {
				args = []string{"analyze", "--db", db, "--out", filepath.Join(dir, "r"), args[3]}
			}
			done := make(chan struct{})
			var errOut string
			var status int
			var err error
			go func() {
				defer close(done)
				if !c.child {
					_, errOut, status = runPonte(t, "", args...)
					return
				}
				cmd := exec.Command(os.Args[0], args...)
				cmd.Env = append(os.Environ(), "PONTE_TEST_MAIN=1")
				cmd.Stdin = bytes.NewReader(text) // not a file: the child's standard input is a pipe
				var buf bytes.Buffer
				cmd.Stderr = &buf
				err = cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					status, err = ee.ExitCode(), nil
				}
				errOut = buf.String()
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("still running after a minute")
			}
			if err != nil {
				t.Fatal(err)
			}
			// The league holds illegal games: findings, stored, not a failure.
			if status != exitOK || !strings.Contains(errOut, "17 games: 17 new") {
				t.Fatalf("exit status %d, standard error %q", status, errOut)
			}
			_, errOut, status = runPonte(t, "", "ingest", "--db", db, file)
			if status != exitOK || !strings.Contains(errOut, "(1 already ingested, skipped)") {
				t.Errorf("the file after the pipe: exit status %d, standard error %q", status, errOut)
			}
			if n := queryInt(t, openDB(t, db), "SELECT count(*) FROM games"); n != 17 {
				t.Errorf("%d games stored, want 17", n)
			}
		})
	}
}

// A device that never ends is refused at once with exit status 2, and the other inputs are
// read. (Before, ingest hashed /dev/zero for ever.)
func TestIngestDevZero(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	start := time.Now()
	done := make(chan struct{})
	var errOut string
	var status int
	go func() {
		defer close(done)
		_, errOut, status = runPonte(t, "", "ingest", "--db", db, "/dev/zero", "../../sample_data/autumn-league.ponte")
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ingest /dev/zero still running after 30 s")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	if status != exitUsage || !strings.Contains(errOut, "ponte ingest: read /dev/zero: a character device") || !strings.Contains(errOut, "17 games: 17 new") {
		t.Errorf("exit status %d, standard error %q", status, errOut)
	}
}

// A terminal is no input: "-" on a terminal, or the terminal by name, is refused at once
// with exit status 2 (a run waiting for typed records would look hung).
func TestIngestTerminal(t *testing.T) {
	master, tty := openPty(t)
	defer master.Close()
	defer tty.Close()
	for _, path := range []string{"-", tty.Name()} {
		db := filepath.Join(t.TempDir(), "p.db")
		var out, errOut bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- run([]string{"ingest", "--db", db, path}, tty, &out, &errOut) }()
		select {
		case status := <-done:
			if status != exitUsage || !strings.Contains(errOut.String(), "a character device") {
				t.Errorf("%s: exit status %d, standard error %q", path, status, errOut.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: waiting for the terminal", path)
		}
	}
}

// TestSelfplayInterrupt: Ctrl-C (a real SIGINT) in the middle of selfplay keeps the games
// finished so far, whole and in order (games 1 … n, which verify reads back as legal), says
// how many, and exits 130.
func TestSelfplayInterrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.ponte")
	written := firstWrite(t, filepath.Dir(path))
	cmd := ponteProcess(t, "selfplay", "--games", "100000", "--size", "10", "--workers", "2", "--out", path)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Interrupted once games are written (to the temporary file beside path).
	select {
	case <-written:
	case err := <-exited:
		t.Fatalf("selfplay ended before the interrupt: %v, %s", err, cmd.Stderr.(*bytes.Buffer))
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := <-exited
	errOut := cmd.Stderr.(*bytes.Buffer).String()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want status %d; standard error %q", err, exitInterrupted, errOut)
	}
	m := regexp.MustCompile(`^ponte selfplay: interrupted after (\d+) of 100000 games; the (\d+) finished games written to (.*)\n$`).FindStringSubmatch(errOut)
	if m == nil || m[1] != m[2] || m[3] != path || m[1] == "0" {
		t.Fatalf("standard error %q", errOut)
	}
	_, vErr, status := runPonte(t, "", "verify", path)
	if want := m[1] + " games: " + m[1] + " legal"; status != exitOK || !strings.Contains(vErr, want) {
		t.Errorf("verify of the kept games: exit status %d, %q, want %q", status, vErr, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(m[1]); !bytes.Contains(data, []byte(fmt.Sprintf("[Round \"%d\"]", n))) || bytes.Contains(data, []byte(fmt.Sprintf("[Round \"%d\"]", n+1))) {
		t.Errorf("the kept games are not rounds 1 to %s", m[1])
	}
}

// firstWrite returns a channel closed at the first write to a file in dir (inotify).
func firstWrite(t *testing.T, dir string) <-chan struct{} {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MODIFY); err != nil {
		syscall.Close(fd)
		t.Skip("no inotify:", err)
	}
	written := make(chan struct{})
	go func() {
		defer syscall.Close(fd)
		buf := make([]byte, 4096)
		if n, err := syscall.Read(fd, buf); err == nil && n > 0 {
			close(written)
		}
	}()
	return written
}
