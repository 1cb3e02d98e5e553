// Package progress draws the progress bars of the commands that read, store and write
// for long: on standard error when it is a terminal and the command is not --quiet, never
// in a pipe or a log (Settings.Show says which). Each phase of a command (reading the
// inputs, writing a Parquet file, computing the statistics, writing the report's pages)
// has its bar, drawn until the phase ends and then left on the screen as it ended. Every
// type's nil value draws nothing, so that a command calls the same methods with or
// without a terminal.
package progress

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
)

// Settings say whether bars are drawn and how often.
type Settings struct {
	// Show: the writer is a terminal and the command is not quiet.
	Show bool
	// Refresh is how often the bars are drawn; 0 means every 150 ms.
	Refresh time.Duration
}

// width is the most columns of the bar itself; the counts beside it take the rest.
const width = 30

// Bars is a container of bars drawn on one writer.
type Bars struct{ p *mpb.Progress }

// New starts a container of bars drawn on w; nil when s does not show bars.
func New(w io.Writer, s Settings) *Bars {
	if !s.Show {
		return nil
	}
	return &Bars{mpb.New(mpb.WithOutput(w), mpb.WithWidth(width), mpb.WithRefreshRate(cmp.Or(s.Refresh, 150*time.Millisecond)))}
}

// Wait waits for the bars to be drawn as they ended.
func (b *Bars) Wait() {
	if b != nil {
		b.p.Wait()
	}
}

// Phase is one bar of a phase: a bar of done of total, or a spinner when the total is not
// known, with a name before it and what its describe function says after it.
type Phase struct {
	bar   *mpb.Bar
	start time.Time
	total atomic.Int64 // < 0 when not known
	done  atomic.Int64
	took  atomic.Int64 // the phase's duration once it ended, 0 before
	ended bool
}

// elapsed is the time the phase has taken: its rates and time left are over it.
func (ph *Phase) elapsed() time.Duration {
	if d := ph.took.Load(); d > 0 {
		return time.Duration(d)
	}
	return time.Since(ph.start)
}

// phase adds a bar: name, then the bar (total >= 0) or a spinner (total < 0), then
// describe's text, given the phase and the time since it started.
func (b *Bars) phase(name string, total int64, describe func(ph *Phase, elapsed time.Duration) string) *Phase {
	if b == nil {
		return nil
	}
	ph := &Phase{start: time.Now()}
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
	// Built with a total of 0, the bar completes only when Finish says so, whatever the
	// counts: a total met early (bytes that run ahead of the records stored) ends nothing.
	if total >= 0 {
		ph.bar = b.p.AddBar(0, left, right)
		ph.bar.SetTotal(max(total, 1), false)
	} else {
		ph.bar = b.p.AddSpinner(0, left, right, mpb.BarWidth(1), mpb.BarFillerClearOnComplete())
	}
	return ph
}

