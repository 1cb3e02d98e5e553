package store

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The store is the only package that reads its tables: no other package of ponte (tests
// aside, which may edit a database to damage it) imports database/sql or the SQLite driver,
// so none names a sql.Null type; scripts/duckdb-check asks its questions through
// Reader.Value.
func TestOnlyStoreSpeaksSQL(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if e.IsDir() {
			switch rel {
			case "store", "testdata", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "database/sql" || strings.HasPrefix(p, "database/sql/") || strings.HasPrefix(p, "modernc.org/sqlite") {
				t.Errorf("%s imports %s: only store reads the database (store.Reader)", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
