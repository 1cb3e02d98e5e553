package stats_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// fixtureDB ingests testdata/fixture.ponte into a new database and opens it for reading.
// The fixture holds 14 records:
//   - 10 finished games on 5×5, played by the bots: 8 random–greedy (seed 11; the second
//     player swapped in games 5, 6 and 7, which Light won; Dark won the other five) and 2
//     greedy–random (seed 3; no swap; Light, the opener, won both);
//   - on 6×6: a game Dark resigned after the swap (Bob, the opener, won), an abandoned
//     game, an illegal one (R3 at turn 2) and one that cannot be read (Size "x").
func fixtureDB(t *testing.T) *store.Reader {
	t.Helper()
	return ingestDB(t, "testdata/fixture.ponte")
}

// ingestDB ingests archive into a new database and opens it for reading.
func ingestDB(t *testing.T, archive string) *store.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fixture.db")
	w, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := intake.Run(context.Background(), w, []string{archive}, intake.Options{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	db, err := store.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 5e-5 {
		t.Errorf("%s = %.5f, want %.5f", what, got, want)
	}
}

func rate(t *testing.T, what string, got stats.Rate, hits float64, n int) {
	t.Helper()
	if got.Hits != hits || got.N != n {
		t.Errorf("%s = %v of %d, want %v of %d", what, got.Hits, got.N, hits, n)
	}
}

// TestComputeByHand checks the report of the fixture against values worked out by hand
// from its records: their tags, swaps, openings and lengths.
func TestComputeByHand(t *testing.T) {
	r, err := stats.Compute(context.Background(), fixtureDB(t), stats.Filter{Population: stats.PopulationAll}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verification
	if v.Games != 14 || v.Legal != 12 || v.Illegal != 1 || v.Unreadable != 1 {
		t.Errorf("verification %+v, want 14 games, 12 legal, 1 illegal, 1 unreadable", v)
	}
	if len(v.IllegalGames) != 2 || v.IllegalGames[0].Rule != "R3" || v.IllegalGames[0].Turn != 2 || v.IllegalGames[1].Rule != "format" {
		t.Errorf("illegal games %+v, want R3 at turn 2, then format", v.IllegalGames)
	}
	if len(v.ByFormat) != 1 || v.ByFormat[0] != (stats.FormatCount{Format: "ponte", Files: 1, Games: 14, Legal: 12}) {
		t.Errorf("by format %+v, want one .ponte file of 14 games, 12 legal", v.ByFormat)
	}
	if len(r.Boards) != 2 || r.Boards[0].Size != 5 || r.Boards[1].Size != 6 {
		t.Fatalf("boards %d, want sizes 5 and 6", len(r.Boards))
	}

	b := r.Boards[0]
	if b.Games != 10 || b.Decided != 10 || b.Finished != 10 {
		t.Errorf("5×5: %d games, %d decided, %d finished; want 10 each", b.Games, b.Decided, b.Finished)
	}
	sw := b.Swap
	rate(t, "swapped", sw.Swapped, 3, 10)
	rate(t, "opener's score", sw.Opener, 2, 10) // only the two greedy openers won
	rate(t, "opener after a swap", sw.OpenerSwapped, 0, 3)
	rate(t, "opener without a swap", sw.OpenerKept, 2, 7)
	rate(t, "Light wins", sw.LightWins, 5, 10)
	rate(t, "Dark wins", sw.DarkWins, 5, 10)
	rate(t, "draws", sw.Draws, 0, 10)
	// The Wilson interval of 2 in 10 is [0.0567, 0.5098].
	near(t, "opener lo", sw.Opener.Lo, 0.05668)
	near(t, "opener hi", sw.Opener.Hi, 0.50980)
	// ½ is inside that interval, and so was the verdict "balanced"; ten games cannot tell.
	if sw.Verdict != stats.NotEnoughGames {
		t.Errorf("verdict %q, want %q", sw.Verdict, stats.NotEnoughGames)
	}
	if sw.BestReply.Openings != 0 {
		t.Errorf("best reply uses %d openings; none is seen %d times both ways", sw.BestReply.Openings, stats.MinBranch)
	}

	// a4,c4 (game 5) and d1,d3 (game 6) are one opening: a quarter turn maps one onto the
	// other; both canonically b1 b3, both swapped, both lost by the opener.
	if len(b.Openings) != 9 {
		t.Errorf("%d openings, want 9", len(b.Openings))
	}
	o := b.Openings[0]
	if o.A != "b1" || o.B != "b3" || o.Games != 2 {
		t.Errorf("most played opening %s %s × %d, want b1 b3 × 2", o.A, o.B, o.Games)
	}
	rate(t, "b1 b3 swapped", o.Swapped, 2, 2)
	rate(t, "b1 b3 opener", o.Opener, 0, 2)
	rate(t, "b1 b3 share", o.Share, 2, 10)

	// Heat map, counted by hand over the ten openings: e4 d5, a3 e4, d1 a3, d1 d5, a4 c4,
	// d1 d3, c5 d5, a3 e5, d1 e4, e1 b2.
	cells := map[string]int{}
	for _, c := range b.Cells {
		cells[c.Cell] = c.Games
	}
	for cell, want := range map[string]int{"d1": 4, "e4": 3, "a3": 3, "d5": 3, "c3": 0, "b2": 1, "e5": 1} {
		if cells[cell] != want {
			t.Errorf("heat map %s = %d, want %d", cell, cells[cell], want)
		}
	}
	if len(b.Cells) != 25 {
		t.Errorf("heat map of %d cells, want 25", len(b.Cells))
	}

	sc := b.Scoring
	// Scores from the Score tags: Light 1 1 0 1 3 3 3 0 3 1, Dark 3 2 1 1 1 0 0 3 0 0.
	near(t, "mean Light score", sc.MeanScore[0], 1.6)
	near(t, "mean Dark score", sc.MeanScore[1], 1.1)
	near(t, "mean margin", sc.MeanMargin, 1.9)
	// Turns: 14 10 10 12 15 13 13 12 12 12.
	near(t, "mean length", sc.MeanLength, 12.3)
	wantLength := []stats.Bin{{10, 2}, {12, 4}, {13, 2}, {14, 1}, {15, 1}}
	if len(sc.Length) != len(wantLength) {
		t.Errorf("length %v, want %v", sc.Length, wantLength)
	} else {
		for i := range wantLength {
			if sc.Length[i] != wantLength[i] {
				t.Errorf("length %v, want %v", sc.Length, wantLength)
				break
			}
		}
	}
	// Game 4 ends 1–1 on score; the nine others are decided by the score.
	if sc.TieBreaks[0].Name != "score" || sc.TieBreaks[0].Rate.Hits != 9 {
		t.Errorf("tie-breaks %+v, want score 9 of 10", sc.TieBreaks)
	}
	// After turn 1 on 5×5 both colours may place a tile on each of the 23 empty cells.
	if t1 := b.ByTurn[0]; t1.Turn != 1 || t1.Games != 10 || t1.Mobility != [2]float64{23, 23} || t1.IslandsFormed != 0 {
		t.Errorf("turn 1: %+v, want 10 games, mobility 23 each, no island", t1)
	}

	b6 := r.Boards[1]
	if b6.Games != 2 || b6.Decided != 1 || b6.Finished != 0 {
		t.Errorf("6×6: %d games, %d decided, %d finished; want 2, 1, 0", b6.Games, b6.Decided, b6.Finished)
	}
	rate(t, "6×6 swapped", b6.Swap.Swapped, 1, 1)
	rate(t, "6×6 opener", b6.Swap.Opener, 1, 1) // Bob opened, was swapped to Dark, and won
	if o := b6.Openings[0]; o.A != "a1" || o.B != "c2" {
		t.Errorf("a1,b3 folds to %s %s, want a1 c2 (its mirror in the main diagonal)", o.A, o.B)
	}
	endings := map[string]float64{}
	for _, c := range b6.Scoring.Endings {
		endings[c.Name] = c.Rate.Hits
	}
	if endings["resign"] != 1 || endings["abandoned"] != 1 || endings["normal"] != 0 {
		t.Errorf("6×6 endings %v, want one resign, one abandoned", endings)
	}
}

func TestFilter(t *testing.T) {
	db := fixtureDB(t)
	for _, tc := range []struct {
		f            stats.Filter
		games, legal int
	}{
		{stats.Filter{Size: 5}, 10, 10},
		{stats.Filter{Player: "random"}, 10, 10},
		{stats.Filter{Player: "greedy", Size: 6}, 0, 0},
		{stats.Filter{Event: "Club night"}, 4, 2},
		{stats.Filter{Site: "Circolo", From: "2025-03-05"}, 3, 1},
		{stats.Filter{From: "2025.03.01", To: "2025-03-08"}, 2, 2},
		{stats.Filter{Source: "fixture"}, 14, 12},
		{stats.Filter{Source: "other"}, 0, 0},
	} {
		r, err := stats.Compute(context.Background(), db, tc.f, stats.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verification.Games != tc.games || r.Verification.Legal != tc.legal {
			t.Errorf("%s: %d games, %d legal; want %d, %d", tc.f, r.Verification.Games, r.Verification.Legal, tc.games, tc.legal)
		}
	}
	for _, bad := range []stats.Filter{{From: "March"}, {To: "2025-3-1"}, {Size: 4}, {Population: "robots"}, {Bots: "a,,b"}, {Bots: strings.Repeat("bot,", stats.MaxBots) + "one too many"}} {
		if _, err := stats.Compute(context.Background(), db, bad, stats.Options{}); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// A draw agreed before the end (Abstract Play's "draw", Termination "agreement") is a
// decided game, a draw of half a point to each side, and an ending of its own; an
// abandoned game is neither decided nor a draw.
func TestAgreedDraw(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "agreed.ponte")
	const games = `[Size "6"]
[Result "1/2-1/2"]
[Termination "agreement"]

1. a1,b3 2. e5,e6 3. c3,d3 1/2-1/2

[Size "6"]
[Termination "abandoned"]

1. a1,b3 2. e5,e6 *
`
	if err := os.WriteFile(archive, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agreed.db")
	w, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := intake.Run(context.Background(), w, []string{archive}, intake.Options{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	db, err := store.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := stats.Compute(context.Background(), db, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := r.Boards[0]
	if b.Games != 2 || b.Decided != 1 || b.Finished != 0 {
		t.Fatalf("%d games, %d decided, %d finished; want 2, 1, 0", b.Games, b.Decided, b.Finished)
	}
	rate(t, "draws", b.Swap.Draws, 1, 1)
	rate(t, "opener", b.Swap.Opener, 0.5, 1)
	endings := map[string]float64{}
	for _, c := range b.Scoring.Endings {
		endings[c.Name] = c.Rate.Hits
	}
	if endings["agreement"] != 1 || endings["abandoned"] != 1 || endings["unfinished"] != 0 {
		t.Errorf("endings %v, want one agreement, one abandoned", endings)
	}
}

// TestPopulations classifies the games of testdata/populations.ponte, five 5×5 games:
// Ann–Cleo and Cleo–Ann at a club (people), Ann against Robo, whom the record marks as a
// bot (Abstract Play's is_ai: DarkIsAI "true"), greedy against itself in self-play (Site
// "ponte selfplay"), and Botty–Cleo at the club, a bot only when named in --bots.
func TestPopulations(t *testing.T) {
	db := ingestDB(t, "testdata/populations.ponte")
	ctx := context.Background()
	for _, tc := range []struct {
		f                   stats.Filter
		pop                 string
		people, bots, legal int // games of each population, and legal games the boards cover
	}{
		{stats.Filter{}, stats.PopulationPeople, 3, 2, 3},
		{stats.Filter{Bots: "Botty"}, stats.PopulationPeople, 2, 3, 2},
		{stats.Filter{Bots: "Botty", Population: stats.PopulationBots}, stats.PopulationBots, 2, 3, 3},
		{stats.Filter{Bots: " Botty , Cleo "}, stats.PopulationBots, 0, 5, 5},
		{stats.Filter{Population: stats.PopulationAll}, stats.PopulationAll, 3, 2, 5},
		{stats.Filter{Player: "greedy"}, stats.PopulationBots, 0, 1, 1}, // no people's games: bots by default
	} {
		r, err := stats.Compute(ctx, db, tc.f, stats.Options{})
		if err != nil {
			t.Fatal(err)
		}
		people, bots := stats.PopulationGames(r.Populations, stats.PopulationPeople), stats.PopulationGames(r.Populations, stats.PopulationBots)
		legal := 0
		for _, b := range r.Boards {
			legal += b.Games
			if b.Population != tc.pop {
				t.Errorf("%s: a board of %q, want %q", tc.f, b.Population, tc.pop)
			}
		}
		if r.Population != tc.pop || people != tc.people || bots != tc.bots || legal != tc.legal {
			t.Errorf("%s: population %q, %d people's games, %d bots', boards of %d; want %q, %d, %d, %d",
				tc.f, r.Population, people, bots, legal, tc.pop, tc.people, tc.bots, tc.legal)
		}
		// Five games at most: too few for the rating model, and the card says so.
		for _, b := range r.Boards {
			if sw := b.Swap; sw.Strength != nil || !strings.Contains(sw.StrengthError, "too few games") {
				t.Errorf("%s: a rating fit of %d games: %+v, %q", tc.f, b.Games, sw.Strength, sw.StrengthError)
			}
		}
		// One card per board and population covered: for all, people, bots and both.
		want := map[string]bool{tc.pop: tc.legal > 0}
		if tc.pop == stats.PopulationAll {
			want = map[string]bool{stats.PopulationPeople: true, stats.PopulationBots: true, stats.PopulationAll: true}
		}
		got := map[string]bool{}
		for _, c := range r.Cards {
			got[c.Population] = true
		}
		for pop, w := range want {
			if got[pop] != w {
				t.Errorf("%s: cards %+v, want one for %s: %v", tc.f, r.Cards, pop, w)
			}
		}
	}
	// The Site rule holds for games stored from JSON Lines as well; export selects a
	// population through the Reader's Records.
	n := 0
	err := db.Records(context.Background(), stats.Filter{Population: stats.PopulationBots, Bots: "Botty"}, store.AnyVerdict, func(*ingest.Record, bool) error {
		n++
		return nil
	})
	if err != nil || n != 3 {
		t.Errorf("Records selects %d bots' games (%v), want 3", n, err)
	}
}

// TestOverTimeAndDistances checks the time series and the distance bins of the people's
// games of testdata/populations.ponte, and the per-opening shrunk rates' bounds.
func TestOverTimeAndDistances(t *testing.T) {
	r, err := stats.Compute(context.Background(), ingestDB(t, "testdata/populations.ponte"), stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := r.Boards[0]
	ot := b.OverTime
	// Three people's games: March and April 2025 and one without a month: months hold fewer
	// than 30 games, so quarters.
	if ot == nil || ot.By != "quarter" || ot.Dated != 2 || ot.Undated != 1 || len(ot.Periods) != 2 ||
		ot.Periods[0].Period != "2025-Q1" || ot.Periods[1].Period != "2025-Q2" || ot.Periods[0].Games != 1 {
		t.Fatalf("over time %+v", ot)
	}
	// e4,d5: e4 is on the edge of the 5×5 board (distance 0), d5 too; apart max(1, 1) = 1.
	// d1,d5: both on the edge, 4 rows apart. a4,c4: a4 on the edge, 2 columns apart.
	edge, apart := map[int]int{}, map[int]int{}
	for _, d := range b.ByEdge {
		edge[d.Distance] = d.Games
	}
	for _, d := range b.ByApart {
		apart[d.Distance] = d.Games
	}
	if edge[0] != 3 || len(edge) != 1 || apart[1] != 1 || apart[4] != 1 || apart[2] != 1 {
		t.Errorf("by edge %v, by apart %v", edge, apart)
	}
	for _, o := range b.Openings {
		for _, s := range []stats.Shrunk{o.SwappedShrunk, o.OpenerKeptShrunk, o.OpenerSwappedShrunk} {
			if s.Lo > s.Rate || s.Rate > s.Hi || s.Lo < 0 || s.Hi > 1 || s.Hi-s.Lo < 0.2 {
				t.Errorf("opening %s %s: shrunk %+v: want a wide interval around the rate from one game", o.A, o.B, s)
			}
		}
	}
}

// TestSampleBotsRatedInKnownOrder: the sample data's bots are players of known strength
// (scripts/make-sample-data.sh): random < greedy < mcts-30 < mcts-100 < mcts-400 < sage-200. The
// rating model must give them in that order on 10×10, where they meet in a chain of
// matches; on 12×12 sage-200 above mcts-100 above greedy, and the random bot, who met only itself there,
// alone. Its 35 people's games are too few on every board: the bots' games are the main
// population, their 10×10 card first, and people's cards come apart, last.
func TestSampleBotsRatedInKnownOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests the sample data")
	}
	r, err := stats.Compute(context.Background(), ingestDB(t, "../sample_data"), stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Population != stats.PopulationBots || !r.Apart() || !strings.Contains(r.MainNote(), "The bots' games are the main population") {
		t.Errorf("population %q, apart %v: %q", r.Population, r.Apart(), r.MainNote())
	}
	if c := r.Cards[0]; c.Size != 10 || c.Population != stats.PopulationBots || c.N != 2170 || c.Estimate != stats.EstimateAdjusted {
		t.Errorf("first card %+v, want the bots' 10×10 board, 2170 games, strength-adjusted", c)
	}
	for i, c := range r.Cards {
		if people := c.Population == stats.PopulationPeople; people != (i >= 2) || people != c.Few {
			t.Errorf("card %d: %d×%d %s, %d games, few %v: want the bots' two boards first, people's last", i, c.Size, c.Size, c.Population, c.N, c.Few)
		}
	}
	want := map[int][]string{10: {"sage-200", "mcts-400", "mcts-100", "mcts-30", "greedy", "random"}, 12: {"sage-200", "mcts-100", "greedy", "random"}}
	for _, b := range r.Boards {
		st := b.Swap.Strength
		if st == nil {
			t.Fatalf("%d×%d: no rating fit: %s", b.Size, b.Size, b.Swap.StrengthError)
		}
		var got []string
		for _, p := range st.Ratings {
			got = append(got, p.Player)
		}
		if !slices.Equal(got, want[b.Size]) {
			t.Errorf("%d×%d: ratings in the order %v, want the bots' known order %v", b.Size, b.Size, got, want[b.Size])
		}
		for _, p := range st.Ratings {
			if alone := b.Size == 12 && p.Player == "random"; p.Alone != alone || (p.Group > 0) != alone {
				t.Errorf("%d×%d: %+v", b.Size, b.Size, p)
			}
		}
	}
	// The strongest and the weakest are told apart by their intervals.
	ten := r.Boards[0].Swap.Strength.Ratings
	if ten[0].Lo <= ten[1].Hi || ten[1].Lo <= ten[4].Hi || ten[4].Lo <= ten[5].Hi {
		t.Errorf("10×10 ratings %+v: sage-200 above mcts-400 above greedy above random, with intervals apart", ten)
	}
}
