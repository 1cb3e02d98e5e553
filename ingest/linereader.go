package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
)

// lineReader splits a stream into lines without copying them: a line is a
// slice of the buffer, valid until the next call of next. Lines end as a text
// editor ends them: at \n, at \r\n, and at a \r alone (old Mac OS files); a run of
// \r before a \n is one line end with it (what two conversions to CRLF give). It
// drops the line ends and the UTF-8 byte order marks at the start of every line
// (what `cat a b` gives when b starts with one; several, if a writer added one
// more than once), counts lines, and cuts lines longer than max bytes (the line
// end not counted).
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

	// high says that the line last returned holds a byte that is not ASCII (then it may
	// not be UTF-8). The buffer is searched for such bytes in long strides, each byte once:
	// hi is the index of the first one found at or after the line being looked at (less
	// than that line's start when none is known), hiScan where the search goes on.
	high       bool
	hi, hiScan int

	// The next \n is searched for once: nl is its index when found (less than pos when
	// none is known), nlScan where the search goes on. A file without \n (its lines end
	// in \r) is thus searched once, not once per line.
	nl, nlScan int
}

// The buffer starts small, for the many small inputs, and grows to
// fullBuffer as the input goes on (and beyond for long lines).
const (
	smallBuffer = 4 << 10
	fullBuffer  = 64 << 10
)

func (lr *lineReader) reset(r io.Reader) {
	*lr = lineReader{r: r, buf: lr.buf, max: MaxLineLength, hi: -1, nl: -1}
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
	lr.nl -= pos - lr.pos
	lr.nlScan = max(lr.nlScan-(pos-lr.pos), 0)
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
	for lr.skipping {
		n, e, found := lr.lineEnd()
		switch {
		case found:
			lr.pos += n + e
			lr.skipping = false
		case lr.err != nil:
			lr.pos = lr.end
			lr.skipping = false
			return nil, false
		default:
			lr.pos += n // (up to a run of \r that a \n may follow)
			lr.fill()
		}
	}
	// The byte order marks are no part of the line, nor of its length or columns.
	lr.skipBOMs()
	for {
		n, e, found := lr.lineEnd()
		switch {
		case found:
			line = lr.buf[lr.pos : lr.pos+n]
			lr.high = lr.highIn(lr.pos, lr.pos+n)
			lr.pos += n + e
			if n > lr.max {
				return lr.finish(line[:lr.max], true), true
			}
			return lr.finish(line, false), true
		case n > lr.max:
			line = lr.buf[lr.pos : lr.pos+lr.max]
			lr.high = lr.highIn(lr.pos, lr.pos+lr.max)
			lr.pos += lr.max
			lr.skipping = true
			return lr.finish(line, true), true
		case lr.err != nil:
			if n > 0 && lr.err == io.EOF {
				// The last line, without a line end.
				line = lr.buf[lr.pos : lr.pos+n]
				lr.high = lr.highIn(lr.pos, lr.pos+n)
				lr.pos += n
				return lr.finish(line, false), true
			}
			return nil, false
		}
		lr.fill()
	}
}

// maxCR is the most \r bytes in a run that the reader reads on to see whether a \n
// follows them (then the run and the \n are one line end); past it the first \r is a
// line end of its own.
const maxCR = 64

// lineEnd finds the end of the line at the start of the unread bytes: n is the length of
// the line, e that of its line end. found is false when no line end is known yet: n is
// then the length of the line so far (before a run of \r at the end of the bytes, which
// a \n may follow).
func (lr *lineReader) lineEnd() (n, e int, found bool) {
	b := lr.buf[lr.pos:lr.end]
	seg := b
	nl := lr.nextLF()
	if nl >= 0 {
		seg = b[:nl-lr.pos]
	}
	k := bytes.IndexByte(seg, '\r')
	if k < 0 {
		if nl >= 0 {
			return len(seg), 1, true
		}
		return len(b), 0, false
	}
	j := k + 1
	for j < len(seg) && seg[j] == '\r' && j-k <= maxCR {
		j++
	}
	switch {
	case j < len(seg) || j-k > maxCR: // text follows, or too many \r to look on: the \r is a line end
		return k, 1, true
	case nl >= 0: // \r...\r\n
		return k, j - k + 1, true
	case lr.err != nil:
		return k, 1, true
	}
	return k, 0, false
}

// nextLF returns the index in buf of the first \n of the unread bytes, or -1.
func (lr *lineReader) nextLF() int {
	if lr.nl >= lr.pos {
		return lr.nl
	}
	from := max(lr.pos, lr.nlScan)
	k := bytes.IndexByte(lr.buf[from:lr.end], '\n')
	if k < 0 {
		lr.nlScan = lr.end
		return -1
	}
	lr.nl = from + k
	lr.nlScan = lr.nl + 1
	return lr.nl
}

// skipBOMs passes over the byte order marks at the start of the unread bytes.
func (lr *lineReader) skipBOMs() {
	for {
		b := lr.buf[lr.pos:lr.end]
		if len(b) >= len(bom) {
			if b[0] != bom[0] || b[1] != bom[1] || b[2] != bom[2] {
				return
			}
			lr.pos += len(bom)
			continue
		}
		if !bytes.HasPrefix(bom, b) || lr.err != nil {
			return
		}
		lr.fill() // nothing, or the start of a mark
	}
}

func (lr *lineReader) finish(line []byte, long bool) []byte {
	lr.num++
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
// reading it (after the byte order marks at its start, without its line end); whole is
// false when the line is longer than limit. ok is false at the end of the input or on a
// read error (lr.err tells which).
func (lr *lineReader) peekLine(limit int) (line []byte, whole, ok bool) {
	if lr.pushed {
		return lr.line[:min(len(lr.line), limit)], len(lr.line) <= limit, true
	}
	if !lr.skipping {
		lr.skipBOMs()
	}
	for {
		n, _, found := lr.lineEnd()
		b := lr.buf[lr.pos:lr.end]
		switch {
		case n > limit:
			return b[:limit], false, true
		case found:
			return b[:n], true, true
		case lr.err != nil:
			// The last line, without a line end; after a read error, none (as next).
			return b[:n], true, n > 0 && lr.err == io.EOF
		}
		lr.fill()
	}
}
