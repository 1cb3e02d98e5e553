package turnsum

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/replay"
)

// The records are the bytes the schema documents: each field at its bits, little-endian.
func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn Turn
		want string // hex
	}{
		{"nothing", Turn{}, "0000000000"},
		{"one island", Turn{IslandsFormed: 1}, "0100000000"},
		{"a bridge", Turn{Bridge: true}, "0800000000"},
		{"Light's dead", Turn{DeadCreated: [2]int{1, 0}}, "1000000000"},
		{"Dark's dead", Turn{DeadCreated: [2]int{0, 1}}, "0008000000"},
		{"Light's mobility", Turn{Mobility: [2]int{1, 0}}, "0000040000"},
		{"Dark's mobility", Turn{Mobility: [2]int{0, 1}}, "0000001000"},
		{"a 26×26 turn", Turn{IslandsFormed: 2, Bridge: true, DeadCreated: [2]int{45, 3}, Mobility: [2]int{676, 5}}, "da1a905a00"},
		{"every field at its widest", Turn{IslandsFormed: 7, Bridge: true, DeadCreated: [2]int{127, 127}, Mobility: [2]int{1023, 1023}}, "ffffffff3f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Append([]byte{0xee}, &tc.turn)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(b[1:]); got != tc.want || b[0] != 0xee {
				t.Errorf("Append wrote %x, want ee%s", b, tc.want)
			}
			var sc Scanner
			sc.Reset(b[1:])
			if !sc.Next() || *sc.Turn() != tc.turn || sc.N() != 1 {
				t.Errorf("read back %+v (turn %d, %v), want %+v", *sc.Turn(), sc.N(), sc.Err(), tc.turn)
			}
			if sc.Next() || sc.Err() != nil {
				t.Errorf("a second turn, or %v", sc.Err())
			}
		})
	}
}

// A value outside its field is refused, naming the field, and nothing is appended.
func TestAppendRefuses(t *testing.T) {
	for _, tc := range []struct {
		turn Turn
		want string
	}{
		{Turn{IslandsFormed: 8}, "islands formed 8 does not fit a turn's summary (0 to 7)"},
		{Turn{IslandsFormed: -1}, "islands formed -1 does not fit"},
		{Turn{DeadCreated: [2]int{128, 0}}, "dead created (Light) 128 does not fit a turn's summary (0 to 127)"},
		{Turn{DeadCreated: [2]int{0, -3}}, "dead created (Dark) -3"},
		{Turn{Mobility: [2]int{1024, 0}}, "mobility (Light) 1024 does not fit a turn's summary (0 to 1023)"},
		{Turn{Mobility: [2]int{5, 1 << 40}}, "mobility (Dark) 1099511627776"},
	} {
		dst := []byte("x")
		got, err := Append(dst, &tc.turn)
		var re *RangeError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.turn, err, tc.want)
		}
		if string(got) != "x" {
			t.Errorf("%+v: appended %q", tc.turn, got[1:])
		}
	}
}

// Random turns at every width read back as written, in order.
func TestReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var want []Turn
	var b []byte
	for range 20000 {
		tu := Turn{IslandsFormed: r.IntN(MaxIslandsFormed + 1), Bridge: r.IntN(2) == 1,
			DeadCreated: [2]int{r.IntN(MaxDeadCreated + 1), r.IntN(MaxDeadCreated + 1)},
			Mobility:    [2]int{r.IntN(MaxMobility + 1), r.IntN(MaxMobility + 1)}}
		var err error
		if b, err = Append(b, &tu); err != nil {
			t.Fatal(err)
		}
		want = append(want, tu)
	}
	if n, err := Len(b); n != len(want) || err != nil {
		t.Fatalf("Len %d, %v; want %d", n, err, len(want))
	}
	var sc Scanner
	sc.Reset(b)
	for i := range want {
		if !sc.Next() {
			t.Fatalf("turn %d: %v", i+1, sc.Err())
		}
		if *sc.Turn() != want[i] || sc.N() != i+1 {
			t.Fatalf("turn %d read as %+v (N %d), want %+v", i+1, *sc.Turn(), sc.N(), want[i])
		}
	}
	if sc.Next() || sc.Err() != nil {
		t.Errorf("after the last turn: %v", sc.Err())
	}
}

