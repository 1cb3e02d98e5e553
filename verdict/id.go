package verdict

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// GameID returns the stable id of the game a record holds: 32 hex digits of a SHA-256 over
// the board size, the supply and the canonical move list. The same game read from .ponte
// with or without turn numbers, with annotations or comments, from JSON Lines, with other
// tags or another claimed result, has the same id; any other game has another.
//
// A move is canonical as replay writes it ([replay.Move.String]), with the two cells of a
// tiles turn or a bridge in board order (a1 before b1 before a2), since their order does
// not matter: "b1,a1" is the turn "a1,b1". A token that does not parse is taken as written,
// and a turn number that is not the turn's (an R9 error) is kept with its token, so that an
// illegal record never shares the id of the legal game it resembles.
//
// A record that could not be read at all (rec.Raw is set) has the id of its raw text.
//
// It is the game_id of `ponte verify --json`, of the store's games table and of its
// Parquet file, computed once per record without allocating but for the id itself.
func GameID(rec *ingest.Record) string {
	var buf [2048]byte
	return hashID(appendIDText(buf[:0], rec))
}

// appendIDText appends the text that GameID hashes.
func appendIDText(b []byte, rec *ingest.Record) []byte {
	if rec.Raw != nil {
		b = append(b, "ponte unreadable record\x00"...)
		return append(b, rec.Raw...)
	}
	return appendTokens(appendGameHead(b, rec), rec, 0)
}

// The text GameID hashes is built by the functions below, which analyze also uses to hash
// a record's moves as it replays them, parsing each token once.

// appendGameHead appends what the id says of a readable record before its moves.
func appendGameHead(b []byte, rec *ingest.Record) []byte {
	b = append(b, "ponte game\x00"...)
	b = strconv.AppendInt(b, int64(rec.Size), 10)
	b = append(b, 0)
	return append(b, rec.Supply.String()...)
}

// appendTokenHead appends what comes before the canonical form of move i: a separator and
// the turn number when it is not the turn's.
func appendTokenHead(b []byte, tok *ingest.Token, i int) []byte {
	b = append(b, 0)
	if tok.Number != 0 && tok.Number != i+1 {
		b = strconv.AppendInt(b, int64(tok.Number), 10)
		b = append(b, '.')
	}
	return b
}

// appendTokens appends the moves of rec from index from on.
func appendTokens(b []byte, rec *ingest.Record, from int) []byte {
	for i := from; i < len(rec.Moves); i++ {
		tok := &rec.Moves[i]
		b = appendCanonical(appendTokenHead(b, tok, i), tok.Text, rec.Size)
	}
	return b
}

// appendCanonical appends the canonical form of a move token: the move as replay writes
// it, cells in board order, or the token itself when it does not parse.
func appendCanonical(b []byte, text string, size int) []byte {
	m, err := replay.ParseMove(text, size)
	if err != nil {
		return append(b, text...)
	}
	return appendMove(b, text, m)
}

// appendMove appends the canonical form of the move m that replay.ParseMove read from
// text. ParseMove reads only what replay writes (a cell is a letter and a number without
// a leading zero), so text is m as replay writes it: the canonical form is text, or, for
// cells out of board order, its two cells the other way round.
func appendMove(b []byte, text string, m replay.Move) []byte {
	if (m.Kind == replay.Tiles || m.Kind == replay.Bridge) && m.B < m.A {
		k := 1 // the separator, after the first cell's letter and digits
		for k < len(text) && text[k] != ',' && text[k] != '-' {
			k++
		}
		if k < len(text) {
			b = append(b, text[k+1:]...)
			b = append(b, text[k])
			return append(b, text[:k]...)
		}
	}
	return append(b, text...)
}

// hashID returns the id of the hashed text b: 32 hex digits of its SHA-256.
func hashID(b []byte) string {
	var id [32]byte
	return string(appendID(id[:0], b)) // the only allocation
}

// appendID appends the id of the hashed text b to dst.
func appendID(dst, b []byte) []byte {
	sum := sha256.Sum256(b)
	return hex.AppendEncode(dst, sum[:16])
}
