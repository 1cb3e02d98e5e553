package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// plantedArchive simulates an archive from a known model: players with planted ratings
// (Elo, normal with standard deviation 200), games between random pairs, a second player
// who swaps more often the stronger they are than the opener (a realistic decision, and one
// that ties the branch to strength, which the model must see through), and results drawn
// from the Bradley–Terry model with the planted advantages of each branch.
func plantedArchive(rng *rand.Rand, players, games int, advantage [2]float64) (ratings []float64, out []RatedGame) {
	ratings = make([]float64, players)
	for i := range ratings {
		ratings[i] = rng.NormFloat64() * 200
	}
	for range games {
		o := rng.IntN(players)
		r := rng.IntN(players - 1)
		if r >= o {
			r++
		}
		swapped := rng.Float64() < sigmoid((ratings[r]-ratings[o])/EloPerLogit+0.7)
		b := Kept
		if swapped {
			b = Swapped
		}
		p := sigmoid((ratings[o] - ratings[r] + advantage[b]) / EloPerLogit)
		score := 0.0
		if rng.Float64() < p {
			score = 1
		}
		out = append(out, RatedGame{Opener: o, Responder: r, Swapped: swapped, Score: score})
	}
	return ratings, out
}

// TestRatingsRecoverPlanted checks the fit against simulated truth: over 200 seeded
// archives the fitted advantages are unbiased and their 95% intervals cover the planted
// values in 90–98% of the archives, in both branches.
func TestRatingsRecoverPlanted(t *testing.T) {
	archives := 200
	if testing.Short() {
		archives = 40
	}
	planted := [2]float64{60, -25} // Elo: kept, swapped
	var covered, sum [2]float64
	for seed := range archives {
		rng := rand.New(rand.NewPCG(uint64(seed), 12))
		_, games := plantedArchive(rng, 40, 1500, planted)
		fit, err := FitRatings(40, games, 0)
		if err != nil {
			t.Fatal(err)
		}
		for b := range 2 {
			a := fit.Advantage[b]
			sum[b] += a.Elo
			if a.EloLo <= planted[b] && planted[b] <= a.EloHi {
				covered[b]++
			}
			if a.ScoreLo > a.Score || a.Score > a.ScoreHi || math.Abs(a.Score-sigmoid(a.Elo/EloPerLogit)) > 1e-12 {
				t.Fatalf("score %v not inside [%v, %v] or not the Elo's", a.Score, a.ScoreLo, a.ScoreHi)
			}
		}
	}
	for b, name := range []string{"kept", "swapped"} {
		rate := covered[b] / float64(archives)
		mean := sum[b] / float64(archives)
		t.Logf("%s: planted %+.0f Elo, mean fit %+.1f, 95%% intervals cover %.1f%% of %d archives", name, planted[b], mean, 100*rate, archives)
		if !testing.Short() && (rate < 0.90 || rate > 0.98) {
			t.Errorf("%s: coverage %.3f, want 0.90–0.98", name, rate)
		}
		if math.Abs(mean-planted[b]) > 10 {
			t.Errorf("%s: mean fit %.1f Elo, planted %.0f", name, mean, planted[b])
		}
	}
}

// TestRatingsOrder checks that the fitted ratings put players in their planted order when
// the archive is large, and that the ratings' standard errors are sane.
func TestRatingsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	planted := []float64{-300, -100, 0, 150, 400} // random, greedy, … mcts: an order to recover
	var games []RatedGame
	for range 4000 {
		o, r := rng.IntN(5), rng.IntN(4)
		if r >= o {
			r++
		}
		p := sigmoid((planted[o] - planted[r] + 40) / EloPerLogit)
		s := 0.0
		if rng.Float64() < p {
			s = 1
		}
		games = append(games, RatedGame{Opener: o, Responder: r, Score: s})
	}
	fit, err := FitRatings(5, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	order := []int{0, 1, 2, 3, 4}
	sort.Slice(order, func(i, j int) bool { return fit.Rating[order[i]] < fit.Rating[order[j]] })
	for i, p := range order {
		if p != i {
			t.Fatalf("ratings %v: order %v, want the planted order", fit.Rating, order)
		}
	}
	for i, se := range fit.RatingSE {
		if se < 5 || se > 60 {
			t.Errorf("player %d: standard error %.1f Elo", i, se)
		}
	}
	if fit.Advantage[Swapped].Games != 0 || fit.Advantage[Kept].Games != 4000 {
		t.Errorf("branches %+v", fit.Advantage)
	}
}

