package match

import (
	"fmt"
	"github.com/ponte/ponte/internal/score"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Pentanomial counts game pairs by A's points in the pair, in halves: index 0 two losses,
// 1 a loss and a draw, 2 a win and a loss or two draws, 3 a win and a draw, 4 two wins.
type Pentanomial [5]int

// Add counts a pair in which A scored points halves of a point (0 to 4).
func (p *Pentanomial) Add(halves int) { p[halves]++ }

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// String writes the counts from two losses to two wins: "3 10 40 37 10".
func (p Pentanomial) String() string {
	return fmt.Sprintf("%d %d %d %d %d", p[0], p[1], p[2], p[3], p[4])
}

// Score is A's mean score per game, 0 to 1 (NaN without pairs).
func (p Pentanomial) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return math.NaN()
	}
	s := 0
	for i, c := range p {
		s += i * c
	}
	return float64(s) / float64(4*n)
}

// Interval is an estimate with its 95% interval.
type Interval struct {
	Value, Lo, Hi float64
}

// ScoreInterval is A's mean score per game with its 95% interval, from the variance of the
// pairs' scores (the normal approximation, as fishtest's get_elo): a pair's two games are
// one draw of the pentanomial distribution, not two independent ones. The ends may pass 0
// or 1 when few pairs were played.
func (p Pentanomial) ScoreInterval() Interval {
	n := float64(p.Pairs())
	mu := p.Score()
	if n == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN()}
	}
	v := 0.0
	for i, c := range p {
		d := float64(i)/4 - mu
		v += float64(c) * d * d
	}
	se := math.Sqrt(v/n) / math.Sqrt(n) // of the mean of n pair scores
	z := distuv.UnitNormal.Quantile(0.975)
	return Interval{mu, mu - z*se, mu + z*se}
}

// Elo is the logistic Elo difference of A over B with its 95% interval: the score's
// interval mapped through [EloOfScore]. An end is ±Inf when the score's reaches 0 or 1
// (A won or lost every pair, or nearly).
func (p Pentanomial) Elo() Interval {
	s := p.ScoreInterval()
	return Interval{EloOfScore(s.Value), EloOfScore(s.Lo), EloOfScore(s.Hi)}
}

// EloOfScore is the Elo difference at which the stronger player's expected score is s:
// −400 log10(1/s − 1); ±Inf at 0 and 1 and past them.
func EloOfScore(s float64) float64 { return score.Elo(s) }

// ScoreOfElo is the expected score of a player stronger by elo: 1 / (1 + 10^(−elo/400)).
func ScoreOfElo(elo float64) float64 { return score.OfElo(elo) }
