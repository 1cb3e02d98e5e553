package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
)

// Options control an ingest.
type Options struct {
	// Workers is the number of goroutines that replay records; 0 means one per core.
	Workers int
	// Stdin is what the path "-" reads.
	Stdin io.Reader
	// Progress, when not nil, is called on the goroutine that called Ingest: once before
	// anything is read, then as records are stored and files finished.
	Progress func(Progress)
	// CommitGames bounds the games of one transaction; 0 means 2,000. A transaction also
	// ends after a second. Smaller transactions lose less to a kill and cost some speed.
	CommitGames int
	// ParquetDir is the directory the Parquet files of this database are written to ("" if
	// none): its games.parquet, turns.parquet and temporary files are outputs, not inputs,
	// and are not read (a notice says so), as the database and its -wal, -shm and -journal
	// files never are.
	ParquetDir string
	// StreamParquet writes turns.parquet and tags.parquet of ParquetDir while the games
	// are stored, when the database holds no game at the start (parquetStream), for
	// WriteParquet to finish: a large archive's Parquet files then cost little more than
	// its database. Otherwise, or if the ingest does not end well, WriteParquet exports
	// them from the database as always.
	StreamParquet bool
	// Skip, when not nil, says whether a file of the inputs is not read, and the notice
	// that says so ("" for none: a folder's files are said once): the commands skip
	// ponte's own outputs met in a walk (a report, another database).
	Skip func(path string) (skip bool, notice string)
	// Limits are the limits of the records read and of the bytes of records in flight
	// (ponte's --max-* flags); a zero field takes its default.
	Limits ingest.Limits
}

// Progress is the state of a running ingest.
type Progress struct {
	Files     int // files to read, from the walk of the paths
	FilesDone int // files read to their end, or skipped
	Games     int // records stored so far (new games, duplicates and unreadable records)
	// Bytes is how much of the inputs is read and its records stored: the bytes read of
	// the files, as they are on disk (the compressed bytes of a compressed file, so that
	// one large archive moves from 0 to its size), the whole size of a file finished,
	// skipped or given up, and the bytes read of standard input and pipes.
	Bytes int64
	// TotalBytes is the size of the files to read, taken before reading, which Bytes
	// reaches at the end; -1 when it is not known: standard input or a pipe is among the
	// inputs, whose size is known only once read.
	TotalBytes int64
}

// Summary is what an ingest did. Games counts every record read in this run: New ones
// stored, Duplicates of games already stored; Legal, Illegal and Unreadable split the same
// records by verdict.
type Summary struct {
	Files       int      `json:"files"`       // files found under the paths
	Skipped     int      `json:"skipped"`     // of those, already ingested (same content): not read again
	Resumed     int      `json:"resumed"`     // taken up where an interrupted ingest stopped
	Games       int      `json:"games"`       // records read and stored
	New         int      `json:"new"`         // games stored for the first time
	Duplicates  int      `json:"duplicates"`  // games already in the database
	Legal       int      `json:"legal"`       // legal games
	Illegal     int      `json:"illegal"`     // illegal games
	Unreadable  int      `json:"unreadable"`  // records that could not be read
	TurnRows    int64    `json:"turn_rows"`   // rows added to turns
	Rows        int64    `json:"rows"`        // rows added to games, turns and tags
	Errors      []string `json:"errors"`      // paths or files that could not be read (to their end)
	Notices     []string `json:"notices"`     // what the readers skipped on purpose (another game's records): not errors
	Interrupted bool     `json:"interrupted"` // the context ended the run before every file was read
	Seconds     float64  `json:"seconds"`     // wall time

	peakInFlight int64 // the most bytes of records held between the reader and the writer
}

// Commit policy: a transaction holds whole games only and ends after Options.CommitGames
// (default defaultCommitGames) games or commitEvery, whichever comes first; a kill loses at
// most the open transaction.
const (
	defaultCommitGames = 2000
	commitEvery        = time.Second
)

// batchSize is how many items travel together from the reader to a worker and on to the
// writer; the duplicate check looks a batch's games up in one query.
const batchSize = 64

type itemKind uint8

