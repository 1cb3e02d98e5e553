package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponte/ponte/stats"
)

// A report folder kept in git, or with a user's notes beside the report, keeps them: only
// the report's own files are replaced, and Written.Kept names the others.
func TestWriteKeepsWhatItDidNotWrite(t *testing.T) {
	db := fixtureDB(t)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Write(context.Background(), db.Reader, r, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	mustWrite := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(".git/HEAD", "ref: refs/heads/main\n")
	mustWrite("notes.txt", "mine")
	mustWrite("CNAME", "games.example.org")
	w, err := Write(context.Background(), db.Reader, r, dir, Options{MaxGames: 3})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{".git/HEAD": "ref: refs/heads/main\n", "notes.txt": "mine", "CNAME": "games.example.org"} {
		if got := readFile(t, filepath.Join(dir, filepath.FromSlash(name))); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	if want := []string{".git", "CNAME", "notes.txt"}; !slices.Equal(w.Kept, want) {
		t.Errorf("Kept = %q, want %q", w.Kept, want)
	}
	if pages, _ := filepath.Glob(filepath.Join(dir, "games", "*.html")); len(pages) != 3 {
		t.Errorf("%d game pages, want the new report's 3", len(pages))
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".git", marker, "CNAME", "fonts.css", "games", "index.html", "notes.txt", "style.css"}; !slices.Equal(names, want) {
		t.Errorf("the folder holds %q, want %q", names, want)
	}
}

// The current folder, a folder of hidden files only (a new site's .git) and a link to a
// folder are written into; "" and folders of other files are refused, naming them.
func TestWriteFolders(t *testing.T) {
	db := fixtureDB(t)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{MaxGames: 2}

	t.Chdir(t.TempDir())
	os.WriteFile(".keep", nil, 0o644)
	if _, err := Write(context.Background(), db.Reader, r, ".", opts); err != nil {
		t.Fatalf("into .: %v", err)
	}
	if _, err := Write(context.Background(), db.Reader, r, ".", opts); err != nil {
		t.Fatalf("into . again: %v", err)
	}
	if _, err := os.Stat(".keep"); err != nil {
		t.Error(err)
	}

	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(real, link)
	if _, err := Write(context.Background(), db.Reader, r, link, opts); err != nil {
		t.Fatalf("into a link: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link is no longer a link")
	}
	if _, err := os.Stat(filepath.Join(real, "index.html")); err != nil {
		t.Error("the link's folder has no index.html:", err)
	}

	if _, err := Write(context.Background(), db.Reader, r, "", opts); err == nil || !strings.Contains(err.Error(), "no folder named") {
		t.Errorf(`Write into "": %v`, err)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "thesis.tex"), nil, 0o644)
	os.WriteFile(filepath.Join(other, "index.html"), nil, 0o644)
	if _, err := Write(context.Background(), db.Reader, r, other, opts); err == nil || !strings.Contains(err.Error(), "(thesis.tex)") {
		t.Errorf("Write into a folder of other files: %v", err)
	}
	report := filepath.Join(t.TempDir(), "report")
	if _, err := Write(context.Background(), db.Reader, r, report, opts); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(report, "games", "draft.md"), []byte("mine"), 0o644)
	if _, err := Write(context.Background(), db.Reader, r, report, opts); err == nil || !strings.Contains(err.Error(), "(draft.md)") {
		t.Errorf("Write over a games folder holding a user's file: %v", err)
	}
	if got := readFile(t, filepath.Join(report, "games", "draft.md")); got != "mine" {
		t.Errorf("draft.md holds %q", got)
	}
}
