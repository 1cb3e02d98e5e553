package intake

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
)

// The walk of directories is that of ingest.Open: the same files in the same order.
func TestListFilesOrder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b/z.ponte", "b/a.ponte", "a.jsonl", ".hidden/x.ponte", "README.md", "c/.x.ponte", "B.ponte"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o777)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("1. a1,b1 *\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{"../sample_data", dir} {
		files, errs, _, err := listFiles([]string{root, "../sample_data/autumn-league.ponte"})
		if err != nil || len(errs) != 0 {
			t.Fatal(err, errs)
		}
		var got, want []string
		for _, f := range files {
			got = append(got, f.path)
		}
		err = ingest.Open([]string{root, "../sample_data/autumn-league.ponte"}, func(rec *ingest.Record, err error) error {
			if rec == nil {
				return nil
			}
			source := rec.Source // a zip archive's entries are read from the archive, one file
			if i := strings.Index(source, ".zip/"); i >= 0 {
				source = source[:i+len(".zip")]
			}
			if len(want) == 0 || want[len(want)-1] != source || rec.Index == 1 && !strings.Contains(rec.Source, ".zip/") {
				want = append(want, source)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("files %v, ingest.Open reads %v", got, want)
		}
	}
}