const (
	itemRecord    itemKind = iota // a record: rec and its read error, out filled by a worker
	itemFileStart                 // a file begins: file
	itemFileEnd                   // a file was read to its end (or as far as it could be)
	itemPathError                 // a path or a part of a file that cannot be read: err
	itemNotice                    // something a reader skipped on purpose (an *ingest.Notice): err
	itemSkipped                   // a file already ingested: not read
	itemFatal                     // the reader cannot go on (the database failed): err
)

type item struct {
	kind itemKind
	file *fileJob
	rec  *ingest.Record
	err  error
	out  analysis
	// for itemFileEnd of standard input: what was read
	hash string
	size int64
	// for itemRecord: where the record stands (its Source and Index), and whether it
	// was passed on before the check of its compressed part (ingest.Record.Unchecked)
	source    string
	index     int
	unchecked bool
	part      int
	read      int64 // of the inputs, read when the item was passed on (Progress.Bytes)
}

// fileJob is a file being ingested, as the reader found it.
type fileJob struct {
	path     string
	stream   bool // read once, hashed as it is read (standard input, a pipe): hash and size come with its end
	size     int64
	hash     string // "" for a stream
	sourceID int64  // the sources row of an interrupted ingest of the same content, else 0
	resume   counts // what that row says was stored
}

// counts are a source's counters, as in its sources row.
type counts struct {
	records, new, duplicates, legal, illegal, unreadable int64
}

// Ingest reads every record of the paths (files, directories, .gz/.zst/.zip, "-" for
// opts.Stdin), replays them on opts.Workers goroutines and stores them, in input order,
// from one writer goroutine in large transactions. A file whose content is already stored
// complete is skipped without being read; one whose ingest was interrupted is taken up
// after its last stored record. Records that cannot be read or are illegal are stored
// with their verdict and text. When ctx ends, reading stops, what was read is stored, and
// the summary says Interrupted: a later ingest of the same paths finishes the job.
//
// A path that does not exist is an error before anything is stored (an
// *ingest.PathError); files that cannot be read are listed in Summary.Errors and the
// others are ingested.
func (d *DB) Ingest(ctx context.Context, paths []string, opts Options) (*Summary, error) {
	start := time.Now()
	files, walkErrs, walkNotices, err := listFiles(paths)
	if err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opts.CommitGames <= 0 {
		opts.CommitGames = defaultCommitGames
	}
	sum := &Summary{Errors: []string{}}
	files = d.dropOutputs(files, opts.ParquetDir, opts.Skip, sum)
	sum.Files = len(files)
	var totalBytes int64
	if opts.Progress != nil {
		totalBytes = inputSize(files)
		opts.Progress(Progress{Files: sum.Files, TotalBytes: totalBytes})
	}
	for _, e := range walkErrs {
		sum.Errors = append(sum.Errors, e.Error())
	}
	for _, n := range walkNotices {
		sum.Notices = append(sum.Notices, n.Error())
	}

	conn, err := d.db.Conn(context.Background())
	if err != nil {
		return nil, dbError(d.path, wrapBusy(err))
	}
	defer conn.Close()

	if d.parquetOnly != "" {
		// A Parquet-only ingest's database is scratch, removed at the end and by the next
		// run if this one is killed: it need not wait for the disk.
		if _, err := conn.ExecContext(context.Background(), "PRAGMA synchronous = OFF"); err != nil {
			conn.Close()
			return nil, dbError(d.path, wrapBusy(err))
		}
	}
	stream, err := d.startStream(opts)
	if err != nil {
		conn.Close()
		return nil, err
	}

	// The reader's items go to the workers, which replay the records, and on to the
	// writer in input order, 64 at a time. The records held between the reader and the
	// writer are bounded in bytes by Limits.MaxInFlight (Record.Bytes; the rows a worker
	// makes of a record are of the same order); one larger than that passes alone.
	lim := opts.Limits.OrDefault()
	rd := &reader{db: d.db, ctx: ctx, stdin: opts.Stdin, lim: lim}
	p := pipeline.Pipeline[item, item]{
		Workers:  workers,
		Batch:    batchSize,
		MaxBytes: lim.MaxInFlight,
		Size: func(it item) int64 {
			if it.kind == itemRecord {
				return it.rec.Bytes()
			}
			return 0
		},
		NewWorker: func() func(item) item {
			var a analyzer
			return func(it item) item {
				if it.kind == itemRecord {
					it.out = a.analyze(it.rec, it.err)
					it.rec = nil
				}
				return it
			}
		},
	}

	w := &writer{sum: sum, progress: opts.Progress, totalBytes: totalBytes, commitGames: opts.CommitGames, sources: make(map[*fileJob]*sourceState),
		txIDs: make(map[string]int64), existing: make(map[string]int64), dups: make(map[int64]int64), stream: stream,
		streamOnly: d.parquetOnly != ""}
	w.games = newRowBuffer(&gamesTable)
	w.turns = newRowBuffer(&gameTurnsTable)
	w.tags = newRowBuffer(&gameTagsTable)
	ran := false
	err = conn.Raw(func(dc any) error {
		ran = true
		c := newConn(dc.(driver.Conn))
		defer c.close()
		w.c = c
		return w.run(ctx, &p, rd.items(files))
	})
	sum.Interrupted = w.interrupted || rd.interrupted
	if stream != nil {
		if serr := stream.close(); err != nil || serr != nil || sum.Interrupted || !ran || w.streamBroken {
			cause := stream.abort()
			if err == nil && serr != nil && w.streamOnly {
				err = cause // nothing else has the turns and tags
			}
		} else {
			d.stream = stream
		}
	}
	sum.peakInFlight = p.PeakBytes()
	sum.TurnRows = w.turnRows
	sum.Rows = w.games.rows + w.turnRows + w.tagRows
	sum.Seconds = time.Since(start).Seconds()
	return sum, dbError(d.path, err)
}

