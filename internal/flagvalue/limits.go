package flagvalue

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/ponte/ponte/ingest"
)

// The bounds of the limit flags: a limit must be positive, and no larger than these, past
// which one record could take gigabytes to read.
const (
	maxRecordBytes  = 64 << 20 // the largest record that may be allowed
	MaxTurns        = 1_000_000
	MaxTags         = 1_000_000
	maxCommentBytes = 64 << 20
	maxInFlight     = 64 << 30
)

// Limits holds the values of the limit flags of a command that reads records (verify,
// ingest, export, analyze; docs/limits.md): they make the ingest.Limits it reads within.
type Limits struct {
	recordBytes, commentBytes, inFlight ByteSize
	turns, tags                         int
}

// AddLimits adds the limit flags, at the defaults of ingest.DefaultLimits, to f.
func AddLimits(f *pflag.FlagSet) *Limits {
	l := DefaultLimits()
	f.Var(&l.recordBytes, "max-record-bytes", "longest record read, in bytes (1MiB, 512KiB, 300000): a longer one is unreadable")
	f.Var(NewCount(&l.turns, 1, MaxTurns), "max-turns", "most turns of one record: a record with more is unreadable")
	f.Var(NewCount(&l.tags, 1, MaxTags), "max-tags", "most tags of one record: a record with more is unreadable")
	f.Var(&l.commentBytes, "max-comment-bytes", "most bytes of comments of one record: a record with more is unreadable")
	f.Var(&l.inFlight, "max-in-flight", "most bytes of records held at once between reading and replaying or storing")
	return l
}

// DefaultLimits are the limit flags' values when none is given.
func DefaultLimits() *Limits {
	return &Limits{recordBytes: ingest.DefaultMaxRecordBytes, commentBytes: ingest.DefaultMaxCommentBytes,
		inFlight: ByteSize(ingest.DefaultMaxInFlight), turns: ingest.DefaultMaxTurns, tags: ingest.DefaultMaxTags}
}

// Limits checks the limits and returns them: a value out of its bounds is an error naming
// the flag and the bounds, "--max-turns must be from 1 to 1000000, not 0".
func (l *Limits) Limits() (ingest.Limits, error) {
	for _, c := range []struct {
		name        string
		v, min, max int64
		bytes       bool
	}{
		{"--max-record-bytes", int64(l.recordBytes), ingest.MinRecordBytes, maxRecordBytes, true},
		{"--max-turns", int64(l.turns), 1, MaxTurns, false},
		{"--max-tags", int64(l.tags), 1, MaxTags, false},
		{"--max-comment-bytes", int64(l.commentBytes), 1, maxCommentBytes, true},
		{"--max-in-flight", int64(l.inFlight), 1, maxInFlight, true},
	} {
		if c.v < c.min || c.v > c.max {
			least, most := strconv.FormatInt(c.min, 10), strconv.FormatInt(c.max, 10)
			if c.bytes {
				a, b := ByteSize(c.min), ByteSize(c.max)
				least, most = a.String(), b.String()
			}
			return ingest.Limits{}, fmt.Errorf("%s must be from %s to %s, not %d", c.name, least, most, c.v)
		}
	}
	lim := ingest.DefaultLimits()
	lim.MaxRecordBytes, lim.MaxTurns, lim.MaxTags = int(l.recordBytes), l.turns, l.tags
	lim.MaxCommentBytes, lim.MaxInFlight = int(l.commentBytes), int64(l.inFlight)
	return lim, nil
}
