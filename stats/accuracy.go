package stats

import (
	"math"
	"sort"
)

// TurnLoss is one turn read by the engine (ponte annotate): who played it, in which game,
// what it lost of the mover's chance of winning and its mark.
type TurnLoss struct {
	Game   int64
	Player string
	Bot    string // the engine that read it: "sage-100"
	Loss   float64
	Mark   string // "", "inaccuracy", "mistake" or "blunder"
}

// Accuracy is a player's (or a game's side's) accuracy: the mean loss per turn with its
// 95% interval and number of turns, and the turns marked.
type Accuracy struct {
	Player       string  `json:"player"`
	Bot          string  `json:"bot"`
	Games        int     `json:"games"`
	Turns        int     `json:"turns"`
	MeanLoss     float64 `json:"mean_loss"`
	Lo           float64 `json:"mean_loss_lo"`
	Hi           float64 `json:"mean_loss_hi"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// Accuracies returns the accuracy of every player in rows, per engine, the most turns
// first. The interval treats each game's mean loss as one observation (the turns of a
// game are not independent): the mean over turns ± 1.96 standard errors of the games'
// means, weighted by their turns; with a single game it is the turns' interval.
func Accuracies(rows []TurnLoss) []Accuracy {
	type key struct{ player, bot string }
	type acc struct {
		a     Accuracy
		sq    float64              // the losses' squares, summed
		games map[int64][2]float64 // per game: turns, summed loss
	}
	by := map[key]*acc{}
	for _, r := range rows {
		k := key{r.Player, r.Bot}
		a := by[k]
		if a == nil {
			a = &acc{a: Accuracy{Player: r.Player, Bot: r.Bot}, games: map[int64][2]float64{}}
			by[k] = a
		}
		a.a.Turns++
		a.a.MeanLoss += r.Loss
		a.sq += r.Loss * r.Loss
		g := a.games[r.Game]
		a.games[r.Game] = [2]float64{g[0] + 1, g[1] + r.Loss}
		switch r.Mark {
		case "inaccuracy":
			a.a.Inaccuracies++
		case "mistake":
			a.a.Mistakes++
		case "blunder":
			a.a.Blunders++
		}
	}
	out := make([]Accuracy, 0, len(by))
	for _, a := range by {
		n := float64(a.a.Turns)
		mean := a.a.MeanLoss / n
		a.a.MeanLoss, a.a.Games = mean, len(a.games)
		// The ratio estimator's variance over clusters (games).
		var ss float64
		for _, g := range a.games {
			d := g[1] - mean*g[0]
			ss += d * d
		}
		m := float64(len(a.games))
		se := 0.0
		switch {
		case m > 1:
			se = math.Sqrt(m/(m-1)*ss) / n
		case n > 1:
			se = math.Sqrt(math.Max(0, a.sq/n-mean*mean)*n/(n-1)) / math.Sqrt(n)
		}
		a.a.Lo, a.a.Hi = math.Max(0, mean-1.96*se), mean+1.96*se
		out = append(out, a.a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Turns != out[j].Turns {
			return out[i].Turns > out[j].Turns
		}
		if out[i].Player != out[j].Player {
			return out[i].Player < out[j].Player
		}
		return out[i].Bot < out[j].Bot
	})
	return out
}
