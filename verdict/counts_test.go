package verdict

import "testing"

func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		verdicts []Verdict
		badPaths int
		want     string
	}{
		{nil, 0, "0 games: 0 legal, 0 illegal, 0 unreadable"},
		{[]Verdict{{Legal: true}}, 1, "1 game: 1 legal, 0 illegal, 0 unreadable; 1 path could not be read"},
		{[]Verdict{{Legal: true}, {}, {Unreadable: true}, {}}, 2, "4 games: 1 legal, 2 illegal, 1 unreadable; 2 paths could not be read"},
	} {
		n := Counts{BadPaths: tc.badPaths}
		for i := range tc.verdicts {
			n.Add(&tc.verdicts[i])
		}
		if got := n.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.verdicts, got, tc.want)
		}
	}
}
