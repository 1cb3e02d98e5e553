package ingest

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/klauspost/compress/zstd"
)

// ErrDamaged is a compressed part (a gzip member, a zstd frame, a zip entry) whose
// check failed: its checksum does not match, its compressed data cannot be decoded, or
// it ends before its end. It is wrapped in a [*DamagedError].
var ErrDamaged = errors.New("damaged compressed data")

// maxNesting bounds the compressed streams inside one another that a Reader opens (a .gz
// inside a .gz is two): more is a decompression bomb's way, not an archive's.
const maxNesting = 3

// DamagedError reports a compressed part whose check failed (it wraps [ErrDamaged]).
// The Reader stops at it: the rest of the stream is not read, since nothing after
// damaged compressed data can be trusted to be what was written. None of the records
// read from the part is returned after it was found damaged: Records of them were read,
// the first of them FirstRecord; Passed of those had been returned already, marked
// [Record.Unchecked] (a part larger than [Limits.MaxUnchecked]), and must be taken back by the
// caller: every record of the same Source from FirstRecord on.
type DamagedError struct {
	Part        string // "gzip member 2", "zstd frame 1", "zip entry", "gzip member 1 inside zstd frame 3"
	Offset      int64  // where the part starts, in bytes: in the file, or in the decompressed stream that holds it when nested
	FirstRecord int    // Record.Index of the first record read (even in part) from the part: the next one when none was
	Records     int    // records read from the part, none of them kept
	Passed      int    // of those, the records already returned (Unchecked) that the caller must take back
	LastGood    int    // Record.Index of the last record before the part, 0 when none
	LastLine    int    // the line where that record starts
	Err         error  // the cause: a checksum mismatch, corrupt data, an unexpected end
}

// Error says what is damaged, where, and what happened to its records.
func (e *DamagedError) Error() string {
	msg := "damaged " + e.Part + " (from byte " + strconv.FormatInt(e.Offset, 10) + "): " + e.Err.Error() + ": "
	switch {
	case errors.Is(e.Err, ErrCut) && e.Records == 1:
		msg += "its last game (game " + strconv.Itoa(e.FirstRecord) + "), which the cut may have shortened, left out, the games before it read unchecked"
	case errors.Is(e.Err, ErrCut):
		msg += "the games before the cut read unchecked"
	case e.Records == 0:
		msg += "no record read from it"
	case e.Records == 1:
		msg += "the record read from it (game " + strconv.Itoa(e.FirstRecord) + ") left out"
	default:
		msg += "the " + strconv.Itoa(e.Records) + " records read from it (games " + strconv.Itoa(e.FirstRecord) + " to " +
			strconv.Itoa(e.FirstRecord+e.Records-1) + ") left out"
	}
	if e.Passed > 0 {
		msg += " (games " + strconv.Itoa(e.FirstRecord) + " to " + strconv.Itoa(e.FirstRecord+e.Passed-1) +
			" were passed on before the part's check ended, and are void)"
	}
	if !errors.Is(e.Err, ErrCut) {
		msg += ", nor the rest of the stream read"
	}
	if e.LastGood > 0 {
		msg += "; the last good game is game " + strconv.Itoa(e.LastGood) + " (line " + strconv.Itoa(e.LastLine) + ")"
	}
	return msg
}

// Unwrap returns ErrDamaged and the cause, so that errors.Is(err, ErrDamaged) and
// errors.Is(err, gzip.ErrChecksum) both work.
func (e *DamagedError) Unwrap() []error { return []error{ErrDamaged, e.Err} }

// damage is the error of a checking layer: its part failed.
type damage struct {
	layer *layer
	err   error
}

func (d *damage) Error() string { return d.layer.partName() + ": " + d.err.Error() }
func (d *damage) Unwrap() error { return d.err }

// A layer is one compressed stream under a Reader's text (a zip entry, the gzip members
// or zstd frames of a stream), split into parts that are checked one by one. It counts
// what it gave: out bytes, of which the first ok passed their part's check; the part
// being read is number part (from 1), and its output starts at start.
type layer struct {
	kind   string // "gzip member", "zstd frame", "zip entry"
	outer  *layer // the layer that holds this one's compressed stream, or nil
	out    int64
	ok     int64
	start  int64
	part   int
	offset int64 // where the part being read starts in the compressed stream
	whole  bool  // one part: a zip entry (no number in its name)

	// The records read from the part being read: the first one's index, set when
	// partSeen is part, and the Index and Line of the record before it.
	firstRec, partSeen int
	prevRec, prevLine  int
}

// partName names the part being read: "gzip member 2", "gzip member 1 inside zip entry".
func (l *layer) partName() string {
	name := l.kind
	if !l.whole {
		name += " " + strconv.Itoa(l.part)
	}
	if l.outer != nil {
		name += " inside " + l.outer.partName()
	}
	return name
}

