// Package intake runs an ingest: it walks the paths, hashes each file and finds where an
// earlier run of the same content stopped, reads the records (package ingest's readers),
// replays and judges them on pipeline workers (verdict.Analyze, with the per-turn
// features), and hands the replayed games, in input order, to the store, which only
// stores them (store.DB.Write).
package intake

import (
	"context"
	"io"
	"runtime"
	"time"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/pipeline"
	"github.com/ponte/ponte/store"
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
	// Store is how the games are stored (store.WriteOptions): the games of a transaction,
	// the Parquet folder, whether its files are streamed. The Parquet folder's
	// games.parquet, turns.parquet and temporary files are outputs, not inputs, and are not
	// read (a notice says so), as the database and its -wal, -shm and -journal files
	// never are.
	Store store.WriteOptions
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
// records by verdict (store.Counts).
type Summary struct {
	Files   int `json:"files"`   // files found under the paths
	Skipped int `json:"skipped"` // of those, already ingested (same content): not read again
	Resumed int `json:"resumed"` // taken up where an interrupted ingest stopped
	store.Counts
	Errors      []string `json:"errors"`      // paths or files that could not be read (to their end)
	Notices     []string `json:"notices"`     // what the readers skipped on purpose (another game's records): not errors
	Interrupted bool     `json:"interrupted"` // the context ended the run before every file was read
	Seconds     float64  `json:"seconds"`     // wall time

	peakInFlight int64 // the most bytes of records held between the reader and the writer
}

// batchSize is how many items travel together from the reader to a worker and on to the
// store.
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

// item is what the reader passes on; a worker replays its record into out.
type item struct {
	kind itemKind
	file *store.File
	rec  *ingest.Record
	err  error
	// for itemFileEnd of a stream: what was read
	hash string
	size int64
	read int64 // of the inputs, read when the item was passed on (Progress.Bytes)
}

// result is an item as the workers hand it on: what the store takes of it, and what the
// intake keeps.
type result struct {
	kind  itemKind
	entry store.Entry
	err   error
	read  int64
}

// Run reads every record of the paths (files, directories, .gz/.zst/.zip, "-" for
// opts.Stdin), replays them on opts.Workers goroutines and stores them in db, in input
// order (store.DB.Write: one writer goroutine, large transactions). A file whose content is
// already stored complete is skipped without being read; one whose ingest was interrupted
// is taken up after its last stored record. Records that cannot be read or are illegal
// are stored with their verdict and text. When ctx ends, reading stops, what was read is
// stored, and the summary says Interrupted: a later ingest of the same paths finishes the
// job.
//
// A path that does not exist is an error before anything is stored (an
// *ingest.PathError); files that cannot be read are listed in Summary.Errors and the
// others are ingested.
func Run(ctx context.Context, db *store.DB, paths []string, opts Options) (*Summary, error) {
	start := time.Now()
	files, walkErrs, walkNotices, err := listFiles(paths)
	if err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sum := &Summary{Errors: []string{}}
	files = dropOutputs(db, files, opts.Store.ParquetDir, opts.Skip, sum)
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

	// The reader's items go to the workers, which replay the records, and on to the
	// store in input order, 64 at a time. The records held between the reader and the
	// store are bounded in bytes by Limits.MaxInFlight (Record.Bytes; the rows a worker
	// makes of a record are of the same order); one larger than that passes alone.
	lim := opts.Limits.OrDefault()
	rd := &reader{db: db, ctx: ctx, stdin: opts.Stdin, lim: lim}
	p := pipeline.Pipeline[item, result]{
		Workers:  workers,
		Batch:    batchSize,
		MaxBytes: lim.MaxInFlight,
		Size: func(it item) int64 {
			if it.kind == itemRecord {
				return it.rec.Bytes()
			}
			return 0
		},
		NewWorker: func() func(item) result {
			var a analyzer
			return func(it item) result {
				r := result{kind: it.kind, err: it.err, read: it.read,
					entry: store.Entry{File: it.file, Hash: it.hash, Size: it.size}}
				switch it.kind {
				case itemRecord:
					r.entry.Kind = store.EntryGame
					if it.rec != nil {
						r.entry.Unchecked, r.entry.Part = it.rec.Unchecked, it.rec.Part
					}
					a.analyze(it.rec, it.err, &r.entry.Game)
				case itemFileStart:
					r.entry.Kind = store.EntryFileStart
				case itemFileEnd:
					r.entry.Kind = store.EntryFileEnd
				case itemPathError:
					r.entry.Kind, r.entry.Err = store.EntryError, it.err
				}
				return r
			}
		},
	}

	filesDone, interrupted := 0, false
	var entries []store.Entry
	counts, err := db.Write(opts.Store, func(w *store.Writer) (bool, error) {
		failed := p.RunBatches(ctx, rd.items(files), func(batch []result) error {
			if err := ctx.Err(); err != nil {
				return err // at once: the next ingest reads what is in flight again
			}
			read := batch[len(batch)-1].read // before the items are let go
			entries = entries[:0]
			for i := range batch {
				r := &batch[i]
				switch r.kind {
				case itemNotice:
					sum.Notices = append(sum.Notices, r.err.Error())
					continue
				case itemSkipped:
					sum.Skipped++
					filesDone++
					continue
				case itemFatal:
					return r.err
				case itemPathError:
					sum.Errors = append(sum.Errors, r.err.Error())
				case itemFileStart:
					if r.entry.File.Resume.ID != 0 {
						sum.Resumed++
					}
				case itemFileEnd:
					filesDone++
				}
				entries = append(entries, r.entry)
				batch[i] = result{} // let the record go
			}
			if len(entries) > 0 {
				if err := w.Put(entries); err != nil {
					return err
				}
			}
			if opts.Progress != nil {
				opts.Progress(Progress{Files: sum.Files, FilesDone: filesDone, Games: w.Counts().Games,
					Bytes: read, TotalBytes: totalBytes})
			}
			return nil
		})
		if failed != nil && failed == ctx.Err() {
			interrupted, failed = true, nil
		}
		return interrupted, failed
	})
	sum.Counts = counts
	sum.Interrupted = interrupted || rd.interrupted
	sum.peakInFlight = p.PeakBytes()
	sum.Seconds = time.Since(start).Seconds()
	return sum, err
}

// dropOutputs takes out of files what this ingest writes, each with a notice in sum
// (store.DB.IsOutput), and the files opts.Skip skips.
func dropOutputs(db *store.DB, files []inputFile, parquetDir string, skip func(string) (bool, string), sum *Summary) []inputFile {
	kept := files[:0]
	for _, f := range files {
		why := ""
		if !f.stdin {
			why = db.IsOutput(f.path, parquetDir)
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

// PeakInFlight is the most bytes of records that were held at once between the reader and
// the store (bounded by Options.Limits.MaxInFlight, or the largest record).
func (s *Summary) PeakInFlight() int64 { return s.peakInFlight }
