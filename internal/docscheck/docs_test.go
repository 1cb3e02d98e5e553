package docscheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The repository stands alone: README.md, docs/ and every other Markdown file of the
// repository link only to files and headings of the repository, and name no path
// outside it.
func TestRepositoryLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root: %v", err)
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"README.md", "docs/rules.md", "docs/formats.md"} {
		if !slices.Contains(files, must) {
			t.Errorf("%s is missing", must)
		}
	}
	problems, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d Markdown files checked", len(files))
}
