package ingest

import (
	"errors"
	"io"
)

// checkHeld is a record held back until the parts it was read from are checked: how far
// each layer had given its bytes when the record was read (marks, outermost first), and
// the part it ends in.
type checkHeld struct {
	rec   *Record
	err   error
	marks [maxNesting + 1]int64
	part  int
}

// readChecked is Read for text under compressed layers: records wait in checkQ until
// their parts passed, or until more than MaxUnchecked bytes of them wait.
func (r *Reader) readChecked() (*Record, error) {
	for {
		if len(r.checkQ) > 0 {
			h := &r.checkQ[0]
			passed := r.checkEnded || r.passed(h)
			if passed || r.checkBytes > r.lim.MaxUnchecked {
				rec, err := h.rec, h.err
				if !passed {
					rec.Unchecked, rec.Part = true, h.part
					r.lastPassed = rec.Index
				}
				r.checkBytes -= rec.Bytes()
				r.checkQ[0] = checkHeld{}
				r.checkQ = r.checkQ[1:]
				return rec, err
			}
		}
		if r.checkEnded {
			r.checkQ = nil
			return nil, r.checkEnd
		}
		rec, err := r.readNext()
		if rec == nil {
			var d *damage
			if errors.As(err, &d) {
				err = r.damaged(d)
			}
			r.checkEnd, r.checkEnded = err, true
			continue
		}
		h := checkHeld{rec: rec, err: err}
		for i, l := range r.layers {
			m := l.out
			if i == len(r.layers)-1 && !r.transcoded {
				m -= int64(r.lr.end - r.lr.pos) // read into the buffer, not yet into a record
			}
			h.marks[i] = m
			part := l.part
			if m <= l.start && part > 1 {
				part-- // the record ends before the part being read
			} else if l.partSeen != l.part {
				l.partSeen, l.firstRec = l.part, rec.Index
				l.prevRec, l.prevLine = r.prevRead, r.prevLine
			}
			h.part += part
		}
		r.prevRead, r.prevLine = rec.Index, rec.Line
		r.checkBytes += rec.Bytes()
		r.checkQ = append(r.checkQ, h)
	}
}

// passed reports whether every part a held record was read from passed its check.
func (r *Reader) passed(h *checkHeld) bool {
	for i, l := range r.layers {
		if l.ok < h.marks[i] {
			return false
		}
	}
	return true
}

// damaged makes the *DamagedError of a part that failed, and drops the records held back
// that were read from it.
func (r *Reader) damaged(d *damage) *DamagedError {
	l := d.layer
	e := &DamagedError{Part: l.partName(), Offset: l.offset, Err: d.err}
	switch {
	case errors.Is(d.err, ErrCut) && l.partSeen == l.part && len(r.checkQ) > 0 && r.checkQ[len(r.checkQ)-1].rec.Index == r.prevRead:
		// The text before the cut is what was compressed: only the last record, which
		// runs to the cut, is not kept.
		last := r.checkQ[len(r.checkQ)-1].rec
		e.FirstRecord, e.LastGood = last.Index, last.Index-1
		e.LastLine = l.prevLine
		if len(r.checkQ) > 1 {
			e.LastLine = r.checkQ[len(r.checkQ)-2].rec.Line
		}
	case errors.Is(d.err, ErrCut):
		e.FirstRecord, e.LastGood, e.LastLine = r.prevRead+1, r.prevRead, r.prevLine
	case l.partSeen == l.part:
		e.FirstRecord, e.LastGood, e.LastLine = l.firstRec, l.prevRec, l.prevLine
	default:
		e.FirstRecord, e.LastGood, e.LastLine = r.prevRead+1, r.prevRead, r.prevLine
	}
	e.Records = max(r.prevRead-e.FirstRecord+1, 0)
	e.Passed = max(r.lastPassed-e.FirstRecord+1, 0)
	keep := len(r.checkQ)
	for keep > 0 && r.checkQ[keep-1].rec.Index >= e.FirstRecord {
		keep--
		h := &r.checkQ[keep]
		r.checkBytes -= h.rec.Bytes()
		h.rec.Release()
		*h = checkHeld{}
	}
	r.checkQ = r.checkQ[:keep]
	return e
}

// utf16Text returns the transcoder of a text that starts with a UTF-16 byte order mark
// (what Windows PowerShell 5's ">" writes), nil for any other text.
func utf16Text(head []byte) func(io.Reader) io.Reader {
	if len(head) < 2 {
		return nil
	}
	switch {
	case head[0] == 0xFF && head[1] == 0xFE:
		return func(r io.Reader) io.Reader { return &utf16Reader{r: r, little: true} }
	case head[0] == 0xFE && head[1] == 0xFF:
		return func(r io.Reader) io.Reader { return &utf16Reader{r: r} }
	}
	return nil
}

// utf16Reader transcodes UTF-16 text to UTF-8, its byte order mark to a UTF-8 one (which
// the line reader drops). Lines keep their numbers; a column counts the bytes of the
// UTF-8 text. A lone surrogate becomes U+FFFD, as does an odd last byte.
type utf16Reader struct {
	r      io.Reader
	little bool
	in     [8 << 10]byte
	n      int    // bytes of in not yet transcoded
	out    []byte // transcoded, not yet given
	obuf   []byte
	high   rune // a high surrogate waiting for its low half, or 0
	err    error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.n > 0 || u.high != 0 { // an odd byte or a surrogate cut at the end
				u.obuf = append(u.obuf[:0], "\uFFFD"...)
				u.out, u.n, u.high = u.obuf, 0, 0
				break
			}
			return 0, u.err
		}
		n, err := u.r.Read(u.in[u.n:])
		u.n += n
		u.err = err
		u.transcode()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// transcode turns the whole code units of in into UTF-8 in out.
func (u *utf16Reader) transcode() {
	out := u.obuf[:0]
	i := 0
	for ; i+1 < u.n; i += 2 {
		c := rune(u.in[i])<<8 | rune(u.in[i+1])
		if u.little {
			c = rune(u.in[i+1])<<8 | rune(u.in[i])
		}
		switch {
		case 0xD800 <= c && c < 0xDC00:
			if u.high != 0 {
				out = append(out, "\uFFFD"...)
			}
			u.high = c
			continue
		case 0xDC00 <= c && c < 0xE000:
			if u.high == 0 {
				c = 0xFFFD
			} else {
				c = 0x10000 + (u.high-0xD800)<<10 + (c - 0xDC00)
			}
		case u.high != 0:
			out = append(out, "\uFFFD"...)
		}
		u.high = 0
		out = appendRune(out, c)
	}
	u.n = copy(u.in[:], u.in[i:u.n])
	u.obuf, u.out = out, out
}

func appendRune(b []byte, c rune) []byte {
	switch {
	case c < 0x80:
		return append(b, byte(c))
	case c < 0x800:
		return append(b, 0xC0|byte(c>>6), 0x80|byte(c&0x3F))
	case c < 0x10000:
		return append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
	}
	return append(b, 0xF0|byte(c>>18), 0x80|byte(c>>12&0x3F), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
}

// utf16Like reports whether text looks like UTF-16 of ASCII: a zero byte in every other
// place, from the first or the second.
func utf16Like(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	for _, first := range []int{0, 1} {
		ok := true
		for i := first; i < len(b)-1; i += 2 {
			if b[i] != 0 || b[i^1] == 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
