package parquet

import (
	"errors"
	"fmt"
	"io"
	"os"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/internal/outfile"
)

// File writes a Parquet file of rows T given one at a time (next), by the export or by
// an ingest as it stores them: this goroutine fills batches of rows, another one encodes
// them. It is written into a folder's new state and completed by finish, with the
// database's state (StateKey) in its metadata, once that is known.
type File[T any] struct {
	Temp
	w       *pq.GenericWriter[T]
	batches chan []T
	free    chan []T
	failed  chan struct{} // closed when the encoder fails
	written chan error    // the encoder's end
	failure error
	buf     []T
	sl      Slab
	rows    int64
	ended   bool
}

// Zstd is the compression of the files: zstd's fastest level, which took 0.96× the CPU
// of a whole ingest with parquet-go's default level (docs/benchmarks.md) for files 6%
// larger.
var Zstd = zstd.Codec{Level: zstd.SpeedFastest}

// rowsBatch is how many rows go to the encoder at once.
const rowsBatch = 1024

// Create starts writing the Parquet file path (zstd at its fastest level, Zstd; row
// groups of at most rowGroup rows; the columns blobs without bounds).
func Create[T any](path string, rowGroup int64, blobs ...string) (*File[T], error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	opts := []pq.WriterOption{
		pq.Compression(&Zstd),
		pq.MaxRowsPerRowGroup(rowGroup),
		pq.CreatedBy("ponte", "", ""),
		pq.DataPageStatistics(false),
	}
	for _, col := range blobs {
		opts = append(opts, pq.SkipPageBounds(col), pq.SkipPageStatistics(col))
	}
	rf := &File[T]{
		Temp:    Temp{path: path, f: f},
		w:       pq.NewGenericWriter[T](f, opts...),
		batches: make(chan []T, 4),
		free:    make(chan []T, 6),
		failed:  make(chan struct{}),
		written: make(chan error, 1),
		buf:     make([]T, 0, rowsBatch),
	}
	go func() {
		defer bug.Recover()
		var err error
		for b := range rf.batches {
			if err == nil {
				if _, err = rf.w.Write(b); err != nil {
					close(rf.failed)
				}
			}
			clear(b)
			select {
			case rf.free <- b[:0]:
			default:
			}
		}
		rf.written <- err
	}()
	return rf, nil
}

// Next returns a new zero row to fill, and the slab its pointers may use.
func (rf *File[T]) Next() (*T, *Slab) {
	rf.buf = append(rf.buf, *new(T))
	rf.rows++
	return &rf.buf[len(rf.buf)-1], &rf.sl
}

// Full says whether the batch is full: send it.
func (rf *File[T]) Full() bool { return len(rf.buf) == cap(rf.buf) }

// Send passes the batch to the encoder.
func (rf *File[T]) Send() error {
	if len(rf.buf) == 0 {
		return nil
	}
	select {
	case rf.batches <- rf.buf:
	case <-rf.failed:
		return ErrStopped
	}
	select {
	case rf.buf = <-rf.free:
	default:
		rf.buf = make([]T, 0, rowsBatch)
	}
	rf.sl = Slab{} // the rows sent keep the old one
	return nil
}

// end sends the last rows (unless failed) and waits for the encoder; it returns the
// first failure.
func (rf *File[T]) end(failed bool) error {
	if rf.ended {
		return rf.failure
	}
	rf.ended = true
	var err error
	if !failed {
		err = rf.Send()
	}
	close(rf.batches)
	if werr := <-rf.written; werr != nil {
		err = werr
	}
	if err != nil {
		rf.failure = err
	}
	return err
}

// Abort stops the file and removes it.
func (rf *File[T]) Abort() {
	rf.end(true)
	rf.Drop()
}

// Close ends the file once its rows are given: it finishes it with state when giving
// them ended with err nil, else it drops it and returns err (or the file's own failure,
// when that stopped the rows).
func (rf *File[T]) Close(err error, state string) (rows, size int64, _ error) {
	if err != nil {
		rf.Abort()
		return 0, 0, rf.Stopped(err, rf.failure)
	}
	return rf.Finish(state)
}

// Finish completes the file with state in its metadata and gives it its name.
func (rf *File[T]) Finish(state string) (rows, size int64, err error) {
	if err := rf.end(false); err != nil {
		rf.Drop()
		return 0, 0, rf.Stopped(err, nil)
	}
	size, err = rf.Commit(rf.w, state)
	return rf.rows, size, err
}

// Temp is a Parquet file written into the staging folder of a folder's new state
// (folderSwitch), under its own name: nothing reads the staging folder until it is
// switched in whole, so the file needs no temporary name of its own. It is the part that
// rowsFile and Turns share.
type Temp struct {
	path string
	f    *os.File
}

// createFile creates the Parquet file path in a new state, with the permissions os.Create
// gives; an error if a file of that name is already there (one carried in from the live
// folder, which writing would change too).
func createFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
}

// Commit completes the file that w wrote, with state in its metadata (StateKey), and
// syncs it; it returns its size. On an error the file is dropped.
func (t *Temp) Commit(w interface {
	SetKeyValueMetadata(key, value string)
	Close() error
}, state string) (size int64, err error) {
	w.SetKeyValueMetadata(StateKey, state)
	err = w.Close()
	if err == nil {
		err = t.f.Sync()
	}
	if err == nil {
		size, err = t.f.Seek(0, io.SeekCurrent)
	}
	if err == nil {
		err = t.f.Close()
	}
	if err != nil {
		t.Drop()
		return 0, t.Stopped(err, nil)
	}
	return size, nil
}

// Drop closes the file and removes it.
func (t *Temp) Drop() {
	t.f.Close()
	os.Remove(t.f.Name())
}

// Stopped is the error of writing the file, given the error err that stopped it: its
// own failure instead when err only says that the file's writer had stopped (ErrStopped).
func (t *Temp) Stopped(err, failure error) error {
	if failure != nil && errors.Is(err, ErrStopped) {
		err = failure
	}
	return fmt.Errorf("writing %s: %w", LivePath(t.path), err)
}

// LivePath names the file path of a folder's new state by its name in the live folder,
// for messages (outfile.LivePath).
func LivePath(path string) string { return outfile.LivePath(path) }

// StateKey is the key, in a Parquet file's metadata, of the state of the database the
// file was written from.
const StateKey = "ponte.database_state"

// FileState returns the value of key in the metadata of the Parquet file f, read from its
// footer; ok is false when there is none.
func FileState(f *os.File, key string) (state string, ok bool) {
	info, err := f.Stat()
	if err != nil {
		return "", false
	}
	pf, err := pq.OpenFile(f, info.Size(), pq.SkipPageIndex(true), pq.SkipBloomFilters(true))
	if err != nil {
		return "", false
	}
	return pf.Lookup(key)
}

// State returns the database state recorded in the Parquet file at path, read from
// its footer; ok is false when there is none.
func State(path string) (state string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	return FileState(f, StateKey)
}

// Rows are the rows given so far.
func (rf *File[T]) Rows() int64 { return rf.rows }

// Failure is the first failure of the file's encoder, nil while none.
func (rf *File[T]) Failure() error { return rf.failure }

// CreateTemp creates the Parquet file path in a folder's new state (a file another writer
// fills, as turn_evals.parquet's): an error if a file of that name is already there.
func CreateTemp(path string) (*Temp, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	return &Temp{path: path, f: f}, nil
}

// File is the file being written.
func (t *Temp) File() *os.File { return t.f }