// Bytes that are not a summary are refused with where and why.
func TestScannerRefuses(t *testing.T) {
	good := "da1a905a00"
	for _, tc := range []struct {
		name, hex string
		turns     int // read before the error
		want      string
	}{
		{"one byte", "01", 0, "1 bytes, not a whole number of 5-byte turns"},
		{"a turn cut short", good + "da1a90", 0, "8 bytes, not a whole number of 5-byte turns"},
		{"a byte too many", good + good + "00", 0, "11 bytes, not a whole number"},
		{"unused bits set", good + "00000000c0", 1, "turn 2, byte 6: bits 38–39 of the record 0xc000000000 are not 0"},
		{"one unused bit", "0000000040", 0, "turn 1, byte 1: bits 38–39"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.DecodeString(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			var sc Scanner
			sc.Reset(b)
			n := 0
			for sc.Next() {
				n++
			}
			var fe *FormatError
			if err := sc.Err(); !errors.As(err, &fe) || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if n != tc.turns {
				t.Errorf("%d turns read before the error, want %d", n, tc.turns)
			}
			if sc.Next() {
				t.Error("Next goes on after an error")
			}
		})
	}
	var sc Scanner
	for _, empty := range [][]byte{nil, {}} {
		sc.Reset(empty)
		if sc.Next() || sc.Err() != nil {
			t.Errorf("the summary of no turn: %v", sc.Err())
		}
	}
}

// The summary of a turn read back from a turns text (here version 6's, which holds any
// value of a 26×26 board) is the summary of the features it was packed from.
func TestOfTextIsOfFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := func(max int) int { return r.IntN(max + 1) }
	for i := range 20000 {
		f := replay.Features{
			Turn: i + 1, Colour: replay.Colour(n(1)), Kind: replay.MoveKind(n(3)), IslandsFormed: n(2),
			LargestComponent: n(169), Score: [2]int{n(14365), n(14365)}, Islands: [2]int{n(169), n(169)},
			Sandbanks: [2]int{n(676), n(676)}, Dead: [2]int{n(676), n(676)}, DeadCreated: [2]int{n(45), n(45)},
			Mobility: [2]int{n(676), n(676)},
		}
		if i < 4 {
			f.IslandsFormed, f.DeadCreated, f.Mobility, f.Kind = 2, [2]int{45, 45}, [2]int{676, 676}, replay.MoveKind(i)
		}
		p := turntext.PackV6(&f, n(1000))
		var sc turntext.V6Scanner
		sc.Reset("[" + string(turntext.AppendV6(nil, &p)) + "]")
		if !sc.Next() {
			t.Fatal(sc.Err())
		}
		if got, want := OfText(new(sc.Turn().Turn())), OfFeatures(&f); got != want {
			t.Fatalf("%+v: OfText %+v, OfFeatures %+v", f, got, want)
		}
		if _, err := Append(nil, new(OfFeatures(&f))); err != nil {
			t.Fatal(err)
		}
	}
}

// Reading a summary allocates nothing.
func TestScannerWithoutAllocating(t *testing.T) {
	var b []byte
	for i := range 100 {
		b, _ = Append(b, &Turn{IslandsFormed: i % 3, Mobility: [2]int{i, 2 * i}})
	}
	var sc Scanner
	sum := 0
	if n := testing.AllocsPerRun(100, func() {
		for sc.Reset(b); sc.Next(); {
			sum += sc.Turn().Mobility[1]
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
	if sum == 0 {
		t.Error("nothing read")
	}
}

// FuzzScanner reads hostile bytes: never a panic; a length that is not a whole number of
// records is refused before any turn; otherwise every turn is read up to the first record
// with unused bits set, and the turns read, written again, are the bytes they came from.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"", "\x01", "\xda\x1a\x90\x5a\x00", "\xff\xff\xff\xff\x3f\xff\xff\xff\xff\xff", "\x00\x00\x00\x00\x00\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var sc Scanner
		sc.Reset(b)
		var again []byte
		for sc.Next() {
			var err error
			if again, err = Append(again, sc.Turn()); err != nil {
				t.Fatalf("turn %d read as %+v, which cannot be written: %v", sc.N(), *sc.Turn(), err)
			}
		}
		err := sc.Err()
		switch {
		case len(b)%Size != 0:
			if err == nil || len(again) != 0 {
				t.Fatalf("%d bytes read as %d turns, error %v", len(b), len(again)/Size, err)
			}
		case err != nil:
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Turn != len(again)/Size+1 || fe.Offset != len(again) || b[fe.Offset+4]&0xc0 == 0 {
				t.Fatalf("error %v after %d turns", err, len(again)/Size)
			}
		default:
			if len(again) != len(b) {
				t.Fatalf("%d turns read of %d", len(again)/Size, len(b)/Size)
			}
		}
		if !bytes.Equal(again, b[:len(again)]) {
			t.Fatalf("the turns read, written again: %x, want %x", again, b[:len(again)])
		}
	})
}
