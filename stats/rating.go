package stats

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ponte/ponte/internal/score"
)

// The rating model separates the first-move advantage from the players' strength: a
// Bradley–Terry (Elo) model with one rating per player and an opener term for each branch
// of the pie rule (Hunter, "MM algorithms for generalized Bradley–Terry models", 2004, with
// a home-field advantage; BayesElo's advantage parameter). For a game whose opener o meets
// the responder r in branch s (kept or swapped),
//
//	P(the opener wins) = 1 / (1 + exp(-(θ_o − θ_r + α_s)))
//
// A draw counts as half a win. The ratings θ have a weak normal prior centred on 0, so that
// a player with one game, or who never lost, stays finite; the advantages α have a flat
// one in effect (a normal prior of standard deviation 10 logits). The fit maximises the
// posterior; its intervals come from the observed information (the inverse Hessian at the
// optimum), the opener's through the Schur complement of the players' block.

// RatedGame is one decided game for the rating model: its players by index, the branch of
// the pie rule, and the opener's score (1 a win, ½ a draw, 0 a loss). Opener and Responder
// may be the same player (a bot against itself, as self-play archives hold): the ratings
// cancel, and such a game informs the advantage of its branch alone.
type RatedGame struct {
	Opener, Responder int
	Swapped           bool
	Score             float64
}

// Branches of the pie rule, the indexes of [RatingFit.Advantage].
const (
	Kept    = 0 // the second player did not swap: the opener plays Light throughout
	Swapped = 1 // the second player swapped: the opener's first move became the other's
)

// EloPerLogit converts the model's logit scale to Elo points: 400 / ln 10
// (score.EloPerLogit, the one Elo conversion's).
const EloPerLogit = score.EloPerLogit

// DefaultRatingPrior is the standard deviation of the ratings' prior, in Elo: weak (two in
// three players within ±350 Elo of the mean), enough to keep ratings finite.
const DefaultRatingPrior = 350.0

// Advantage is the opener's strength-adjusted advantage in one branch of the pie rule,
// with its 95% interval: in Elo points, and as the opener's expected score against a player
// of equal rating.
type Advantage struct {
	Games   int     `json:"games"`
	Elo     float64 `json:"elo"`
	EloLo   float64 `json:"elo_lo"`
	EloHi   float64 `json:"elo_hi"`
	Score   float64 `json:"score"`
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
}

// RatingFit is a fitted rating model.
type RatingFit struct {
	// Rating is each player's rating in Elo, centred so that the players' mean is 0;
	// RatingSE its standard error (exact from the inverse Hessian for up to
	// maxDense players, else from its diagonal: a little too narrow for players
	// who met few others).
	Rating, RatingSE []float64
	// PlayerGames counts each player's games.
	PlayerGames []int
	// Advantage is the opener's advantage when the second player kept ([Kept]) and when
	// they swapped ([Swapped]); Games 0 for a branch without games.
	Advantage [2]Advantage
	// Alpha is the two advantages in logits (Elo / EloPerLogit), and AdvantageCov their
	// covariance (logit²) from the observed information, the players' ratings integrated
	// out (the Schur complement). A branch without games keeps its prior: α 0, variance
	// about 100.
	Alpha        [2]float64
	AdvantageCov [2][2]float64
	// Games is the number of games fitted.
	Games int
	// Group is each player's group: players are in one group when a chain of games links
	// them. Ratings compare only within a group, so each group's ratings are centred on
	// its own mean. Group 0 is the largest (the lowest player index breaks ties); a player
	// who played only itself is a group alone. Groups counts them.
	Group  []int
	Groups int
}

// maxDense bounds the players for which the full inverse Hessian is computed
// (O(n³)); past it the players' block is solved by conjugate gradients.
var maxDense = 600

