// The text of game_turns.turns up to schema version 6 (docs/schema.md of that version), read
// only to upgrade a database (store/upgrade.go): a JSON array with one array per turn played
// legally, in turn order,
//
//	[[p1,p2,p3,"a","b",think],...]
//
// where p1, p2 and p3 pack the turn's small numbers (V6Turn says how), "a" and "b" are the
// cells of a tiles or bridge turn, and think is the mover's think time in milliseconds.
// The numbers come first and what is absent at the end is left out: a swap or a pass
// without a think time is [p1,p2,p3], a tiles turn without one [p1,p2,p3,"d4","e5"], and
// an absent cell before a think time is null. The turn number is the place in the array,
// from 1.

package turntext

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/ponte/ponte/internal/jsonstr"
	"github.com/ponte/ponte/replay"
)

// V6Turn is one turn as packed: three integers of small numbers, the two cells (empty for a
// swap or a pass) and the think time (0 when the record has none).
//
//	P1: colour (bit 0), kind (1–2), islands formed (3–5), group sizes (6–8, 9–11; 0: none),
//	    bridge shape (12–13; 0: none), bridge ends (14–16, 17–19; 0: none), bridge merged
//	    (20–21: 0 none, 1 no, 2 yes), largest component (22–29), Dark's mobility (30–39);
//	P2: scores (0–15, 16–31), islands (32–39, 40–47), Light's sandbanks (48–57);
//	P3: Dark's sandbanks (0–9), dead (10–19, 20–29), dead created (30–36, 37–43),
//	    Light's mobility (44–53).
//
// On a board of at most 26×26 every number fits: at most 169 islands and a score of 14,365
// per colour, 676 cells, and a turn can kill only the sandbanks within four cells of the
// two cells it changes, at most 45 of one colour.
type V6Turn struct {
	P1, P2, P3 int64
	A, B       string // the cells as written ("d4"); "" for a swap or a pass
	Think      int64  // milliseconds; 0: none
}

// Pack packs the features of one turn; millis is its think time, 0 when the record has
// none.
func PackV6(f *replay.Features, millis int) V6Turn {
	var t V6Turn
	if f.Kind == replay.Tiles || f.Kind == replay.Bridge {
		t.A, t.B = cellName(f.Move.A), cellName(f.Move.B)
	}
	p1 := int64(f.Colour) | int64(f.Kind)<<1 | int64(f.IslandsFormed)<<3
	if f.Kind == replay.Tiles {
		p1 |= int64(f.TileGroups[0])<<6 | int64(f.TileGroups[1])<<9
	}
	if f.Kind == replay.Bridge {
		merged := int64(1)
		if f.BridgeMerged {
			merged = 2
		}
		p1 |= int64(f.BridgeShape)<<12 | int64(f.BridgeEnds[0])<<14 | int64(f.BridgeEnds[1])<<17 | merged<<20
	}
	t.P1 = p1 | int64(f.LargestComponent)<<22 | int64(f.Mobility[1])<<30
	t.P2 = int64(f.Score[0]) | int64(f.Score[1])<<16 | int64(f.Islands[0])<<32 | int64(f.Islands[1])<<40 |
		int64(f.Sandbanks[0])<<48
	t.P3 = int64(f.Sandbanks[1]) | int64(f.Dead[0])<<10 | int64(f.Dead[1])<<20 |
		int64(f.DeadCreated[0])<<30 | int64(f.DeadCreated[1])<<37 | int64(f.Mobility[0])<<44
	t.Think = int64(max(millis, 0))
	return t
}

// Colour is the mover's colour: 0 Light, 1 Dark (replay.Colour).
func (t *V6Turn) Colour() int { return int(t.P1 & 1) }

// Kind is what the turn did: 0 tiles, 1 bridge, 2 swap, 3 pass (replay.MoveKind).
func (t *V6Turn) Kind() int { return int(t.P1 >> 1 & 3) }

// IslandsFormed is the number of the mover's groups that reached exactly 4 tiles.
func (t *V6Turn) IslandsFormed() int { return int(t.P1 >> 3 & 7) }

// Group is the size of the group of the tile on cell i (0: a, 1: b) of a tiles turn; 0
// for another turn.
func (t *V6Turn) Group(i int) int { return int(t.P1 >> (6 + 3*i) & 7) }

