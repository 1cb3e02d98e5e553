package docscheck

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStoreOnlyStores holds the stages apart (docs/internals.md, "The ingest pipeline"):
// store, which receives games and only stores and reads them, depends on none of the run
// that replays and judges them (intake, verdict, pipeline), directly or not, as
// `go list -deps ./store` would list them.
func TestStoreOnlyStores(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	deps := map[string]bool{}
	var walk func(rel string)
	walk = func(rel string) {
		if deps[rel] {
			return
		}
		deps[rel] = true
		pkg, err := build.ImportDir(filepath.Join(root, rel), 0)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, imp := range pkg.Imports {
			if name, ok := strings.CutPrefix(imp, module); ok {
				walk(name)
			}
		}
	}
	walk("store")
	if len(deps) < 4 {
		t.Fatalf("store depends on %d packages of ponte: the imports were not read", len(deps))
	}
	for _, stage := range []string{"intake", "verdict", "pipeline"} {
		if deps[stage] {
			t.Errorf("store depends on %s: the run that replays and judges games belongs in intake", stage)
		}
	}
	var names []string
	for name := range deps {
		names = append(names, name)
	}
	slices.Sort(names)
	t.Logf("store depends on %s", strings.Join(names, ", "))
}