// FitRatings fits the rating model to the games of players players (indexes 0 … players-1)
// with a normal prior of standard deviation prior Elo on the ratings (0 means
// DefaultRatingPrior).
func FitRatings(players int, games []RatedGame, prior float64) (*RatingFit, error) {
	if players < 1 || len(games) == 0 {
		return nil, errors.New("rating model: no games")
	}
	if prior <= 0 {
		prior = DefaultRatingPrior
	}
	tau2 := math.Pow(prior/EloPerLogit, 2) // prior variance of a rating, logit²
	const alphaVar = 100.0                 // the advantages' prior variance: flat in effect
	fit := &RatingFit{PlayerGames: make([]int, players), Games: len(games)}
	for _, g := range games {
		if g.Opener < 0 || g.Opener >= players || g.Responder < 0 || g.Responder >= players {
			return nil, fmt.Errorf("rating model: a game between players %d and %d of %d", g.Opener, g.Responder, players)
		}
		if g.Score < 0 || g.Score > 1 || math.IsNaN(g.Score) {
			return nil, fmt.Errorf("rating model: an opener's score of %v", g.Score)
		}
		fit.PlayerGames[g.Opener]++
		if g.Responder != g.Opener {
			fit.PlayerGames[g.Responder]++
		}
		fit.Advantage[branch(g)].Games++
	}
	fit.Group, fit.Groups = playerGroups(players, games)
	groupMembers := make([][]int, fit.Groups)
	for i, g := range fit.Group {
		groupMembers[g] = append(groupMembers[g], i)
	}
	n := players + 2 // θ_0 … θ_{n-3}, α_kept, α_swapped
	alpha := func(g RatedGame) int { return players + branch(g) }

	// The negative log posterior and its gradient, O(games) each.
	problem := optimize.Problem{
		Func: func(x []float64) float64 {
			f := 0.0
			for _, g := range games {
				eta := x[g.Opener] - x[g.Responder] + x[alpha(g)]
				// −[y log p + (1−y) log(1−p)] with p = σ(η), stably.
				f += softplus(eta) - g.Score*eta
			}
			for i := range players {
				f += x[i] * x[i] / (2 * tau2)
			}
			return f + (x[players]*x[players]+x[players+1]*x[players+1])/(2*alphaVar)
		},
		Grad: func(grad, x []float64) {
			for i := range grad {
				grad[i] = 0
			}
			for _, g := range games {
				r := sigmoid(x[g.Opener]-x[g.Responder]+x[alpha(g)]) - g.Score
				grad[g.Opener] += r
				grad[g.Responder] -= r
				grad[alpha(g)] += r
			}
			for i := range players {
				grad[i] += x[i] / tau2
			}
			grad[players] += x[players] / alphaVar
			grad[players+1] += x[players+1] / alphaVar
		},
	}
	// Newton's method with the exact Hessian for a few hundred players (the model is
	// convex: it converges in a handful of steps); past that, Newton's method with each
	// step solved by conjugate gradients on Hessian–vector products, O(games) each
	// (L-BFGS took 1.4 s on 100,000 games of 1,000 players, this 0.1 s).
	var x []float64
	if players > maxDense {
		x = newtonCG(players, games, tau2, alphaVar, problem)
	}
	var method optimize.Method = &optimize.LBFGS{}
	if players <= maxDense {
		problem.Hess = func(h *mat.SymDense, x []float64) {
			for i := range n {
				for j := i; j < n; j++ {
					h.SetSym(i, j, 0)
				}
			}
			add := func(i, j int, w float64) { h.SetSym(i, j, h.At(i, j)+w) }
			for _, g := range games {
				p := sigmoid(x[g.Opener] - x[g.Responder] + x[alpha(g)])
				w := p * (1 - p)
				o, r, a := g.Opener, g.Responder, alpha(g)
				add(a, a, w)
				if o == r {
					continue // the ratings cancel
				}
				add(o, o, w)
				add(r, r, w)
				add(o, r, -w)
				add(o, a, w)
				add(r, a, -w)
			}
			for i := range players {
				add(i, i, 1/tau2)
			}
			add(players, players, 1/alphaVar)
			add(players+1, players+1, 1/alphaVar)
		}
		method = &optimize.Newton{}
	}
	if x == nil || gradNorm(problem, x) > 1e-5*float64(len(games)+1) {
		settings := &optimize.Settings{GradientThreshold: 1e-8, MajorIterations: 10000}
		start := x
		if start == nil {
			start = make([]float64, n)
		}
		res, err := optimize.Minimize(problem, start, settings, method)
		if res == nil {
			return nil, fmt.Errorf("rating model: %w", err)
		}
		// A line search that stops this close to the optimum has found it, to far better
		// than the intervals' width.
		if gradNorm(problem, res.X) > 1e-5*float64(len(games)+1) {
			if err == nil {
				err = fmt.Errorf("status %v", res.Status)
			}
			return nil, fmt.Errorf("rating model: the fit did not converge: %w", err)
		}
		x = res.X
	}

	// The Hessian at the optimum: the players' block is a weighted graph Laplacian plus
	// the prior; w = p(1−p) per game.
	diag := make([]float64, players)
	for i := range diag {
		diag[i] = 1 / tau2
	}
	var haa [2]float64                // the advantages' diagonal
	hra := make([]float64, 2*players) // players × advantages, row-major
	for _, g := range games {
		p := sigmoid(x[g.Opener] - x[g.Responder] + x[alpha(g)])
		w := p * (1 - p)
		b := branch(g)
		haa[b] += w
		if g.Opener == g.Responder {
			continue
		}
		diag[g.Opener] += w
		diag[g.Responder] += w
		hra[2*g.Opener+b] += w
		hra[2*g.Responder+b] -= w
	}
	haa[0] += 1 / alphaVar
	haa[1] += 1 / alphaVar
	mulHrr := func(dst, v []float64) { // dst = H_rr v
		for i := range dst {
			dst[i] = diag[i] * v[i]
		}
		for _, g := range games {
			if g.Opener == g.Responder {
				continue
			}
			p := sigmoid(x[g.Opener] - x[g.Responder] + x[alpha(g)])
			w := p * (1 - p)
			dst[g.Opener] -= w * v[g.Responder]
			dst[g.Responder] -= w * v[g.Opener]
		}
	}

	// The advantages' covariance: (H_aa − H_ar H_rr⁻¹ H_ra)⁻¹; and the players' variances.
	hrInvHra := mat.NewDense(players, 2, nil) // H_rr⁻¹ H_ra
	ratingVar := make([]float64, players)
	if players <= maxDense {
		hrr := mat.NewSymDense(players, nil)
		for i := range players {
			hrr.SetSym(i, i, diag[i])
		}
		for _, g := range games {
			if g.Opener == g.Responder {
				continue
			}
			p := sigmoid(x[g.Opener] - x[g.Responder] + x[alpha(g)])
			w := p * (1 - p)
			hrr.SetSym(g.Opener, g.Responder, hrr.At(g.Opener, g.Responder)-w)
		}
		var chol mat.Cholesky
		if !chol.Factorize(hrr) {
			return nil, errors.New("rating model: the information matrix is not positive definite")
		}
		if err := chol.SolveTo(hrInvHra, mat.NewDense(players, 2, hra)); err != nil {
			return nil, fmt.Errorf("rating model: %w", err)
		}
		// The full covariance of the ratings, with the advantages' uncertainty.
		full := mat.NewSymDense(n, nil)
		for i := range players {
			for j := i; j < players; j++ {
				full.SetSym(i, j, hrr.At(i, j))
			}
			full.SetSym(i, players, hra[2*i])
			full.SetSym(i, players+1, hra[2*i+1])
		}
		full.SetSym(players, players, haa[0])
		full.SetSym(players+1, players+1, haa[1])
		var fc mat.Cholesky
		var cov mat.SymDense
		if !fc.Factorize(full) || fc.InverseTo(&cov) != nil {
			return nil, errors.New("rating model: the information matrix is not positive definite")
		}
		// The variance of each rating less its group's mean, the centred rating shown: the
		// level of a group's ratings together is set by the prior alone.
		for _, members := range groupMembers {
			k := float64(len(members))
			rowMean := make([]float64, len(members))
			all := 0.0
			for a, i := range members {
				for _, j := range members {
					rowMean[a] += cov.At(i, j)
				}
				all += rowMean[a]
				rowMean[a] /= k
			}
			all /= k * k
			for a, i := range members {
				ratingVar[i] = cov.At(i, i) - 2*rowMean[a] + all
			}
		}
	} else {
		col := make([]float64, players)
		for b := range 2 {
			for i := range players {
				col[i] = hra[2*i+b]
			}
			sol := conjugateGradient(mulHrr, diag, col)
			for i := range players {
				hrInvHra.Set(i, b, sol[i])
			}
		}
		for i := range players {
			ratingVar[i] = 1 / diag[i]
		}
	}
	var schur [2][2]float64
	for a := range 2 {
		for b := range 2 {
			s := 0.0
			for i := range players {
				s += hra[2*i+a] * hrInvHra.At(i, b)
			}
			schur[a][b] = -s
		}
	}
	schur[0][0] += haa[0]
	schur[1][1] += haa[1]
	det := schur[0][0]*schur[1][1] - schur[0][1]*schur[1][0]
	if det <= 0 {
		return nil, errors.New("rating model: the advantages cannot be told apart from the ratings")
	}
	alphaVarHat := [2]float64{schur[1][1] / det, schur[0][0] / det}
	fit.Alpha = [2]float64{x[players], x[players+1]}
	fit.AdvantageCov = [2][2]float64{{schur[1][1] / det, -schur[0][1] / det}, {-schur[1][0] / det, schur[0][0] / det}}

	z := distuv.UnitNormal.Quantile(0.975)
	for b := range 2 {
		a := &fit.Advantage[b]
		if a.Games == 0 {
			continue
		}
		est, se := x[players+b], math.Sqrt(alphaVarHat[b])
		a.Elo, a.EloLo, a.EloHi = est*EloPerLogit, (est-z*se)*EloPerLogit, (est+z*se)*EloPerLogit
		a.Score, a.ScoreLo, a.ScoreHi = sigmoid(est), sigmoid(est-z*se), sigmoid(est+z*se)
	}
	fit.Rating, fit.RatingSE = make([]float64, players), make([]float64, players)
	for _, members := range groupMembers {
		mean := 0.0
		for _, i := range members {
			mean += x[i]
		}
		mean /= float64(len(members))
		for _, i := range members {
			fit.Rating[i] = (x[i] - mean) * EloPerLogit
			fit.RatingSE[i] = math.Sqrt(max(ratingVar[i], 0)) * EloPerLogit
		}
	}
	return fit, nil
}

