package ingest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// A Reader reads records from a stream of .ponte or JSON Lines text, plain
// or compressed with gzip or zstd. It detects the compression from the magic
// bytes and the format from the content (see [NewReader]), reads one record
// per call of [Reader.Read] and keeps in memory only the record being read.
type Reader struct {
	src     io.Reader
	source  string
	lr      lineReader
	format  Format
	started bool
	err     error // sticky: set once the reader cannot go on
	zr      *zstd.Decoder
	index   int // records returned so far
	resume  int // offset in the pushed-back line where the next game starts

	// scratch space of the .ponte reader, reused from record to record
	g     game
	tags  []Tag
	moves []Token
	raw   []byte
	cbuf  []byte
	esc   []byte
}

// NewReader returns a Reader that reads records from r. The source names r
// in records and errors: a file path, or "-" for standard input.
//
// The format is detected from the first non-blank line (after an optional
// UTF-8 byte order mark): '[' (a tag), ';' (a comment), a turn number "1.",
// a result token or an unnumbered first turn ("d4,e5", "d4-f5") start a
// .ponte file, which may thus hold movetext only; '{' followed by a JSON key
// and ':' (or by '}') starts a JSON Lines file, '{' followed by other text a
// .ponte comment. Content in neither format makes Read return an error
// wrapping [ErrFormat]. A stream starting with the gzip or zstd magic bytes is
// decompressed first; a zip archive is only read from a file, by [Open].
func NewReader(r io.Reader, source string) *Reader {
	return &Reader{src: r, source: source}
}

// Format returns the format of the stream, detecting it if no record has
// been read yet (which reads the first lines). It is FormatUnknown for empty
// or unrecognised content.
func (r *Reader) Format() Format {
	r.start()
	return r.format
}

// Read reads the next record. It returns io.EOF after the last one. A record
// that cannot be read is returned together with a [*ParseError]: the record
// holds what could be read of it (always Source, Format, Index, Line and
// Raw), and the next call of Read goes on with the next record. Any other
// error (a read error of the underlying reader, a corrupt compressed stream,
// [ErrFormat]) ends the stream: Read returns it again on every later call.
func (r *Reader) Read() (*Record, error) {
	r.start()
	if r.err != nil {
		return nil, r.err
	}
	var rec *Record
	var err error
	switch r.format {
	case FormatPonte:
		rec, err = r.readPonte()
	case FormatJSONL:
		rec, err = r.readJSONL()
	default:
		err = io.EOF
	}
	if rec == nil {
		if err == io.EOF && r.lr.err != nil && r.lr.err != io.EOF {
			err = r.lr.err
		}
		r.err = err
		r.closeDecoder()
	}
	return rec, err
}

// start detects the compression and the format, once.
func (r *Reader) start() {
	if r.started {
		return
	}
	r.started = true
	r.lr.reset(r.src)
	magic := r.lr.peek(4)
	var err error
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		var zr *gzip.Reader
		zr, err = gzip.NewReader(r.rest())
		if err == nil {
			r.lr.reset(zr)
		}
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		r.zr, err = zstd.NewReader(r.rest(), zstd.WithDecoderConcurrency(1))
		if err == nil {
			r.lr.reset(r.zr)
		}
	case bytes.HasPrefix(magic, []byte("PK\x03\x04")) || bytes.HasPrefix(magic, []byte("PK\x05\x06")):
		err = fmt.Errorf("%w: a zip archive can only be read from a file path", ErrFormat)
	}
	if err != nil {
		r.err = err
		return
	}
	for {
		line, ok := r.lr.next()
		if !ok {
			if r.lr.err != io.EOF {
				r.err = r.lr.err
			}
			return // empty: no records
		}
		if r.lr.long {
			r.err = fmt.Errorf("%w: line %d is longer than %d bytes", ErrFormat, r.lr.num, MaxLineLength)
			return
		}
		if skipSpace(line, 0) == len(line) {
			continue
		}
		r.format = detectFormat(line)
		if r.format == FormatUnknown {
			head := line[skipSpace(line, 0):]
			if len(head) > 24 {
				head = head[:24]
			}
			r.err = fmt.Errorf("%w: line %d starts with %s", ErrFormat, r.lr.num, quote(string(head)))
			return
		}
		r.lr.unread()
		return
	}
}

// rest returns a reader of the whole stream, the bytes already buffered
// first.
func (r *Reader) rest() io.Reader {
	head := bytes.Clone(r.lr.buf[r.lr.pos:r.lr.end])
	if r.lr.err != nil {
		if r.lr.err == io.EOF {
			return bytes.NewReader(head)
		}
		return io.MultiReader(bytes.NewReader(head), errReader{r.lr.err})
	}
	return io.MultiReader(bytes.NewReader(head), r.src)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (r *Reader) closeDecoder() {
	if r.zr != nil {
		r.zr.Close()
		r.zr = nil
	}
}

// parseError returns a *ParseError of the record being read.
func (r *Reader) parseError(rec *Record, line, col int, kind error, msg string) *ParseError {
	return &ParseError{Source: r.source, Game: rec.Index, StartLine: rec.Line,
		Line: line, Column: col, Err: &detail{kind, msg}}
}

// keepRaw appends b and a line end to raw, within MaxRaw bytes.
func keepRaw(raw, b []byte) []byte {
	if room := MaxRaw - len(raw); room > 0 {
		if len(b) >= room {
			return append(raw, b[:room]...)
		}
		raw = append(raw, b...)
		raw = append(raw, '\n')
	}
	return raw
}
