package intake

import (
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/utf8text"
)

// Bounds of what the store writes as text, in bytes. Every text column of every table
// passes through utf8text.Fit or utf8text.Valid, so what the store holds is valid UTF-8 (Parquet
// readers such as DuckDB refuse a whole file for one invalid string). The texts that name
// something (a tag's name or value, hence a player, an event, a date; a source's path)
// are kept whole: cutting them could make two different players, or two files, one. They
// are bounded by the readers' limit of a record (ingest.Limits.MaxRecordBytes) and the length of
// a path. Only these, which name nothing, are cut, with a note that says so:
const (
	// maxRaw bounds games.raw: the text of a record that is unreadable (the reader keeps
	// at most ingest.MaxRaw bytes of it) or illegal (written back by the intake).
	maxRaw = ingest.MaxRaw
	// maxMoves bounds games.moves. A legal game has at most about 1,500 turns of at most
	// 7 bytes ("l12,k12"); 128 KiB holds 10,000 tokens (the readers' default turn limit
	// for a record) of up to 12 bytes each: only a record of absurd tokens is cut. (The
	// game's id is made from all of its moves, never from this text.)
	maxMoves = 128 << 10
	// maxMessage bounds an error message (games.error_message): the readers' and the
	// replay's messages quote at most a few dozen bytes of the input.
	maxMessage = 4 << 10
)

// fitText is utf8text.Fit.
func fitText(s string, total, limit int, what string, sep byte) string {
	return utf8text.Fit(s, total, limit, what, sep)
}

// capWriter keeps the first limit bytes written to it and counts them all, so that a
// text of any size can be written and only its bounded beginning kept.
type capWriter struct {
	b     []byte
	n     int
	limit int
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if room := w.limit - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (w *capWriter) reset(limit int) {
	w.b, w.n, w.limit = w.b[:0], 0, limit
}
