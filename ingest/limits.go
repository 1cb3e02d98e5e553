package ingest

import (
	"fmt"
	"io"
	"strconv"
)

// Limits against decompression bombs and oversized inputs. They are
// variables so that a program (or a test) can change them before reading;
// they are read while reading, so do not change them during a read.
//
// The readers stream, so memory stays flat whatever the size of a plain,
// gzip or zstd input; what these bound is the work a small zip archive can
// ask for, and the one buffer that grows with its input, the Abstract Play
// record being read.
var (
	// MaxZipEntries is the most entries of a zip archive that [Open] reads
	// (in name order); it reports the archive with an error wrapping
	// [ErrTooLarge] after reading that many.
	MaxZipEntries = 100_000
	// MaxZipEntrySize is the most bytes that one entry of a zip archive may
	// give once decompressed (counting the bytes actually read, not the
	// size the archive declares, and counting the decompressed content of a
	// .gz or .zst entry).
	MaxZipEntrySize int64 = 4 << 30
	// MaxZipRatio is the highest ratio of decompressed to compressed bytes
	// that an entry of a zip archive may have once it has given more than
	// ZipRatioFloor bytes (record text compresses about 5 to 20 times;
	// deflate cannot exceed about 1030).
	MaxZipRatio int64 = 200
	// ZipRatioFloor is the size below which an entry's ratio is not
	// checked: a small entry of high ratio is harmless.
	ZipRatioFloor int64 = 64 << 20
	// MaxDocument is the largest Abstract Play record (one JSON object)
	// that is read; a larger one is a [*ParseError] wrapping [ErrTooLarge],
	// skipped without being kept in memory. An array of records may be of
	// any size: its records are read one at a time.
	MaxDocument = 64 << 20
)

// budget is what one zip entry may still give: it counts the compressed
// bytes read from the archive for the entry.
type budget struct {
	raw int64 // compressed bytes of the entry read so far
}

// check returns an error wrapping ErrTooLarge when n decompressed bytes are
// beyond the limits.
func (b *budget) check(n int64) error {
	if n > MaxZipEntrySize {
		return fmt.Errorf("%w: more than %d bytes once decompressed (the limit MaxZipEntrySize)", ErrTooLarge, MaxZipEntrySize)
	}
	if n > ZipRatioFloor && n/max(b.raw, 1) > MaxZipRatio {
		return fmt.Errorf("%w: %d bytes decompressed from %d, a ratio above the limit MaxZipRatio of %d", ErrTooLarge, n, b.raw, MaxZipRatio)
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
func declaredTooLarge(size, compressed uint64) error {
	if size > uint64(MaxZipEntrySize) {
		return fmt.Errorf("%w: declares %d bytes once decompressed, more than the limit MaxZipEntrySize of %d", ErrTooLarge, size, MaxZipEntrySize)
	}
	if size > uint64(ZipRatioFloor) && size/max(compressed, 1) > uint64(MaxZipRatio) {
		return fmt.Errorf("%w: declares %d bytes compressed to %d, a ratio above the limit MaxZipRatio of %d", ErrTooLarge, size, compressed, MaxZipRatio)
	}
	return nil
}

// tooManyEntries is the error of an archive with more than MaxZipEntries
// entries; first is the first entry not read.
func tooManyEntries(n int, first string) error {
	return fmt.Errorf("%w: %d entries, more than the limit MaxZipEntries of %s: %s and the entries after it not read",
		ErrTooLarge, n, strconv.Itoa(MaxZipEntries), quote(first))
}
