package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkReadWrite reads data and checks the properties every input must
// have: no panic, errors with a position, and every record that reads well
// written again (alone and all together) reads back as the same game.
func checkReadWrite(t *testing.T, data []byte) {
	rd := NewReader(bytes.NewReader(data), "fuzz")
	var good []*Record
	var read []result
	defer func() {
		if !t.Failed() {
			checkReleased(t, data, read)
		}
	}()
	for n := 0; ; n++ {
		if n > len(data)+1 {
			t.Fatalf("more records than bytes")
		}
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		read = append(read, result{rec, err})
		for _, no := range rd.Notices() {
			if !utf8.ValidString(no.Error()) {
				t.Fatalf("notice not UTF-8: %q", no.Error())
			}
		}
		if rec != nil {
			checkText(t, rec)
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			if rec == nil || pe.Line < 1 || pe.Column < 1 || pe.Game != rec.Index || pe.StartLine != rec.Line || len(rec.Raw) > MaxRaw {
				t.Fatalf("bad ParseError %v for %+v", pe, rec)
			}
			if msg := pe.Error(); !utf8.ValidString(msg) {
				t.Fatalf("error not UTF-8: %q", msg)
			}
			continue
		}
		if err != nil {
			// The stream cannot be read (content in no known format, a
			// corrupt compressed stream): the error ends it.
			if _, err2 := rd.Read(); err2 != err {
				t.Fatalf("error %v not sticky: then %v", err, err2)
			}
			break
		}
		if rec.Index != n+1 || rec.Line < 1 || rec.Raw != nil {
			t.Fatalf("record %d: %+v", n+1, rec)
		}
		for _, m := range rec.Moves {
			if m.Line < rec.Line || m.Col < 1 {
				t.Fatalf("move %+v of a record starting at line %d", m, rec.Line)
			}
		}
		good = append(good, rec)
	}
	if len(good) == 0 {
		return
	}
	f := good[0].Format
	if !f.Writable() {
		f = FormatJSONL // the foreign formats are written as JSON Lines
	}
	var all bytes.Buffer
	wa := NewWriter(&all, f)
	for _, rec := range good {
		var one bytes.Buffer
		w := NewWriter(&one, f)
		if err := w.Write(rec); err != nil {
			t.Fatalf("cannot write %+v: %v", rec, err)
		}
		w.Flush()
		back := readBack(t, one.Bytes(), f)
		if len(back) != 1 {
			t.Fatalf("%+v written as %q reads as %d records", rec, one.Bytes(), len(back))
		}
		if d := sameGame(rec, back[0], f == FormatPonte); d != "" {
			t.Fatalf("%s:\n%+v\nwritten as %q reads as\n%+v", d, rec, one.Bytes(), back[0])
		}
		wa.Write(rec)
	}
	wa.Flush()
	back := readBack(t, all.Bytes(), f)
	if len(back) != len(good) {
		t.Fatalf("%d records written together read as %d:\n%s", len(good), len(back), all.Bytes())
	}
	for i := range back {
		if d := sameGame(good[i], back[i], f == FormatPonte); d != "" {
			t.Fatalf("record %d: %s", i+1, d)
		}
	}
}

// checkText checks that every text of rec that is stored is UTF-8: tag names and values,
// tokens, comments, and the messages of its tag errors (docs/limits.md).
func checkText(t *testing.T, rec *Record) {
	t.Helper()
	if !utf8.ValidString(rec.Comment) {
		t.Fatalf("comment not UTF-8: %q", rec.Comment)
	}
	for _, tag := range rec.Tags {
		if !utf8.ValidString(tag.Name) || !utf8.ValidString(tag.Value) {
			t.Fatalf("tag not UTF-8: %q", tag)
		}
	}
	for _, m := range rec.Moves {
		if !utf8.ValidString(m.Text) || !utf8.ValidString(m.Comment) {
			t.Fatalf("token not UTF-8: %+v", m)
		}
	}
	for _, e := range rec.TagErrors {
		if !utf8.ValidString(e.Error()) {
			t.Fatalf("tag error not UTF-8: %q", e.Error())
		}
	}
}