// BridgeShape is the shape of a bridge turn (replay.BridgeShape: 1 straight, 2 diagonal,
// 3 knight); 0 for another turn.
func (t *V6Turn) BridgeShape() int { return int(t.P1 >> 12 & 3) }

// BridgeEnd is the size of the group at end i (0: a, 1: b) of a bridge turn; 0 for another
// turn.
func (t *V6Turn) BridgeEnd(i int) int { return int(t.P1 >> (14 + 3*i) & 7) }

// BridgeMerged is 2 when a bridge turn joined two components that were apart, 1 when it
// did not, 0 for another turn.
func (t *V6Turn) BridgeMerged() int { return int(t.P1 >> 20 & 3) }

// LargestComponent is the number of islands in the mover's largest component.
func (t *V6Turn) LargestComponent() int { return int(t.P1 >> 22 & 255) }

// Score is colour c's score after the turn (0 Light, 1 Dark).
func (t *V6Turn) Score(c int) int { return int(t.P2 >> (16 * c) & 0xffff) }

// Islands is colour c's islands after the turn.
func (t *V6Turn) Islands(c int) int { return int(t.P2 >> (32 + 8*c) & 255) }

// Sandbanks is colour c's sandbanks after the turn.
func (t *V6Turn) Sandbanks(c int) int {
	if c == 0 {
		return int(t.P2 >> 48 & 1023)
	}
	return int(t.P3 & 1023)
}

// Dead is colour c's dead sandbanks after the turn.
func (t *V6Turn) Dead(c int) int { return int(t.P3 >> (10 + 10*c) & 1023) }

// DeadCreated is colour c's sandbanks that the turn made dead.
func (t *V6Turn) DeadCreated(c int) int { return int(t.P3 >> (30 + 7*c) & 127) }

// Mobility is the number of empty cells where one tile of colour c would be legal after
// the turn.
func (t *V6Turn) Mobility(c int) int {
	if c == 0 {
		return int(t.P3 >> 44 & 1023)
	}
	return int(t.P1 >> 30 & 1023)
}

// Append appends the JSON array of one turn to dst.
func AppendV6(dst []byte, t *V6Turn) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, t.P1, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, t.P2, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, t.P3, 10)
	if t.A != "" || t.B != "" || t.Think != 0 {
		dst = appendCell(dst, t.A)
		dst = appendCell(dst, t.B)
		if t.Think != 0 {
			dst = append(dst, ',')
			dst = strconv.AppendInt(dst, t.Think, 10)
		}
	}
	return append(dst, ']')
}

func appendCell(dst []byte, c string) []byte {
	if c == "" {
		return append(dst, ",null"...)
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; b < 0x20 || b == '"' || b == '\\' || b >= 0x80 {
			// Not a cell's notation: escaped (only a hand-edited text read back holds
			// such a string).
			return jsonstr.Append(append(dst, ','), c)
		}
	}
	dst = append(dst, ',', '"')
	dst = append(dst, c...)
	return append(dst, '"')
}

// V6Builder makes the text of one game's turns.
type V6Builder struct {
	buf []byte
	n   int
}

// Reset starts a new game.
func (b *V6Builder) Reset() { b.buf, b.n = b.buf[:0], 0 }

// Add appends a turn.
func (b *V6Builder) Add(t *V6Turn) {
	if b.n == 0 {
		b.buf = append(b.buf, '[')
	} else {
		b.buf = append(b.buf, ',')
	}
	b.buf = AppendV6(b.buf, t)
	b.n++
}

// Len is the number of turns added.
func (b *V6Builder) Len() int { return b.n }

// String returns the text of the turns added: "[]" when there are none.
func (b *V6Builder) String() string {
	if b.n == 0 {
		return "[]"
	}
	b.buf = append(b.buf, ']')
	s := string(b.buf)
	b.buf = b.buf[:len(b.buf)-1]
	return s
}

// SyntaxError is a text that is not turns as Append writes them, at byte Offset (from 0).
type SyntaxError struct {
	Offset int
	V6Turn int // the turn being read, from 1; 0 outside any
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.V6Turn > 0 {
		return fmt.Sprintf("turn %d, byte %d: %s", e.V6Turn, e.Offset+1, e.Msg)
	}
	return fmt.Sprintf("byte %d: %s", e.Offset+1, e.Msg)
}