// fail makes the error of the part being read.
func (l *layer) fail(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		err = ErrCut
	}
	return &damage{layer: l, err: err}
}

// ErrCut is the cause of a [*DamagedError] of a part whose compressed data ends before
// the part does: a file cut short (a copy or a download that stopped). The check of the
// part, at its end, cannot be made; the decompressed text before the cut is what was
// compressed, so its whole records are kept (unchecked), and only the last one, which
// the cut may have shortened, is not.
var ErrCut = errors.New("the compressed data ends before the part does (a cut file)")

// byteCounter reads a compressed stream through a buffer, counting the bytes taken, and
// is an io.ByteReader, so that a decompressor reads no further than its part.
type byteCounter struct {
	br  *bufio.Reader
	n   int64
	err error // an error of the stream itself (not its end): no damage of a part
}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	c.note(err)
	return n, err
}

func (c *byteCounter) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	c.note(err)
	return b, err
}

func (c *byteCounter) note(err error) {
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
}

// failed is the error of a part that could not be read: the stream's own error (a
// read error, an interrupt), passed on as it is, or the part's damage.
func (l *layer) failed(src *byteCounter, err error) error {
	if src.err != nil {
		return src.err
	}
	return l.fail(err)
}

// more reports whether the stream has another byte, or the error that ends it.
func (c *byteCounter) more() (bool, error) {
	_, err := c.br.Peek(1)
	if err == io.EOF {
		return false, nil
	}
	return err == nil, err
}

// gzipParts decompresses a gzip stream member by member, checking each member's CRC-32
// and size before going on.
type gzipParts struct {
	layer
	src    *byteCounter
	zr     *gzip.Reader
	inPart bool
	err    error
}

func newGzipParts(r io.Reader, outer *layer) *gzipParts {
	return &gzipParts{layer: layer{kind: "gzip member", outer: outer}, src: &byteCounter{br: bufio.NewReaderSize(r, 32<<10)}}
}

func (g *gzipParts) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	for {
		if !g.inPart {
			more, err := g.src.more()
			if !more {
				if err == nil {
					err = io.EOF
				}
				g.err = err
				return 0, err
			}
			g.part++
			g.offset, g.start = g.src.n, g.out
			if g.zr == nil {
				g.zr, err = gzip.NewReader(g.src)
			} else {
				err = g.zr.Reset(g.src)
			}
			if err != nil {
				if errors.Is(err, gzip.ErrHeader) && g.part > 1 {
					err = errors.New("not a gzip member (text or padding after the last member?)")
				}
				g.err = g.failed(g.src, err)
				return 0, g.err
			}
			g.zr.Multistream(false)
			g.inPart = true
		}
		n, err := g.zr.Read(p)
		switch {
		case err == io.EOF: // the member ends, its CRC-32 and size checked
			g.out += int64(n)
			g.ok = g.out
			g.inPart = false
			if n > 0 {
				return n, nil
			}
		case err != nil:
			g.out += int64(n)
			g.err = g.failed(g.src, err)
			return n, g.err
		default:
			g.out += int64(n)
			return n, nil
		}
	}
}

// zstdParts decompresses a zstd stream frame by frame, each checked by its content
// checksum when it has one (zstd writes one by default): a frame without one is taken
// as it decodes.
type zstdParts struct {
	layer
	src    *byteCounter
	dec    *zstd.Decoder
	frame  frameReader
	inPart bool
	err    error
}

func newZstdParts(r io.Reader, outer *layer) *zstdParts {
	z := &zstdParts{layer: layer{kind: "zstd frame", outer: outer}, src: &byteCounter{br: bufio.NewReaderSize(r, 32<<10)}}
	z.frame.src = z.src
	return z
}

func (z *zstdParts) close() {
	if z.dec != nil {
		z.dec.Close()
		z.dec = nil
	}
}

func (z *zstdParts) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	for {
		if !z.inPart {
			more, err := z.src.more()
			if !more {
				if err == nil {
					err = io.EOF
				}
				z.err = err
				z.close()
				return 0, err
			}
			z.part++
			z.offset, z.start = z.src.n, z.out
			z.frame.reset()
			if z.dec == nil {
				z.dec, err = zstd.NewReader(&z.frame, zstd.WithDecoderConcurrency(1))
			} else {
				err = z.dec.Reset(&z.frame)
			}
			if err != nil {
				z.err = z.failed(z.src, err)
				z.close()
				return 0, z.err
			}
			z.inPart = true
		}
		n, err := z.dec.Read(p)
		if err == nil && z.frame.err != nil {
			err = z.frame.err
		}
		switch {
		case err == io.EOF:
			if z.frame.err != nil {
				z.out += int64(n)
				z.err = z.failed(z.src, z.frame.err)
				z.close()
				return n, z.err
			}
			z.out += int64(n)
			z.ok = z.out
			z.inPart = false
			if n > 0 {
				return n, nil
			}
		case err != nil:
			z.out += int64(n)
			z.err = z.failed(z.src, err)
			z.close()
			return n, z.err
		default:
			z.out += int64(n)
			return n, nil
		}
	}
}

