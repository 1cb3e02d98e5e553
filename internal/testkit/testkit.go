// Package testkit holds the helpers that the tests of several packages share. It is
// imported by tests only.
package testkit

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"
	"testing"
)

// EnteredReader is a reader that says when its first Read begins: a test that must
// act while a read waits (cancel a context, say) waits on Entered instead of sleeping.
type EnteredReader struct {
	r       io.Reader
	entered chan struct{}
	once    sync.Once
}

// NewEnteredReader returns an EnteredReader reading r.
func NewEnteredReader(r io.Reader) *EnteredReader {
	return &EnteredReader{r: r, entered: make(chan struct{})}
}

// Entered is closed when the first Read begins.
func (e *EnteredReader) Entered() <-chan struct{} { return e.entered }

// Read closes Entered on its first call and reads from the reader.
func (e *EnteredReader) Read(p []byte) (int, error) {
	e.once.Do(func() { close(e.entered) })
	return e.r.Read(p)
}

// GzipMember compresses s as one gzip member, at level.
func GzipMember(t testing.TB, s string, level int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