// reader walks the files in order and passes on their records, with a start and an end
// item per file.
type reader struct {
	db          *sql.DB
	ctx         context.Context
	stdin       io.Reader
	lim         ingest.Limits
	yield       func(item) bool
	stopped     bool
	interrupted bool

	// For Progress.Bytes: the sizes of the files done (read, skipped or given up), and of
	// the file being read its bytes read so far (fileRead, or stream.n) and its size.
	bytesDone int64
	fileRead  atomic.Int64
	fileSize  int64
	stream    *hashingReader
}

// position is how far the reader is in the inputs, in bytes (Progress.Bytes).
func (r *reader) position() int64 {
	if r.stream != nil {
		return r.bytesDone + r.stream.n
	}
	return r.bytesDone + min(r.fileRead.Load(), r.fileSize)
}

// inputSize is the size of the regular files among files, or -1 when one is standard
// input or not a regular file (a pipe, a FIFO): its size is not known before it is read.
func inputSize(files []inputFile) int64 {
	var total int64
	for _, f := range files {
		if f.stdin {
			return -1
		}
		info, err := os.Stat(f.path)
		if err != nil {
			continue // said when it is read
		}
		if !info.Mode().IsRegular() {
			return -1
		}
		total += info.Size()
	}
	return total
}

var errStop = errors.New("stop reading")

// emit passes an item on; false once the writer has stopped.
func (r *reader) emit(it item) bool {
	if r.stopped {
		return false
	}
	it.read = r.position()
	if !r.yield(it) {
		r.stopped = true
		return false
	}
	return true
}

// items walks the files and yields their items.
func (r *reader) items(files []inputFile) iter.Seq[item] {
	return func(yield func(item) bool) {
		r.yield = yield
		seen := make(map[string]bool) // contents met in this run
		for _, f := range files {
			if r.ctx.Err() != nil {
				r.interrupted = true
				break
			}
			if !r.file(f, seen) {
				break
			}
		}
	}
}

