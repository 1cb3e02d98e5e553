package annotate

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

var truthBars = flag.Bool("truth.bars", false, "TestTruthSetMarks: fail when the marks are below the issue's bars (precision ≥ 85 %, recall ≥ 75 %, false alarms ≤ 5 %)")

// tinyTruth is a truth set's making small enough for a test: 6×6, weak quick bots.
func tinyTruth() TruthConfig {
	c := DefaultTruthConfig(6)
	c.Player, c.Searcher, c.Batch, c.MaxGames, c.SE, c.ToTurn = "lore-8", "lore-60", 4, 8, 0.01, 12
	return c
}

// TestTruthSetShards measures four positions in one run and in two shards, and checks that
// the shards merged are the one run's file byte for byte, that merging again (or a shard
// with the merged set) adds nothing, and that each position's rows are what the truth set
// promises: the best first with loss 0, game counts from the batch to the cap, every
// candidate a legal turn of its position.
func TestTruthSetShards(t *testing.T) {
	c := tinyTruth()
	ctx := context.Background()
	measure := func(ids ...int) []TruthRow {
		var all []TruthRow
		for _, id := range ids {
			rows, err := c.MeasurePosition(ctx, id, nil)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, rows...)
		}
		return all
	}
	one := measure(0, 1, 2, 3)
	s1, s2 := measure(0, 2), measure(3, 1)
	dir := t.TempDir()
	write := func(name string, rows []TruthRow) []byte {
		p := filepath.Join(dir, name)
		if err := WriteTruthSet(ctx, p, rows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTruthSet(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != len(rows) {
			t.Fatalf("%s: %d rows read back, %d written", name, len(back), len(rows))
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	whole, err := MergeTruthSets(one)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := MergeTruthSets(s2, s1)
	if err != nil {
		t.Fatal(err)
	}
	again, err := MergeTruthSets(merged, s1, merged)
	if err != nil {
		t.Fatal(err)
	}
	want := write("one.parquet", whole)
	for name, rows := range map[string][]TruthRow{"merged.parquet": merged, "again.parquet": again} {
		if got := write(name, rows); !bytes.Equal(got, want) {
			t.Errorf("%s: not the one run's file byte for byte", name)
		}
	}
	for _, r := range whole {
		pos, err := replay.NewGame(int(r.Size), game.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range strings.Fields(r.Moves) {
			if err := pos.PlayText(m); err != nil {
				t.Fatalf("position %d: %s: %v", r.Position, m, err)
			}
		}
		if _, err := pos.ReadTurn(int(r.Turn), r.Candidate); err != nil || pos.Turn()+1 != int(r.Turn) {
			t.Errorf("position %d: candidate %s of turn %d after %d turns: %v", r.Position, r.Candidate, r.Turn, pos.Turn(), err)
		}
		if r.Turn < int32(c.FromTurn) || r.Turn > int32(c.ToTurn) {
			t.Errorf("position %d: turn %d outside %d–%d", r.Position, r.Turn, c.FromTurn, c.ToTurn)
		}
		if r.Games < int32(c.Batch) || r.Games > int32(c.MaxGames) || r.Games%int32(c.Batch) != 0 {
			t.Errorf("position %d, %s: %d games, want a multiple of %d up to %d", r.Position, r.Candidate, r.Games, c.Batch, c.MaxGames)
		}
		if r.Kind == "best" && (r.Loss != 0 || r.Rank != 1) {
			t.Errorf("position %d: best %s with loss %g, rank %d", r.Position, r.Candidate, r.Loss, r.Rank)
		}
	}
	if len(whole) < 12 {
		t.Errorf("%d candidates for 4 positions", len(whole))
	}
}

// TestMergeTruthSetsRefuses checks that a candidate measured differently in two sets, and
// a file that is not a truth set, are refused with messages that name them.
func TestMergeTruthSetsRefuses(t *testing.T) {
	r := TruthRow{Position: 3, Size: 8, Turn: 5, Candidate: "d4,e5", Kind: "best", Rank: 1, Games: 32, Mean: 0.5}
	other := r
	other.Mean = 0.6
	if _, err := MergeTruthSets([]TruthRow{r}, []TruthRow{other}); err == nil || !strings.Contains(err.Error(), "8×8 position 3, candidate d4,e5: measured twice differently") {
		t.Errorf("conflicting rows: %v", err)
	}
	top := r
	top.Kind, top.Candidate, top.Moves = "top", "a1,a2", "c3,d3"
	if _, err := MergeTruthSets([]TruthRow{r, top}); err == nil || !strings.Contains(err.Error(), "disagree on the position") {
		t.Errorf("rows of two positions under one number: %v", err)
	}
	_, err := ReadTruthSet("sample/turn_evals.parquet")
	var te *TruthSetError
	if !errors.As(err, &te) || !errors.Is(err, ErrTruthSet) || !strings.Contains(err.Error(), "sample/turn_evals.parquet: its columns are not a truth set's") {
		t.Errorf("a file of readings read as a truth set: %v", err)
	}
}

// TestReadCandidateAsAnalyse checks that a candidate read alone gets the loss and mark that
// Analyse gives the same turn played in the game of the same id.
func TestReadCandidateAsAnalyse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sides := [2]bot.Bot{bot.NewSage(bot.Options{Playouts: 20}), bot.NewSage(bot.Options{Playouts: 20})}
	played, err := bot.Play(sides[0], sides[1], 6, game.Unlimited, rng)
	if err != nil {
		t.Fatal(err)
	}
	g := Game{GameID: TruthGameID(6, 7), Size: 6}
	for _, m := range played.Moves {
		g.Moves = append(g.Moves, m.String())
	}
	for _, name := range []string{"sage-40", "lore-40"} {
		e := mustEngine(t, name, CalibrationOf(name))
		turns, err := e.Analyse(g, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 4, len(g.Moves) / 2, len(g.Moves) - 1} {
			got, err := e.ReadCandidate(g.GameID, g.Size, g.Moves[:k], g.Moves[k])
			if err != nil {
				t.Fatal(err)
			}
			w := turns[k]
			if got.Loss != w.Loss || got.Mark != w.Mark || got.Best != w.Best || got.BestQ != w.BestQ || got.PlayedQ != w.PlayedQ || got.PlayedN != w.PlayedN || got.Before != w.Before {
				t.Errorf("%s: turn %d %s read alone: loss %g %v best %s; in the game: loss %g %v best %s", name, k+1, g.Moves[k], got.Loss, got.Mark, got.Best, w.Loss, w.Mark, w.Best)
			}
		}
	}
}

// TestMarks checks the figures on readings made up so that each is known.
func TestMarks(t *testing.T) {
	th := Thresholds{Inaccuracy: 0.15, Mistake: 0.30, Blunder: 0.45} // the marks' measures do not depend on the defaults
	row := func(measured, predicted float64) TruthReading {
		return TruthReading{TruthRow: TruthRow{Loss: measured}, Predicted: predicted, Mark: th.Mark(predicted)}
	}
	for _, tc := range []struct {
		name                    string
		rs                      []TruthReading
		prec, rec, fa           [2]int // k, n
		mae                     float64
		byMarkGood, byMarkMistk int
	}{
		{"agree", []TruthReading{row(0, 0), row(0.02, 0), row(0.5, 0.5), row(0.35, 0.31), row(0.12, 0.16)},
			[2]int{2, 2}, [2]int{2, 2}, [2]int{0, 2}, (0 + 0.02 + 0 + 0.04 + 0.04) / 5, 2, 1},
		{"false alarms and misses", []TruthReading{row(0.01, 0.50), row(-0.04, 0.20), row(0.30, 0), row(0.26, 0.16), row(0.11, 0.32)},
			[2]int{1, 2}, [2]int{0, 2}, [2]int{2, 2}, (0.49 + 0.24 + 0.30 + 0.10 + 0.21) / 5, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Marks(tc.rs)
			for _, c := range []struct {
				name string
				got  Share
				want [2]int
			}{{"precision", f.Precision, tc.prec}, {"recall", f.Recall, tc.rec}, {"false alarms", f.FalseAlarms, tc.fa}} {
				if c.got.K != c.want[0] || c.got.N != c.want[1] || !(c.got.Lo <= c.got.Rate() && c.got.Rate() <= c.got.Hi) {
					t.Errorf("%s: %s, want %d of %d", c.name, c.got, c.want[0], c.want[1])
				}
			}
			if math.Abs(f.MAE.Value-tc.mae) > 1e-12 || f.MAE.N != len(tc.rs) {
				t.Errorf("MAE %g of %d, want %g", f.MAE.Value, f.MAE.N, tc.mae)
			}
			if f.ByMark[Good].N != tc.byMarkGood || f.ByMark[Mistake].N != tc.byMarkMistk {
				t.Errorf("by mark %+v", f.ByMark)
			}
		})
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// truthSet is the committed truth set (docs/annotate.md, "Truth set").
const truthSet = "testdata/truthset.parquet"

// TestTruthSetMarks reads the committed truth set with the default engine and measures its
// marks against the measured losses (docs/annotate.md quotes the lines: the golden file,
// -update rewrites it, and annotate/measured_marks.go with them). It checks that every
// measured loss has the standard error the truth set promises (or its candidate reached
// the cap); that the marks' thresholds are those FitThresholds sets from the 8×8
// positions' readings; that Measured is what the marks meant; and with -truth.bars the
// issue's bars: precision ≥ 85 %, recall ≥ 75 %, false alarms ≤ 5 %.
func TestTruthSetMarks(t *testing.T) {
	rows, err := ReadTruthSet(truthSet)
	if err != nil {
		t.Fatal(err)
	}
	positions := map[[2]int32]bool{}
	for _, r := range rows {
		positions[[2]int32{r.Size, r.Position}] = true
		if r.Kind != KindBest.String() && r.LossSE > 0.05 && r.Games < 480 {
			t.Errorf("%d×%d position %d, %s: loss %.3f ± %.3f after %d games: want ± 0.05 or the cap", r.Size, r.Size, r.Position, r.Candidate, r.Loss, r.LossSE, r.Games)
		}
	}
	if len(positions) < 150 || len(rows) < 450 {
		t.Errorf("%d positions, %d candidates: the truth set should hold at least 150 and 450", len(positions), len(rows))
	}
	rs, err := mustEngine(t, DefaultEngine, CalibrationOf(DefaultEngine)).ReadTruthSet(rows)
	if err != nil {
		t.Fatal(err)
	}
	checkThresholdsOf8(t, rs, DefaultThresholds)
	src, err := MeasuredMarksSource(DefaultEngine, "annotate/"+truthSet, rs, "go run ./annotate/truthset marks --engine "+DefaultEngine+" --write annotate/measured_marks.go annotate/"+truthSet)
	if err != nil {
		t.Fatal(err)
	}
	f := Marks(rs)
	got := strings.Join(f.Lines(), "\n") + "\n"
	if *update {
		if err := os.WriteFile("measured_marks.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if have, err := os.ReadFile("measured_marks.go"); err != nil || !bytes.Equal(have, src) {
		t.Errorf("measured_marks.go is not what the marks meant in %s (-update rewrites it): %v\n%s", truthSet, err, src)
	}
	checkGolden(t, strings.TrimSuffix(truthSet, ".parquet")+".golden", got,
		fmt.Sprintf("the marks against %s (%d positions, %d candidates read)", truthSet, len(positions), len(rs)))
	if !*truthBars {
		t.Logf("%d positions, %d candidates read:\n%s(-truth.bars checks the issue's bars)", len(positions), len(rs), got)
		return
	}
	if f.Precision.N == 0 || f.Precision.Rate() < 0.85 {
		t.Errorf("precision %s: want at least 85%%", f.Precision)
	}
	if f.Recall.N == 0 || f.Recall.Rate() < 0.75 {
		t.Errorf("recall %s: want at least 75%%", f.Recall)
	}
	if f.FalseAlarms.N == 0 || f.FalseAlarms.Rate() > 0.05 {
		t.Errorf("false alarms %s: want at most 5%%", f.FalseAlarms)
	}
}

// TestReadTruthSetValues checks the reading against the truth set's best candidate on the
// first ten positions of the committed truth set: BestTurn is the turn ReadCandidate's search
// finds, each loss is the engine's value after the best candidate less its value after the
// candidate, both read alone, and an engine that values a turn together with its own best (sage, play)
// is refused.
func TestReadTruthSetValues(t *testing.T) {
	all, err := ReadTruthSet(truthSet)
	if err != nil {
		t.Fatal(err)
	}
	var rows []TruthRow
	for _, r := range all {
		if r.Position < 10 && r.Size == 8 {
			rows = append(rows, r)
		}
	}
	e := mustEngine(t, "lore-30", CalibrationOf("lore-30"))
	rs, err := e.ReadTruthSetValues(rows)
	if err != nil {
		t.Fatal(err)
	}
	moverAfter := func(r TruthRow) float64 {
		tr, err := e.ReadCandidate(TruthGameID(r.Size, r.Position), int(r.Size), r.Turns(), r.Candidate)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Colour == replay.Light {
			return tr.RawAfter
		}
		return 1 - tr.RawAfter
	}
	best := map[int32]TruthRow{}
	for _, r := range rows {
		if r.Kind == KindBest.String() {
			best[r.Position] = r
			got, err := e.BestTurn(TruthGameID(r.Size, r.Position), int(r.Size), r.Turns())
			if err != nil {
				t.Fatal(err)
			}
			tr, err := e.ReadCandidate(TruthGameID(r.Size, r.Position), int(r.Size), r.Turns(), r.Candidate)
			if err != nil {
				t.Fatal(err)
			}
			if got != tr.Best {
				t.Errorf("position %d: BestTurn %q, ReadCandidate's best %q", r.Position, got, tr.Best)
			}
		}
	}
	if len(rs) != len(rows)-len(best) {
		t.Fatalf("%d readings of %d candidates in %d positions", len(rs), len(rows), len(best))
	}
	negative := 0
	for _, r := range rs {
		want := moverAfter(best[r.Position]) - moverAfter(r.TruthRow)
		if math.Abs(r.Predicted-want) > 1e-12 || r.Mark != MarkOf(r.Predicted) {
			t.Errorf("position %d, candidate %s: loss %g %v, want %g", r.Position, r.Candidate, r.Predicted, r.Mark, want)
		}
		if r.Predicted < 0 {
			negative++
		}
	}
	t.Logf("%d readings, %d of them valued better than the best candidate", len(rs), negative)
	if _, err := mustEngine(t, "sage-20", CalibrationOf("sage-20")).ReadTruthSetValues(rows); err == nil || !strings.Contains(err.Error(), "sage-20") {
		t.Errorf("sage: error %v, want one naming it", err)
	}
}
