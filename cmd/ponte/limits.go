package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/flagvalue"
)

// The limits of one record, and of the records in flight, are flags of the commands that
// read records: verify, ingest, export and analyze (docs/limits.md). They make the
// ingest.Limits that the command reads within.

// limitFlags holds the values of the limit flags.
type limitFlags struct {
	recordBytes, commentBytes, inFlight byteSize
	turns, tags                         int
}

// The bounds of the limit flags: a limit must be positive, and no larger than these, past
// which one record could take gigabytes to read.
const (
	maxRecordBytesFlag  = 64 << 20 // the largest record that may be allowed
	maxTurnsFlag        = 1_000_000
	maxTagsFlag         = 1_000_000
	maxCommentBytesFlag = 64 << 20
	maxInFlightFlag     = 64 << 30
)

// addLimitFlags adds the limit flags to cmd, a command that reads records, and sets
// s.limits from them before it runs (a command without them reads within the defaults).
func addLimitFlags(cmd *cobra.Command, s *streams) {
	f := &limitFlags{
		recordBytes:  ingest.DefaultMaxRecordBytes,
		commentBytes: ingest.DefaultMaxCommentBytes,
		inFlight:     byteSize(ingest.DefaultMaxInFlight),
		turns:        ingest.DefaultMaxTurns,
		tags:         ingest.DefaultMaxTags,
	}
	pf := cmd.Flags()
	pf.Var(&f.recordBytes, "max-record-bytes", "longest record read, in bytes (1MiB, 512KiB, 300000): a longer one is unreadable")
	pf.Var(countFlag(&f.turns, 1, maxTurnsFlag), "max-turns", "most turns of one record: a record with more is unreadable")
	pf.Var(countFlag(&f.tags, 1, maxTagsFlag), "max-tags", "most tags of one record: a record with more is unreadable")
	pf.Var(&f.commentBytes, "max-comment-bytes", "most bytes of comments of one record: a record with more is unreadable")
	pf.Var(&f.inFlight, "max-in-flight", "most bytes of records held at once between reading and replaying or storing")
	cmd.PreRunE = func(*cobra.Command, []string) error {
		lim, err := f.limits()
		s.limits = lim
		return err
	}
}

// limits checks the limits and returns them.
func (f *limitFlags) limits() (ingest.Limits, error) {
	for _, c := range []struct {
		name        string
		v, min, max int64
		bytes       bool
	}{
		{"--max-record-bytes", int64(f.recordBytes), ingest.MinRecordBytes, maxRecordBytesFlag, true},
		{"--max-turns", int64(f.turns), 1, maxTurnsFlag, false},
		{"--max-tags", int64(f.tags), 1, maxTagsFlag, false},
		{"--max-comment-bytes", int64(f.commentBytes), 1, maxCommentBytesFlag, true},
		{"--max-in-flight", int64(f.inFlight), 1, maxInFlightFlag, true},
	} {
		if c.v < c.min || c.v > c.max {
			least, most := strconv.FormatInt(c.min, 10), strconv.FormatInt(c.max, 10)
			if c.bytes {
				a, b := byteSize(c.min), byteSize(c.max)
				least, most = a.String(), b.String()
			}
			return ingest.Limits{}, fmt.Errorf("%s must be from %s to %s, not %d", c.name, least, most, c.v)
		}
	}
	lim := ingest.DefaultLimits()
	lim.MaxRecordBytes, lim.MaxTurns, lim.MaxTags = int(f.recordBytes), f.turns, f.tags
	lim.MaxCommentBytes, lim.MaxInFlight = int(f.commentBytes), int64(f.inFlight)
	return lim, nil
}

// byteSize is a flag value of bytes (flagvalue.ByteSize).
type byteSize = flagvalue.ByteSize