// newtonCG minimises the rating model's negative log posterior (problem) by Newton's
// method, each step H d = −g solved by preconditioned conjugate gradients on
// Hessian–vector products (a pass over the games each), with a backtracking line search.
// It returns its last point; FitRatings checks the gradient there and falls back on
// L-BFGS from it should it not have converged.
func newtonCG(players int, games []RatedGame, tau2, alphaVar float64, problem optimize.Problem) []float64 {
	n := players + 2
	x := make([]float64, n)
	grad, w, diag, d, trial := make([]float64, n), make([]float64, len(games)), make([]float64, n), make([]float64, n), make([]float64, n)
	alpha := func(g RatedGame) int { return players + branch(g) }
	mul := func(dst, v []float64) { // dst = H v
		for i := range players {
			dst[i] = v[i] / tau2
		}
		dst[players], dst[players+1] = v[players]/alphaVar, v[players+1]/alphaVar
		for j, g := range games {
			a := alpha(g)
			if g.Opener == g.Responder {
				dst[a] += w[j] * v[a]
				continue
			}
			u := w[j] * (v[g.Opener] - v[g.Responder] + v[a])
			dst[g.Opener] += u
			dst[g.Responder] -= u
			dst[a] += u
		}
	}
	f := problem.Func(x)
	tol := 1e-8 * float64(len(games)+1)
	for range 100 {
		problem.Grad(grad, x)
		norm := 0.0
		for _, v := range grad {
			norm += v * v
		}
		norm = math.Sqrt(norm)
		if norm < tol {
			break
		}
		for i := range players {
			diag[i] = 1 / tau2
		}
		diag[players], diag[players+1] = 1/alphaVar, 1/alphaVar
		for j, g := range games {
			p := sigmoid(x[g.Opener] - x[g.Responder] + x[alpha(g)])
			w[j] = p * (1 - p)
			diag[alpha(g)] += w[j]
			if g.Opener != g.Responder {
				diag[g.Opener] += w[j]
				diag[g.Responder] += w[j]
			}
		}
		for i := range grad {
			grad[i] = -grad[i]
		}
		copy(d, conjugateGradient(mul, diag, grad))
		// Backtracking: the full step almost always, near the optimum.
		step, slope := 1.0, 0.0
		for i := range d {
			slope -= grad[i] * d[i] // grad holds −g
		}
		for range 40 {
			for i := range x {
				trial[i] = x[i] + step*d[i]
			}
			if ft := problem.Func(trial); ft <= f+1e-4*step*slope {
				copy(x, trial)
				f = ft
				break
			}
			step /= 2
		}
		if step < 1e-9 {
			break
		}
	}
	return x
}

