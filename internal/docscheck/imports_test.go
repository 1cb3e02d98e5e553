package docscheck

import (
	"bufio"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/ponte/ponte/"

// TestImportGraph checks docs/internals.md's table "Who may import whom": each package
// of the module (not internal/, not the commands) has a row, and imports no package of
// the module that its row does not name.
func TestImportGraph(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := importTable(t, filepath.Join(root, "docs", "internals.md"))
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "cmd" || rel == "scripts" ||
			strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "scripts/") || strings.HasPrefix(rel, "internal") {
			if rel != "." && rel != "internal" {
				return filepath.SkipDir
			}
			return nil
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil || pkg.Name == "main" {
			return nil // no Go files, or a program (annotate/fitcal)
		}
		own, ok := allowed[rel]
		if !ok {
			t.Errorf("docs/internals.md: package %s has no row in the import table", rel)
			return nil
		}
		checked++
		for _, imp := range pkg.Imports {
			name, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if !slices.Contains(own, name) && !(strings.HasPrefix(name, "internal/") && slices.Contains(own, "internal/…")) {
				t.Errorf("%s imports %s, which its row of docs/internals.md's import table does not name", rel, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("%d packages checked: the table was not read", checked)
	}
}

// importTable reads the rows of the import table: package → the packages it may import.
func importTable(t *testing.T, path string) map[string][]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code := regexp.MustCompile("`([a-z/…]+)`")
	rows := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Who may import whom"
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(line, "|")
			if len(cells) < 4 {
				continue
			}
			var imports []string
			for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
				imports = append(imports, m[1])
			}
			for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
				rows[m[1]] = imports
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}