// file sends the items of one file; false means stop.
//
// A regular file is hashed first (it can be read twice): content already ingested
// completely is skipped unread, and an interrupted ingest of it is taken up. Anything else
// that can be read to its end (standard input, a pipe, /dev/stdin or /dev/fd/N, a named
// FIFO, a socket) is read once, hashed as it is read; a device or anything else that is
// no finite stream (/dev/zero, a terminal) is refused with a *PathError before anything is
// read from it.
func (r *reader) file(f inputFile, seen map[string]bool) bool {
	job := &fileJob{path: f.path, stream: f.stdin}
	var src io.Reader // the stream read once, or nil for a regular file
	if f.stdin {
		src = r.stdin
		if src == nil {
			src = eofReader{}
		}
		if sf, ok := src.(*os.File); ok {
			if info, err := sf.Stat(); err == nil {
				if why := notStream(info); why != "" {
					return r.emit(item{kind: itemPathError, err: ingest.NewPathError("read", "-", errors.New("standard input is "+why))})
				}
			}
		}
	} else {
		info, err := os.Stat(f.path)
		if err != nil {
			return r.emit(item{kind: itemPathError, err: ingest.NewPathError("open", f.path, err)})
		}
		if !info.Mode().IsRegular() {
			if why := notStream(info); why != "" {
				return r.emit(item{kind: itemPathError, err: ingest.NewPathError("read", f.path, errors.New(why))})
			}
			sf, err := ingest.OpenFile(r.ctx, f.path) // a FIFO waits for a writer: not past ctx
			if err != nil {
				if r.ctx.Err() != nil {
					r.interrupted = true
					return false
				}
				return r.emit(item{kind: itemPathError, err: ingest.NewPathError("open", f.path, err)})
			}
			defer sf.Close()
			src, job.stream = sf, true
		}
	}
	var hr *hashingReader
	if src != nil {
		// A pipe may send nothing for ever: its reads end when ctx does.
		hr = &hashingReader{r: ingest.ContextReader(r.ctx, src), h: sha256.New()}
	} else {
		hash, size, err := hashFile(f.path)
		if err != nil {
			return r.emit(item{kind: itemPathError, err: err})
		}
		if seen[hash] {
			r.bytesDone += size
			return r.emit(item{kind: itemSkipped})
		}
		seen[hash] = true
		job.hash, job.size = hash, size
		done, err := r.lookup(job)
		if err != nil {
			r.emit(item{kind: itemFatal, err: err})
			return false
		}
		if done {
			r.bytesDone += size
			return r.emit(item{kind: itemSkipped})
		}
	}
	if !r.emit(item{kind: itemFileStart, file: job}) {
		return false
	}
	var n int64
	fn := func(rec *ingest.Record, err error) error {
		if r.ctx.Err() != nil {
			r.interrupted = true
			return errStop
		}
		if rec == nil { // a part of the file that cannot be read, or skipped: said, and the file goes on
			kind := itemPathError
			if ingest.IsNotice(err) {
				kind = itemNotice
			}
			if !r.emit(item{kind: kind, file: job, err: err}) {
				return errStop
			}
			return nil
		}
		n++
		if n <= job.resume.records {
			return nil // stored by the interrupted ingest
		}
		if rec.Source == "" {
			rec.Source = f.path
		}
		if !r.emit(item{kind: itemRecord, file: job, rec: rec, err: err,
			source: rec.Source, index: rec.Index, unchecked: rec.Unchecked, part: rec.Part}) {
			return errStop
		}
		return nil
	}
	var err error
	if hr != nil {
		r.stream = hr
		err = readOnce(hr, f.path, r.lim, fn)
	} else {
		r.fileRead.Store(0)
		r.fileSize = job.size
		err = ingest.OpenWith(context.Background(), []string{f.path}, ingest.OpenOptions{Read: &r.fileRead, Limits: r.lim}, fn)
	}
	switch {
	case errors.Is(err, errStop):
		return false
	case err != nil:
		if !r.emit(item{kind: itemPathError, file: job, err: err}) {
			return false
		}
	}
	end := item{kind: itemFileEnd, file: job}
	if hr != nil {
		end.hash, end.size = hr.sum(), hr.n
		r.bytesDone += hr.n
	} else {
		r.bytesDone += job.size // read to its end, or as far as it could be
	}
	r.stream, r.fileSize = nil, 0
	r.fileRead.Store(0)
	return r.emit(end)
}

