package annotate

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReadByPlayTruthGames checks that a reading by play with no salt plays the truth set's
// own games: against the truth set's best candidate, over the 32 games a candidate measured,
// it finds the candidate's measured loss exactly; and that the default salt plays others.
func TestReadByPlayTruthGames(t *testing.T) {
	all, err := ReadTruthSet(truthSet)
	if err != nil {
		t.Fatal(err)
	}
	var rows []TruthRow
	for _, r := range all {
		if r.Size == 8 && r.Position == 59 { // turn 25, games that differ, two candidates of 32 games
			rows = append(rows, r)
		}
	}
	c := ByPlayConfig{Player: "lore-100", Games: 32, Bests: []string{TruthBest}, Workers: 2}
	rs, err := ReadByPlay(context.Background(), rows, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Salt = DefaultByPlaySalt
	salted, err := ReadByPlay(context.Background(), rows, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked, apart := 0, 0
	for i, r := range rs {
		if !reflect.DeepEqual(r.Diffs, salted[i].Diffs) {
			apart++
		}
		if r.Games != 32 {
			continue
		}
		checked++
		if math.Abs(r.Loss(32)-r.TruthRow.Loss) > 1e-12 || r.TruthRow.Loss == 0 {
			t.Errorf("candidate %s: loss by play %g, measured %g", r.Candidate, r.Loss(32), r.TruthRow.Loss)
		}
	}
	if checked < 2 || apart == 0 {
		t.Errorf("%d candidates checked, %d read otherwise with the salt: the test checks too little", checked, apart)
	}
}

// TestReadByPlay checks a small reading by play: the same readings with one worker and
// two, in the order of the rows and the bests; a candidate that is the best turn gets
// differences of 0; an engine's loss is never below 0; settings that cannot be read are
// refused.
func TestReadByPlay(t *testing.T) {
	all, err := ReadTruthSet(truthSet)
	if err != nil {
		t.Fatal(err)
	}
	var rows []TruthRow
	for _, r := range all {
		if r.Size == 8 && r.Position < 4 {
			rows = append(rows, r)
		}
	}
	same := rows[0] // the best candidate of position 0 again, as another candidate
	same.Kind = KindTop.String()
	rows = slices.Insert(rows, 1, same)
	c := ByPlayConfig{Player: "lore-8", Games: 4, Bests: []string{"lore-20", TruthBest}, Salt: DefaultByPlaySalt, Workers: 1}
	one, err := ReadByPlay(context.Background(), rows, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 2
	played := 0
	two, err := ReadByPlay(context.Background(), rows, c, func(n int) { played += n })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Error("two workers read otherwise than one")
	}
	if played == 0 {
		t.Error("no game counted")
	}
	var want []string
	for _, r := range rows {
		if r.Kind != KindBest.String() {
			want = append(want, r.Candidate+"/lore-20", r.Candidate+"/"+TruthBest)
		}
	}
	var got []string
	own := 0
	for _, r := range one {
		got = append(got, r.Candidate+"/"+r.Source)
		if r.Source == "lore-20" && r.Loss(4) < 0 {
			t.Errorf("candidate %s: loss %g below 0 against an engine's best", r.Candidate, r.Loss(4))
		}
		if r.Best == r.Candidate {
			own++
			for _, d := range r.Diffs {
				if d != 0 {
					t.Errorf("candidate %s is its best %s and differs from it: %v", r.Candidate, r.Source, r.Diffs)
					break
				}
			}
		}
	}
	if own == 0 {
		t.Error("no candidate was its best turn: the test checks nothing")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readings in the order %v, want %v", got, want)
	}
	t.Logf("%d readings, %d of a candidate that is its best turn, %d games", len(one), own, played)
	for _, bad := range []struct {
		c    ByPlayConfig
		want string
	}{
		{ByPlayConfig{Player: "lore-8", Games: 0, Bests: []string{TruthBest}}, "games 0"},
		{ByPlayConfig{Player: "lore-8", Games: 2, Bests: []string{"lore-20ms"}}, "budget must be of playouts"},
		{ByPlayConfig{Player: "nobody", Games: 2, Bests: []string{TruthBest}}, "nobody"},
	} {
		if _, err := ReadByPlay(context.Background(), rows, bad.c, nil); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: error %v, want one saying %q", bad.c, err, bad.want)
		}
	}
}
