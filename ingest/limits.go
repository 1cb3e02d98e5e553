package ingest

import (
	"fmt"
	"io"
	"strconv"
)

// Limits are the bounds of what a [Reader] and [Open] read (docs/limits.md): of one
// record, of the records in flight and held back, and of a zip archive. A zero field
// takes its default ([DefaultLimits]); a Reader reads with the Limits it was given
// before its first Read.
//
// The readers stream, so memory stays flat whatever the size of a plain,
// gzip or zstd input; what the zip limits bound is the work a small zip archive can
// ask for, and the one buffer that grows with its input, the Abstract Play
// record being read.
//
// A zip archive is bounded twice. Each entry may give at most
// MaxZipEntrySize bytes, at a ratio of at most MaxZipRatio once past
// ZipRatioFloor; beyond them the entry is reported and the next one is
// read. The whole archive may give at most MaxZipTotal bytes, at a ratio to
// its size on disk of at most MaxZipRatio once past ZipTotalRatioFloor;
// beyond them, or at an entry whose compressed data overlaps another's (the
// shape of a zip bomb, which no archiver writes), the archive is reported
// and the rest of it is not read. The bytes counted are those actually
// decompressed, which the sizes an entry declares cannot hide; an entry
// whose declared sizes are already beyond a limit is not read at all.
type Limits struct {
	// MaxRecordBytes bounds the text of one record: a .ponte game, a JSON line, an
	// Abstract Play record, a boardspace.net game tree. Its bytes are counted by lines
	// from the record's first line, line ends not counted (a JSON line longer than
	// MaxRecordBytes is too large). Real records take a few KB. An Abstract Play record is
	// also bounded by MaxDocument: the smaller limit applies.
	MaxRecordBytes int
	// MaxTurns bounds the turn tokens of one record (a legal game on the largest, 26x26,
	// board has well under 1,500 turns).
	MaxTurns int
	// MaxTags bounds the tags of one record (JSON keys, Abstract Play values kept as tags).
	MaxTags int
	// MaxCommentBytes bounds the text of the comments of one .ponte record, all together.
	MaxCommentBytes int
	// MaxInFlight bounds the bytes of records (by [Record.Bytes]) that a pipeline holds at
	// once between its reader and its consumer: `ponte verify`'s workers and `ponte
	// ingest`'s writer. Memory in flight is bounded in bytes, not in records, so a few huge
	// records cannot take what thousands of ordinary ones would. One record larger than
	// MaxInFlight still passes, alone.
	MaxInFlight int64
	// MaxUnchecked bounds the bytes of records (by [Record.Bytes]) that a Reader holds
	// back while the compressed part they come from is being checked. Records are
	// returned only once every part they were read from passed its check, so that
	// nothing of a damaged part is returned; a part whose records exceed MaxUnchecked has
	// its oldest records returned before its check, marked [Record.Unchecked], and a
	// [*DamagedError] of that part tells the caller to take them back.
	MaxUnchecked int64
	// MaxDocument is the largest Abstract Play record (one JSON object)
	// that is read; a larger one is a [*ParseError] wrapping [ErrTooLarge],
	// skipped without being kept in memory. An array of records may be of
	// any size: its records are read one at a time.
	MaxDocument int
	// MaxZipEntries is the most entries of a zip archive that [Open] reads
	// (in name order); it reports the archive with an error wrapping
	// [ErrTooLarge] after reading that many.
	MaxZipEntries int
	// MaxZipEntrySize is the most bytes that one entry of a zip archive may
	// give once decompressed (counting the bytes actually read, not the
	// size the archive declares, and counting the decompressed content of a
	// .gz or .zst entry).
	MaxZipEntrySize int64
	// MaxZipTotal is the most bytes that all the entries of one zip archive
	// may give together once decompressed, counted like MaxZipEntrySize.
	MaxZipTotal int64
	// MaxZipRatio is the highest ratio of decompressed to compressed bytes
	// of a zip archive: of an entry once it has given more than
	// ZipRatioFloor bytes, and of the whole archive (all it gave, to its
	// size on disk) once it has given more than ZipTotalRatioFloor bytes.
	// Record text compresses about 5 to 20 times; deflate cannot exceed
	// about 1030.
	MaxZipRatio int64
	// ZipRatioFloor is the size below which an entry's ratio is not
	// checked: a small entry of high ratio is harmless.
	ZipRatioFloor int64
	// ZipTotalRatioFloor is the size below which the ratio of a whole
	// archive is not checked, so that a small archive of small, very
	// compressible files is never refused.
	ZipTotalRatioFloor int64
}

