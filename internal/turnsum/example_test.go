package turnsum_test

import (
	"fmt"

	"github.com/ponte/ponte/internal/turnsum"
)

// The summary of two turns, read back: a tiles turn that formed an island and a bridge
// that killed one of Dark's sandbanks.
func Example() {
	var b []byte
	for _, t := range []turnsum.Turn{
		{IslandsFormed: 1, Mobility: [2]int{61, 58}},
		{Bridge: true, DeadCreated: [2]int{0, 1}, Mobility: [2]int{57, 55}},
	} {
		var err error
		if b, err = turnsum.Append(b, &t); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%d bytes: % x\n", len(b), b)
	var sc turnsum.Scanner
	for sc.Reset(b); sc.Next(); {
		t := sc.Turn()
		fmt.Printf("turn %d: islands formed %d, bridge %v, dead created %v, mobility %v\n",
			sc.N(), t.IslandsFormed, t.Bridge, t.DeadCreated, t.Mobility)
	}
	if err := sc.Err(); err != nil {
		fmt.Println(err)
	}
	sc.Reset(b[:7])
	fmt.Println(sc.Next(), sc.Err())
	// Output:
	// 10 bytes: 01 00 f4 a0 03 08 08 e4 70 03
	// turn 1: islands formed 1, bridge false, dead created [0 0], mobility [61 58]
	// turn 2: islands formed 0, bridge true, dead created [0 1], mobility [57 55]
	// false 7 bytes, not a whole number of 5-byte turns
}
