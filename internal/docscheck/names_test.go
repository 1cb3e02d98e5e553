package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNamedCodeExists: every repository path (`store/evals.go`, `cmd/ponte/`), Go file
// (`boardspace.go`) and exported identifier of a package (`annotate.Run`,
// `atlas.Config.Resume`) that docs/*.md name in code spans exists.
func TestNamedCodeExists(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	goFiles := map[string]bool{} // base names of the repository's Go files
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			goFiles[d.Name()] = true
		}
		return nil
	})
	idents := map[string]map[string]bool{} // package folder → its top-level names and methods
	declared := func(pkg string) map[string]bool {
		if m, ok := idents[pkg]; ok {
			return m
		}
		m := map[string]bool{}
		pkgs, _ := parser.ParseDir(token.NewFileSet(), filepath.Join(root, pkg), nil, parser.SkipObjectResolution)
		for _, p := range pkgs {
			for _, f := range p.Files {
				for _, d := range f.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						m[d.Name.Name] = true // a function, or a method
					case *ast.GenDecl:
						for _, sp := range d.Specs {
							switch sp := sp.(type) {
							case *ast.TypeSpec:
								m[sp.Name.Name] = true
								if st, ok := sp.Type.(*ast.StructType); ok {
									for _, fl := range st.Fields.List {
										for _, n := range fl.Names {
											m[n.Name] = true
										}
									}
								}
							case *ast.ValueSpec:
								for _, n := range sp.Names {
									m[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
		idents[pkg] = m
		return m
	}
	span := regexp.MustCompile("`([^`\n]+)`")
	path := regexp.MustCompile(`^[a-z][a-z0-9_]*(/[A-Za-z0-9_.-]+)+/?$`)
	ident := regexp.MustCompile(`^([a-z]+)\.([A-Z][A-Za-z0-9]*)(\.[A-Z][A-Za-z0-9]*)?$`)
	checked := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name := "docs/" + filepath.Base(doc)
		for _, m := range span.FindAllStringSubmatch(string(b), -1) {
			s := m[1]
			switch {
			case path.MatchString(s):
				top, _, _ := strings.Cut(s, "/")
				if fi, err := os.Stat(filepath.Join(root, top)); err != nil || !fi.IsDir() {
					continue // not a path of the repository: DIR/games.parquet, a URL's
				}
				checked++
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(s))); err != nil {
					t.Errorf("%s names %s, which does not exist", name, s)
				}
			case strings.HasSuffix(s, ".go") && !strings.Contains(s, "/") && !strings.ContainsAny(s, " *"):
				checked++
				if !goFiles[s] {
					t.Errorf("%s names %s, which no folder holds", name, s)
				}
			case ident.MatchString(s):
				p := ident.FindStringSubmatch(s)
				if fi, err := os.Stat(filepath.Join(root, p[1])); err != nil || !fi.IsDir() {
					continue // another package's: strings.Builder
				}
				checked++
				if d := declared(p[1]); !d[p[2]] || (p[3] != "" && !d[p[3][1:]]) {
					t.Errorf("%s names %s, which package %s does not declare", name, s, p[1])
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("%d names checked: the docs were not read", checked)
	}
	t.Logf("%d names checked", checked)
}
