package annotate

// Mark judges a turn by its loss.
type Mark int8

const (
	// Good is a turn that loses less than InaccuracyLoss.
	Good Mark = iota
	// Inaccuracy loses at least InaccuracyLoss of the mover's chance.
	Inaccuracy
	// Mistake loses at least MistakeLoss.
	Mistake
	// Blunder loses at least BlunderLoss.
	Blunder
)

// The thresholds of the marks on a turn's loss, the drop in the mover's chance of winning:
// those FitThresholds sets from DefaultEngine's reading of the truth set's 8×8 positions
// (docs/annotate.md, "The marks' thresholds"; TestThresholdsOfTruthSet).
const (
	InaccuracyLoss = 0.23
	MistakeLoss    = 0.28
	BlunderLoss    = 0.44
)

// PlayThresholds are the marks' thresholds of a reading by play (play-N), set by the same
// rule from play-64's reading of the truth set's 8×8 positions (docs/annotate.md, "A
// reading by play in ponte annotate"; TestPlayThresholds).
var PlayThresholds = Thresholds{Inaccuracy: 0.15, Mistake: 0.20, Blunder: 0.39}

// DefaultThresholds are the marks' thresholds as a value.
var DefaultThresholds = Thresholds{Inaccuracy: InaccuracyLoss, Mistake: MistakeLoss, Blunder: BlunderLoss}

// MarkOf returns the mark of a turn that loses loss.
func MarkOf(loss float64) Mark { return DefaultThresholds.Mark(loss) }

// ThresholdsOf are the marks' thresholds of the engine called engine: PlayThresholds for a
// reading by play, DefaultThresholds for a search.
func ThresholdsOf(engine string) Thresholds { return CalibrationOf(engine).marks() }

// marks are c's thresholds.
func (c Calibration) marks() Thresholds {
	if c.Thresholds == (Thresholds{}) {
		return DefaultThresholds
	}
	return c.Thresholds
}

// String returns the mark's name: "", "inaccuracy", "mistake" or "blunder".
func (m Mark) String() string {
	switch m {
	case Inaccuracy:
		return "inaccuracy"
	case Mistake:
		return "mistake"
	case Blunder:
		return "blunder"
	}
	return ""
}

// Symbol is the mark as chess writes it: "?!", "?" or "??"; "" for a good turn.
func (m Mark) Symbol() string {
	switch m {
	case Inaccuracy:
		return "?!"
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}
