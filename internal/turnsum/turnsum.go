// Package turnsum is the summary of one game's turns that the statistics sum by turn
// number (Turn), made from the turns the store keeps (OfText, of game_turns.turns read with
// internal/turntext) or from the engine's features (OfFeatures), and a dense form of it
// that the ingest's analyzer keeps beside each game (Append, Scanner). Up to schema
// version 6 the store wrote that form into game_turns.by_turn; version 7 dropped the
// column, since the turns themselves are now about as small.
//
// A summary holds one record of Size (5) bytes per turn played legally, in turn order (the
// turn number is the place, from 1). A record is an unsigned 40-bit integer, little-endian
// (its lowest byte first):
//
//	bits  0–2   islands formed: the mover's groups that reached exactly 4 tiles (0–7)
//	bit   3     1 for a bridge turn, 0 for another
//	bits  4–10  Light's sandbanks the turn made dead (0–127)
//	bits 11–17  Dark's sandbanks the turn made dead (0–127)
//	bits 18–27  Light's mobility after the turn: cells that take one Light tile (0–1023)
//	bits 28–37  Dark's mobility (0–1023)
//	bits 38–39  0
//
// On a board of at most 26×26 every value fits (internal/turntext's Turn gives the
// bounds): a turn forms at most two islands, kills at most 45 sandbanks of one colour, and
// a colour's mobility is at most the 676 cells.
package turnsum

import (
	"fmt"

	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/replay"
)

// Size is the number of bytes of one turn's record.
const Size = 5

// The widest value of each field.
const (
	MaxIslandsFormed = 1<<3 - 1
	MaxDeadCreated   = 1<<7 - 1
	MaxMobility      = 1<<10 - 1
)

// The bits of a record.
const (
	bridgeBit    = 3
	deadShift    = 4  // Light's; Dark's 7 bits higher
	mobShift     = 18 // Light's; Dark's 10 bits higher
	reservedMask = 3 << 38
)

// Turn is what the summary keeps of one turn.
type Turn struct {
	IslandsFormed int    // the mover's groups that reached exactly 4 tiles through the turn
	Bridge        bool   // the turn built a bridge
	DeadCreated   [2]int // [Light, Dark]: sandbanks the turn made dead
	Mobility      [2]int // [Light, Dark]: cells that take one tile of the colour after it
}

// RangeError is a value that does not fit its field of the record.
type RangeError struct {
	Field string // "islands formed", "dead created (Light)", …
	Value int
	Max   int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %d does not fit a turn's summary (0 to %d)", e.Field, e.Value, e.Max)
}

// Append appends the record of t to dst. A value outside its field's range is refused
// with a *RangeError, dst returned unchanged.
func Append(dst []byte, t *Turn) ([]byte, error) {
	fields := [...]struct {
		name string
		v    int
		max  int
	}{
		{"islands formed", t.IslandsFormed, MaxIslandsFormed},
		{"dead created (Light)", t.DeadCreated[0], MaxDeadCreated},
		{"dead created (Dark)", t.DeadCreated[1], MaxDeadCreated},
		{"mobility (Light)", t.Mobility[0], MaxMobility},
		{"mobility (Dark)", t.Mobility[1], MaxMobility},
	}
	for _, f := range fields {
		if f.v < 0 || f.v > f.max {
			return dst, &RangeError{Field: f.name, Value: f.v, Max: f.max}
		}
	}
	r := uint64(t.IslandsFormed) | uint64(t.DeadCreated[0])<<deadShift | uint64(t.DeadCreated[1])<<(deadShift+7) |
		uint64(t.Mobility[0])<<mobShift | uint64(t.Mobility[1])<<(mobShift+10)
	if t.Bridge {
		r |= 1 << bridgeBit
	}
	return append(dst, byte(r), byte(r>>8), byte(r>>16), byte(r>>24), byte(r>>32)), nil
}

// FormatError is a summary that is not records as Append writes them.
type FormatError struct {
	Turn   int // the turn whose record is wrong, from 1; 0 for the summary as a whole
	Offset int // its first byte, from 0
	Msg    string
}

func (e *FormatError) Error() string {
	if e.Turn > 0 {
		return fmt.Sprintf("turn %d, byte %d: %s", e.Turn, e.Offset+1, e.Msg)
	}
	return e.Msg
}

// Len returns the number of turns in the summary b, or a *FormatError when its length is
// not a whole number of records.
func Len(b []byte) (int, error) {
	if len(b)%Size != 0 {
		return 0, &FormatError{Msg: fmt.Sprintf("%d bytes, not a whole number of %d-byte turns", len(b), Size)}
	}
	return len(b) / Size, nil
}

// Scanner reads the turns of one summary in order, allocating nothing. A summary whose
// length is not a whole number of records is refused before its first turn, a record with
// its unused bits set at that turn, each with a *FormatError (Err).
type Scanner struct {
	b    []byte
	n    int // turns read
	turn Turn
	err  error
}

// Reset starts reading the summary b.
func (sc *Scanner) Reset(b []byte) {
	*sc = Scanner{b: b}
	if _, err := Len(b); err != nil {
		sc.err = err
	}
}

// Next reads the next turn; it returns false at the end of the summary or at an error
// (Err).
func (sc *Scanner) Next() bool {
	off := sc.n * Size
	if sc.err != nil || off+Size > len(sc.b) {
		return false
	}
	p := sc.b[off : off+Size]
	r := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 | uint64(p[4])<<32
	sc.n++
	if r&reservedMask != 0 {
		sc.err = &FormatError{Turn: sc.n, Offset: off, Msg: fmt.Sprintf("bits 38–39 of the record %#010x are not 0", r)}
		return false
	}
	sc.turn = Turn{
		IslandsFormed: int(r & MaxIslandsFormed),
		Bridge:        r>>bridgeBit&1 == 1,
		DeadCreated:   [2]int{int(r >> deadShift & MaxDeadCreated), int(r >> (deadShift + 7) & MaxDeadCreated)},
		Mobility:      [2]int{int(r >> mobShift & MaxMobility), int(r >> (mobShift + 10) & MaxMobility)},
	}
	return true
}

// Turn returns the turn Next read; it is overwritten by the next call.
func (sc *Scanner) Turn() *Turn { return &sc.turn }

// N is the number of the turn Next read, from 1.
func (sc *Scanner) N() int { return sc.n }

// Err returns the error met, or nil.
func (sc *Scanner) Err() error { return sc.err }

// OfFeatures is the summary of a turn the engine measured.
func OfFeatures(f *replay.Features) Turn {
	return Turn{IslandsFormed: f.IslandsFormed, Bridge: f.Kind == replay.Bridge, DeadCreated: f.DeadCreated, Mobility: f.Mobility}
}

// OfText is the summary of a turn read from game_turns.turns: the same as OfFeatures of
// the features it was packed from.
func OfText(t *turntext.Turn) Turn {
	return Turn{IslandsFormed: t.IslandsFormed(), Bridge: t.Kind() == int(replay.Bridge),
		DeadCreated: [2]int{t.DeadCreated(0), t.DeadCreated(1)}, Mobility: [2]int{t.Mobility(0), t.Mobility(1)}}
}
