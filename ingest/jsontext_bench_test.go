package ingest

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// The JSON of JSON Lines and Abstract Play files is read by a hand-written parser
// (jsonParser). These benchmarks measure it against go-json-experiment's jsontext.Decoder
// on the inputs of BenchmarkJSONLReader and BenchmarkAbstractPlayReader, both doing the
// least a reader needs of them: every value read, every string made, names given twice
// in an object found (jsontext's default; the readers find them in their set of tags), and
// the position of each value known (jsontext gives an offset: the line and column of an
// Abstract Play value take a count of the line ends before it). Neither makes records, so
// a reader built on jsontext would cost at least what its benchmark costs, plus the records
// (docs/benchmarks.md has the numbers and the decision).

// apBenchInput repeats the Abstract Play export of sample_data (an array of 31 records,
// one of another game) in memory to about 20 MB.
func apBenchInput(b *testing.B) (data []byte, games int) {
	b.Helper()
	one, err := os.ReadFile("../sample_data/abstractplay-export.json")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	rd := NewReader(bytes.NewReader(one), "ap")
	for {
		if _, err := rd.Read(); err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
		n++
	}
	reps := 20 << 20 / len(one)
	return bytes.Repeat(one, reps), n * reps
}

// BenchmarkAbstractPlayReader measures the Abstract Play reader on its sample export,
// repeated.
func BenchmarkAbstractPlayReader(b *testing.B) {
	data, games := apBenchInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpuLoop(b, func() {
		rd := NewReader(bytes.NewReader(data), "ap")
		n := 0
		for {
			_, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != games {
			b.Fatalf("read %d games, want %d", n, games)
		}
	})
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// kept holds the strings of the record being walked, as a reader keeps them (tags, moves):
// the hand-written parser's are slices of the record's text, jsontext's copies.
var kept []string

// handWalk reads the JSON value at p.i with the hand-written parser, keeping every string.
func handWalk(p *jsonParser, depth int) bool {
	p.ws()
	switch p.peek() {
	case '{':
		return p.object("an object", func(key string, _ int) bool {
			kept = append(kept, key)
			return handWalk(p, depth+1)
		})
	case '[':
		return p.array("an array", func() bool { return handWalk(p, depth+1) })
	case '"':
		v, ok := p.str()
		kept = append(kept, v)
		return ok
	}
	_, ok := p.skip(depth)
	return ok
}

// textWalk reads every token of dec, keeping every string; lines, when not nil, counts
// the line ends before each token (of data, the whole input), for its position.
func textWalk(dec *jsontext.Decoder, data []byte, lines *int) error {
	at := int64(0)
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if lines != nil {
			off := dec.InputOffset()
			*lines += bytes.Count(data[at:off], []byte{'\n'})
			at = off
		}
		if tok.Kind() == '"' {
			kept = append(kept, tok.String())
		}
		if dec.StackDepth() == 0 {
			kept = kept[:0] // a record read
		}
	}
}

func BenchmarkJSONParse(b *testing.B) {
	jsonl, _ := benchInput(b, "corpus.jsonl")
	ap, _ := apBenchInput(b)
	eachLine := func(data []byte, fn func(line []byte) bool) {
		for len(data) > 0 {
			k := bytes.IndexByte(data, '\n')
			if k < 0 {
				k = len(data)
			}
			if k > 0 && !fn(data[:k]) {
				b.Fatal("invalid JSON")
			}
			data = data[min(k+1, len(data)):]
		}
	}
	b.Run("JSONL/handwritten", func(b *testing.B) {
		b.SetBytes(int64(len(jsonl)))
		b.ReportAllocs()
		var esc []byte
		cpuLoop(b, func() {
			eachLine(jsonl, func(line []byte) bool {
				kept = kept[:0]
				p := jsonParser{s: string(line), buf: esc}
				ok := handWalk(&p, 0)
				esc = p.buf
				return ok
			})
		})
	})
	b.Run("JSONL/jsontext", func(b *testing.B) {
		b.SetBytes(int64(len(jsonl)))
		b.ReportAllocs()
		var br bytes.Reader
		dec := jsontext.NewDecoder(&br)
		cpuLoop(b, func() {
			eachLine(jsonl, func(line []byte) bool {
				kept = kept[:0]
				br.Reset(line)
				dec.Reset(&br)
				return textWalk(dec, nil, nil) == nil
			})
		})
	})
	b.Run("AbstractPlay/handwritten", func(b *testing.B) {
		b.SetBytes(int64(len(ap)))
		b.ReportAllocs()
		cpuLoop(b, func() {
			p := jsonParser{s: string(ap)}
			for p.ws(); p.i < len(p.s); p.ws() {
				kept = kept[:0]
				if !handWalk(&p, 0) {
					b.Fatal(p.msg)
				}
			}
		})
	})
	b.Run("AbstractPlay/jsontext", func(b *testing.B) {
		b.SetBytes(int64(len(ap)))
		b.ReportAllocs()
		cpuLoop(b, func() {
			lines := 0
			kept = kept[:0]
			if err := textWalk(jsontext.NewDecoder(bytes.NewReader(ap)), ap, &lines); err != nil {
				b.Fatal(err)
			}
		})
	})
}
