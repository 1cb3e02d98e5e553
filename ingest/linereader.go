package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
)

// lineReader splits a stream into lines without copying them: a line is a
// slice of the buffer, valid until the next call of next. It drops the line
// end (\n, and any \r before it) and a UTF-8 byte order mark at the start of
// the stream (several, if a writer added one more than once), counts lines, and
// cuts lines longer than max bytes (the line end not counted).
type lineReader struct {
	r        io.Reader
	buf      []byte
	pos, end int   // unread bytes are buf[pos:end]
	err      error // sticky error of r (io.EOF at the end)
	num      int   // number of the line last returned
	line     []byte
	max      int  // the longest line returned whole: MaxLineLength, or less for formats whose record is a line
	long     bool // the line last returned was cut at max bytes
	skipping bool // discarding the rest of a cut line
	pushed   bool // next returns line again
	started  bool

	// high says that the line last returned holds a byte that is not ASCII (then it may
	// not be UTF-8). The buffer is searched for such bytes in long strides, each byte once:
	// hi is the index of the first one found at or after the line being looked at (less
	// than that line's start when none is known), hiScan where the search goes on.
	high       bool
	hi, hiScan int
}

// The buffer starts small, for the many small inputs, and grows to
// fullBuffer as the input goes on (and beyond for long lines).
const (
	smallBuffer = 4 << 10
	fullBuffer  = 64 << 10
)

func (lr *lineReader) reset(r io.Reader) {
	*lr = lineReader{r: r, buf: lr.buf, max: MaxLineLength, hi: -1}
}

