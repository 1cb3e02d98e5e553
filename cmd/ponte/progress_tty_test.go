//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// writeRandomArchive writes n random legal games of the 10×10 board with unlimited supply
// to path, a .ponte.zst archive, and returns its size. The games are played by drawing
// tile pairs at random among the legal cells (a bridge or a pass when no pair is drawn),
// much faster than the random bot, which lists every legal turn: a few seconds for tens
// of thousands of games. Random moves compress about as badly as real ones.
func writeRandomArchive(t testing.TB, path string, n int, seed uint64) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, err := zstd.NewWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(zw, 64<<10)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	g, err := replay.NewGame(10, game.Unlimited)
	if err != nil {
		t.Fatal(err)
	}
	var moves []replay.Move
	var line []byte
	for i := range n {
		g.Reset(10, game.Unlimited)
		fmt.Fprintf(w, "[Event \"progress test\"]\n[Round \"%d\"]\n[Light \"a\"]\n[Dark \"b\"]\n[Size \"10\"]\n[Supply \"unlimited\"]\n\n", i+1)
		line = line[:0]
		for turn := 1; !g.Over() && turn <= 300; turn++ {
			m, ok := randomTurn(g, rng)
			if !ok {
				moves = bot.LegalTurns(g, moves[:0])
				m = moves[rng.IntN(len(moves))]
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d, turn %d: %s: %v", i+1, turn, m, err)
			}
			tok := strconv.Itoa(turn) + ". " + m.String()
			if len(line)+1+len(tok) > 78 {
				w.Write(append(line, '\n'))
				line = line[:0]
			} else if len(line) > 0 {
				line = append(line, ' ')
			}
			line = append(line, tok...)
		}
		w.Write(append(line, "\n\n"...))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// randomTurn draws a legal turn of g: a pair of legal tile cells, else one of the bridges;
// false when neither was found in a few draws (the caller lists every legal turn).
func randomTurn(g *replay.Game, rng *rand.Rand) (replay.Move, bool) {
	cells := g.LegalTileCells(g.ToMove())
	for range 24 {
		if len(cells) < 2 {
			break
		}
		a, b := rng.IntN(len(cells)), rng.IntN(len(cells))
		if a == b {
			continue
		}
		if m := replay.TilesMove(cells[a], cells[b]); g.IsLegal(m) {
			return m, true
		}
	}
	if bridges := g.LegalBridges(g.ToMove()); len(bridges) > 0 && rng.IntN(4) == 0 {
		return bridges[rng.IntN(len(bridges))], true
	}
	return replay.Move{}, false
}

// TestWriteRandomArchive: the archive's games are legal (verify says so).
func TestWriteRandomArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "random.ponte.zst")
	writeRandomArchive(t, path, 500, 1)
	_, errOut, status := runPonte(t, "", "verify", path)
	if status != exitOK || !strings.Contains(errOut, "500 games: 500 legal") {
		t.Errorf("verify: exit status %d, %q", status, errOut)
	}
}

// ansi matches the terminal's control sequences (cursor up, erase).
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// frames splits what a terminal was shown into the lines drawn, without their control
// sequences: each redraw of a bar is a line.
func frames(screen string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(ansi.ReplaceAllString(screen, ""), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// runOnTerminalFrom is runOnTerminal with stdin as standard input.
func runOnTerminalFrom(t *testing.T, stdin *os.File, args ...string) (status int, stdout, screen string) {
	t.Helper()
	master, tty := openPty(t)
	defer master.Close()
	shown := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			b.Write(buf[:n])
			if err != nil { // EIO once the terminal end is closed
				break
			}
		}
		shown <- b.String()
	}()
	var out strings.Builder
	var in io.Reader
	if stdin != nil {
		in = stdin
	}
	status = run(args, in, &out, tty)
	tty.Close()
	return status, out.String(), <-shown
}

// fastBars lowers the bars' refresh interval for the test.
func fastBars(t *testing.T, every time.Duration) {
	old := progressRefresh
	progressRefresh = every
	t.Cleanup(func() { progressRefresh = old })
}

// barLine matches a frame of a reading bar with a known size: name, percentage, bytes
// read of the size in MiB.
var barLine = regexp.MustCompile(`^(\w+)\s+(\d+)%\s+\[[=>-]*\]\s+(?:\d+/\d+ files, )?([\d.]+)/([\d.]+) MiB, [\d.]+ (?:B|KiB|MiB)/s, ([\d,]+) games?, [\d.,]+ games/s`)

