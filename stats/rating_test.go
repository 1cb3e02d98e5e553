package stats

import (
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
	if _, err := FitRatings(2, []RatedGame{{Opener: 0, Responder: 0, Score: 1}}, 0); err == nil {
		t.Error("a player against himself: no error")
	}
}
