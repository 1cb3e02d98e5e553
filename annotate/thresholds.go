package annotate

import "fmt"

// Thresholds are the losses at which a turn is marked: inaccuracy, mistake and blunder.
type Thresholds struct {
	Inaccuracy, Mistake, Blunder float64
}

// The rule that sets the thresholds from a truth set's readings (FitThresholds).
const (
	// MaxFalseAlarms is the share of turns measured to lose at most FalseAlarmLoss that
	// may get any mark: the inaccuracy's threshold is the lowest that keeps to it.
	MaxFalseAlarms = 0.05
	// MistakeMean and BlunderMean are the mean measured losses of the turns a threshold
	// marks: the mistake's threshold is the lowest above which the turns lost MistakeMean
	// on average, the blunder's the lowest above which they lost BlunderMean.
	MistakeMean = 0.40
	BlunderMean = 0.60
	// MinMarked is the fewest turns a mean is judged on.
	MinMarked = 10
	// thresholdStep is the grid the thresholds are chosen on: a point of chance.
	thresholdStep = 0.01
)

// FitThresholds sets the thresholds from readings of a truth set, by the rule of
// MaxFalseAlarms, MistakeMean and BlunderMean (docs/annotate.md, "The marks'
// thresholds"); a threshold no turn reaches is above every predicted loss.
func FitThresholds(rs []TruthReading) (Thresholds, error) {
	quiet := 0
	for _, r := range rs {
		if r.Loss <= FalseAlarmLoss {
			quiet++
		}
	}
	if quiet == 0 || len(rs) < MinMarked {
		return Thresholds{}, fmt.Errorf("%d readings, %d of turns measured to lose at most %.0f points: too few to set thresholds", len(rs), quiet, 100*FalseAlarmLoss)
	}
	// at is what a threshold t marks: how many turns, their mean measured loss, and how
	// many of them were quiet.
	at := func(t float64) (marked int, mean float64, alarms int) {
		for _, r := range rs {
			if r.Predicted < t-1e-9 {
				continue
			}
			marked++
			mean += r.Loss
			if r.Loss <= FalseAlarmLoss {
				alarms++
			}
		}
		if marked > 0 {
			mean /= float64(marked)
		}
		return
	}
	step := func(i int) float64 { return float64(i) * thresholdStep }
	i := 1
	for ; ; i++ {
		marked, _, alarms := at(step(i))
		if marked == 0 || float64(alarms) <= MaxFalseAlarms*float64(quiet) {
			break
		}
	}
	lowest := func(from int, want float64) int {
		for j := from; ; j++ {
			marked, mean, _ := at(step(j))
			if marked == 0 || (marked >= MinMarked && mean >= want) {
				return j
			}
		}
	}
	j := lowest(i, MistakeMean)
	k := lowest(j, BlunderMean)
	return Thresholds{Inaccuracy: step(i), Mistake: step(j), Blunder: step(k)}, nil
}

// Mark is the mark of a turn that loses loss.
func (th Thresholds) Mark(loss float64) Mark {
	switch {
	case loss >= th.Blunder:
		return Blunder
	case loss >= th.Mistake:
		return Mistake
	case loss >= th.Inaccuracy:
		return Inaccuracy
	}
	return Good
}

// String writes the thresholds in points: "21/25/40 points".
func (th Thresholds) String() string {
	return fmt.Sprintf("%.0f/%.0f/%.0f points", 100*th.Inaccuracy, 100*th.Mistake, 100*th.Blunder)
}