// readFrames returns, from the frames of the bar named name, the bytes read (in tenths
// of MiB, as shown) and the percentages, in the order drawn, and the size shown.
func readFrames(t *testing.T, lines []string, name string) (read []int, pcts []int, total int) {
	t.Helper()
	for _, l := range lines {
		m := barLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil || m[1] != name {
			continue
		}
		pct, _ := strconv.Atoi(m[2])
		r, _ := strconv.ParseFloat(m[3], 64)
		tot, _ := strconv.ParseFloat(m[4], 64)
		read, pcts, total = append(read, int(r*10+0.5)), append(pcts, pct), int(tot*10+0.5)
	}
	return read, pcts, total
}

// checkMoves fails unless the bytes read, as drawn, never go back, end at the total, and
// show several distinct values strictly between 0 and the total on the way (one large
// archive moves from 0 to 100 %, not from 0 to 1 file).
func checkMoves(t *testing.T, what string, read, pcts []int, total, want int) {
	t.Helper()
	if len(read) == 0 {
		t.Fatalf("%s: no frame of the bar", what)
	}
	if total != want {
		t.Errorf("%s: total %d tenths of MiB, want %d, the file's size", what, total, want)
	}
	between := map[int]bool{}
	for i, r := range read {
		if i > 0 && (r < read[i-1] || pcts[i] < pcts[i-1]) {
			t.Errorf("%s: the bytes read go back: %v", what, read)
			break
		}
		if 0 < r && r < total {
			between[r] = true
		}
	}
	if len(between) < 3 {
		t.Errorf("%s: %d distinct byte counts between 0 and %d (%v), want several", what, len(between), total, read)
	}
	if last := len(read) - 1; read[last] != total || pcts[last] != 100 {
		t.Errorf("%s: the bar ends at %d of %d, %d%%", what, read[last], total, pcts[last])
	}
}

// TestProgressMovesOnOneArchive: the bars of ponte ingest and ponte verify on a single
// .ponte.zst archive count its compressed bytes read: several distinct counts between 0
// and the file's size, never going back, ending at its size; the Parquet files have their
// bars, counting games. (Before, ingest showed "0/1 files" until done, and verify nothing.)
// The archive holds 10,000 games (1.8 MiB), which ingest takes a few seconds to store
// (100,000 would take half a minute more, to show the same); the bars are drawn every
// 20 ms.
func TestProgressMovesOnOneArchive(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "big.ponte.zst")
	const games = 10000
	size := writeRandomArchive(t, archive, games, 7)
	wantTenths := int(float64(size)/(1<<20)*10 + 0.5)
	fastBars(t, 20*time.Millisecond)

	t.Run("ingest", func(t *testing.T) {
		start := time.Now()
		status, out, screen := runOnTerminal(t, "ingest", "--db", filepath.Join(dir, "p.db"), archive)
		t.Logf("ingest of %d games (%d bytes) on a terminal: %v", games, size, time.Since(start))
		if status != exitOK || out != "" {
			t.Fatalf("exit status %d, output %q, terminal %q", status, out, screen)
		}
		lines := frames(screen)
		read, pcts, total := readFrames(t, lines, "ingest")
		checkMoves(t, "ingest", read, pcts, total, wantTenths)
		last := ""
		for _, l := range lines {
			if strings.HasPrefix(l, "ingest ") {
				last = l
			}
		}
		if !strings.Contains(last, "1/1 files") || !strings.Contains(last, "10,000 games") {
			t.Errorf("last frame of the ingest %q", last)
		}
		for _, want := range []string{
			"games.parquet 100%", "turns.parquet 100%", "10,000/10,000 games",
			// A new database: the turns and tags were written as the games were stored.
			"10,000/10,000 games, 490,278 rows, written during the ingest",
			"10000 games: 10000 new, 0 duplicates; 10000 legal",
		} {
			if !strings.Contains(screen, want) {
				t.Errorf("the terminal does not show %q:\n%s", want, strings.Join(lines[max(0, len(lines)-12):], "\n"))
			}
		}
	})

	t.Run("verify", func(t *testing.T) {
		fastBars(t, 5*time.Millisecond) // verify reads ten times as fast
		status, out, screen := runOnTerminal(t, "verify", archive)
		if status != exitOK || out != "" {
			t.Fatalf("exit status %d, output %q, terminal %q", status, out, screen)
		}
		read, pcts, total := readFrames(t, frames(screen), "verify")
		checkMoves(t, "verify", read, pcts, total, wantTenths)
		if !strings.Contains(screen, "10,000 games") || !strings.Contains(screen, "10000 games: 10000 legal, 0 illegal, 0 unreadable") {
			t.Errorf("terminal %q", screen[max(0, len(screen)-600):])
		}
	})

	t.Run("stdin", func(t *testing.T) {
		// From standard input, the size is not known: the bytes read, a rate, no percentage.
		f, err := os.Open(archive)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		status, _, screen := runOnTerminalFrom(t, f, "verify", "-")
		if status != exitOK {
			t.Fatalf("exit status %d, terminal %q", status, screen)
		}
		lines := frames(screen)
		stream := regexp.MustCompile(`^verify\s+\S*\s*[\d.]+ (B|KiB|MiB) read, [\d.]+ (B|KiB|MiB)/s, [\d,]+ games?, [\d.,]+ games/s$`)
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "verify") {
				n++
				if !stream.MatchString(strings.TrimSpace(l)) || strings.Contains(l, "%") || strings.Contains(l, "ETA") {
					t.Errorf("frame %q", l)
				}
			}
		}
		if n == 0 {
			t.Errorf("no frame: %q", screen)
		}
	})
}