// gradNorm is the Euclidean norm of the problem's gradient at x.
func gradNorm(p optimize.Problem, x []float64) float64 {
	g := make([]float64, len(x))
	p.Grad(g, x)
	s := 0.0
	for _, v := range g {
		s += v * v
	}
	return math.Sqrt(s)
}

func branch(g RatedGame) int {
	if g.Swapped {
		return Swapped
	}
	return Kept
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus is log(1 + eˣ), without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// conjugateGradient solves A x = b for the symmetric positive definite A given by mul,
// preconditioned by its diagonal.
func conjugateGradient(mul func(dst, v []float64), diag, b []float64) []float64 {
	n := len(b)
	x, r, z, p, ap := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	copy(r, b)
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	for i := range z {
		z[i] = r[i] / diag[i]
	}
	copy(p, z)
	rz := dot(r, z)
	norm := math.Sqrt(dot(b, b))
	for it := 0; it < 10*n && math.Sqrt(dot(r, r)) > 1e-10*norm; it++ {
		mul(ap, p)
		step := rz / dot(p, ap)
		for i := range x {
			x[i] += step * p[i]
			r[i] -= step * ap[i]
		}
		for i := range z {
			z[i] = r[i] / diag[i]
		}
		next := dot(r, z)
		for i := range p {
			p[i] = z[i] + next/rz*p[i]
		}
		rz = next
	}
	return x
}

// ExpectedScore is an opener's expected score with its 95% interval and the games it rests
// on.
type ExpectedScore struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	N     int     `json:"n"`
}

