package ingest

import (
	"errors"
	"fmt"
	"strconv"
)

// More errors of the readers. ErrMove is wrapped in a [*ParseError];
// ErrSkipped in a [*Notice]; ErrTooLarge in a [*PathError], or in a
// *ParseError for one record beyond a limit of one record.
var (
	// ErrMove is a move of a foreign record that cannot be read or a
	// sequence of moves that makes no sense: an unknown move word, a cell
	// that is on no board, a boardspace.net Dropb without a Pick, three tiles
	// in a turn, a BridgeEnd that is not a jump from the bridge's anchor, a
	// move after the end of the game, a move by the seat that is not to move.
	ErrMove = errors.New("unreadable move")
	// ErrSkipped is the cause of every [*Notice]: something a reader skipped
	// on purpose (a game tree of another game than Ponte del Diavolo, text
	// between the game trees of a boardspace.net file) or replaced (text
	// that is not UTF-8). It is not an error of any record.
	ErrSkipped = errors.New("skipped")
	// ErrTooLarge is an input beyond one of the limits that protect against
	// decompression bombs ([Limits.MaxZipEntrySize], [Limits.MaxZipRatio],
	// [Limits.MaxZipEntries]), or a record beyond one of the limits of one record
	// ([Limits.MaxRecordBytes], [Limits.MaxTurns], [Limits.MaxTags], [Limits.MaxCommentBytes], and
	// [Limits.MaxDocument] for an Abstract Play record). docs/limits.md lists them.
	ErrTooLarge = errors.New("input too large")
	// ErrNotRecord is a JSON object that is no game record: a JSON Lines
	// object without "moves", an object of an Abstract Play file with
	// neither "header" nor "moves". It wraps ErrJSON. In a file where no
	// object is a game record (a file of verdicts lying beside an archive)
	// they are not errors: the file gets one [*Notice].
	ErrNotRecord = fmt.Errorf("%w: not a game record", ErrJSON)
)

// Notice reports something a [Reader] skipped on purpose and that is not an
// error of a record: a boardspace.net game tree whose GM is not
// PonteDelDiavolo, or text outside the game trees of such a file; or text of
// a record that was not UTF-8 and was stored with U+FFFD in place of its bad
// bytes (one notice per record, at the first bad byte). A notice
// is for the user to read; it is neither a game nor an unreadable game and
// must not be counted as one. errors.Is(notice, ErrSkipped) holds.
//
// A Reader keeps the notices of what it skipped until [Reader.Notices]
// collects them; [Open] and [OpenFrom] pass each one to their callback as
// fn(nil, notice) in file order, before the record that followed it.
type Notice struct {
	Source string // the name given to the reader
	Line   int    // 1-based line of what was skipped (the '(' of a game tree); 0 for a whole zip entry
	Column int    // 1-based byte column
	Err    error  // the message; wraps ErrSkipped
}

// Error formats the notice as "FILE:LINE:COL: message", or "FILE: message"
// when Line is 0.
func (n *Notice) Error() string {
	if n.Line == 0 {
		return n.Source + ": " + n.Err.Error()
	}
	return n.Source + ":" + strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Column) + ": " + n.Err.Error()
}

// Unwrap returns the cause, which wraps ErrSkipped.
func (n *Notice) Unwrap() error { return n.Err }

// IsNotice reports whether err is (or wraps) a [*Notice]: a message to show,
// not an error to count.
func IsNotice(err error) bool {
	var n *Notice
	return errors.As(err, &n)
}

// MaxNotices bounds the notices a [Reader] keeps until [Reader.Notices]
// collects them; beyond it they are counted, and reported as one last
// notice.
const MaxNotices = 1000

// Notices returns the notices gathered since the last call, in input order,
// and forgets them. Call it after each [Reader.Read] (Open does) to show
// them: Read itself never returns a notice.
func (r *Reader) Notices() []*Notice {
	out := r.notices
	if r.dropped > 0 {
		out = append(out, &Notice{Source: r.source, Line: r.droppedLine, Column: 1,
			Err: &detail{ErrSkipped, strconv.Itoa(r.dropped) + " more notices not kept"}})
	}
	r.notices, r.dropped = nil, 0
	return out
}

// notice records a notice.
func (r *Reader) notice(line, col int, msg string) {
	if len(r.notices) >= MaxNotices {
		if r.dropped == 0 {
			r.droppedLine = line
		}
		r.dropped++
		return
	}
	r.notices = append(r.notices, &Notice{Source: r.source, Line: line, Column: col, Err: &detail{ErrSkipped, msg}})
}