// The defaults of the limits.
const (
	DefaultMaxRecordBytes           = 1 << 20
	DefaultMaxTurns                 = 10_000
	DefaultMaxTags                  = 1_000
	DefaultMaxCommentBytes          = 64 << 10
	DefaultMaxInFlight        int64 = 64 << 20
	DefaultMaxUnchecked       int64 = 4 << 20
	DefaultMaxDocument              = 64 << 20
	DefaultMaxZipEntries            = 100_000
	DefaultMaxZipEntrySize    int64 = 4 << 30
	DefaultMaxZipTotal        int64 = 4 << 30
	DefaultMaxZipRatio        int64 = 200
	DefaultZipRatioFloor      int64 = 1 << 20
	DefaultZipTotalRatioFloor int64 = 64 << 20
)

// DefaultLimits returns the default limits, every field set.
func DefaultLimits() Limits {
	return Limits{
		MaxRecordBytes:     DefaultMaxRecordBytes,
		MaxTurns:           DefaultMaxTurns,
		MaxTags:            DefaultMaxTags,
		MaxCommentBytes:    DefaultMaxCommentBytes,
		MaxInFlight:        DefaultMaxInFlight,
		MaxUnchecked:       DefaultMaxUnchecked,
		MaxDocument:        DefaultMaxDocument,
		MaxZipEntries:      DefaultMaxZipEntries,
		MaxZipEntrySize:    DefaultMaxZipEntrySize,
		MaxZipTotal:        DefaultMaxZipTotal,
		MaxZipRatio:        DefaultMaxZipRatio,
		ZipRatioFloor:      DefaultZipRatioFloor,
		ZipTotalRatioFloor: DefaultZipTotalRatioFloor,
	}
}

// OrDefault returns l with each zero field set to its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	or := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	or64 := func(v, def int64) int64 {
		if v == 0 {
			return def
		}
		return v
	}
	return Limits{
		MaxRecordBytes:     or(l.MaxRecordBytes, d.MaxRecordBytes),
		MaxTurns:           or(l.MaxTurns, d.MaxTurns),
		MaxTags:            or(l.MaxTags, d.MaxTags),
		MaxCommentBytes:    or(l.MaxCommentBytes, d.MaxCommentBytes),
		MaxInFlight:        or64(l.MaxInFlight, d.MaxInFlight),
		MaxUnchecked:       or64(l.MaxUnchecked, d.MaxUnchecked),
		MaxDocument:        or(l.MaxDocument, d.MaxDocument),
		MaxZipEntries:      or(l.MaxZipEntries, d.MaxZipEntries),
		MaxZipEntrySize:    or64(l.MaxZipEntrySize, d.MaxZipEntrySize),
		MaxZipTotal:        or64(l.MaxZipTotal, d.MaxZipTotal),
		MaxZipRatio:        or64(l.MaxZipRatio, d.MaxZipRatio),
		ZipRatioFloor:      or64(l.ZipRatioFloor, d.ZipRatioFloor),
		ZipTotalRatioFloor: or64(l.ZipTotalRatioFloor, d.ZipTotalRatioFloor),
	}
}

// archiveBudget is what the entries of one zip archive have given.
type archiveBudget struct {
	lim  *Limits
	size int64 // bytes of the archive on disk
	out  int64 // decompressed bytes of the entries done
	stop error // set once the archive is beyond its limits: read no more of it
}

