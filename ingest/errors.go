package ingest

import (
	"errors"
	"io/fs"
	"strconv"
)

// Errors reported by the readers, wrapped in a [*ParseError] that tells where
// the problem is. Test for them with [errors.Is].
var (
	// ErrSyntax is a malformed movetext: an unmatched '}', an unterminated
	// comment, a turn number without a turn, a bad annotation.
	ErrSyntax = errors.New("syntax error")
	// ErrTag is a malformed tag line or a tag given twice.
	ErrTag = errors.New("malformed tag")
	// ErrTagValue is a value of a known tag that does not follow docs/formats/ponte.md
	// (Size "30", Supply "x", Score "a-b", Result "2-0", Date "4.10.2025", ...).
	ErrTagValue = errors.New("invalid tag value")
	// ErrResultMismatch is a result token that differs from the Result tag.
	ErrResultMismatch = errors.New("result token differs from the Result tag")
	// ErrJSON is a JSON Lines record that is not valid JSON, has a value of
	// the wrong type, a duplicate key or no "moves".
	ErrJSON = errors.New("invalid JSON record")
	// ErrLineTooLong is a line longer than [MaxLineLength] bytes.
	ErrLineTooLong = errors.New("line too long")
	// ErrFormat is an input whose content is in no known record format. It
	// is not a [*ParseError]: the reader cannot go on after it.
	ErrFormat = errors.New("unknown record format")
	// ErrUnwritable is returned by [Writer.Write] for a record that cannot be
	// written faithfully in the writer's format (a move token with a space in
	// .ponte, a tag value with a line break in .ponte, a tag name that
	// clashes with a JSON Lines key, ...). Nothing is written then.
	ErrUnwritable = errors.New("record cannot be written in this format")
)

// MaxLineLength is the longest line the readers accept, in bytes. A longer
// line is reported as [ErrLineTooLong] and skipped.
const MaxLineLength = 16 << 20

// MaxRaw bounds [Record.Raw], the kept text of a record that failed to read.
const MaxRaw = 64 << 10

// ParseError reports a record that could not be read, and where. The reader
// that returned it goes on with the next record.
type ParseError struct {
	Source    string // the name given to the reader
	Game      int    // 1-based place of the record in its file
	StartLine int    // line where the record starts
	Line      int    // 1-based line of the error
	Column    int    // 1-based byte column of the error, from the line's text (after a byte order mark)
	Err       error  // the cause; errors.Is(Err, ErrSyntax), ... tells its kind
}

// Error formats the error as "FILE:LINE:COL: game N: message".
func (e *ParseError) Error() string {
	b := make([]byte, 0, 64)
	b = append(b, e.Source...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(e.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(e.Column), 10)
	b = append(b, ": "...)
	if e.Game > 0 {
		b = append(b, "game "...)
		b = strconv.AppendInt(b, int64(e.Game), 10)
		b = append(b, ": "...)
	}
	if e.Err != nil {
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns the cause, so that errors.Is(err, ErrTagValue) works.
func (e *ParseError) Unwrap() error { return e.Err }

// PathError reports an input of [Open] that could not be opened or read as a
// whole: a missing file, a permission problem, a corrupt compressed stream,
// content in no known format. Test for it with [errors.As].
type PathError struct {
	Op   string // "open" or "read"
	Path string // the path, "-" for standard input, "a.zip/inner.ponte" inside a zip archive
	Err  error  // the cause
}

// Error formats the error as "OP PATH: cause".
func (e *PathError) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *PathError) Unwrap() error { return e.Err }

// NewPathError builds a *PathError, taking the cause out of an *fs.PathError
// so that the path is not repeated in the message.
func NewPathError(op, path string, err error) *PathError {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &PathError{Op: op, Path: path, Err: err}
}

// detail is a cause with a specific message that is still one of the
// sentinel errors for errors.Is.
type detail struct {
	kind error
	msg  string
}

func (d *detail) Error() string { return d.msg }
func (d *detail) Unwrap() error { return d.kind }