// Set records the count done, for the bar and the texts.
func (ph *Phase) Set(done int64) {
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

// Finish ends the bar: completed at the count reached (complete), or left as it is (the
// phase failed or was interrupted).
func (ph *Phase) Finish(complete bool) {
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
func (ph *Phase) eta(elapsed time.Duration) string {
	done, total := ph.done.Load(), ph.total.Load()
	if ph.took.Load() > 0 || total <= 0 || done <= 0 || done >= total || elapsed < 500*time.Millisecond {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	if left < time.Second {
		return ""
	}
	return ", ETA " + ShortDuration(left)
}

// Count adds a bar of how far a count of things is of their total: "pages  42%
// [=====>-----] 210/500 pages, 35 pages/s, ETA 8s". extra, when not nil, says its text
// after the count instead of the rate.
func (b *Bars) Count(name string, total int64, unit string, extra func(elapsed time.Duration) string) *Phase {
	return b.phase(name, total, func(ph *Phase, elapsed time.Duration) string {
		done := ph.done.Load()
		s := fmt.Sprintf("%s/%s %s", numtext.Thousands(done), numtext.Thousands(max(ph.total.Load(), 0)), unit)
		if extra != nil {
			s += extra(elapsed)
		} else {
			s += ", " + PerSecond(float64(done), elapsed) + " " + unit + "/s"
		}
		return s + ph.eta(elapsed)
	})
}

// Spinner adds a spinner for a phase whose progress cannot be counted (the statistics):
// its name and the time it has taken.
func (b *Bars) Spinner(name string) *Phase {
	return b.phase(name, -1, func(ph *Phase, elapsed time.Duration) string {
		return termtext.Seconds(elapsed.Seconds())
	})
}

// ShortDuration writes d to the second ("4s", "1m05s", "1h02m").
func ShortDuration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

// PerSecond is n per second over elapsed, as "12,400" or "3.5".
func PerSecond(n float64, elapsed time.Duration) string {
	r := n / max(elapsed.Seconds(), 1e-3)
	if r >= 100 {
		return numtext.Thousands(int64(r))
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

// SizeOf writes n bytes as "19.0 MiB" ("512 B").
func SizeOf(n int64) string {
	unit, size := byteUnit(n)
	if size == 1 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", float64(n)/size, unit)
}

// SizesOf writes n of total bytes in the unit of total: "8.0/19.0 MiB".
func SizesOf(n, total int64) string {
	unit, size := byteUnit(total)
	if size == 1 {
		return fmt.Sprintf("%d/%d B", n, total)
	}
	return fmt.Sprintf("%.1f/%.1f %s", float64(n)/size, float64(total)/size, unit)
}

// Reading is the bar of the reading of the inputs, as `ponte ingest` and `ponte verify`
// read them: the bytes read of their size (the compressed bytes of a compressed file, so
// that one large archive moves from 0 to 100 %) with the percentage, the rate and the time
// left, then the games done and their rate, and the files done when there are several
// ("ingest  42% [=====>------] 1/3 files, 8.0/19.0 MiB, 3.1 MiB/s, 41,230 games, 12,400
// games/s, ETA 4s"; no files when their number is 0). When the size is not known
// (standard input, a pipe), a spinner stands for the bar and the bytes read for the rest.
type Reading struct {
	*Phase
	games, filesDone atomic.Int64
	files            int
}

// Reading adds a reading bar: total is the size of the inputs (< 0 when not known), files
// their number.
func (b *Bars) Reading(name string, total int64, files int) *Reading {
	if b == nil {
		return nil
	}
	rb := &Reading{files: files}
	rb.Phase = b.phase(name, total, func(ph *Phase, elapsed time.Duration) string {
		var s strings.Builder
		if rb.files > 0 {
			fmt.Fprintf(&s, "%d/%d files, ", rb.filesDone.Load(), rb.files)
		}
		done, total := ph.done.Load(), ph.total.Load()
		if total >= 0 {
			s.WriteString(SizesOf(done, total))
		} else {
			s.WriteString(SizeOf(done) + " read")
		}
		fmt.Fprintf(&s, ", %s/s", SizeOf(int64(float64(done)/max(elapsed.Seconds(), 1e-3))))
		games := rb.games.Load()
		fmt.Fprintf(&s, ", %s %s, %s games/s", numtext.Thousands(games), termtext.Plural(int(games), "game", "games"), PerSecond(float64(games), elapsed))
		s.WriteString(ph.eta(elapsed))
		return s.String()
	})
	return rb
}

// Update records the bytes read, the games done and the files done.
func (rb *Reading) Update(bytes, games int64, filesDone int) {
	if rb == nil {
		return
	}
	rb.games.Store(games)
	rb.filesDone.Store(int64(filesDone))
	rb.Set(bytes)
}

// Finish ends the bar (Phase.Finish).
func (rb *Reading) Finish(complete bool) {
	if rb != nil {
		rb.Phase.Finish(complete)
	}
}

// Stage is a phase drawn alone, in a container of its own that End closes: the command
// writes nothing else on the terminal while it is drawn.
type Stage struct {
	bars *Bars
	ph   *Phase
}

// NewStage draws the bar that add makes on w, if s shows bars; nil otherwise.
func NewStage(w io.Writer, s Settings, add func(b *Bars) *Phase) *Stage {
	b := New(w, s)
	if b == nil {
		return nil
	}
	return &Stage{bars: b, ph: add(b)}
}

// CountStage is a Stage of Bars.Count.
func CountStage(w io.Writer, s Settings, name string, total int64, unit string, extra func(elapsed time.Duration) string) *Stage {
	return NewStage(w, s, func(b *Bars) *Phase { return b.Count(name, total, unit, extra) })
}

// Set records the count done.
func (st *Stage) Set(done int64) {
	if st != nil {
		st.ph.Set(done)
	}
}

// End ends the bar, completed or left where the phase stopped, and waits for it to be
// drawn.
func (st *Stage) End(complete bool) {
	if st == nil {
		return
	}
	st.ph.Finish(complete)
	st.bars.Wait()
}

// Pages is the report's progress function (report.Options.Progress) for the bar, nil
// without one: the pages written of a total that may grow.
func (st *Stage) Pages() func(pages, total int) {
	if st == nil {
		return nil
	}
	return func(pages, total int) {
		if int64(total) > st.ph.total.Load() {
			st.ph.total.Store(int64(total))
		}
		st.ph.Set(int64(pages))
	}
}

// Ingest is the bar of an ingest: the bytes of the inputs read and stored, the games
// stored and the files done; drawn from its first Update.
type Ingest struct {
	bars *Bars
	name string
	bar  *Reading
}

// NewIngest is the ingest's bar named name on w; nil when s shows no bars.
func NewIngest(w io.Writer, s Settings, name string) *Ingest {
	b := New(w, s)
	if b == nil {
		return nil
	}
	return &Ingest{bars: b, name: name}
}

// Update records the ingest's progress: the size and number of the inputs, the bytes
// read, the games stored and the files done.
func (ib *Ingest) Update(totalBytes int64, files int, bytes int64, games, filesDone int) {
	if ib.bar == nil { // the first call, before anything is read
		ib.bar = ib.bars.Reading(ib.name, totalBytes, files)
	}
	ib.bar.Update(bytes, int64(games), filesDone)
}

// End ends the bar, completed or left where the ingest stopped, and waits for it to be
// drawn.
func (ib *Ingest) End(complete bool) {
	if ib == nil {
		return
	}
	ib.bar.Finish(complete)
	ib.bars.Wait()
}

// Files are the bars of the files written one after another (the Parquet files): a bar
// per file, the games written of those stored, the rows (but for games.parquet, a row per
// game) while it is written, and their rate.
type Files struct {
	bars *Bars
	bar  *fileBar
}

// NewFiles is the bars of files on w; nil when s shows no bars.
func NewFiles(w io.Writer, s Settings) *Files {
	b := New(w, s)
	if b == nil {
		return nil
	}
	return &Files{bars: b}
}

// Update records the progress of file: the games written of total, the rows written;
// streamed says that its rows were written during the ingest.
func (f *Files) Update(file string, total, games, rows int64, streamed bool) {
	if f == nil {
		return
	}
	if f.bar == nil || file != f.bar.file { // a new file: the last one is written
		f.bar.finish(true)
		f.bar = newFileBar(f.bars, file, total, streamed)
	}
	f.bar.rows.Store(rows)
	f.bar.Set(games)
}

// End ends the last bar, completed or left where it stopped, and waits for the bars to
// be drawn.
func (f *Files) End(complete bool) {
	if f == nil {
		return
	}
	f.bar.finish(complete)
	f.bars.Wait()
}

// fileBar is the bar of one file being written.
type fileBar struct {
	*Phase
	file string
	rows atomic.Int64
	done atomic.Bool
}

func newFileBar(b *Bars, file string, total int64, streamed bool) *fileBar {
	pb := &fileBar{file: file}
	games := file == "games.parquet" // a row per game
	pb.Phase = b.Count(file, total, "games", func(elapsed time.Duration) string {
		n := pb.rows.Load()
		if streamed {
			return ", " + numtext.Thousands(n) + " rows, written during the ingest"
		}
		if games {
			return ", " + PerSecond(float64(n), elapsed) + " games/s"
		}
		if pb.done.Load() { // the last rows are not told: the summary counts them
			return ", " + PerSecond(float64(n), elapsed) + " rows/s"
		}
		return fmt.Sprintf(", %s rows, %s rows/s", numtext.Thousands(n), PerSecond(float64(n), elapsed))
	})
	return pb
}

// finish ends the bar: complete, every game written; else left where it stopped.
func (pb *fileBar) finish(complete bool) {
	if pb == nil {
		return
	}
	if complete {
		pb.done.Store(true)
		pb.Set(pb.total.Load())
	}
	pb.Phase.Finish(complete)
}

// Verify is the bar of ponte verify: the bytes of the inputs read of their size, the
// games verified and their rate. While it is drawn, what verify prints on the terminal
// goes above it (Writers).
type Verify struct {
	bars *Bars
	bar  *Reading
	read atomic.Int64 // bytes read of the inputs
	// the writers printed through while the bar is drawn, for the lines they hold
	lines []*LineWriter
}

// NewVerify starts the bar of verify on w if s shows bars; total is the size of the
// inputs, < 0 when not known (standard input, a pipe).
func NewVerify(w io.Writer, s Settings, total int64) *Verify {
	b := New(w, s)
	if b == nil {
		return nil
	}
	return &Verify{bars: b, bar: b.Reading("verify", total, 0)} // the files done are not told apart
}

// Counter is what counts the bytes read, nil without a bar.
func (vb *Verify) Counter() *atomic.Int64 {
	if vb == nil {
		return nil
	}
	return &vb.read
}

// Game records that games games are verified; the bar moves every 64 of them.
func (vb *Verify) Game(games int) {
	if vb == nil {
		return
	}
	vb.bar.games.Store(int64(games))
	if games&63 == 0 {
		vb.bar.Set(vb.read.Load())
	}
}

// Writers returns what to print on standard output and standard error through: while the
// bar is drawn, the lines for the terminal are printed above it (standard output too when
// it is a terminal, outTerminal), whole lines at a time.
func (vb *Verify) Writers(out, errOut io.Writer, outTerminal bool) (io.Writer, io.Writer) {
	if vb == nil {
		return out, errOut
	}
	e := &LineWriter{W: vb.bars.p}
	vb.lines = append(vb.lines, e)
	if outTerminal {
		o := &LineWriter{W: vb.bars.p}
		vb.lines = append(vb.lines, o)
		out = o
	}
	return out, e
}

// End ends the bar: complete, the whole of the inputs read; else left where verify
// stopped. What the writers hold of a last line is printed first.
func (vb *Verify) End(complete bool) {
	if vb == nil {
		return
	}
	for _, l := range vb.lines {
		l.Flush()
	}
	vb.bar.Set(vb.read.Load())
	if t := vb.bar.total.Load(); complete && t >= 0 {
		vb.bar.Set(t) // read to the end (a zip archive's directory is not counted)
	}
	vb.bar.Finish(complete)
	vb.bars.Wait()
}

// LineWriter passes on whole lines only, so that a bar drawn after them starts on a line
// of its own.
type LineWriter struct {
	W   io.Writer
	buf []byte
}

func (l *LineWriter) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		_, err := l.W.Write(l.buf[:i+1])
		l.buf = l.buf[:copy(l.buf, l.buf[i+1:])]
		if err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// Flush passes on what is left, ended by a newline.
func (l *LineWriter) Flush() {
	if len(l.buf) > 0 {
		l.W.Write(append(l.buf, '\n'))
		l.buf = l.buf[:0]
	}
}
