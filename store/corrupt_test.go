package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture makes a ponte database of the autumn league (17 games) at path, closed.
func fixture(t *testing.T, path string) {
	t.Helper()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, Options{}, autumn)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

// corrupt overwrites pages in the middle of the database file at path with a pattern,
// as a bad disk or a copy cut short would: the first pages (the schema) stay readable.
func corrupt(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := len(b) / page
	if pages < 8 {
		t.Fatalf("%s has %d pages: too small to damage in the middle", path, pages)
	}
	junk := bytes.Repeat([]byte("ponte!\xff\x00"), 3*page/8)
	copy(b[pages/2*page:], junk)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A database that fails SQLite's quick_check is refused by Open with ErrCorrupt and a
// message saying how to recover, before anything is added to it; the file is left as it
// was. (Before, ingest appended to it.)
func TestOpenCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, Options{}, "../sample_data/selfplay-12x12-greedy.ponte.zst")
	d.Close()
	corrupt(t, path)
	before, _ := os.ReadFile(path)

	d, err = Open(path)
	if err == nil {
		d.Ingest(context.Background(), []string{autumn}, Options{})
		d.Close()
		t.Fatal("Open of a damaged database: no error")
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("error %v, want ErrCorrupt", err)
	}
	for _, want := range []string{path + " fails SQLite's quick_check: ", "move it aside and ingest again", "sqlite3 " + path + " .recover"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Errorf("the damaged database was changed")
	}
	// A sound database passes.
	sound := filepath.Join(t.TempDir(), "s.db")
	fixture(t, sound)
	if d, err := Open(sound); err != nil {
		t.Errorf("a sound database: %v", err)
	} else {
		d.Close()
	}
}
