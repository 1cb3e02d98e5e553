package store

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSQLStaysInStore checks that the store is the one owner of the database: no package
// outside store (its code, not its tests, which may edit a database to damage it) imports
// database/sql or the SQLite driver (so none names a sql.Null type); they read through Reader's
// rows of plain Go values.
func TestSQLStaysInStore(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") || rel == "store" || strings.HasPrefix(rel, "store"+string(filepath.Separator)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "database/sql" || p == "database/sql/driver" || strings.HasPrefix(p, "modernc.org/sqlite") {
				t.Errorf("%s imports %s: only store may", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d files of the module outside store: the walk missed the tree", files)
	}
}
