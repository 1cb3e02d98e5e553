package ingest_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ponte/ponte/ingest"
)

func ExampleNewReader() {
	const archive = `[Event "Autumn league"]
[Light "alice"]
[Dark "bob"]
[Size "12"]
[Result "1-0"]

1. f6,g7 2. swap 3. e5,e6 {the centre} 4. g5,h5 1-0

[Event "Autumn league"]

1. a1,b1 2. c3,d3 } *

[Event "Winter league"]

1. d4-f5!? *
`
	rd := ingest.NewReader(strings.NewReader(archive), "league.ponte")
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		var pe *ingest.ParseError
		if errors.As(err, &pe) {
			// A bad record: report it and go on with the next one.
			fmt.Println(err, "| starts at line", rec.Line)
			continue
		}
		if err != nil {
			fmt.Println(err) // the stream cannot be read
			break
		}
		fmt.Printf("game %d (%s, %dx%d): %d turns, %s", rec.Index, rec.Tag("Event"), rec.Size, rec.Size,
			len(rec.Moves), rec.ClaimedResult())
		if len(rec.Moves) > 0 {
			m := rec.Moves[0]
			fmt.Printf(", first %s at %d:%d", m.Text, m.Line, m.Col)
		}
		fmt.Println()
	}
	fmt.Println("format:", rd.Format())
	// Output:
	// game 1 (Autumn league, 12x12): 4 turns, 1-0, first f6,g7 at 7:4
	// league.ponte:11:19: game 2: '}' without '{' | starts at line 9
	// game 3 (Winter league, 10x10): 1 turns, *, first d4-f5 at 15:4
	// format: ponte
}

func ExampleNewWriter() {
	rec := &ingest.Record{Moves: []ingest.Token{{Text: "f6,g7"}, {Text: "swap", Comment: "pie rule"}, {Text: "pass"}}}
	for _, kv := range [][2]string{{"Event", "Autumn league"}, {"Date", "2025.10.04"}, {"Size", "12"},
		{"Result", "0-1"}, {"Score", "6-10"}} {
		if err := rec.SetTag(kv[0], kv[1]); err != nil {
			panic(err)
		}
	}
	for _, f := range []ingest.Format{ingest.FormatPonte, ingest.FormatJSONL} {
		w := ingest.NewWriter(os.Stdout, f)
		if err := w.Write(rec); err != nil {
			panic(err)
		}
		if err := w.Flush(); err != nil {
			panic(err)
		}
	}
	// Output:
	// [Event "Autumn league"]
	// [Date "2025.10.04"]
	// [Size "12"]
	// [Result "0-1"]
	// [Score "6-10"]
	//
	// 1. f6,g7 2. swap {pie rule} 3. pass 0-1
	//
	// {"event":"Autumn league","date":"2025-10-04","size":12,"result":"0-1","score":[6,10],"moves":["f6,g7","swap","pass"]}
}

func ExampleOpen() {
	err := ingest.Open([]string{"../replay/testdata/conformance/random/corpus.ponte"}, func(rec *ingest.Record, err error) error {
		if err != nil {
			fmt.Println(err)
			return nil
		}
		if rec.Index <= 2 {
			fmt.Printf("%s game %d: %d turns on %dx%d\n", rec.Source[len(rec.Source)-12:], rec.Index, len(rec.Moves), rec.Size, rec.Size)
		}
		return nil
	})
	var pe *ingest.PathError
	if errors.As(err, &pe) {
		fmt.Println("cannot open:", pe) // a usage error for the command
	}
	// Output:
	// corpus.ponte game 1: 20 turns on 8x8
	// corpus.ponte game 2: 21 turns on 12x12
}
