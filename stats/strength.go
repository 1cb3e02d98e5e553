package stats

import (
	"cmp"
	"fmt"
	"slices"
)

// Strength is the pie rule's balance with the players' strength taken out: the rating
// model (FitRatings) fitted to the decided games of one board size and population that
// reached turn 2, players by name (the same name on two sites is one player). Where
// strength and the opener's advantage cannot be told apart (two players who always meet
// in the same roles) the ratings' prior decides between them, and the intervals are as
// wide as that leaves them.
type Strength struct {
	Games int `json:"games"` // games fitted
	// Unnamed counts the decided games that reached turn 2 but were left out of the fit: a
	// player without a name, or an opener who is neither Light nor Dark.
	Unnamed int `json:"unnamed"`
	Players int `json:"players"`
	// SelfGames counts the fitted games of a player against itself (a bot against itself
	// in self-play): they inform the advantage of their branch only.
	SelfGames int `json:"self_games"`
	// Kept and Swapped are the opener's advantage in each branch, in Elo and as the
	// opener's expected score against an equal player, with 95% intervals.
	Kept    Advantage `json:"kept"`
	Swapped Advantage `json:"swapped"`
	// AdvantageCov is the covariance of the two advantages, in logits² (kept, swapped).
	AdvantageCov [2][2]float64 `json:"advantage_cov"`
	// SwapRate is how often the second player swapped in the fitted games: the weight of
	// the swapped branch in Overall.
	SwapRate Rate `json:"swap_rate"`
	// Overall is the strength-adjusted opener's expected score between equal players:
	// (1−w)·σ(α_kept) + w·σ(α_swapped), with its 95% interval (RatingFit.Overall).
	Overall ExpectedScore `json:"overall"`
	// Groups counts the groups of players linked by chains of games (PlayerRating.Group).
	Groups int `json:"groups"`
	// Ratings are the players' ratings: the largest group first, best first within a group.
	Ratings []PlayerRating `json:"ratings"`
}

// PlayerRating is one player's fitted rating: Elo, the players' mean 0, with its standard
// error and 95% interval (rating ± 1.96·SE).
type PlayerRating struct {
	Player string  `json:"player"`
	Games  int     `json:"games"`
	Rating float64 `json:"rating"`
	SE     float64 `json:"se"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	// Group is 0 for the players linked by chains of games to the largest group; a
	// player of another group never met it, and its rating compares only within its own
	// group, centred on that group's mean (RatingFit.Group).
	Group int `json:"group"`
	// Alone is true for a player who met no one but itself: it has no rating to compare
	// (Rating, SE, Lo and Hi are 0).
	Alone bool `json:"alone"`
}

// MinRatedGames is the fewest fitted games for which the rating model is fitted: below
// it the prior, not the games, would set the opener's advantage, and the card rests on
// the raw score.
const MinRatedGames = 10

// ratingTally gathers the games of one board and population for the rating model.
type ratingTally struct {
	players map[string]int
	names   []string
	games   []RatedGame
	unnamed int
	self    int
}

// merge adds the games of u, which come after t's: its players are numbered on from t's,
// in the order they first appear, as one tally of all the games would number them.
func (t *ratingTally) merge(u *ratingTally) {
	t.unnamed += u.unnamed
	t.self += u.self
	index := make([]int, len(u.names))
	for i, name := range u.names {
		index[i] = t.index(name)
	}
	for _, g := range u.games {
		g.Opener, g.Responder = index[g.Opener], index[g.Responder]
		t.games = append(t.games, g)
	}
}

// add counts a decided game that reached turn 2 whose opener scored score. The responder
// is the other of Light and Dark: Light when the second player swapped (the opener then
// ended as Dark), else Dark.
func (t *ratingTally) add(g *gameRow, score float64) {
	opener, responder, opposite := g.Opener, g.Dark, g.Light
	if g.Swapped {
		responder, opposite = g.Light, g.Dark
	}
	if opener == "" || responder == "" || opposite != opener {
		t.unnamed++
		return
	}
	o, r := t.index(opener), t.index(responder)
	if o == r {
		t.self++
	}
	t.games = append(t.games, RatedGame{Opener: o, Responder: r, Swapped: g.Swapped, Score: score})
}

func (t *ratingTally) index(name string) int {
	i, ok := t.players[name]
	if !ok {
		i = len(t.names)
		t.players[name] = i
		t.names = append(t.names, name)
	}
	return i
}

// fit fits the rating model; nil and why when there is nothing to fit or the fit fails.
func (t *ratingTally) fit() (*Strength, string) {
	t.players = nil // the indexes change below
	if len(t.games) == 0 {
		if t.unnamed > 0 {
			return nil, "no game names both players"
		}
		return nil, "no decided game reached turn 2"
	}
	if len(t.games) < MinRatedGames {
		return nil, fmt.Sprintf("too few games for the rating model: %d, it needs %d", len(t.games), MinRatedGames)
	}
	// The players in the order of their names, the games sorted: the fit depends on the
	// games alone, not on the order they were stored in, to the last bit.
	order := make([]int, len(t.names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(t.names[a], t.names[b]) })
	rank := make([]int, len(order))
	names := make([]string, len(order))
	for r, i := range order {
		rank[i], names[r] = r, t.names[i]
	}
	t.names = names
	for i := range t.games {
		g := &t.games[i]
		g.Opener, g.Responder = rank[g.Opener], rank[g.Responder]
	}
	slices.SortFunc(t.games, func(a, b RatedGame) int {
		if c := cmp.Compare(a.Opener, b.Opener); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Responder, b.Responder); c != 0 {
			return c
		}
		if c := cmp.Compare(boolInt(a.Swapped), boolInt(b.Swapped)); c != 0 {
			return c
		}
		return cmp.Compare(a.Score, b.Score)
	})
	f, err := FitRatings(len(t.names), t.games, 0)
	if err != nil {
		return nil, err.Error()
	}
	s := &Strength{Games: f.Games, Unnamed: t.unnamed, Players: len(t.names), SelfGames: t.self,
		Kept: f.Advantage[Kept], Swapped: f.Advantage[Swapped], AdvantageCov: f.AdvantageCov,
		SwapRate: NewRate(float64(f.Advantage[Swapped].Games), f.Games), Overall: f.Overall(), Groups: f.Groups}
	groupSize := make([]int, f.Groups)
	for _, g := range f.Group {
		groupSize[g]++
	}
	for i, name := range t.names {
		r, se := f.Rating[i], f.RatingSE[i]
		s.Ratings = append(s.Ratings, PlayerRating{Player: name, Games: f.PlayerGames[i], Rating: r, SE: se, Lo: r - z*se, Hi: r + z*se, Group: f.Group[i], Alone: groupSize[f.Group[i]] == 1})
	}
	slices.SortStableFunc(s.Ratings, func(a, b PlayerRating) int {
		if c := cmp.Compare(a.Group, b.Group); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
	return s, ""
}
