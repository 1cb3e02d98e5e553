package testkit

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

func TestEnteredReader(t *testing.T) {
	e := NewEnteredReader(strings.NewReader("abc"))
	select {
	case <-e.Entered():
		t.Fatal("entered before any read")
	default:
	}
	b, err := io.ReadAll(e)
	if err != nil || string(b) != "abc" {
		t.Fatalf("%q, %v", b, err)
	}
	<-e.Entered() // closed, and closed once: a second read does not panic
	e.Read(make([]byte, 1))
}

func TestGzipMember(t *testing.T) {
	for _, level := range []int{gzip.NoCompression, gzip.BestSpeed, gzip.BestCompression} {
		zr, err := gzip.NewReader(bytes.NewReader(GzipMember(t, "a game", level)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil || string(b) != "a game" {
			t.Errorf("level %d: %q, %v", level, b, err)
		}
	}
}
