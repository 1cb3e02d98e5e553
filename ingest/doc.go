// Package ingest reads and writes Ponte del Diavolo game records.
//
// It implements the two formats of the project, specified in docs/formats/ponte.md: the
// PGN-like .ponte notation and JSON Lines (one game per line). A [Reader]
// detects which format a stream holds from its content, transparently
// decompresses gzip and zstd streams, and returns one [Record] at a time, so
// that memory stays flat whatever the size of the input. A record that cannot
// be read is reported as a [*ParseError] carrying the file, line and column,
// and reading continues with the next record. A [Writer] writes records back
// in either format; a record written and read again is the same game.
//
// [Open] walks files, directories, .gz/.zst/.zip archives and standard input
// and streams every record of them to a callback.
//
// The package reads notation and judges no game: move tokens are kept as the
// words read ("d4,e5", "d4-f5", "swap", "pass" or anything else), and the rules
// engine (package replay, through package verdict) says whether they are legal.
// One reader knows the position: boardspace.net's dialect may drop a bridge
// without its end, whose default depends on the position, so the boardspace
// reader replays each tree with package replay as it reads it, only to write
// such a bridge as a token; it reports no rule (an illegal move is read as it
// is, and the replay judges it).
//
// Each format has a reader type of its own behind one small interface
// (site.go): the Reader detects the format of a stream from its first line and
// makes that format's reader, as image.Decode picks a registered decoder, and
// keeps only what every format shares: the line reader, the decompression and
// the checks of compressed parts, the notices, the limits ([Limits]).
//
// # Reading .ponte
//
// Where the notation leaves room, the reader decides as follows (docs/formats/ponte.md).
//   - Tag lines are [Name "value"], several per line allowed, a ; comment
//     after them allowed. A name is any run of printable bytes other than
//     '"', '[' and ']'. In a value \" and \\ are escapes; any other
//     backslash is kept as it is. A tag given twice is an error ([ErrTag]).
//   - A game ends before a tag line that follows its movetext or a blank line
//     after its tags (so a tag section, blank line, tag section are two
//     games), at the end of the line of its result token (what follows the
//     result token on its line, other than comments, starts the next game),
//     or at the end of the input.
//   - A turn number N. must be followed by a turn, possibly glued (7.d4,e5);
//     N.. and 0. are errors. Turn numbers are optional; the reader keeps each one
//     with its turn (Token.Number) and the replay reports a number that is not
//     the turn's as a notation error, R9, at that turn.
//   - One annotation of at most two '!'/'?' marks is stripped from a turn;
//     three or more marks, an annotation alone or on a result token are
//     errors ([ErrSyntax]).
//   - A comment belongs to the turn before it (Token.Comment), or to the
//     record before the first turn (Record.Comment); several are joined by a
//     space. A { } comment that is not closed when a line that looks like a
//     tag comes is reported there ([ErrSyntax] at the '{') and the tag starts
//     the next game, so that one missing '}' does not swallow the archive.
//   - After an error the game is read to its normal end (above) and
//     returned with the first error; its text is kept in Record.Raw.
//   - Columns count bytes from 1, after the byte order mark on line 1 and
//     without the \r of \r\n line ends.
//
// # Reading JSON Lines
//
// Every non-blank line is one record. The known keys (game_id, event, site,
// round, date, light, dark, size, supply, result, termination, score) become
// the known tags (GameId, Event, ..., dates as YYYY.MM.DD, the score as
// "L-D"); the .ponte tag names are accepted as keys too. A known key with
// null is as if absent. Free-text keys (game_id, event, site, round, light,
// dark) and size take a string or a number; score takes [light, dark] or
// "L-D". Other keys become tags of their own name, valued with the string or
// with the JSON text of any other value. A duplicate key or invalid JSON is an
// error ([ErrJSON]); bytes that are not UTF-8 are replaced by U+FFFD, with a
// notice.
package ingest
