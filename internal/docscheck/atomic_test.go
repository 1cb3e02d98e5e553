package docscheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// renameOwner is the one package that renames a file or folder into place: ponte's one
// atomic write of a file (outfile.File) and of a folder (outfile.Folder,
// outfile.InstallFolder).
const renameOwner = "internal/outfile"

// issue 30 item 4: atomic writes were written five times (internal/outfile, store's
// Parquet files and their folder switch, the atlas's Parquet files, report's folder), with
// four temporary-name schemes, two of them renaming without an fsync. Every rename in
// ponte's non-test Go code is in internal/outfile: a second hand-written rename-into-place
// anywhere else fails here, naming its file and line.
func TestOneAtomicWrite(t *testing.T) {
	renames := []string{"Rename", "Renameat", "Renameat2", "RenameExchange"}
	var found []string
	owned := 0
	eachGoFile(t, false, func(rel string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains(renames, sel.Sel.Name) {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || (pkg.Name != "os" && pkg.Name != "syscall" && pkg.Name != "unix") {
				return true
			}
			if filepath.ToSlash(filepath.Dir(rel)) == renameOwner {
				owned++
				return true
			}
			found = append(found, fmt.Sprintf("%s: %s.%s", fset.Position(call.Pos()), pkg.Name, sel.Sel.Name))
			return true
		})
	})
	for _, f := range found {
		t.Errorf("%s renames outside %s: write through outfile.Create / outfile.WriteFile (a file), outfile.NewFolder (a folder switched whole) or outfile.InstallFolder", f, renameOwner)
	}
	if owned == 0 {
		t.Errorf("no rename found in %s: the check looks at nothing", renameOwner)
	}
}
