package verdict

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/ponte/ponte/ingest"
)

// The sample league holds 17 records: 5 legal, 11 illegal, 1 unreadable (which export
// leaves out before selecting). Read twice, each game is kept once unless KeepDuplicates,
// and Only keeps one verdict.
func TestSelection(t *testing.T) {
	data, err := os.ReadFile("../sample_data/autumn-league.ponte")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sel                          Selection
		kept, duplicates, unselected int
	}{
		{Selection{}, 16, 16, 0},
		{Selection{KeepDuplicates: true}, 32, 0, 0},
		{Selection{Only: "legal"}, 5, 16, 11},
		{Selection{Only: "illegal", KeepDuplicates: true}, 22, 0, 10},
	} {
		sel, kept := tc.sel, 0
		for range 2 {
			rd := ingest.NewReader(bytes.NewReader(data), "autumn-league.ponte")
			for {
				rec, err := rd.Read()
				if err == io.EOF {
					break
				}
				if err == nil && sel.Keep(rec) {
					kept++
				}
			}
		}
		if kept != tc.kept || sel.Duplicates != tc.duplicates || sel.Unselected != tc.unselected {
			t.Errorf("only %q, keep duplicates %v: kept %d, %d duplicates, %d unselected; want %d, %d, %d", tc.sel.Only, tc.sel.KeepDuplicates, kept, sel.Duplicates, sel.Unselected,
				tc.kept, tc.duplicates, tc.unselected)
		}
	}
}
