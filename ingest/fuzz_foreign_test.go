package ingest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// inInput reports whether line and col name a byte of data, or the end of
// one of its lines, as the readers count them: lines end at \n, \r\n and a \r
// alone (a run of \r before \n is one line end), and columns count after the
// byte order marks at the start of a line.
func inInput(data []byte, line, col int) bool {
	lines := inputLines(data)
	if line < 1 || line > len(lines) || col < 1 {
		return false
	}
	return col <= len(lines[line-1])+1
}

// inputLines splits data into lines as a text editor does, without their line ends and
// the byte order marks at their start; a line after the last line end is there, empty.
func inputLines(data []byte) [][]byte {
	var lines [][]byte
	for {
		for bytes.HasPrefix(data, bom) {
			data = data[len(bom):]
		}
		k := bytes.IndexAny(data, "\r\n")
		if k < 0 {
			return append(lines, data)
		}
		lines = append(lines, data[:k])
		e := 1
		if data[k] == '\r' {
			j := k
			for j < len(data) && data[j] == '\r' && j-k <= maxCR {
				j++
			}
			if j < len(data) && data[j] == '\n' && j-k <= maxCR {
				e = j - k + 1
			}
		}
		data = data[k+e:]
	}
}

// checkForeign reads data and checks what every input must give: no panic,
// errors and notices at positions within the input, reading that goes on
// after a bad record, then the write-back properties of checkReadWrite.
func checkForeign(t *testing.T, data []byte) {
	rd := NewReader(bytes.NewReader(data), "fuzz")
	for n := 0; ; n++ {
		if n > len(data)+1 {
			t.Fatalf("more records than bytes")
		}
		rec, err := rd.Read()
		for _, no := range rd.Notices() {
			if !errors.Is(no, ErrSkipped) || !inInput(data, no.Line, no.Column) {
				t.Fatalf("notice %v outside the input", no)
			}
		}
		if err == io.EOF {
			break
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			if !inInput(data, pe.Line, pe.Column) {
				t.Fatalf("error %v outside the input", pe)
			}
			if rec.Raw == nil {
				t.Fatalf("error %v without raw text", pe)
			}
			continue
		}
		if err != nil {
			if _, err2 := rd.Read(); err2 != err {
				t.Fatalf("error %v not sticky: then %v", err, err2)
			}
			break
		}
		for _, m := range rec.Moves {
			if !inInput(data, m.Line, m.Col) {
				t.Fatalf("move %+v outside the input", m)
			}
		}
	}
	checkReadWrite(t, data)
}

// smallSamples returns the first lines of a sample file, closed again, so
// that the fuzzer starts from small inputs.
func smallSample(f *testing.F, path string, lines int, closing string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	ls := strings.SplitAfter(string(data), "\n")
	return []byte(strings.Join(ls[:min(lines, len(ls))], "") + closing)
}

func FuzzBoardspaceReader(f *testing.F) {
	f.Add(smallSample(f, samplesDir+"boardspace/PD-player57-player171-000.sgf", 60, ")\n"))
	f.Add(smallSample(f, samplesDir+"boardspace/PD-player68-player188-008.sgf", 40, ")\n"))
	f.Add(smallSample(f, samplesDir+"boardspace/PD-player10-player187-002.sgf", 30, ";\nP0[time 0:02:36 ]\n)\n(;GM[Hive])"))
	for _, moves := range [][]string{
		cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb E 5", "P0 Done"}),
		cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb E 5", "P0 BridgeEnd C 4", "P0 Done", "P1 Resign"}),
		cat(p0tiles("E 5", "F 6"), []string{"P1 Swap", "P1 Done", "P0 Pick R", "P0 Dropb A 1", "P0 Pickb A 1",
			"P0 Drop R", "P0 Done|5", "P1 Pass", "P1 Done", "P1 GameOver"}),
	} {
		f.Add([]byte(sgf("PonteDelDiavolo", moves...)))
	}
	f.Add([]byte("\ufeff (;GM[PonteDelDiavolo]GN[a\\]b\\\nc]RE[\xe9]P0[id \"x\"]\r\n;P0[1 Tile White_Chip_Pool E 5]TM[1]P0[2 Bridge Bridge_45 C 3];P0[3 Done])junk(;GM[Go])(;"))
	f.Add([]byte("(;GM[PonteDelDiavolo];P0[1 Pick W](;P1[2 Done])[x]%)"))
	f.Fuzz(checkForeign)
}

func FuzzAbstractPlayReader(f *testing.F) {
	f.Add(smallSample(f, samplesDir+"abstractplay/ap-001.json", 1000, ""))
	f.Add(smallSample(f, samplesDir+"abstractplay/ap-004.json", 1000, ""))
	f.Add([]byte("[" + apRec("Ponte del Diavolo", "g1", true, `"size-12"`, `[["f6,g7", "e5,e6"], ["g5,h5", "e5-g6"], ["pass"]]`) +
		",\n" + apRec("Hive", "g3", false, "", `[]`) + "]"))
	f.Add([]byte(`[{"header":{"game":{"name":"Ponte del Diavolo","variants":["size-8"]},"pie-invoked":true,"players":[{"name":"a","score":1},{"name":"b","is_ai":true}]},"moves":[[{"move":"a1,b1"},"c1,d1"],"pass"]}` +
		"\n" + `{"header":{},"moves":[]} , "x", [1, {"a": "b\u00e9"}]]`))
	f.Add([]byte("{\n \"header\": {\"players\": [{\"name\": \"a\"}, {\"name\": \"b\"}]},\n \"moves\": [[\"a1,b1\n]]\n}\n{\"header\": 1}"))
	f.Fuzz(checkForeign)
}
