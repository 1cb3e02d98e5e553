package annotate

import (
	"flag"
	"math"
	"os"
	"strings"
	"testing"
)

var rereadPlay = flag.Bool("truth.play", false, "TestPlayMarks: read the truth set with play-64 again (about 10 minutes of CPU) and compare with the committed readings")

// playReadings is play-64's reading of the truth set, as truthset marks --engine play-64
// --csv writes it (docs/annotate.md, "A reading by play in ponte annotate").
const playReadings = "testdata/truthset-play64.csv"

// candidateKey names a candidate of the truth set.
type candidateKey struct {
	size, position int32
	candidate      string
}

func keyOf(r TruthRow) candidateKey { return candidateKey{r.Size, r.Position, r.Candidate} }

// readPlayCSV reads the committed play-64 readings (a truthset marks --csv file of one
// engine) into readings of rows.
func readPlayCSV(t *testing.T, rows []TruthRow) []TruthReading {
	t.Helper()
	recs, err := ReadReadings(playReadings)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[candidateKey]TruthRow{}
	for _, r := range rows {
		byKey[keyOf(r)] = r
	}
	var out []TruthReading
	for _, f := range recs {
		r, ok := byKey[keyOf(f.TruthRow)]
		if !ok || f.Engine != "play-64" || math.Abs(f.Loss-r.Loss) > 1e-4 {
			t.Fatalf("%s line %d: %+v is not a play-64 reading of a candidate of the truth set", playReadings, f.Line, f)
		}
		out = append(out, TruthReading{TruthRow: r, Predicted: f.Predicted, Mark: PlayThresholds.Mark(f.Predicted)})
		if f.Mark != out[len(out)-1].Mark {
			t.Errorf("%s line %d: marked %q, PlayThresholds mark %q", playReadings, f.Line, f.Mark, out[len(out)-1].Mark)
		}
	}
	return out
}

// TestPlayMarks checks play-64's committed reading of the truth set: it reads every
// candidate but the best; PlayThresholds are what the thresholds' rule sets from its 8×8
// readings; its marks meet the bars (precision ≥ 85 %, recall ≥ 75 %, false alarms
// ≤ 5 %), and the figures are the golden file's. With -truth.play it reads the truth set
// again and must find the committed readings.
func TestPlayMarks(t *testing.T) {
	rows, err := ReadTruthSet(truthSet)
	if err != nil {
		t.Fatal(err)
	}
	rs := readPlayCSV(t, rows)
	if want := len(rows) - 200; len(rs) != want {
		t.Fatalf("%d readings, want %d", len(rs), want)
	}
	checkThresholdsOf8(t, rs, PlayThresholds)
	src, err := MeasuredMarksSource("play-64", "annotate/"+truthSet, rs, "go test ./annotate -run TestPlayMarks -update (from annotate/"+playReadings+")")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "measured_play.go", string(src), "what play-64's marks meant in the truth set (measured_play.go)")
	f := Marks(rs)
	got := strings.Join(f.Lines(), "\n") + "\n"
	checkGolden(t, strings.TrimSuffix(playReadings, ".csv")+".golden", got, "play-64's marks")
	if f.Precision.Rate() < 0.85 || f.Recall.Rate() < 0.75 || f.FalseAlarms.Rate() > 0.05 {
		t.Errorf("play-64 below the bars: precision %s, recall %s, false alarms %s", f.Precision, f.Recall, f.FalseAlarms)
	}
	if !*rereadPlay {
		return
	}
	again, err := mustEngine(t, "play-64", CalibrationOf("play-64")).ReadTruthSet(rows)
	if err != nil {
		t.Fatal(err)
	}
	committed := map[candidateKey]TruthReading{}
	for _, r := range rs {
		committed[keyOf(r.TruthRow)] = r
	}
	for _, r := range again {
		c := committed[keyOf(r.TruthRow)]
		if math.Abs(r.Predicted-c.Predicted) > 1e-4 || r.Mark != c.Mark {
			t.Errorf("%d×%d position %d, candidate %s: read %.4f %v, committed %.4f %v", r.Size, r.Size, r.Position, r.Candidate, r.Predicted, r.Mark, c.Predicted, c.Mark)
		}
	}
}

// checkGolden compares got with the golden file (-update rewrites it); what names it.
func checkGolden(t *testing.T, golden, got, what string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s:\n%s\nwant (%s):\n%s", what, got, golden, want)
	}
}

// checkThresholdsOf8 checks that the thresholds' rule sets want from the 8×8 readings of rs.
func checkThresholdsOf8(t *testing.T, rs []TruthReading, want Thresholds) {
	t.Helper()
	var small []TruthReading
	for _, r := range rs {
		if r.Size == 8 {
			small = append(small, r)
		}
	}
	th, err := FitThresholds(small)
	if err != nil {
		t.Fatal(err)
	}
	if !near(th, want) {
		t.Errorf("the 8×8 positions set the thresholds %s, the marks use %s", th, want)
	}
}
