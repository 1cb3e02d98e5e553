package annotate

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadings writes readings and reads them back, and checks that a damaged file is
// refused with its name, line and column.
func TestReadings(t *testing.T) {
	rows := []Reading{
		{Engine: "lore-200", TruthReading: TruthReading{TruthRow: TruthRow{Size: 8, Position: 3, Kind: "top", Candidate: "a1,b2", Loss: 0.125, LossSE: 0.0312}, Predicted: 0.3, Mark: Mistake}},
		{Engine: "play-64", TruthReading: TruthReading{TruthRow: TruthRow{Size: 10, Position: 0, Kind: "random", Candidate: "c3-d4", Loss: -0.05, LossSE: 0.04}, Predicted: 0, Mark: Good}},
	}
	var b bytes.Buffer
	if err := WriteReadings(&b, rows); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "r.csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReadings(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Line = i + 2
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("read back:\n%+v\nwant\n%+v", back, rows)
	}
	for _, c := range []struct{ text, want string }{
		{"", "bad.csv: empty"},
		{"engine,loss,predicted\nx,0.1,0.2\n", `bad.csv: no column "loss_se"`},
		{"loss,loss_se,predicted\n0.1,0.02,0.3\n0.1,x,0.3\n", "bad.csv:3: loss_se:"},
		{"loss,loss_se,predicted,size\n0.1,0.02,0.3,big\n", "bad.csv:2: size:"},
		{"loss,loss_se,predicted,mark\n0.1,0.02,0.3,awful\n", `bad.csv:2: mark: "awful"`},
	} {
		p := filepath.Join(dir, "bad.csv")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadReadings(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
}