// fill reads more bytes into the buffer, moving or growing it if needed.
func (lr *lineReader) fill() {
	pos := lr.pos
	if lr.pos > 0 && lr.pos == lr.end {
		lr.pos, lr.end = 0, 0
	}
	if lr.buf == nil {
		lr.buf = make([]byte, smallBuffer)
	} else if lr.end == len(lr.buf) || len(lr.buf) < fullBuffer {
		if lr.pos > 0 && len(lr.buf) >= fullBuffer {
			lr.end = copy(lr.buf, lr.buf[lr.pos:lr.end])
			lr.pos = 0
		} else {
			nb := make([]byte, 2*len(lr.buf))
			lr.end = copy(nb, lr.buf[lr.pos:lr.end])
			lr.pos = 0
			lr.buf = nb
		}
	}
	// When the bytes moved to the start of the buffer, so did the indexes into it.
	lr.hi -= pos - lr.pos
	lr.hiScan = max(lr.hiScan-(pos-lr.pos), 0)
	for range 100 {
		n, err := lr.r.Read(lr.buf[lr.end:])
		lr.end += n
		if err != nil {
			lr.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	lr.err = io.ErrNoProgress
}

// peek returns at least n unread bytes, or fewer at the end of the input.
func (lr *lineReader) peek(n int) []byte {
	for lr.end-lr.pos < n && lr.err == nil {
		lr.fill()
	}
	return lr.buf[lr.pos:lr.end]
}

// next returns the next line; ok is false at the end of the input or on a
// read error (lr.err tells which).
func (lr *lineReader) next() (line []byte, ok bool) {
	if lr.pushed {
		lr.pushed = false
		return lr.line, true
	}
	if !lr.started {
		// The byte order marks are no part of the first line, nor of its length.
		lr.started = true
		for bytes.HasPrefix(lr.peek(len(bom)), bom) {
			lr.pos += len(bom)
		}
	}
	for {
		i := bytes.IndexByte(lr.buf[lr.pos:lr.end], '\n')
		if lr.skipping {
			if i >= 0 {
				lr.pos += i + 1
				lr.skipping = false
				continue
			}
			lr.pos = lr.end
			if lr.err != nil {
				lr.skipping = false
				return nil, false
			}
			lr.fill()
			continue
		}
		if i >= 0 {
			line = lr.buf[lr.pos : lr.pos+i]
			lr.high = lr.highIn(lr.pos, lr.pos+i)
			lr.pos += i + 1
			if len(line) > lr.max && !onlyCR(line[lr.max:]) {
				return lr.finish(line[:lr.max], true), true
			}
			return lr.finish(line, false), true
		}
		if lr.end-lr.pos > lr.max && !lr.mayEndAtMax() {
			line = lr.buf[lr.pos : lr.pos+lr.max]
			lr.high = lr.highIn(lr.pos, lr.pos+lr.max)
			lr.pos += lr.max
			lr.skipping = true
			return lr.finish(line, true), true
		}
		if lr.err != nil {
			if lr.pos < lr.end && lr.err == io.EOF {
				line = lr.buf[lr.pos:lr.end]
				lr.high = lr.highIn(lr.pos, lr.end)
				lr.pos = lr.end
				return lr.finish(line, false), true
			}
			return nil, false
		}
		lr.fill()
	}
}

// maxCR is the most \r bytes after max bytes of a line that the reader reads on to see
// whether they end it (the line end is no part of a line's length).
const maxCR = 64

// mayEndAtMax reports whether the line being read, longer than max bytes so far with no
// \n yet, may still be max bytes long: the bytes past max are a few \r, which end it if
// a \n or the end of the input follows.
func (lr *lineReader) mayEndAtMax() bool {
	tail := lr.buf[lr.pos+lr.max : lr.end]
	return onlyCR(tail) && (lr.err == io.EOF || lr.err == nil && len(tail) <= maxCR)
}

// onlyCR reports whether b holds nothing but \r.
func onlyCR(b []byte) bool {
	for _, c := range b {
		if c != '\r' {
			return false
		}
	}
	return true
}

func (lr *lineReader) finish(line []byte, long bool) []byte {
	lr.num++
	for len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	lr.line, lr.long = line, long
	return line
}

// highIn reports whether buf[a:b] holds a byte that is not ASCII. Successive calls
// must look at successive parts of the buffer.
func (lr *lineReader) highIn(a, b int) bool {
	if lr.hi >= a {
		return lr.hi < b
	}
	if lr.hiScan >= b {
		return false
	}
	return lr.scanHigh(a, b)
}

// scanHigh is highIn when the part of the buffer is not yet searched.
func (lr *lineReader) scanHigh(a, b int) bool {
	lr.hiScan = max(lr.hiScan, a)
	k := indexHigh(lr.buf[lr.hiScan:lr.end])
	if k < 0 {
		lr.hiScan = lr.end
		return false
	}
	lr.hi = lr.hiScan + k
	lr.hiScan = lr.hi + 1
	return lr.hi < b
}

// indexHigh returns the index of the first byte of b that is not ASCII, or -1; it looks
// at 32 bytes at a time (through an array, so without bounds checks: 25 GB/s).
func indexHigh(b []byte) int {
	const high = 0x8080808080808080
	i := 0
	for ; len(b)-i >= 32; i += 32 {
		w := (*[32]byte)(b[i : i+32])
		if (binary.LittleEndian.Uint64(w[0:8])|binary.LittleEndian.Uint64(w[8:16])|
			binary.LittleEndian.Uint64(w[16:24])|binary.LittleEndian.Uint64(w[24:32]))&high != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return i
		}
	}
	return -1
}

// unread makes next return the line last returned once more.
func (lr *lineReader) unread() { lr.pushed = true }

var bom = []byte("\xef\xbb\xbf")

// peekLine returns the start of the next line, at most limit bytes of it, without
// reading it (after the byte order marks at the start of the input, without its line
// end); whole is false when the line is longer than limit. ok is false at the end of the
// input or on a read error (lr.err tells which).
func (lr *lineReader) peekLine(limit int) (line []byte, whole, ok bool) {
	if lr.pushed {
		return lr.line[:min(len(lr.line), limit)], len(lr.line) <= limit, true
	}
	for {
		b := lr.buf[lr.pos:lr.end]
		if !lr.started {
			for bytes.HasPrefix(b, bom) {
				b = b[len(bom):]
			}
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i <= limit {
			return bytes.TrimRight(b[:i], "\r"), true, true
		}
		if len(b) > limit {
			return b[:limit], false, true
		}
		if lr.err != nil {
			// The last line, without a line end; after a read error, none (as next).
			return bytes.TrimRight(b, "\r"), true, len(b) > 0 && lr.err == io.EOF
		}
		lr.fill()
	}
}