// A chain of 400 players, each meeting only its neighbours (an ill-conditioned graph, as a
// ladder of clubs makes), with self-play games besides: Newton's method with conjugate
// gradients finds what the dense Newton finds.
func TestRatingsSparseChain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const players = 400
	var games []RatedGame
	for i := range 8000 {
		o := rng.IntN(players - 1)
		r := o + 1
		if i%2 == 0 {
			o, r = r, o
		}
		if i%10 == 0 {
			r = o // a bot against itself
		}
		p := sigmoid((float64(o-r)*15 + 40) / EloPerLogit)
		s := 0.0
		if rng.Float64() < p {
			s = 1
		}
		games = append(games, RatedGame{Opener: o, Responder: r, Swapped: i%3 == 0, Score: s})
	}
	dense, err := FitRatings(players, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { maxDense = n }(maxDense)
	maxDense = 10
	sparse, err := FitRatings(players, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	for b := range 2 {
		if d, s := dense.Advantage[b], sparse.Advantage[b]; math.Abs(d.Elo-s.Elo) > 1e-3 || math.Abs(d.EloHi-s.EloHi) > 0.05 {
			t.Errorf("branch %d: dense %+v, sparse %+v", b, d, s)
		}
	}
	for i := range players {
		if math.Abs(dense.Rating[i]-sparse.Rating[i]) > 1e-2 {
			t.Fatalf("player %d: dense %.4f, sparse %.4f", i, dense.Rating[i], sparse.Rating[i])
		}
	}
}

// TestRatingsSparse checks the conjugate-gradient path of many players against the dense
// one on the same archive.
func TestRatingsSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	_, games := plantedArchive(rng, 300, 3000, [2]float64{50, 0})
	dense, err := FitRatings(300, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { maxDense = n }(maxDense)
	maxDense = 10
	sparse, err := FitRatings(300, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	for b := range 2 {
		d, s := dense.Advantage[b], sparse.Advantage[b]
		if math.Abs(d.Elo-s.Elo) > 1e-3 || math.Abs(d.EloHi-s.EloHi) > 1e-2 {
			t.Errorf("branch %d: dense %+v, sparse %+v", b, d, s)
		}
	}
}

// Degenerate archives: one game, a player who never lost, draws only.
func TestRatingsDegenerate(t *testing.T) {
	for name, games := range map[string][]RatedGame{
		"one game":   {{Opener: 0, Responder: 1, Score: 1}},
		"never lost": {{Opener: 0, Responder: 1, Score: 1}, {Opener: 1, Responder: 0, Score: 0, Swapped: true}, {Opener: 0, Responder: 1, Score: 1}},
		"draws":      {{Opener: 0, Responder: 1, Score: 0.5}, {Opener: 1, Responder: 0, Score: 0.5}},
	} {
		fit, err := FitRatings(2, games, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range fit.Rating {
			if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 2000 {
				t.Errorf("%s: ratings %v", name, fit.Rating)
			}
		}
	}
	if _, err := FitRatings(2, nil, 0); err == nil {
		t.Error("no games: no error")
	}
	if _, err := FitRatings(2, []RatedGame{{Opener: 0, Responder: 2, Score: 1}}, 0); err == nil {
		t.Error("a player out of range: no error")
	}
}

// A bot against itself (self-play): the ratings cancel, and the games inform the advantage
// of their branch alone, as a raw score would: 30 wins in 40 kept games give α = logit ¾
// (within the weak prior's pull), whatever the other games say of the players.
func TestRatingsSelfPlay(t *testing.T) {
	var games []RatedGame
	for i := range 40 {
		games = append(games, RatedGame{Opener: 0, Responder: 0, Score: float64(min(1, i%4))})
	}
	for i := range 20 { // player 1 beats player 0 in the swapped branch, whoever opens
		games = append(games, RatedGame{Opener: 1 - i%2, Responder: i % 2, Swapped: true, Score: float64(1 - i%2)})
	}
	fit, err := FitRatings(2, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	kept := fit.Advantage[Kept]
	if math.Abs(kept.Score-0.75) > 0.01 || kept.Games != 40 || kept.ScoreLo > 0.62 || kept.ScoreHi < 0.85 {
		t.Errorf("kept branch %+v, want 75%% of 40 games with a binomial's interval", kept)
	}
	if fit.PlayerGames[0] != 60 || fit.PlayerGames[1] != 20 || fit.Rating[1] < fit.Rating[0]+200 {
		t.Errorf("games %v, ratings %v: want 60 and 20 games, player 1 far stronger", fit.PlayerGames, fit.Rating)
	}
}

// BenchmarkFitRatings100k fits 100,000 games: of one bot against itself (self-play), and
// of 50 and of 1,000 players (the dense and the conjugate-gradient paths).
func BenchmarkFitRatings100k(b *testing.B) {
	for _, players := range []int{1, 50, 1000} {
		b.Run(fmt.Sprint(players), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			var games []RatedGame
			if players == 1 {
				for range 100_000 {
					games = append(games, RatedGame{Swapped: rng.IntN(5) == 0, Score: float64(rng.IntN(2))})
				}
			} else {
				_, games = plantedArchive(rng, players, 100_000, [2]float64{30, -10})
			}
			for b.Loop() {
				if _, err := FitRatings(players, games, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestOverallCoverage checks the interval of the strength-adjusted overall score against
// simulated truth: players of planted ratings, a second player who swaps with a planted
// probability, results from the planted advantages of each branch. Over 200 seeded archives
// the interval of (1−w)·σ(α_kept) + w·σ(α_swapped), w the planted swap rate, covers the
// truth in 90–98% of them: the delta method with the advantages' covariance and the swap
// rate's binomial variance. Small archives (400 games) keep it fast and the asymptotics
// honest.
func TestOverallCoverage(t *testing.T) {
	archives := 200
	if testing.Short() {
		archives = 40
	}
	for _, c := range []struct {
		kept, swapped, swapRate float64 // Elo, Elo, probability
	}{
		{60, -25, 0.6},
		{120, -80, 0.3},
		{0, 0, 0.5},
	} {
		truth := (1-c.swapRate)*sigmoid(c.kept/EloPerLogit) + c.swapRate*sigmoid(c.swapped/EloPerLogit)
		covered := 0
		for seed := range archives {
			rng := rand.New(rand.NewPCG(uint64(seed), 77))
			const players = 20
			ratings := make([]float64, players)
			for i := range ratings {
				ratings[i] = rng.NormFloat64() * 150
			}
			var games []RatedGame
			for range 400 {
				o, r := rng.IntN(players), rng.IntN(players-1)
				if r >= o {
					r++
				}
				sw := rng.Float64() < c.swapRate
				adv := c.kept
				if sw {
					adv = c.swapped
				}
				score := 0.0
				if rng.Float64() < sigmoid((ratings[o]-ratings[r]+adv)/EloPerLogit) {
					score = 1
				}
				games = append(games, RatedGame{Opener: o, Responder: r, Swapped: sw, Score: score})
			}
			fit, err := FitRatings(players, games, 0)
			if err != nil {
				t.Fatal(err)
			}
			o := fit.Overall()
			if o.Lo > o.Value || o.Value > o.Hi || o.N != 400 {
				t.Fatalf("overall %+v", o)
			}
			if o.Lo <= truth && truth <= o.Hi {
				covered++
			}
		}
		rate := float64(covered) / float64(archives)
		t.Logf("kept %+g Elo, swapped %+g Elo, %.0f%% swapped: overall %.3f covered in %.1f%% of %d archives", c.kept, c.swapped, 100*c.swapRate, truth, 100*rate, archives)
		if !testing.Short() && (rate < 0.90 || rate > 0.98) {
			t.Errorf("coverage %.3f, want 0.90–0.98", rate)
		}
	}
}

// Overall reduces to a branch's own interval when the other branch is never taken, and
// its covariance is symmetric and positive.
func TestOverallOneBranch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	_, games := plantedArchive(rng, 10, 500, [2]float64{50, 0})
	for i := range games {
		games[i].Swapped = false
	}
	fit, err := FitRatings(10, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	o, k := fit.Overall(), fit.Advantage[Kept]
	if math.Abs(o.Value-k.Score) > 1e-12 || math.Abs(o.Lo-k.ScoreLo) > 1e-9 || math.Abs(o.Hi-k.ScoreHi) > 1e-9 {
		t.Errorf("overall %+v, kept branch %+v", o, k)
	}
	c := fit.AdvantageCov
	if c[0][1] != c[1][0] || c[0][0] <= 0 || c[1][1] <= 0 || c[0][0]*c[1][1] <= c[0][1]*c[0][1] {
		t.Errorf("covariance %v", c)
	}
}

// TestRatingsGroups: two groups of players who never meet (the sample data's random bot
// on 12×12 plays only itself; two clubs). Each group's ratings are centred on their own
// mean, and a group that is poorly known does not widen the other's intervals: the main
// group's standard errors are those of a fit of its games alone.
func TestRatingsGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	planted := []float64{-200, 0, 200, 50, 100} // players 0–2 meet; 3 and 4 meet each other only
	var games, main []RatedGame
	play := func(o, r, n int) {
		for range n {
			s := 0.0
			if rng.Float64() < sigmoid((planted[o]-planted[r])/EloPerLogit) {
				s = 1
			}
			g := RatedGame{Opener: o, Responder: r, Score: s}
			games = append(games, g)
			if o < 3 {
				main = append(main, g)
			}
		}
	}
	for _, p := range [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 1}, {0, 2}, {2, 0}} {
		play(p[0], p[1], 300)
	}
	play(3, 4, 3)
	play(4, 3, 3)
	fit, err := FitRatings(5, games, 0)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := FitRatings(3, main, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Groups != 2 || fmt.Sprint(fit.Group) != "[0 0 0 1 1]" {
		t.Fatalf("groups %d %v, want 2 [0 0 0 1 1]", fit.Groups, fit.Group)
	}
	for _, members := range [][]int{{0, 1, 2}, {3, 4}} {
		sum := 0.0
		for _, i := range members {
			sum += fit.Rating[i]
		}
		if math.Abs(sum) > 1e-6 {
			t.Errorf("group %v: ratings %v sum to %g, want 0", members, fit.Rating, sum)
		}
	}
	for i := range 3 {
		if d := fit.RatingSE[i] / alone.RatingSE[i]; d < 0.95 || d > 1.05 {
			t.Errorf("player %d: standard error %.1f with the other group, %.1f without", i, fit.RatingSE[i], alone.RatingSE[i])
		}
	}
	if fit.RatingSE[3] < 3*fit.RatingSE[0] {
		t.Errorf("a group of 6 games rated as precisely as one of 1800: %v", fit.RatingSE)
	}
}
