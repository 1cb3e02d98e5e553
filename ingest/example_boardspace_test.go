package ingest_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ponte/ponte/ingest"
)

func ExampleNewReader_boardspace() {
	const file = `(;
GM[PonteDelDiavolo]VV[1]
GN[PD-alice-bob-2026-03-07-1302]
DT[Sat Mar 07 14:02:11 CET 2026]
RE[Game won by bob]
P0[id "alice"]
P1[id "bob"]
; P0[0 Start P0]
; P0[1 Tile White_Chip_Pool E 5]TM[3100]
; P0[2 Tile White_Chip_Pool C 4]TM[4200]
; P0[3 Done ]TM[5000]
; P1[4 Swap ]TM[2500]
; P1[5 Done ]TM[3000]
; P0[6 Pick R]TM[6000]
; P0[7 Dropb A 1]TM[7000]
; P0[8 Pick R]TM[8000]
; P0[9 Dropb A 2]TM[9000]
; P0[10 Done ]TM[9500]
; P1[11 Pick X_30]TM[4000]
; P1[12 Dropb E 5]TM[6000]
; P1[13 Done ]TM[7000]
; P0[14 Resign ]TM[9800]
;
P0[time 0:00:10 ]
P1[time 0:00:07 ]
)
(;GM[Hive]GN[HV-carol-dave-2026-03-08-0900])
`
	rd := ingest.NewReader(strings.NewReader(file), "games.sgf")
	for {
		rec, err := rd.Read()
		for _, n := range rd.Notices() {
			fmt.Println("note:", n) // skipped on purpose: not a game, not an error
		}
		if err == io.EOF {
			break
		}
		var pe *ingest.ParseError
		if errors.As(err, &pe) {
			fmt.Println(err) // an unreadable game: report it and go on
			continue
		}
		if err != nil {
			fmt.Println(err) // the stream cannot be read
			break
		}
		fmt.Printf("%s %s: %s (Light) v %s (Dark), opened by %s, %s by %s\n", rec.Format, rec.Tag("GameId"),
			rec.Tag("Light"), rec.Tag("Dark"), rec.Tag("Opener"), rec.ClaimedResult(), rec.Termination)
		for i, m := range rec.Moves {
			fmt.Printf("%d. %s at %d:%d, %d ms\n", i+1, m.Text, m.Line, m.Col, m.Millis)
		}
	}
	// Output:
	// boardspace PD-alice-bob-2026-03-07-1302: bob (Light) v alice (Dark), opened by alice, 1-0 by resign
	// 1. e5,c4 at 9:3, 5000 ms
	// 2. swap at 12:3, 3000 ms
	// 3. a1,a2 at 14:3, 4500 ms
	// 4. e5-c4 at 19:3, 4000 ms
	// note: games.sgf:27:1: game tree of GM[Hive] skipped: not PonteDelDiavolo
}
