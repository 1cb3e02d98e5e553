package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// issue 30 item 4: report renamed its folder into place on its own; InstallFolder is the
// one way now. Into a folder that does not exist the new folder is renamed; into one that
// does, the named entries replace the earlier ones (a folder as a whole) and every other
// entry is kept, with nothing left of the temporary folders.
func TestInstallFolder(t *testing.T) {
	for _, setAside := range []bool{false, true} {
		name := "exchange"
		if setAside {
			name = "set aside"
		}
		t.Run(name, func(t *testing.T) {
			if setAside {
				defer func(f func(a, b string) error) { installExchange = f }(installExchange)
				installExchange = func(a, b string) error { return errors.ErrUnsupported }
			}
			testInstallFolder(t)
		})
	}
}

func testInstallFolder(t *testing.T) {
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	tmp := filepath.Join(root, ".out.tmp-1-1")
	write(filepath.Join(tmp, "index.html"), "first")
	write(filepath.Join(tmp, "games", "1.html"), "page 1")
	if err := InstallFolder(tmp, dir, []string{"games", "index.html"}); err != nil {
		t.Fatal(err)
	}
	if got := read(filepath.Join(dir, "index.html")); got != "first" {
		t.Errorf("index.html holds %q", got)
	}

	write(filepath.Join(dir, "notes.txt"), "mine")
	tmp = filepath.Join(dir, ".ponte-report.tmp-1-2")
	write(filepath.Join(tmp, "index.html"), "second")
	write(filepath.Join(tmp, "games", "2.html"), "page 2")
	write(filepath.Join(tmp, "style.css"), "css")
	if err := InstallFolder(tmp, dir, []string{"games", "style.css", "index.html"}); err != nil {
		t.Fatal(err)
	}
	if got := read(filepath.Join(dir, "index.html")); got != "second" {
		t.Errorf("index.html holds %q", got)
	}
	if got := read(filepath.Join(dir, "notes.txt")); got != "mine" {
		t.Errorf("notes.txt holds %q", got)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"games", "index.html", "notes.txt", "style.css"}; !slices.Equal(names, want) {
		t.Errorf("the folder holds %v, want %v", names, want)
	}
	pages, _ := os.ReadDir(filepath.Join(dir, "games"))
	if len(pages) != 1 || pages[0].Name() != "2.html" {
		t.Errorf("games holds %v, want the new report's page only", pages)
	}
}