// V6Scanner reads the turns of one game's text in order. It accepts what Append writes and
// any other spelling of the same JSON (white space, a cell or think time given as null
// where Append leaves it out, escapes in a cell's string), and refuses anything else with
// a *SyntaxError: a number where a cell belongs, a fraction, an array too short or too
// long. It allocates nothing, but for a cell written with escapes.
type V6Scanner struct {
	s    string
	pos  int
	turn V6Turn
	n    int // turns read
	err  error
	done bool
}

// Reset starts reading text.
func (sc *V6Scanner) Reset(text string) {
	*sc = V6Scanner{s: text}
	sc.space()
	if !sc.byte('[') {
		sc.fail("not a JSON array")
		return
	}
	sc.space()
	if sc.byte(']') {
		sc.end()
	}
}

// end checks that nothing but white space follows the array.
func (sc *V6Scanner) end() {
	sc.done = true
	sc.space()
	if sc.pos < len(sc.s) {
		sc.fail("text after the array")
	}
}

// Next reads the next turn; it returns false at the end of the text or at an error (Err).
func (sc *V6Scanner) Next() bool {
	if sc.done || sc.err != nil {
		return false
	}
	if sc.n > 0 {
		sc.space()
		switch {
		case sc.byte(']'):
			sc.end()
			return false
		case !sc.byte(','):
			sc.fail("want , or ] after a turn")
			return false
		}
		sc.space()
	}
	sc.n++
	if !slowOnly && sc.fast() {
		return true
	}
	t := &sc.turn
	*t = V6Turn{}
	if !sc.byte('[') {
		sc.fail("a turn is not an array")
		return false
	}
	for i := range 6 {
		sc.space()
		if i > 0 {
			if sc.byte(']') {
				if i < 3 {
					sc.pos--
					sc.fail("a turn has fewer than 3 numbers")
					return false
				}
				return true
			}
			if !sc.byte(',') {
				sc.fail("want , or ] in a turn")
				return false
			}
			sc.space()
		}
		switch i {
		case 0, 1, 2, 5:
			if i == 5 && sc.null() {
				break
			}
			n, ok := sc.number()
			if !ok {
				return false
			}
			switch i {
			case 0:
				t.P1 = n
			case 1:
				t.P2 = n
			case 2:
				t.P3 = n
			case 5:
				t.Think = n
			}
		case 3, 4:
			if sc.null() {
				break
			}
			c, ok := sc.str()
			if !ok {
				return false
			}
			if i == 3 {
				t.A = c
			} else {
				t.B = c
			}
		}
	}
	sc.space()
	if !sc.byte(']') {
		sc.fail("a turn has more than 6 values")
		return false
	}
	return true
}

// slowOnly turns fast off, for the tests that compare the two ways.
var slowOnly = false

// fast reads a turn spelled exactly as Append writes it (no white space, no null, no
// escape, numbers of at most 18 digits without a sign or a leading 0), in one pass over
// the bytes, and reports whether it did; anything else is left to Next's general reading,
// from the same place.
func (sc *V6Scanner) fast() bool {
	s, i := sc.s, sc.pos
	if i >= len(s) || s[i] != '[' {
		return false
	}
	i++
	var p [4]int64
	for k := range 4 {
		start := i
		var n int64
		for i < len(s) && s[i]-'0' <= 9 {
			n = n*10 + int64(s[i]-'0')
			i++
		}
		if d := i - start; d == 0 || d > 18 || d > 1 && s[start] == '0' || i >= len(s) {
			return false
		}
		p[k] = n
		if k == 3 { // the think time, after the cells
			if s[i] != ']' {
				return false
			}
			sc.turn.Think = n
			sc.pos = i + 1
			return true
		}
		if k == 2 {
			sc.turn = V6Turn{P1: p[0], P2: p[1], P3: p[2]}
			if s[i] == ']' {
				sc.pos = i + 1
				return true
			}
			// the cells, then the think time or the end
			for c := range 2 {
				if i+1 >= len(s) || s[i] != ',' || s[i+1] != '"' {
					return false
				}
				j := i + 2
				for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
					j++
				}
				if j >= len(s) || s[j] != '"' {
					return false
				}
				if c == 0 {
					sc.turn.A = s[i+2 : j]
				} else {
					sc.turn.B = s[i+2 : j]
				}
				i = j + 1
			}
			if i < len(s) && s[i] == ']' {
				sc.pos = i + 1
				return true
			}
			if i >= len(s) || s[i] != ',' {
				return false
			}
			i++
			continue
		}
		if s[i] != ',' {
			return false
		}
		i++
	}
	return false
}

