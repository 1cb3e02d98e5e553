package turntext

import (
	"slices"
	"unsafe"
)

// SummaryOf is a type with Summary's fields, such as internal/turnsum's Turn: what
// AppendSummaries appends.
type SummaryOf interface {
	~struct {
		IslandsFormed int
		Bridge        bool
		DeadCreated   [2]int
		Mobility      [2]int
	}
}

// AppendSummaries appends the summary of each turn of text to dst and returns the
// extended slice: what a Scanner reset to text reads with NextSummary, and the same
// *FormatError at the same turn (the turns before it appended). A text without wide
// turns, as most are, is read in one loop without a Scanner.
func AppendSummaries[S SummaryOf](dst []S, text string) ([]S, error) {
	if out, ok := appendNarrow(dst, text); ok {
		return out, nil
	}
	var sc Scanner
	var s Summary
	for sc.Reset(text); sc.NextSummary(&s); {
		dst = append(dst, S(s))
	}
	return dst, sc.Err()
}

// appendNarrow is AppendSummaries for a text of records only, none of them wide; ok is
// false, and dst unchanged, for any other text, a text NextSummary refuses included.
func appendNarrow[S SummaryOf](dst []S, text string) (_ []S, ok bool) {
	if len(text) < HeaderSize || notDigit(text[:HeaderSize]) >= 0 {
		return dst, false
	}
	count := digits(text[0:3])
	if len(text) != HeaderSize+RecordSize*count {
		return dst, false
	}
	n := len(dst)
	out := slices.Grow(dst, count)[:n+count]
	// The summaries written field by field: S has Summary's fields, so the same layout.
	// (A whole S assigned at once is made on the stack and copied, several times
	// slower.)
	sums := unsafe.Slice((*Summary)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
	if !readNarrow(sums[n:], text[HeaderSize:], digits(text[3:5]), digits(text[5:7])) {
		return dst, false
	}
	return out, true
}

// readNarrow reads into sums the summaries of the narrow records recs, one for each of
// sums, from the mobility bases mobL and mobD; it returns false for records NextSummary
// refuses or reads as wide.
func readNarrow(sums []Summary, recs string, mobL, mobD int) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	const base4 = Base * Base * Base * Base
	bad := false
	for i := range sums {
		if len(recs) < RecordSize {
			return false // never: the length was checked
		}
		// record, with notDigit's test of its 9 bytes.
		w := uint64(recs[0]) | uint64(recs[1])<<8 | uint64(recs[2])<<16 | uint64(recs[3])<<24 |
			uint64(recs[4])<<32 | uint64(recs[5])<<40 | uint64(recs[6])<<48 | uint64(recs[7])<<56
		top := uint64(recs[8]) - ' '
		recs = recs[RecordSize:]
		if (w|(w+ones)|^(w+0x60*ones))&high != 0 || top >= Base {
			bad = true
		}
		w -= 0x2020202020202020
		w = w&0x00ff00ff00ff00ff + (w>>8&0x00ff00ff00ff00ff)*Base
		w = w&0x0000ffff0000ffff + (w>>16&0x0000ffff0000ffff)*(Base*Base)
		x := w&0xffffffff + (w>>32)*base4 + top*base4*base4
		if x >= wRecords || x/wWide%vWide != 0 {
			bad = true
		}
		// The fields from dead created on, with one division.
		q := x / wDeadL
		mobL += int(q/(wMobL/wDeadL)%vMobility) - oMobility
		mobD += int(q/(wMobD/wDeadL)%vMobility) - oMobility
		if uint(mobL) > maxCells || uint(mobD) > maxCells {
			bad = true
		}
		s := &sums[i]
		s.IslandsFormed, s.Bridge = int(x/wFormed%vFormed), x/wKind%vKind == 1
		s.DeadCreated[0], s.DeadCreated[1] = int(q%vDeadCreated), int(q/(wDeadD/wDeadL)%vDeadCreated)
		s.Mobility[0], s.Mobility[1] = mobL, mobD
	}
	return !bad
}
