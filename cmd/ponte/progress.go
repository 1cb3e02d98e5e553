package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/store"
)

// The progress bars of the commands that read, store and write for long: shown on
// standard error when it is a terminal and the command is not --quiet, never in a pipe
// or a log. Each phase of a command (reading the inputs, writing a Parquet file, computing
// the statistics, writing the report's pages) has its bar, drawn until the phase ends and
// then left on the screen as it ended.

// progressRefresh is how often the bars are drawn; the tests on a terminal lower it.
var progressRefresh = 150 * time.Millisecond

// progressWidth is the most columns of the bar itself; the counts beside it take the rest.
const progressWidth = 30

// showProgress reports whether bars are drawn on w: a terminal, and not --quiet.
func showProgress(w io.Writer, quiet bool) bool {
	return !quiet && isTerminal(w)
}

// newBars starts a container of bars drawn on w.
func newBars(w io.Writer) *mpb.Progress {
	return mpb.New(mpb.WithOutput(w), mpb.WithWidth(progressWidth), mpb.WithRefreshRate(progressRefresh))
}

// phase is one bar of a phase: a bar of done of total, or a spinner when the total is not
// known, with a name before it and what its describe function says after it. A nil phase
// does nothing (no terminal).
type phase struct {
	p     *mpb.Progress
	bar   *mpb.Bar
	start time.Time
	total atomic.Int64 // < 0 when not known
	done  atomic.Int64
	took  atomic.Int64 // the phase's duration once it ended, 0 before
	ended bool
}

// elapsed is the time the phase has taken: its rates and time left are over it.
func (ph *phase) elapsed() time.Duration {
	if d := ph.took.Load(); d > 0 {
		return time.Duration(d)
	}
	return time.Since(ph.start)
}

// newPhase adds a bar to p: name, then the bar (total >= 0) or a spinner (total < 0), then
// describe's text, given the phase and the time since it started.
func newPhase(p *mpb.Progress, name string, total int64, describe func(ph *phase, elapsed time.Duration) string) *phase {
	ph := &phase{p: p, start: time.Now()}
	ph.total.Store(total)
	left := mpb.PrependDecorators(decor.Name(name+" ", decor.WCSyncWidthR), decor.Any(func(decor.Statistics) string {
		if t := ph.total.Load(); t > 0 {
			return fmt.Sprintf("%3d%% ", min(100, ph.done.Load()*100/t))
		}
		return ""
	}))
	right := mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
		return " " + describe(ph, ph.elapsed())
	}))
	// Built with a total of 0, the bar completes only when finish says so, whatever the
	// counts: a total met early (bytes that run ahead of the records stored) ends nothing.
	if total >= 0 {
		ph.bar = p.AddBar(0, left, right)
		ph.bar.SetTotal(max(total, 1), false)
	} else {
		ph.bar = p.AddSpinner(0, left, right, mpb.BarWidth(1), mpb.BarFillerClearOnComplete())
	}
	return ph
}

// set records the count done, for the bar and the texts.
func (ph *phase) set(done int64) {
	if ph == nil {
		return
	}
	if t := ph.total.Load(); t >= 0 {
		done = min(done, t) // a file that grew while it was read
		ph.done.Store(done)
		ph.bar.SetCurrent(min(done, max(t, 1)))
		return
	}
	ph.done.Store(done)
	ph.bar.SetCurrent(done)
}

// finish ends the bar: completed at the count reached (complete), or left as it is (the
// phase failed or was interrupted).
func (ph *phase) finish(complete bool) {
	if ph == nil || ph.ended {
		return
	}
	ph.ended = true
	ph.took.Store(int64(max(time.Since(ph.start), 1)))
	if !complete {
		ph.bar.Abort(false)
		return
	}
	if t := ph.total.Load(); t >= 0 {
		ph.bar.SetCurrent(min(ph.done.Load(), max(t, 1)))
	}
	ph.bar.SetTotal(-1, true)
}

