package intake

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sync/atomic"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/store"
)

// reader walks the files in order and passes on their records, with a start and an end
// item per file.
type reader struct {
	db          *store.DB
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
	job := &store.File{Path: f.path, Stream: f.stdin}
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
			src, job.Stream = sf, true
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
		job.Hash, job.Size = hash, size
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
		if n <= job.Resume.Records {
			return nil // stored by the interrupted ingest
		}
		if rec.Source == "" {
			rec.Source = f.path
		}
		if !r.emit(item{kind: itemRecord, file: job, rec: rec, err: err}) {
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
		r.fileSize = job.Size
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
		r.bytesDone += job.Size // read to its end, or as far as it could be
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
func (r *reader) lookup(job *store.File) (done bool, err error) {
	src, found, err := r.db.SourceOf(context.Background(), job.Hash)
	switch {
	case err != nil:
		return false, fmt.Errorf("looking up %s in sources: %w", job.Path, err)
	case !found:
		return false, nil
	case src.Complete:
		return true, nil
	}
	job.Resume = src
	return false, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
