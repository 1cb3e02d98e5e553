package docscheck

import (
	"go/build"
	"io/fs"
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

// TestStoreImportsNoReplay: store and the packages under it (store/parquet) import none of
// replay, verdict, pipeline or intake (issue 30: "store imports neither replay nor verdict
// nor pipeline"). The values they share with the rules engine (a result, a supply, a
// cell) are package game's; the replay an upgrade from schema version 1 to 3 needs is
// handed to store.OpenWith (intake.ReplayStored). Packages store imports may import
// replay (internal/turntext packs its turns): the rules stay out of store's own code.
func TestStoreImportsNoReplay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(filepath.Join(root, "store"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files
		}
		rel, _ := filepath.Rel(root, path)
		checked++
		for _, imp := range pkg.Imports {
			name, _ := strings.CutPrefix(imp, module)
			if slices.Contains([]string{"replay", "verdict", "pipeline", "intake"}, name) {
				t.Errorf("%s imports %s: store keeps what it is handed, in game's values", filepath.ToSlash(rel), name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 2 {
		t.Errorf("%d packages checked under store: the imports were not read", checked)
	}
}