// check returns an error wrapping ErrTooLarge, and stops the archive, when
// its entries have given total decompressed bytes beyond its limits.
func (a *archiveBudget) check(total int64, declared bool) error {
	if a.stop != nil {
		return a.stop
	}
	give := "give"
	if declared {
		give = "would give, by the size this one declares,"
	}
	l := a.lim
	switch {
	case total > l.MaxZipTotal:
		a.stop = fmt.Errorf("%w: the entries of the archive up to this one %s more than %d bytes once decompressed (the limit MaxZipTotal): the rest of the archive is not read",
			ErrTooLarge, give, l.MaxZipTotal)
	case total > l.ZipTotalRatioFloor && total/max(a.size, 1) > l.MaxZipRatio:
		a.stop = fmt.Errorf("%w: the entries of the archive up to this one %s %d bytes once decompressed from an archive of %d, a ratio above the limit MaxZipRatio of %d: the rest of the archive is not read",
			ErrTooLarge, give, total, a.size, l.MaxZipRatio)
	}
	return a.stop
}

// budget is what one zip entry may still give: it counts the compressed
// bytes read from the archive for the entry, and the bytes it gave.
type budget struct {
	lim  *Limits
	raw  int64          // compressed bytes of the entry read so far
	out  int64          // decompressed bytes of the entry so far (of its innermost stream)
	arch *archiveBudget // the archive's budget, or nil
}

// check returns an error wrapping ErrTooLarge when n decompressed bytes are
// beyond the limits of the entry or of its archive. Each stream of the entry
// (the zip entry's, and a .gz or .zst stream within it) counts its own n; the
// largest is what the entry gave.
func (b *budget) check(n int64) error {
	if a := b.arch; a != nil && n > b.out {
		b.out = n
		if err := a.check(a.out+n, false); err != nil {
			return err
		}
	}
	l := b.lim
	if n > l.MaxZipEntrySize {
		return fmt.Errorf("%w: more than %d bytes once decompressed (the limit MaxZipEntrySize)", ErrTooLarge, l.MaxZipEntrySize)
	}
	if n > l.ZipRatioFloor && n/max(b.raw, 1) > l.MaxZipRatio {
		return fmt.Errorf("%w: %d bytes decompressed from %d, a ratio above the limit MaxZipRatio of %d", ErrTooLarge, n, b.raw, l.MaxZipRatio)
	}
	return nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n *int64
}

func (c countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

// limitReader fails once the bytes read through it break the budget.
type limitReader struct {
	r   io.Reader
	b   *budget
	n   int64
	err error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	if e := l.b.check(l.n); e != nil {
		l.err = e
		return n, e
	}
	return n, err
}

// declaredTooLarge checks the sizes an entry declares, before reading it.
func (l *Limits) declaredTooLarge(size, compressed uint64) error {
	if size > uint64(l.MaxZipEntrySize) {
		return fmt.Errorf("%w: declares %d bytes once decompressed, more than the limit MaxZipEntrySize of %d", ErrTooLarge, size, l.MaxZipEntrySize)
	}
	if size > uint64(l.ZipRatioFloor) && size/max(compressed, 1) > uint64(l.MaxZipRatio) {
		return fmt.Errorf("%w: declares %d bytes compressed to %d, a ratio above the limit MaxZipRatio of %d", ErrTooLarge, size, compressed, l.MaxZipRatio)
	}
	return nil
}

// tooManyEntries is the error of an archive with more than MaxZipEntries
// entries; first is the first entry not read.
func (l *Limits) tooManyEntries(n int, first string) error {
	return fmt.Errorf("%w: %d entries, more than the limit MaxZipEntries of %s: %s and the entries after it not read",
		ErrTooLarge, n, strconv.Itoa(l.MaxZipEntries), quoteName(first))
}

// overlapError is the error of an entry whose compressed data overlaps that
// of another entry.
func overlapError(name, other string) error {
	return fmt.Errorf("%w: entry %s overlaps entry %s (their compressed data share bytes of the archive): a zip bomb, not read, nor the rest of the archive",
		ErrTooLarge, quoteName(name), quoteName(other))
}

// quoteName quotes the name of a zip entry in a message, whole unless it
// is very long.
func quoteName(name string) string {
	if len(name) > 256 {
		return strconv.Quote(name[:256]) + "..."
	}
	return strconv.Quote(name)
}