// frameReader gives the bytes of one zstd frame (RFC 8878, section 3.1) and then io.EOF,
// so that the decoder checks each frame before the next is read: it reads the frame's
// header and each block's header to know where the frame ends.
type frameReader struct {
	src     *byteCounter
	head    []byte // header bytes read and not yet given
	buf     [18]byte
	hbuf    []byte // the frame header, given back whole
	remain  int64  // bytes of the current block (or skippable frame) still to give
	last    bool   // the current block is the frame's last
	tail    int    // the checksum's bytes, after the last block
	started bool
	done    bool
	err     error // the frame cannot be read: why
}

func (f *frameReader) reset() {
	src, hbuf := f.src, f.hbuf
	*f = frameReader{src: src, hbuf: hbuf}
}

const (
	zstdMagic      = 0xFD2FB528
	skippableMagic = 0x184D2A50
)

func (f *frameReader) Read(p []byte) (int, error) {
	for {
		if len(f.head) > 0 {
			n := copy(p, f.head)
			f.head = f.head[n:]
			return n, nil
		}
		if f.remain > 0 {
			n, err := f.src.Read(p[:min(int64(len(p)), f.remain)])
			f.remain -= int64(n)
			if n > 0 {
				return n, nil
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			f.err = err
			return 0, err
		}
		if f.done || f.err != nil {
			return 0, io.EOF
		}
		if err := f.next(); err != nil {
			f.err = err
			return 0, io.EOF
		}
	}
}

// next reads the next header of the frame into head, and sets remain to what follows it.
func (f *frameReader) next() error {
	read := func(n int) ([]byte, error) {
		b := f.buf[:n]
		if _, err := io.ReadFull(f.src, b); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return b, nil
	}
	switch {
	case !f.started:
		f.started = true
		b, err := read(4)
		if err != nil {
			return err
		}
		magic := binary.LittleEndian.Uint32(b)
		if magic&0xFFFFFFF0 == skippableMagic {
			h, err := read(4)
			if err != nil {
				return err
			}
			f.remain = int64(binary.LittleEndian.Uint32(h))
			f.hbuf = binary.LittleEndian.AppendUint32(f.hbuf[:0], magic)
			f.head = append(f.hbuf, h...)
			f.done = true
			return nil
		}
		if magic != zstdMagic {
			return fmt.Errorf("not a zstd frame (magic %08x)", magic)
		}
		b, err = read(1)
		if err != nil {
			return err
		}
		fhd := b[0]
		if fhd&0x08 != 0 {
			return errors.New("zstd frame header: reserved bit set")
		}
		single := fhd&0x20 != 0
		n := 0
		if !single {
			n++ // window descriptor
		}
		n += []int{0, 1, 2, 4}[fhd&3]
		fcs := []int{0, 2, 4, 8}[fhd>>6]
		if fcs == 0 && single {
			fcs = 1
		}
		n += fcs
		if fhd&0x04 != 0 {
			f.tail = 4
		}
		fields, err := read(n)
		if err != nil {
			return err
		}
		f.hbuf = binary.LittleEndian.AppendUint32(f.hbuf[:0], zstdMagic)
		f.hbuf = append(f.hbuf, fhd)
		f.hbuf = append(f.hbuf, fields...)
		f.head = f.hbuf
		return nil
	case f.last:
		f.done = true
		if f.tail > 0 {
			b, err := read(f.tail)
			if err != nil {
				return err
			}
			f.head = b
		}
		return nil
	}
	b, err := read(3)
	if err != nil {
		return err
	}
	h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	f.last = h&1 != 0
	size := int64(h >> 3)
	switch (h >> 1) & 3 {
	case 1: // RLE: one byte
		size = 1
	case 3:
		return errors.New("zstd block of a reserved type")
	}
	f.head, f.remain = b, size
	return nil
}

// wholePart is a zip entry's decompressed stream, checked by archive/zip against the
// entry's CRC-32 at its end: it is one part.
type wholePart struct {
	layer
	r   io.Reader
	err error
}

func newWholePart(r io.Reader, offset int64) *wholePart {
	return &wholePart{layer: layer{kind: "zip entry", whole: true, part: 1, offset: offset}, r: r}
}

func (w *wholePart) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.r.Read(p)
	switch {
	case err == io.EOF:
		w.out += int64(n)
		w.ok = w.out
		w.err = io.EOF
		return n, io.EOF
	case err != nil:
		w.out += int64(n)
		w.err = w.fail(err)
		return n, w.err
	}
	w.out += int64(n)
	return n, nil
}