// Turn returns the turn Next read; it is overwritten by the next call.
func (sc *V6Scanner) Turn() *V6Turn { return &sc.turn }

// N is the number of the turn Next read, from 1.
func (sc *V6Scanner) N() int { return sc.n }

// Err returns the first error met, or nil.
func (sc *V6Scanner) Err() error { return sc.err }

func (sc *V6Scanner) fail(msg string) {
	if sc.err == nil {
		turn := sc.n
		if sc.done {
			turn = 0
		}
		sc.err = &SyntaxError{Offset: sc.pos, V6Turn: turn, Msg: msg}
	}
}

func (sc *V6Scanner) space() {
	for sc.pos < len(sc.s) {
		switch sc.s[sc.pos] {
		case ' ', '\t', '\n', '\r':
			sc.pos++
		default:
			return
		}
	}
}

func (sc *V6Scanner) byte(c byte) bool {
	if sc.pos < len(sc.s) && sc.s[sc.pos] == c {
		sc.pos++
		return true
	}
	return false
}

func (sc *V6Scanner) null() bool {
	if len(sc.s)-sc.pos >= 4 && sc.s[sc.pos:sc.pos+4] == "null" {
		sc.pos += 4
		return true
	}
	return false
}

// number reads a JSON integer of at most 18 digits.
func (sc *V6Scanner) number() (int64, bool) {
	start := sc.pos
	neg := sc.byte('-')
	var n int64
	digits := 0
	for sc.pos < len(sc.s) {
		d := sc.s[sc.pos] - '0'
		if d > 9 {
			break
		}
		n = n*10 + int64(d)
		digits++
		sc.pos++
		if digits > 18 {
			break
		}
	}
	switch {
	case digits == 0:
		sc.pos = start
		sc.fail("want a number")
		return 0, false
	case digits > 18:
		sc.pos = start
		sc.fail("a number of more than 18 digits")
		return 0, false
	case digits > 1 && sc.s[start+btoi(neg)] == '0':
		sc.pos = start
		sc.fail("a number with a leading 0")
		return 0, false
	}
	if sc.pos < len(sc.s) {
		switch sc.s[sc.pos] {
		case '.', 'e', 'E':
			sc.pos = start
			sc.fail("not an integer")
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// str reads a JSON string: a substring of the text when it has no escapes.
func (sc *V6Scanner) str() (string, bool) {
	if !sc.byte('"') {
		sc.fail("want a cell (a string) or null")
		return "", false
	}
	start := sc.pos
	escaped := false
	for sc.pos < len(sc.s) {
		switch c := sc.s[sc.pos]; {
		case c == '"':
			sc.pos++
			if !escaped {
				return sc.s[start : sc.pos-1], true
			}
			var v string
			if err := json.Unmarshal([]byte(sc.s[start-1:sc.pos]), &v); err != nil {
				sc.pos = start - 1
				sc.fail("a string that is not JSON: " + err.Error())
				return "", false
			}
			return v, true
		case c == '\\':
			escaped = true
			sc.pos += 2
		case c < 0x20:
			sc.fail("a control character in a string")
			return "", false
		default:
			sc.pos++
		}
	}
	sc.fail("a string without its end")
	return "", false
}

// Turn is the same turn as this version keeps it.
func (t *V6Turn) Turn() Turn {
	u := Turn{colour: t.Colour(), kind: t.Kind(), formed: t.IslandsFormed(), group: [2]int{t.Group(0), t.Group(1)},
		shape: t.BridgeShape(), ends: [2]int{t.BridgeEnd(0), t.BridgeEnd(1)}, merged: t.BridgeMerged(),
		largest: t.LargestComponent(), A: t.A, B: t.B, Think: t.Think}
	for c := range 2 {
		u.score[c], u.islands[c], u.sandbanks[c], u.dead[c] = t.Score(c), t.Islands(c), t.Sandbanks(c), t.Dead(c)
		u.deadCreated[c], u.mobility[c] = t.DeadCreated(c), t.Mobility(c)
	}
	return u
}