// notStream says why a file that is not a regular file is not read ("" when it can be
// read once to its end): a pipe, a socket and /dev/null can; devices and the rest cannot
// (/dev/zero and /dev/urandom never end, a terminal waits for typing).
func notStream(info os.FileInfo) string {
	m := info.Mode()
	switch {
	case m.IsRegular(), m&(os.ModeNamedPipe|os.ModeSocket) != 0:
		return ""
	case m&os.ModeCharDevice != 0:
		if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(info, null) {
			return ""
		}
		return "a character device (a terminal, /dev/zero, /dev/urandom, ...), not a file or a pipe: not read"
	case m&os.ModeDevice != 0:
		return "a block device, not a file or a pipe: not read"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file or a pipe: not read"
}

// readOnce reads the records of a stream that can be read only once (standard input, a
// pipe) with ingest.ReadStream, named name in records and errors. When the records are
// read to their end without an error, the rest of the stream is read too, so that its hash
// is that of all of it.
func readOnce(hr *hashingReader, name string, lim ingest.Limits, fn func(*ingest.Record, error) error) error {
	ended := false // the stream ended in an error, already passed to fn
	err := ingest.ReadStream(hr, name, lim, func(rec *ingest.Record, err error) error {
		ended = ended || rec == nil && err != nil && !ingest.IsNotice(err)
		return fn(rec, err)
	})
	if err != nil || ended {
		return err
	}
	if _, err := io.Copy(io.Discard, hr); err != nil {
		return fn(nil, ingest.NewPathError("read", name, err))
	}
	return nil
}

// lookup finds the sources row of the job's content: it reports done when the content was
// ingested completely, and fills in the row to resume when an ingest of it stopped early.
func (r *reader) lookup(job *fileJob) (done bool, err error) {
	var status string
	var c counts
	var id int64
	err = r.db.QueryRowContext(context.Background(),
		`SELECT id, status, records, new, duplicates, legal, illegal, unreadable FROM sources
		 WHERE sha256 = ? ORDER BY status = 'complete' DESC, id LIMIT 1`, job.hash).
		Scan(&id, &status, &c.records, &c.new, &c.duplicates, &c.legal, &c.illegal, &c.unreadable)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("looking up %s in sources: %w", job.path, wrapBusy(err))
	case status == "complete":
		return true, nil
	}
	job.sourceID, job.resume = id, c
	return false, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// sourceState is the writer's view of a file being ingested.
type sourceState struct {
	id    int64
	c     counts
	err   string // the first part of the file that could not be read
	dirty bool   // counters changed since the last update of the row
}

// writer stores the items in order, in transactions.
type writer struct {
	c           *conn
	sum         *Summary
	progress    func(Progress)
	totalBytes  int64 // Progress.TotalBytes
	commitGames int
	filesDone   int
	interrupted bool

	games, turns, tags *rowBuffer // turns: game_turns; tags: game_tags
	turnRows           int64      // turns stored (rows of the view turns)
	tagRows            int64      // tags stored (rows of the view tags)
	sources            map[*fileJob]*sourceState

	inTx     bool
	txStart  time.Time
	txGames  int
	nextID   int64
	txIDs    map[string]int64 // game ids stored in the open transaction
	existing map[string]int64 // game ids of the batch already stored before it
	dups     map[int64]int64  // duplicates met in the open transaction, by game
	lookup   []driver.Value

	stream *parquetStream // nil unless the Parquet files are written as the games are stored
	// saves are the savepoints before the records stored ahead of their compressed part's
	// check (parts.go of ingest), one per part, oldest first: a damaged part is rolled
	// back to its own. No commit while one is open.
	saves []savepoint
	// streamBroken: games were streamed that a rollback took back; the Parquet files are
	// exported from the database instead.
	streamBroken bool
	sentTo       int64        // the highest games.id handed to stream
	rolledBack   bool         // a part was rolled back: the batch's games are looked up again
	streamed     []streamGame // the new games of the batch, for stream
	// streamOnly: the turns and tags go to stream only, not to the database (a
	// Parquet-only ingest, whose database is only the games, to find the copies).
	streamOnly bool
}

// run stores the items in input order as the workers hand them back, until they end, an
// error stops it, or ctx ends (then what was stored is committed and the items in flight
// are dropped: the next ingest reads them again).
func (w *writer) run(ctx context.Context, p *pipeline.Pipeline[item, item], items iter.Seq[item]) error {
	failed := p.RunBatches(ctx, items, func(items []item) error {
		if err := ctx.Err(); err != nil {
			return err // at once: the next ingest reads what is in flight again
		}
		return w.batch(items)
	})
	if failed != nil && failed == ctx.Err() {
		w.interrupted = true
		failed = nil
	}
	if failed == nil && w.inTx && len(w.saves) > 0 {
		// Interrupted while records of a part not yet checked are stored: they go, and
		// the next ingest reads them again.
		failed = w.rollbackTo(0, nil)
	}
	if failed == nil && w.inTx {
		failed = w.commit()
	}
	if failed != nil && w.inTx {
		w.c.exec("ROLLBACK")
		w.inTx = false
	}
	return failed
}

// batch stores one batch of items.
func (w *writer) batch(items []item) error {
	read := items[len(items)-1].read // before the items are let go
	if !w.inTx {
		if err := w.begin(); err != nil {
			return err
		}
	}
	if err := w.lookupIDs(items, 0); err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		var err error
		switch it.kind {
		case itemRecord:
			err = w.record(it)
		case itemFileStart:
			err = w.startSource(it.file)
		case itemFileEnd:
			err = w.endSource(it)
		case itemPathError:
			w.sum.Errors = append(w.sum.Errors, it.err.Error())
			if st := w.sources[it.file]; st != nil && st.err == "" {
				st.err = it.err.Error()
			}
			if err = w.damaged(it); err == nil && w.rolledBack {
				// The games the rest of the batch was looked up against may be gone.
				w.rolledBack = false
				err = w.lookupIDs(items, i+1)
			}
		case itemNotice:
			w.sum.Notices = append(w.sum.Notices, it.err.Error())
		case itemSkipped:
			w.sum.Skipped++
			w.filesDone++
		case itemFatal:
			err = it.err
		}
		if err != nil {
			return err
		}
		items[i] = item{} // let the rows go
	}
	if len(w.streamed) > 0 {
		w.sentTo = w.streamed[len(w.streamed)-1].id
		w.stream.in <- w.streamed
		w.streamed = make([]streamGame, 0, batchSize)
	}
	if w.progress != nil {
		w.progress(Progress{Files: w.sum.Files, FilesDone: w.filesDone, Games: w.sum.Games, Bytes: read, TotalBytes: w.totalBytes})
	}
	if w.txGames >= w.commitGames || time.Since(w.txStart) >= commitEvery {
		if len(w.saves) > 0 {
			// Records not yet checked are stored: no commit, but what is buffered goes
			// to the database, so that memory stays bounded.
			w.txGames, w.txStart = 0, time.Now()
			return w.flush(true)
		}
		return w.commit()
	}
	return nil
}

