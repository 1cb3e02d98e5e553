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
	sorted := append([]TurnLoss(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Game < sorted[j].Game })
	var t AccuracyTally
	for _, r := range sorted {
		t.Add(r)
	}
	return t.Accuracies()
}

// AccuracyTally is Accuracies of turns told one at a time, as they stream from the
// database (store.Reader.EachEval): it holds a few sums per player and engine, not the
// turns, so its memory does not grow with them. The turns of a game must come together
// (EachEval's order, by game); the zero value is ready.
type AccuracyTally struct {
	by map[accuracyKey]*accuracySums
}

type accuracyKey struct{ player, bot string }

// accuracySums are a player's sums: over turns, and over games (clusters) the sums the
// ratio estimator's variance needs, Σ S², Σ S·n and Σ n² of each game's summed loss S and
// turns n; the game being told is open.
type accuracySums struct {
	a          Accuracy
	sum, sq    float64
	ss, sn, nn float64
	game       int64
	n, s       float64 // the open game's turns and summed loss
	open       bool
}

func (a *accuracySums) close() {
	if a.open {
		a.ss += a.s * a.s
		a.sn += a.s * a.n
		a.nn += a.n * a.n
		a.a.Games++
		a.open, a.n, a.s = false, 0, 0
	}
}

// Add tells the tally one turn.
func (t *AccuracyTally) Add(r TurnLoss) {
	if t.by == nil {
		t.by = map[accuracyKey]*accuracySums{}
	}
	k := accuracyKey{r.Player, r.Bot}
	a := t.by[k]
	if a == nil {
		a = &accuracySums{a: Accuracy{Player: r.Player, Bot: r.Bot}}
		t.by[k] = a
	}
	if a.open && a.game != r.Game {
		a.close()
	}
	a.game, a.open = r.Game, true
	a.n++
	a.s += r.Loss
	a.a.Turns++
	a.sum += r.Loss
	a.sq += r.Loss * r.Loss
	switch r.Mark {
	case "inaccuracy":
		a.a.Inaccuracies++
	case "mistake":
		a.a.Mistakes++
	case "blunder":
		a.a.Blunders++
	}
}

// Accuracies returns the accuracy of every player told, per engine, the most turns first
// (Accuracies).
func (t *AccuracyTally) Accuracies() []Accuracy {
	out := make([]Accuracy, 0, len(t.by))
	for _, a := range t.by {
		a.close()
		acc := a.a
		n := float64(acc.Turns)
		mean := a.sum / n
		acc.MeanLoss = mean
		// The ratio estimator's variance over clusters (games): Σ (S − mean·n)².
		ss := max(0, a.ss-2*mean*a.sn+mean*mean*a.nn)
		m := float64(acc.Games)
		se := 0.0
		switch {
		case m > 1:
			se = math.Sqrt(m/(m-1)*ss) / n
		case n > 1:
			se = math.Sqrt(math.Max(0, a.sq/n-mean*mean)*n/(n-1)) / math.Sqrt(n)
		}
		acc.Lo, acc.Hi = math.Max(0, mean-1.96*se), mean+1.96*se
		out = append(out, acc)
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