// Overall is the strength-adjusted opener's expected score between players of equal
// rating over both branches of the pie rule, each weighted by how often it was taken in
// the fitted games: (1−w)·σ(α_kept) + w·σ(α_swapped), where w is the observed swap rate.
//
// Its 95% interval comes from the delta method on the logit scale, so that it stays inside
// 0 … 1 and equals a branch's own interval when the other branch is never taken. Its
// variance adds the advantages' (through their covariance, AdvantageCov) and the swap
// rate's binomial variance w(1−w)/n, taken as independent: the advantages are fitted
// given the branch, the swap rate is counted.
func (f *RatingFit) Overall() ExpectedScore {
	n := f.Games
	if n == 0 {
		return ExpectedScore{Hi: 1}
	}
	w := float64(f.Advantage[Swapped].Games) / float64(n)
	sk, ss := sigmoid(f.Alpha[Kept]), sigmoid(f.Alpha[Swapped])
	s := (1-w)*sk + w*ss
	g := [2]float64{(1 - w) * sk * (1 - sk), w * ss * (1 - ss)}
	c := f.AdvantageCov
	v := g[0]*g[0]*c[0][0] + 2*g[0]*g[1]*c[0][1] + g[1]*g[1]*c[1][1] + (ss-sk)*(ss-sk)*w*(1-w)/float64(n)
	d := s * (1 - s)
	if d <= 0 { // the score is 0 or 1 to the last bit: only an advantage of ±37 logits does that
		return ExpectedScore{Value: s, Lo: s, Hi: s, N: n}
	}
	l, half := math.Log(s/(1-s)), z*math.Sqrt(v)/d
	return ExpectedScore{Value: s, Lo: sigmoid(l - half), Hi: sigmoid(l + half), N: n}
}

// playerGroups returns each player's group, the players linked by chains of games
// (gonum's connected components), and the number of groups: group 0 the largest, then by
// size, ties by the lowest player index.
func playerGroups(players int, games []RatedGame) ([]int, int) {
	g := simple.NewUndirectedGraph()
	for i := range players {
		g.AddNode(simple.Node(i))
	}
	for _, m := range games {
		if m.Opener != m.Responder && !g.HasEdgeBetween(int64(m.Opener), int64(m.Responder)) {
			g.SetEdge(simple.Edge{F: simple.Node(m.Opener), T: simple.Node(m.Responder)})
		}
	}
	comps := topo.ConnectedComponents(g)
	lowest := func(c []graph.Node) int64 {
		low := c[0].ID()
		for _, n := range c {
			low = min(low, n.ID())
		}
		return low
	}
	slices.SortFunc(comps, func(a, b []graph.Node) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return cmp.Compare(lowest(a), lowest(b))
	})
	group := make([]int, players)
	for k, c := range comps {
		for _, n := range c {
			group[n.ID()] = k
		}
	}
	return group, len(comps)
}