// checkReleased reads data again, releasing every record once compared with the same
// record read without releasing (want): records filled again read the same.
func checkReleased(t *testing.T, data []byte, want []result) {
	rd := NewReader(bytes.NewReader(data), "fuzz")
	for i, w := range want {
		rec, err := rd.Read()
		if fmt.Sprint(err) != fmt.Sprint(w.err) || (rec == nil) != (w.rec == nil) {
			t.Fatalf("record %d read into a released record: %v, want %v", i+1, err, w.err)
		}
		if rec == nil {
			continue
		}
		if d := sameGame(rec, w.rec, true); d != "" || !bytes.Equal(rec.Raw, w.rec.Raw) || (rec.Raw == nil) != (w.rec.Raw == nil) ||
			fmt.Sprint(rec.Index, rec.Line, rec.Size, rec.Supply, rec.Termination, rec.Score, rec.Result, rec.TagErrors) !=
				fmt.Sprint(w.rec.Index, w.rec.Line, w.rec.Size, w.rec.Supply, w.rec.Termination, w.rec.Score, w.rec.Result, w.rec.TagErrors) {
			t.Fatalf("record %d read into a released record differs: %s\n%+v\n%+v", i+1, d, rec, w.rec)
		}
		rec.Release()
	}
}

func readBack(t *testing.T, data []byte, f Format) []*Record {
	rd := NewReader(bytes.NewReader(data), "back")
	var recs []*Record
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("reading back %q: %v", data, err)
		}
		if rec.Format != f {
			t.Fatalf("%q reads back as %s", data, rec.Format)
		}
		recs = append(recs, rec)
	}
}

// addSeeds adds the games of the conformance files, by one and by three (not
// whole files: the fuzzer spends a minute minimising every large input), and
// some tricky inputs.
func addSeeds(f *testing.F, files []string, extra []string) {
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		sep := "\n\n["
		if strings.HasSuffix(name, ".jsonl") {
			sep = "\n"
		}
		parts := strings.SplitAfter(string(data), sep)
		for i := 0; i < len(parts) && i < 60; i++ {
			f.Add([]byte(parts[i]))
			if i%3 == 0 && i+3 <= len(parts) {
				f.Add([]byte(strings.Join(parts[i:i+3], "")))
			}
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

func FuzzPonteReader(f *testing.F) {
	addSeeds(f, []string{corpusDir + "corpus.ponte", "../replay/testdata/conformance/edge.ponte"}, []string{
		"\ufeff[Event \"a \\\"b\\\" \\\\\"]\r\n\r\n1. a1,b1! {c\r\nd} 2.swap ; e } f\r\n3. pass 1-0 1. a1 *",
		"[Size \"30\"]\n\n1. a1,b1 3. c1 {open\n[Event \"x\"]\n1. a1,b1 0-1",
		"{\"x\": 1}\n", "1. [a 2.. b!!! } 1-0!",
		"[A \"1\"]\n\n[B \"2\"]\n*",
	})
	f.Fuzz(checkReadWrite)
}

func FuzzJSONLReader(f *testing.F) {
	addSeeds(f, []string{corpusDir + "corpus.jsonl"}, []string{
		`{"game_id":"bga-512","site":"BGA","date":"2025-10-04","light":"alice","dark":"bob","size":10,"supply":"unlimited","result":"1-0","termination":"normal","score":[10,6],"moves":["f6,g7","swap","e5,e6","g5,h5","e5-g6","pass","c3,d3"]}`,
		`{"Event":"x","n":[1,{"a":null}],"s":"\u00e9\ud83d\ude00","moves":["a\"b"]}` + "\n\n" + `{"moves":[1]}`,
		`{"moves":[]}` + "\n" + `{"size":"012","score":"010-6","date":"????.??.??","moves":[]}`,
	})
	f.Fuzz(checkReadWrite)
}