// lookupIDs finds which games of the batch, from its item from on, are already stored
// (before this transaction or earlier in it).
func (w *writer) lookupIDs(items []item, from int) error {
	clear(w.existing)
	vals := w.lookup[:0]
	for i := from; i < len(items); i++ {
		if it := &items[i]; it.kind == itemRecord {
			if _, ok := w.txIDs[it.out.id]; !ok {
				vals = append(vals, it.out.id)
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	for len(vals) < batchSize {
		vals = append(vals, "") // no game has the id ""
	}
	w.lookup = vals
	return w.c.query(lookupSQL, vals, func(row []driver.Value) error {
		id, _ := row[0].(string)
		n, _ := row[1].(int64)
		w.existing[id] = n
		return nil
	})
}

var lookupSQL = func() string {
	s := "SELECT game_id, id FROM games WHERE game_id IN (?"
	for range batchSize - 1 {
		s += ",?"
	}
	return s + ")"
}()

// record stores one record, or counts it as a duplicate.
func (w *writer) record(it *item) error {
	if err := w.checkpoint(it); err != nil {
		return err
	}
	a := &it.out
	st := w.sources[it.file]
	st.dirty = true
	st.c.records++
	w.sum.Games++
	switch {
	case a.legal:
		st.c.legal++
		w.sum.Legal++
	case a.unreadable:
		st.c.unreadable++
		w.sum.Unreadable++
	default:
		st.c.illegal++
		w.sum.Illegal++
	}
	w.txGames++
	id, dup := w.txIDs[a.id]
	if !dup {
		id, dup = w.existing[a.id]
	}
	if dup {
		w.dups[id]++
		st.c.duplicates++
		w.sum.Duplicates++
		return nil
	}
	id = w.nextID
	w.nextID++
	w.txIDs[a.id] = id
	st.c.new++
	w.sum.New++
	idv := driver.Value(id)
	a.game[gameColID] = idv
	a.game[gameColSourceID] = st.id
	w.tagRows += int64(len(a.tags))
	if err := w.games.add(w.c, a.game); err != nil {
		return err
	}
	w.turnRows += int64(a.nturns)
	if w.stream != nil {
		w.streamed = append(w.streamed, streamGame{id: id, gameID: a.id, turns: a.turns, tags: a.tags})
		if w.streamOnly {
			return nil
		}
	}
	if a.nturns > 0 { // a game's turns are one row of game_turns
		if err := w.turns.add(w.c, []driver.Value{idv, a.turns}); err != nil {
			return err
		}
	}
	if a.tagsText == "" {
		return nil
	}
	return w.tags.add(w.c, []driver.Value{idv, a.tagsText}) // a game's tags are one row of game_tags
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// startSource creates the sources row of a file, or takes up the row of an interrupted
// ingest of the same content.
func (w *writer) startSource(f *fileJob) error {
	st := &sourceState{id: f.sourceID, c: f.resume}
	if f.sourceID == 0 {
		var hash driver.Value
		if f.hash != "" {
			hash = f.hash
		}
		res, err := w.c.exec(`INSERT INTO sources (path, size, sha256, started, status, records, new, duplicates, legal, illegal, unreadable)
			VALUES (?, ?, ?, ?, 'partial', 0, 0, 0, 0, 0, 0)`, f.path, f.size, hash, now())
		if err != nil {
			return err
		}
		if st.id, err = res.LastInsertId(); err != nil {
			return err
		}
	} else {
		w.sum.Resumed++
	}
	w.sources[f] = st
	return nil
}

// endSource marks a file complete, or failed when a part of it could not be read.
func (w *writer) endSource(it *item) error {
	st := w.sources[it.file]
	delete(w.sources, it.file)
	w.filesDone++
	if err := w.releaseSaves(); err != nil { // the parts of the file passed, or were rolled back
		return err
	}
	status, errText := "complete", driver.Value(nil)
	if st.err != "" {
		status, errText = "failed", st.err
	}
	var hash driver.Value
	size := it.file.size
	if it.file.stream {
		hash, size = it.hash, it.size
	}
	_, err := w.c.exec(`UPDATE sources SET status = ?, finished = ?, error = ?, sha256 = coalesce(?, sha256), size = ?,
		records = ?, new = ?, duplicates = ?, legal = ?, illegal = ?, unreadable = ? WHERE id = ?`,
		status, now(), errText, hash, size,
		st.c.records, st.c.new, st.c.duplicates, st.c.legal, st.c.illegal, st.c.unreadable, st.id)
	return err
}

func (w *writer) begin() error {
	if _, err := w.c.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	w.inTx = true
	w.txStart = time.Now()
	w.txGames = 0
	return w.c.query("SELECT coalesce(max(id), 0) + 1 FROM games", nil, func(row []driver.Value) error {
		w.nextID, _ = row[0].(int64)
		return nil
	})
}

// commit stores what is buffered, the duplicate counts and the sources' progress, and
// commits: the transaction holds whole games and the progress that goes with them.
func (w *writer) commit() error {
	if err := w.flush(true); err != nil {
		return err
	}
	for _, st := range w.sources {
		if !st.dirty {
			continue
		}
		if _, err := w.c.exec(`UPDATE sources SET records = ?, new = ?, duplicates = ?, legal = ?, illegal = ?, unreadable = ? WHERE id = ?`,
			st.c.records, st.c.new, st.c.duplicates, st.c.legal, st.c.illegal, st.c.unreadable, st.id); err != nil {
			return err
		}
		st.dirty = false
	}
	if _, err := w.c.exec("COMMIT"); err != nil {
		return err
	}
	w.inTx = false
	return nil
}

// flush stores the rows buffered and the duplicate counts, in the open transaction; with
// forget, between batches, it forgets the ids of the games stored, which the next batch's
// lookup finds in the database.
func (w *writer) flush(forget bool) error {
	for _, b := range []*rowBuffer{w.games, w.turns, w.tags} {
		if err := b.flush(w.c); err != nil {
			return err
		}
	}
	for id, n := range w.dups {
		if _, err := w.c.exec("UPDATE games SET duplicates = duplicates + ? WHERE id = ?", n, id); err != nil {
			return err
		}
	}
	if forget {
		clear(w.txIDs)
	}
	clear(w.dups)
	return nil
}

// tempName matches the names that WriteParquet of older versions wrote its files under
// until they were complete: ".games.parquet.0123abcd.tmp", ".turns.parquet.0123abcd.tmp", ".tags.parquet.0123abcd.tmp".
var tempName = regexp.MustCompile(`^\.(` + strings.Join(parquetFiles, "|") + `)\.[0-9a-f]{8}\.tmp$`)

// dropOutputs takes out of files what this ingest writes, each with a notice in sum: the
// database and its -wal, -shm and -journal files, and in parquetDir the Parquet files and
// their temporary files. Files are compared by identity (os.SameFile), whatever path
// names them (./ponte.db, a link to it).
func (d *DB) dropOutputs(files []inputFile, parquetDir string, skip func(string) (bool, string), sum *Summary) []inputFile {
	type output struct {
		info os.FileInfo
		why  string
	}
	var outs []output
	for _, o := range []struct{ suffix, why string }{
		{"", "the database being written, not read"},
		{"-wal", "the write-ahead log of the database being written, not read"},
		{"-shm", "the shared-memory index of the database being written, not read"},
		{"-journal", "the rollback journal of the database being written, not read"},
	} {
		if info, err := os.Stat(d.path + o.suffix); err == nil {
			outs = append(outs, output{info, o.why})
		}
	}
	var pdir os.FileInfo
	if parquetDir != "" {
		pdir, _ = os.Stat(parquetDir)
	}
	kept := files[:0]
	for _, f := range files {
		why := ""
		if !f.stdin {
			if info, err := os.Stat(f.path); err == nil {
				for _, o := range outs {
					if os.SameFile(info, o.info) {
						why = o.why
						break
					}
				}
			}
			if base := filepath.Base(f.path); why == "" && pdir != nil && (isParquetFile(base) || tempName.MatchString(base)) {
				if dir, err := os.Stat(filepath.Dir(f.path)); err == nil && os.SameFile(dir, pdir) {
					why = "the Parquet output of the database being written, not read"
					if tempName.MatchString(base) {
						why = "a temporary file of the Parquet output, not read"
					}
				}
			}
		}
		if why == "" && skip != nil && !f.stdin {
			if skipped, notice := skip(f.path); skipped {
				if notice != "" {
					sum.Notices = append(sum.Notices, notice)
				}
				continue
			}
		}
		if why != "" {
			sum.Notices = append(sum.Notices, f.path+": "+why)
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

// RemoveStaleTemps removes from dir the temporary files that WriteParquet left when its
// run was killed: regular files named exactly as WriteParquet names them while it writes
// (".games.parquet.XXXXXXXX.tmp", ".turns.parquet.XXXXXXXX.tmp", ".tags.parquet…", X a hex digit) and last
// modified before the given time, the start of the run that calls it, so that a file
// being written now (by this run, later, or by a live one: it is modified as it is
// written) is left alone. Nothing else is touched. It returns the paths removed; a
// directory that does not exist holds none.
func RemoveStaleTemps(dir string, before time.Time) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(before) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, p)
	}
	return removed, nil
}
