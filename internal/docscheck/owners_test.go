package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 30, item 4: one owner for each shared value. These tests find a second owner of
// a value in the code itself (its syntax, with go/parser), naming the file and line.

// eachGoFile calls fn with each Go file of the repository but testdata, parsed, with its
// path from the root; test files too when tests is true.
func eachGoFile(t *testing.T, tests bool, fn func(rel string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || !tests && strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		fn(rel, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("%d Go files read: the walk looked at nothing", files)
	}
}

// inPackage reports whether the file rel is in the folder dir (not in one below it).
func inPackage(rel, dir string) bool { return filepath.ToSlash(filepath.Dir(rel)) == dir }

// isSelector reports whether n is pkg.name, name one of names ("" for any).
func isSelector(n ast.Node, pkg string, names ...string) (string, bool) {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || x.Name != pkg {
		return "", false
	}
	for _, name := range names {
		if name == "" || sel.Sel.Name == name {
			return sel.Sel.Name, true
		}
	}
	return "", false
}

// No package outside store names a sql.Null type, its tests included: the rows it reads
// are plain Go values (store/owner_test.go keeps database/sql itself out of their code;
// tests outside store may import it to edit a database into a hostile one, and name no
// sql.Null type to do so).
func TestNoSQLNullOutsideStore(t *testing.T) {
	eachGoFile(t, true, func(rel string, f *ast.File, fset *token.FileSet) {
		if strings.HasPrefix(rel, "store/") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if name, ok := isSelector(n, "sql", ""); ok && strings.HasPrefix(name, "Null") {
				t.Errorf("%s: sql.%s outside store: read the row through a store.Reader method, as plain Go values", fset.Position(n.Pos()), name)
			}
			return true
		})
	})
}

// The Wilson interval and the Elo conversion are written once, in internal/score: no
// other code squares a critical value z under a square root (Wilson's interval), or
// writes Elo's 400 with a logarithm or a power of ten (the Elo conversion, or its scale
// on logits, score.EloPerLogit).
func TestOneWilsonOneElo(t *testing.T) {
	const owner = "internal/score"
	ownWilson, ownElo := 0, 0
	eachGoFile(t, false, func(rel string, f *ast.File, fset *token.FileSet) {
		for _, decl := range f.Decls {
			var sqrt, zz, four00, log bool
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					x, xok := n.X.(*ast.Ident)
					y, yok := n.Y.(*ast.Ident)
					zz = zz || n.Op == token.MUL && xok && yok && x.Name == "z" && y.Name == "z"
				case *ast.BasicLit:
					v, err := strconv.ParseFloat(n.Value, 64)
					four00 = four00 || err == nil && v == 400
				}
				if _, ok := isSelector(n, "math", "Sqrt"); ok {
					sqrt = true
				}
				if _, ok := isSelector(n, "math", "Log10", "Pow", "Ln10", "Exp10"); ok {
					log = true
				}
				return true
			})
			if inPackage(rel, owner) {
				if sqrt && zz {
					ownWilson++
				}
				if four00 && log {
					ownElo++
				}
				continue
			}
			if sqrt && zz {
				t.Errorf("%s: a Wilson interval written outside %s: call score.Wilson", fset.Position(decl.Pos()), owner)
			}
			if four00 && log {
				t.Errorf("%s: an Elo conversion written outside %s: call score.Elo, score.OfElo or score.EloPerLogit", fset.Position(decl.Pos()), owner)
			}
		}
	})
	if ownWilson == 0 || ownElo == 0 {
		t.Errorf("%s: %d Wilson intervals and %d Elo conversions found: the check sees neither", owner, ownWilson, ownElo)
	}
}

// claimRuleSQL is SQL that decides a game's result by its termination and claim: the
// final-result rule written a second time (store's calibration points had one).
var claimRuleSQL = regexp.MustCompile(`(?is)termination\s+(IN|=|<>|!=)\s*\(?\s*'(resign|time|agreement|abandoned|normal)'.*claimed_result|claimed_result.*termination\s+(IN|=|<>|!=)\s*\(?\s*'(resign|time|agreement|abandoned|normal)'`)

// The final result of a game is one rule, game.Final: no code outside game asks which
// terminations carry their claim (Termination.ClaimsResult), and no SQL decides a result
// from the termination and the claim.
func TestOneFinalResultRule(t *testing.T) {
	eachGoFile(t, false, func(rel string, f *ast.File, fset *token.FileSet) {
		if inPackage(rel, "game") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "ClaimsResult" {
					t.Errorf("%s: ClaimsResult outside game: the final result is game.Final's", fset.Position(n.Pos()))
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && claimRuleSQL.MatchString(n.Value) {
					t.Errorf("%s: SQL that decides a result by the termination and the claim: read the columns and call game.Final", fset.Position(n.Pos()))
				}
			}
			return true
		})
	})
}

// The names of a game that package game owns (cells, sizes, supplies, results) are read
// through game outside replay, its tests included: replay keeps aliases of them for its
// own code only.
func TestGameNamesThroughGame(t *testing.T) {
	aliases := []string{"MinSize", "MaxSize", "Cell", "NoCell", "CellAt", "Supply", "Unlimited", "Supply40x15", "ParseSupply",
		"Result", "NoResult", "LightWins", "DarkWins", "Draw", "ParseResult"}
	eachGoFile(t, true, func(rel string, f *ast.File, fset *token.FileSet) {
		if strings.HasPrefix(rel, "replay/") && !strings.HasSuffix(f.Name.Name, "_test") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if name, ok := isSelector(n, "replay", aliases...); ok {
				t.Errorf("%s: replay.%s: package game owns it, say game.%s", fset.Position(n.Pos()), name, name)
			}
			return true
		})
	})
}