// eta is the time left at the average rate so far, "" until it can be told.
func (ph *phase) eta(elapsed time.Duration) string {
	done, total := ph.done.Load(), ph.total.Load()
	if ph.took.Load() > 0 || total <= 0 || done <= 0 || done >= total || elapsed < 500*time.Millisecond {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	if left < time.Second {
		return ""
	}
	return ", ETA " + shortDuration(left)
}

// shortDuration writes d to the second ("4s", "1m05s", "1h02m").
func shortDuration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

// perSecond is n per second over elapsed, as "12,400" or "3.5".
func perSecond(n float64, elapsed time.Duration) string {
	r := n / max(elapsed.Seconds(), 1e-3)
	if r >= 100 {
		return thousands(int64(r))
	}
	return fmt.Sprintf("%.1f", r)
}

// byteUnits are the units of sizes shown, by powers of 1024.
var byteUnits = []string{"B", "KiB", "MiB", "GiB", "TiB"}

// byteUnit is the unit to show n in, and its size.
func byteUnit(n int64) (string, float64) {
	u, size := 0, 1.0
	for u < len(byteUnits)-1 && float64(n) >= 1024*size {
		u++
		size *= 1024
	}
	return byteUnits[u], size
}

// sizeOf writes n bytes as "19.0 MiB" ("512 B").
func sizeOf(n int64) string {
	unit, size := byteUnit(n)
	if size == 1 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", float64(n)/size, unit)
}

// sizesOf writes n of total bytes in the unit of total: "8.0/19.0 MiB".
func sizesOf(n, total int64) string {
	unit, size := byteUnit(total)
	if size == 1 {
		return fmt.Sprintf("%d/%d B", n, total)
	}
	return fmt.Sprintf("%.1f/%.1f %s", float64(n)/size, float64(total)/size, unit)
}

// readBar shows how far the reading of the inputs is, as `ponte ingest` and `ponte verify`
// read them: the bytes read of their size (the compressed bytes of a compressed file, so
// that one large archive moves from 0 to 100 %) with the percentage, the rate and the time
// left, then the games done and their rate, and the files done when there are several
// ("ingest  42% [=====>------] 1/3 files, 8.0/19.0 MiB, 3.1 MiB/s, 41,230 games, 12,400
// games/s, ETA 4s"; no files when their number is 0). When the size is not known (standard input, a pipe), a spinner
// stands for the bar and the bytes read for the rest.
type readBar struct {
	*phase
	games, filesDone atomic.Int64
	files            int
}

// newReadBar adds a reading bar to p: total is the size of the inputs (< 0 when not
// known), files their number.
func newReadBar(p *mpb.Progress, name string, total int64, files int) *readBar {
	rb := &readBar{files: files}
	rb.phase = newPhase(p, name, total, func(ph *phase, elapsed time.Duration) string {
		var b strings.Builder
		if rb.files > 0 {
			fmt.Fprintf(&b, "%d/%d files, ", rb.filesDone.Load(), rb.files)
		}
		done, total := ph.done.Load(), ph.total.Load()
		if total >= 0 {
			b.WriteString(sizesOf(done, total))
		} else {
			b.WriteString(sizeOf(done) + " read")
		}
		fmt.Fprintf(&b, ", %s/s", sizeOf(int64(float64(done)/max(elapsed.Seconds(), 1e-3))))
		games := rb.games.Load()
		fmt.Fprintf(&b, ", %s %s, %s games/s", thousands(games), plural(int(games), "game", "games"), perSecond(float64(games), elapsed))
		b.WriteString(ph.eta(elapsed))
		return b.String()
	})
	return rb
}

// update records the bytes read, the games done and the files done.
func (rb *readBar) update(bytes, games int64, filesDone int) {
	if rb == nil {
		return
	}
	rb.games.Store(games)
	rb.filesDone.Store(int64(filesDone))
	rb.set(bytes)
}

// finish ends the bar (phase.finish).
func (rb *readBar) finish(complete bool) {
	if rb != nil {
		rb.phase.finish(complete)
	}
}

// countBar shows how far a count of things is of their total: "pages  42% [=====>-----]
// 210/500 pages, 35 pages/s, ETA 8s". extra, when not nil, adds its text after the count.
func newCountBar(p *mpb.Progress, name string, total int64, unit string, extra func(elapsed time.Duration) string) *phase {
	return newPhase(p, name, total, func(ph *phase, elapsed time.Duration) string {
		done := ph.done.Load()
		s := fmt.Sprintf("%s/%s %s", thousands(done), thousands(max(ph.total.Load(), 0)), unit)
		if extra != nil {
			s += extra(elapsed)
		} else {
			s += ", " + perSecond(float64(done), elapsed) + " " + unit + "/s"
		}
		return s + ph.eta(elapsed)
	})
}

// newSpinner adds a spinner for a phase whose progress cannot be counted (the
// statistics): its name and the time it has taken.
func newSpinner(p *mpb.Progress, name string) *phase {
	return newPhase(p, name, -1, func(ph *phase, elapsed time.Duration) string {
		return seconds(elapsed.Seconds())
	})
}

// ingestBar is the bar of intake.Run: the bytes of the inputs read and stored, the games
// stored and the files done. Nil when no bar is shown.
type ingestBar struct {
	p   *mpb.Progress
	bar *readBar
}

// startIngestBar sets opts.Progress to draw the ingest's bar on w, named name; it returns
// nil, leaving opts alone, when w shows no bars (showProgress).
func startIngestBar(w io.Writer, quiet bool, name string, opts *intake.Options) *ingestBar {
	if !showProgress(w, quiet) {
		return nil
	}
	ib := &ingestBar{p: newBars(w)}
	opts.Progress = func(pr intake.Progress) {
		if ib.bar == nil { // the first call, before anything is read
			ib.bar = newReadBar(ib.p, name, pr.TotalBytes, pr.Files)
		}
		ib.bar.update(pr.Bytes, int64(pr.Games), pr.FilesDone)
	}
	return ib
}

// end ends the bar, completed or left where the ingest stopped, and waits for it to be
// drawn.
func (ib *ingestBar) end(complete bool) {
	if ib == nil {
		return
	}
	ib.bar.finish(complete)
	ib.p.Wait()
}

// writeParquet writes the Parquet files of db into dir, with a bar per file on w when it
// shows bars: the games written of those stored, the rows (but for games.parquet, a row
// per game) while it is written, and their rate.
func writeParquet(w io.Writer, quiet bool, db *store.DB, dir string) (*store.ParquetStats, error) {
	if !showProgress(w, quiet) {
		return db.WriteParquet(dir)
	}
	p := newBars(w)
	var bar *parquetBar
	st, err := db.WriteParquetProgress(dir, func(pr store.ParquetProgress) {
		if bar == nil || pr.File != bar.file { // a new file: the last one is written
			bar.finish(true)
			bar = newParquetBar(p, pr)
		}
		bar.rows.Store(pr.Rows)
		bar.set(pr.Games)
	})
	bar.finish(err == nil)
	p.Wait()
	return st, err
}

// parquetBar is the bar of one Parquet file being written.
type parquetBar struct {
	*phase
	file string
	rows atomic.Int64
	done atomic.Bool
}

func newParquetBar(p *mpb.Progress, pr store.ParquetProgress) *parquetBar {
	pb := &parquetBar{file: pr.File}
	games := pr.File == "games.parquet" // a row per game
	streamed := pr.Streamed
	pb.phase = newCountBar(p, pr.File, pr.TotalGames, "games", func(elapsed time.Duration) string {
		n := pb.rows.Load()
		if streamed {
			return ", " + thousands(n) + " rows, written during the ingest"
		}
		if games {
			return ", " + perSecond(float64(n), elapsed) + " games/s"
		}
		if pb.done.Load() { // the last rows are not told: the summary counts them
			return ", " + perSecond(float64(n), elapsed) + " rows/s"
		}
		return fmt.Sprintf(", %s rows, %s rows/s", thousands(n), perSecond(float64(n), elapsed))
	})
	return pb
}

// finish ends the bar: complete, every game written; else left where it stopped.
func (pb *parquetBar) finish(complete bool) {
	if pb == nil {
		return
	}
	if complete {
		pb.done.Store(true)
		pb.set(pb.total.Load())
	}
	pb.phase.finish(complete)
}

// stage is a phase drawn alone, in a container of its own that end closes: the command
// writes nothing else on the terminal while it is drawn. Nil when no bar is shown.
type stage struct {
	p  *mpb.Progress
	ph *phase
}

// startStage draws the bar that add makes on w, if w shows bars (showProgress).
func startStage(w io.Writer, quiet bool, add func(p *mpb.Progress) *phase) *stage {
	if !showProgress(w, quiet) {
		return nil
	}
	p := newBars(w)
	return &stage{p: p, ph: add(p)}
}

// set records the count done.
func (st *stage) set(done int64) {
	if st != nil {
		st.ph.set(done)
	}
}

// end ends the bar, completed or left where the phase stopped, and waits for it to be
// drawn.
func (st *stage) end(complete bool) {
	if st == nil {
		return
	}
	st.ph.finish(complete)
	st.p.Wait()
}

// statisticsStage is the spinner of the statistics of the report, which take their time
// on a large database and cannot be counted.
func statisticsStage(w io.Writer, quiet bool) *stage {
	return startStage(w, quiet, func(p *mpb.Progress) *phase { return newSpinner(p, "statistics") })
}

// pagesStage is the bar of the report's game pages: those written of the total; none
// when no page is written.
func pagesStage(w io.Writer, quiet bool, total int) *stage {
	if total <= 0 {
		return nil
	}
	return startStage(w, quiet, func(p *mpb.Progress) *phase {
		return newCountBar(p, "game pages", int64(total), "pages", nil)
	})
}

// progress is the report.Options.Progress of the bar, nil without one.
func (st *stage) progress() func(pages, total int) {
	if st == nil {
		return nil
	}
	return func(pages, total int) {
		if int64(total) > st.ph.total.Load() {
			st.ph.total.Store(int64(total))
		}
		st.ph.set(int64(pages))
	}
}

// verifyBar is the bar of ponte verify: the bytes of the inputs read of their size, the
// games verified and their rate. While it is drawn, what verify prints on the terminal
// goes above it (writers). Nil when no bar is shown.
type verifyBar struct {
	p    *mpb.Progress
	bar  *readBar
	read atomic.Int64 // bytes read of the inputs (ingest.OpenCounted)
	// the writers printed through while the bar is drawn, for the lines they hold
	lines []*lineWriter
}

// startVerifyBar starts the bar of verify on s.err if it shows bars; the size of the
// inputs is that of the regular files that paths name or hold (not known when one is
// standard input or a pipe).
func startVerifyBar(s *streams, quiet bool, paths []string) *verifyBar {
	if !showProgress(s.err, quiet) {
		return nil
	}
	vb := &verifyBar{p: newBars(s.err)}
	vb.bar = newReadBar(vb.p, "verify", pathsSize(paths), 0) // the files done are not told apart

	return vb
}

// pathsSize is the size of the files that paths name or hold, as ingest.Open reads them:
// -1 when one is standard input or not a regular file (a pipe), whose size is known only
// once read.
func pathsSize(paths []string) int64 {
	inputs, err := ingest.Inputs(paths)
	if err != nil {
		return -1 // a path that does not exist: said when it is read
	}
	var size int64
	for _, in := range inputs {
		if in.Err != nil {
			continue
		}
		if in.Path == "-" {
			return -1
		}
		info, err := os.Stat(in.Path)
		if err != nil {
			continue // said when it is read
		}
		if !info.Mode().IsRegular() {
			return -1
		}
		size += info.Size()
	}
	return size
}

// counter is what counts the bytes read (countedRecords), nil without a bar.
func (vb *verifyBar) counter() *atomic.Int64 {
	if vb == nil {
		return nil
	}
	return &vb.read
}

// game records that games games are verified; the bar moves every 64 of them.
func (vb *verifyBar) game(games int) {
	if vb == nil {
		return
	}
	vb.bar.games.Store(int64(games))
	if games&63 == 0 {
		vb.bar.set(vb.read.Load())
	}
}

// writers returns what to print on standard output and standard error through: while the
// bar is drawn, the lines for the terminal are printed above it (standard output too when
// it is a terminal), whole lines at a time.
func (vb *verifyBar) writers(out, errOut io.Writer) (io.Writer, io.Writer) {
	if vb == nil {
		return out, errOut
	}
	e := &lineWriter{w: vb.p}
	vb.lines = append(vb.lines, e)
	if isTerminal(out) {
		o := &lineWriter{w: vb.p}
		vb.lines = append(vb.lines, o)
		out = o
	}
	return out, e
}

// end ends the bar: complete, the whole of the inputs read; else left where verify
// stopped. What the writers hold of a last line is printed first.
func (vb *verifyBar) end(complete bool) {
	if vb == nil {
		return
	}
	for _, l := range vb.lines {
		l.flush()
	}
	vb.bar.set(vb.read.Load())
	if t := vb.bar.total.Load(); complete && t >= 0 {
		vb.bar.set(t) // read to the end (a zip archive's directory is not counted)
	}
	vb.bar.finish(complete)
	vb.p.Wait()
}

// lineWriter passes on whole lines only, so that a bar drawn after them starts on a line
// of its own.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		_, err := l.w.Write(l.buf[:i+1])
		l.buf = l.buf[:copy(l.buf, l.buf[i+1:])]
		if err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// flush passes on what is left, ended by a newline.
func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.w.Write(append(l.buf, '\n'))
		l.buf = l.buf[:0]
	}
}