// TestVerifyBarKeepsLinesWhole: on a terminal, the lines of the illegal games (standard
// output) and the notes (standard error) are printed above the bar, each whole on its
// line; in a pipe, standard output holds the lines alone.
func TestVerifyBarKeepsLinesWhole(t *testing.T) {
	fastBars(t, 5*time.Millisecond)
	master, tty := openPty(t)
	defer master.Close()
	shown := make(chan string)
	go func() {
		var b strings.Builder
		io.Copy(&b, master)
		shown <- b.String()
	}()
	status := run([]string{"verify", "../../sample_data"}, nil, tty, tty)
	tty.Close()
	screen := <-shown
	if status != exitFindings {
		t.Errorf("exit status %d", status)
	}
	want, err := os.ReadFile("testdata/verify-sample_data.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := frames(screen)
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if !strings.HasPrefix(l, "../../sample_data/") && !strings.HasPrefix(l, "ponte verify: note: ") {
			continue // the golden file's headings, the summary
		}
		if !slices.Contains(lines, strings.TrimSpace(l)) && !slices.Contains(lines, l) {
			t.Errorf("the terminal does not show the line %q whole:\n%s", l, strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(screen, "verify 100%") {
		t.Errorf("no bar: %q", screen)
	}
}

// TestReportProgressBar: ponte report on a terminal shows the statistics' spinner, then the
// game pages written of those to write; ponte analyze shows the ingest's, the Parquet
// files' and the report's bars. --quiet shows none.
func TestReportProgressBar(t *testing.T) {
	fastBars(t, 5*time.Millisecond)
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	status, _, screen := runOnTerminal(t, "analyze", "--db", db, "--out", filepath.Join(dir, "r1"), "../../sample_data")
	if status != exitOK {
		t.Fatalf("analyze: exit status %d, terminal %q", status, screen)
	}
	for _, want := range []string{"ingest 100%", "games.parquet 100%", "turns.parquet 100%", "statistics", "game pages 100%"} {
		if !strings.Contains(screen, want) {
			t.Errorf("analyze: the terminal does not show %q:\n%s", want, strings.Join(frames(screen), "\n"))
		}
	}
	status, out, screen := runOnTerminal(t, "report", "--db", db, "--out", filepath.Join(dir, "r2"), "--games", "40")
	if status != exitOK || !strings.Contains(out, "40 game pages") {
		t.Fatalf("report: exit status %d, output %q, terminal %q", status, out, screen)
	}
	pages := regexp.MustCompile(`game pages\s+(\d+)%.*\s(\d+)/40 pages`)
	last := -1
	for _, l := range frames(screen) {
		if m := pages.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			if n < last {
				t.Errorf("the pages written go back: %q after %d", l, last)
			}
			last = n
		}
	}
	if last != 40 || !strings.Contains(screen, "statistics") {
		t.Errorf("report: the terminal shows %q", strings.Join(frames(screen), "\n"))
	}
	status, _, screen = runOnTerminal(t, "report", "--quiet", "--db", db, "--out", filepath.Join(dir, "r2"))
	if status != exitOK || screen != "" {
		t.Errorf("report --quiet: exit status %d, terminal %q", status, screen)
	}
}
